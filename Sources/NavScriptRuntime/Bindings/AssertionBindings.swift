import NavScript
import NavigationCore

/// The expectations: each checks the app, and on a mismatch raises a
/// *failure* (not an error) carrying the scenario's `file:line`, expected
/// vs actual and a diff. The checks themselves live in ``Expectation``.
enum AssertionBindings {
    static var functions: [ScriptFunction] {
        [
            expect(
                "expect_stack", parameters: [ScriptParameter("entries", "navscript.StackEntry[]")],
                overloads: ["fun(tab: navscript.Tab, entries: navscript.StackEntry[])"],
                documentation: """
                    Expects a tab's stack, bottom to top, to be exactly `entries` (the selected tab by default; \
                    `expect_stack("settings", { "settings", "about" })` for another). Each entry is `"id"` (any \
                    parameters) or `"id:primary-param"`. The failure shows both stacks side by side. An unknown \
                    tab is an error.
                    """,
                example: "expect_stack{ \"catalog\", \"item:7\" }"
            ) { call, app, world in
                let tab: TabID
                let expected: [String]
                if case .string(let name) = call[1] {
                    tab = TabID(name.string)
                    try ObservingBindings.requireTab(tab, in: app, call: call)
                    expected = try BindingSupport.screenEntries(call, 2)
                } else {
                    tab = app.selectedTab
                    expected = try BindingSupport.screenEntries(call, 1)
                    if call.arguments.count > 1, !call[2].isNil {
                        throw call.argumentError(
                            2,
                            "expect_stack{ … } takes the list alone; another tab's stack is "
                                + "expect_stack(\"tab\", { … }), with the tab first")
                    }
                }
                var failure = Self.naming(
                    Expectation.stack(expected, actual: app.state.stack(tab).map(\.description), tab: tab.rawValue),
                    screens: expected, world)
                // The screens expected are a presented modal's (a sheet with its own stack): said, with the check that reads it.
                if failure != nil,
                    let modal = app.state.modals.first(where: { chain in
                        chain.count == expected.count && zip(expected, chain).allSatisfy { Expectation.entryMatches($0, $1.description) }
                    })
                {
                    let shown = Expectation.render(modal.map(\.description))
                    failure?.details +=
                        "\nto fix: \(shown) is a presented modal's stack, not the tab's: expect_stack checks the tab "
                        + "under it; check the modal with expect_modals\(shown) (or expect_snapshot{ modals = … })"
                }
                return failure
            },
            expect(
                "expect_screen", parameters: [ScriptParameter("id", "navscript.StackEntry")], overloads: [],
                documentation: """
                    Expects the top visible screen to be `id` (`"id"` or `"id:primary-param"`).
                    """,
                example: "expect_screen(\"item:7\")"
            ) { call, app, world in
                let expected = try BindingSupport.screenEntry(call, 1)
                return Self.naming(
                    Expectation.equal("the screen", expected: expected, actual: app.state.visible?.description),
                    screens: [expected], world)
            },
            expect(
                "expect_tab", parameters: [ScriptParameter("name", "navscript.Tab")], overloads: [],
                documentation: """
                    Expects `name` to be the selected tab.
                    """,
                example: "expect_tab(\"catalog\")"
            ) { call, app, _ in
                let expected = try call.string(1)
                let failure = Expectation.equal("the selected tab", expected: expected, actual: app.selectedTab.rawValue)
                if failure != nil { try ObservingBindings.requireTab(TabID(expected), in: app, call: call) }  // a tab the app has?
                return failure
            },
            expect(
                "expect_modal", parameters: [ScriptParameter("id", "navscript.StackEntry")], overloads: [],
                documentation: """
                    Expects the topmost presented modal to contain screen `id` (`"id"` or `"id:primary-param"`) \
                    anywhere in its stack — `expect_modal("login")` passes while a second step is pushed on it. \
                    Fails when no modal is shown.
                    """,
                example: "expect_modal(\"login\")"
            ) { call, app, world in
                let expected = try BindingSupport.screenEntry(call, 1)
                let top = app.state.modals.last ?? []
                guard top.contains(where: { Expectation.entryMatches(expected, $0.description) }) else {
                    let shown = app.state.modals.map { Expectation.render($0.map(\.description)) }
                    return Self.naming(
                        ExpectationFailure(
                            top.isEmpty
                                ? "no modal is presented, expected '\(expected)'"
                                : "the top modal shows \(Expectation.render(top.map(\.description))), expected '\(expected)'",
                            details: shown.isEmpty ? "" : "modal chain, outermost first: " + shown.joined(separator: " | ")),
                        screens: [expected], world)
                }
                return nil
            },
            expect(
                "expect_no_modal", parameters: [], overloads: [],
                documentation: """
                    Expects no modal to be presented; the failure lists the modal chain.
                    """,
                example: "expect_no_modal()"
            ) { _, app, _ in
                guard app.state.modals.isEmpty else {
                    return ExpectationFailure(
                        "a modal is presented: "
                            + app.state.modals.map { Expectation.render($0.map(\.description)) }.joined(separator: " | "))
                }
                return nil
            },
            expect(
                "expect_modals", parameters: [ScriptParameter("ids", "navscript.StackEntry[]")], overloads: [],
                documentation: """
                    Expects exactly these modal screens, outermost modal first (each modal's own stack bottom to \
                    top, as `modals()` lists them); `expect_modals{}` expects none. Entries are `"id"` or \
                    `"id:primary-param"`.
                    """,
                example: "expect_modals{ \"settings\", \"privacy\" }"
            ) { call, app, _ in
                Expectation.modals(try BindingSupport.screenEntries(call, 1), actual: app.state.modals.map { $0.map(\.description) })
            },
            expect(
                "expect_snapshot", parameters: [ScriptParameter("parts", "navscript.SnapshotExpectation")], overloads: [],
                documentation: """
                    Expects the navigation state to match every part given — `root`, `tab`, `stacks` (per tab) \
                    and `modals` (as `expect_modals`, or one list per modal as `snapshot()` gives them, so \
                    `expect_snapshot(before)` compares a state saved earlier); parts left out are not \
                    compared, and at least one must be given. The failure lists each part that differs.
                    """,
                example: "expect_snapshot{ tab = \"orders\", stacks = { orders = { \"orders\", \"order:7\" } }, modals = {} }"
            ) { call, app, _ in
                let parts = try call.table(1)
                guard !parts.isEmpty else {
                    throw call.argumentError(1, "an empty snapshot compares nothing: give root, tab, stacks or modals")
                }
                func entries(_ list: LuaTable, _ what: String) throws -> [String] {
                    try list.array.map { value in
                        guard let entry = value.stringValue else {
                            throw call.argumentError(1, "\(what) must list screens as strings, got a \(value.typeName)")
                        }
                        if let problem = BindingSupport.screenProblem(entry) { throw call.argumentError(1, "\(what): \(problem)") }
                        return entry
                    }
                }
                var expected: [String: [String]] = [:]
                if let root = parts["root"].stringValue { expected["root"] = [root] }
                if let tab = parts["tab"].stringValue { expected["tab"] = [tab] }
                if case .table(let stacks) = parts["stacks"] {
                    guard !stacks.isEmpty else {
                        throw call.argumentError(
                            1,
                            "stacks = {} compares no stack: map each tab to compare to its screens "
                                + "(stacks = { home = { \"home\" } }), or leave stacks out")
                    }
                    for (key, value) in stacks.pairs {
                        guard let tab = key.stringValue, case .table(let list) = value else {
                            throw call.argumentError(1, "stacks must map tab names to lists of screens")
                        }
                        try ObservingBindings.requireTab(TabID(tab), in: app, call: call)
                        expected["stacks." + tab] = try entries(list, "stacks." + tab)
                    }
                }
                let state = app.state
                var actual: [String: [String]] = [
                    "root": [app.rootFlow], "tab": [state.selectedTab.rawValue],
                    "modals": state.modals.flatMap { $0.map(\.description) }
                ]
                if case .table(let modals) = parts["modals"] {
                    if modals.array.contains(where: { $0.tableValue != nil }) {
                        // One list per modal, as snapshot() returns them: compared modal by modal.
                        var chain: [String] = []
                        for (index, modal) in modals.array.enumerated() {
                            guard case .table(let list) = modal else {
                                throw call.argumentError(1, "modals must be all screens or all lists of screens (one per modal)")
                            }
                            // A modal shows at least one screen: `{ {} }` read as no modal at all and passed.
                            guard !list.array.isEmpty || !list.hash.isEmpty else {
                                throw call.argumentError(
                                    1, "modals[\(index + 1)] is empty: a modal shows at least one screen (no modal: modals = {})")
                            }
                            if index > 0 { chain.append("|") }
                            chain += try entries(list, "modals[\(index + 1)]")
                        }
                        expected["modals"] = chain
                        actual["modals"] = Array(state.modals.map { $0.map(\.description) }.joined(separator: ["|"]))
                    } else {
                        expected["modals"] = try entries(modals, "modals")
                    }
                }
                for tab in state.tabs { actual["stacks." + tab.rawValue] = state.stack(tab).map(\.description) }
                return Expectation.snapshot(expected, actual: actual)
            },
            expect(
                "expect_events_since", parameters: [ScriptParameter("mark", "integer"), ScriptParameter("items", "string[]")],
                overloads: [],
                documentation: """
                    Like `expect_events`, but only among the events after `mark` (from `mark()`): anchors an \
                    item such as a `release` to what happened since.
                    """,
                example: "local m = mark()\nback()\nexpect_events_since(m, { \"release item:7\" })"
            ) { call, app, world in
                try Self.requireOneLog("expect_events_since", world)
                let mark = try Self.mark(call, 1, eventCount: app.eventCount, world: world, required: true) ?? 0
                let since = app.events(since: mark)
                call.state.charge(work: since.texts.count)  // a scan of the log: counted like Lua's own searches
                let failure = Expectation.events(
                    try Self.eventItems(call, 2), actual: Array(since.texts), firstNumber: app.eventCount - since.texts.count + 1)
                if failure != nil { try Self.requireKept(since.dropped, call, app) }
                return failure
            },
            expect(
                "expect_no_event", parameters: [ScriptParameter("item", "string"), ScriptParameter("mark", "integer", optional: true)],
                overloads: [],
                documentation: """
                    Expects no event matching `item` (exactly or as leading words) in the log, or after `mark` \
                    when given; the failure lists the matching events. An item no event of the app could match \
                    (a misspelt event or destination, a space too many) is an error, not a pass.
                    """,
                example: "expect_no_event(\"present login\")"
            ) { call, app, world in
                try Self.requireOneLog("expect_no_event", world)
                let item = try Self.eventItem(call, 1)
                let since = app.events(since: try Self.mark(call, 2, eventCount: app.eventCount, world: world) ?? 0)
                call.state.charge(work: since.texts.count)
                let failure = Expectation.eventCount(item, expected: 0, actual: Array(since.texts))
                if failure == nil {
                    try Self.requireSpelledAsTheApp(item, call, 1, world)
                    try Self.requireKept(since.dropped, call, app)
                }
                return failure
            },
            expect(
                "expect_event_count",
                parameters: [
                    ScriptParameter("item", "string"), ScriptParameter("count", "integer"),
                    ScriptParameter("mark", "integer", optional: true)
                ],
                overloads: [],
                documentation: """
                    Expects exactly `count` events matching `item` (exactly or as leading words), in the whole \
                    log or after `mark`.
                    """,
                example: "expect_event_count(\"session-commit\", 1)"
            ) { call, app, world in
                try Self.requireOneLog("expect_event_count", world)
                let count = try call.integer(2)
                guard count >= 0 else { throw call.argumentError(2, "a count of events cannot be negative, got \(count)") }
                let item = try Self.eventItem(call, 1)
                // A nil mark given (a misspelt mark variable) counted the whole log: a count above 0 found
                // events from before the mark was meant to be taken, and passed. (For 0 the whole log is
                // only stricter: nil reads as "no mark", as a helper passing an optional mark on writes it.)
                if count > 0 && call.count >= 3 && call[3].isNil {
                    let advice = "take a mark with mark() before what you count, or leave it out to count the whole log"
                    throw call.argumentError(3, "number expected, got nil: " + advice)
                }
                let since = app.events(since: try Self.mark(call, 3, eventCount: app.eventCount, world: world) ?? 0)
                call.state.charge(work: since.texts.count)
                try Self.requireKept(since.dropped, call, app)
                let failure = Expectation.eventCount(item, expected: count, actual: Array(since.texts))
                if failure == nil && count == 0 { try Self.requireSpelledAsTheApp(item, call, 1, world) }
                return failure
            },
            expect(
                "expect_no_leaks", parameters: [], overloads: [],
                documentation: """
                    Settles, then expects every screen, view model and coordinator that left the navigation to \
                    have been deallocated; the failure lists what leaked and the step at which it left. (The \
                    `leaks` invariant checks this after every scenario anyway; use it mid-scenario.)
                    """,
                example: "expect_no_leaks()"
            ) { _, app, world in
                try app.settle()
                return Expectation.noLeaks(
                    app.leaks.map { leak in
                        Invariant.describe(leak) { world.stepName($0, during: leak.leftDuring) }
                    })
            },
            expect(
                "expect_events", parameters: [ScriptParameter("items", "string[]")], overloads: [],
                documentation: """
                    Expects the event log to contain `items` as an ordered subsequence (other events may come \
                    between). An item matches an event exactly or as its leading words: `"gate auth"` matches \
                    `"gate auth account"`, and a screen without its parameter matches it with one wherever it \
                    stands — `"push item"` matches `"push item:7"`, `"resolve item gated auth"` matches \
                    `"resolve item:7 gated auth"` — but `"push it"` matches nothing. The failure shows which items matched, the first that did not, whether it \
                    happened earlier, and the events after the last match. An empty list is an error (it \
                    would pass whatever happened).
                    """,
                example: "expect_events{ \"gate auth account\", \"session-commit\", \"resume account\" }"
            ) { call, app, world in
                try Self.requireOneLog("expect_events", world)
                call.state.charge(work: app.eventCount)
                let failure = Expectation.events(try Self.eventItems(call, 1), actual: app.events)
                if failure != nil { try Self.requireKept(app.eventsDropped, call, app) }
                return failure
            },
            expect(
                "expect_coordinators", parameters: [ScriptParameter("paths", "string[]")], overloads: [],
                documentation: """
                    Expects exactly these coordinators to be alive (order does not matter); the failure lists \
                    the missing and the unexpected ones.
                    """,
                example: "expect_coordinators{ \"app\", \"app/catalog\" }"
            ) { call, app, _ in
                Expectation.coordinators(try BindingSupport.strings(call, 1), actual: app.coordinatorPaths)
            },
            expect(
                "expect_error",
                parameters: [
                    ScriptParameter("input", "navscript.LinkInput"), ScriptParameter("kind", "navscript.ErrorKind"),
                    ScriptParameter("options", "navscript.ErrorOptions", optional: true)
                ], overloads: [],
                documentation: """
                    Delivers `input` (like `deep_link`, settled) and expects it to be rejected with `kind`. Fails \
                    when it proceeds, is gated or gives another error; the failure shows the outcome and the \
                    engine's message. An unknown `kind` or `via` is an error.
                    """,
                example: "expect_error(\"myapp://item/abc\", \"validation_failed\")"
            ) { call, app, world in
                let (input, defaultEntry) = try BindingSupport.linkInput(call[1], call: call, position: 1)
                let kind = try call.string(2)
                let known = ["malformed", "unknown_route", "validation_failed"]
                guard known.contains(kind) else {
                    throw call.argumentError(2, "unknown error kind '\(kind)'; expected one of: " + known.joined(separator: ", "))
                }
                let options = try call.optionalTable(3) ?? LuaTable()
                let entry =
                    try options["via"].stringValue.map { try BindingSupport.entryPoint($0, call: call, position: 3, host: world.host) }
                    ?? defaultEntry
                let outcome = try app.perform(.deepLink(input, via: entry)) ?? LinkOutcome(status: .error)
                try app.settle()
                world.record(
                    "expect_error(\"\(input)\", via \(entry)) → \(outcome.status) \(outcome.error?.rawValue ?? "")",
                    at: world.location ?? world.host.name)
                guard outcome.status == .error, outcome.error?.rawValue == kind else {
                    return ExpectationFailure(
                        "\(input) via \(entry) gave \(BindingSupport.describe(outcome)), expected error \(kind)",
                        details: outcome.message.map { "message: \($0)" } ?? "")
                }
                return nil
            },
            expect(
                "expect_same_outcome",
                parameters: [
                    ScriptParameter("url", "string"), ScriptParameter("entries", "navscript.EntryPoint[]", optional: true),
                    ScriptParameter("options", "navscript.SameOutcomeOptions", optional: true)
                ],
                overloads: [],
                documentation: """
                    Expects `url` (a link with the app's scheme) to give the same result through every listed \
                    entry point (all of the app's by default): for each one, a fresh app is launched with the \
                    scenario's launch options (without its cold-start link), the link is delivered in that \
                    entry point's shape (universal link, push payload, activity…) and the outcome, tab, stack, \
                    modals and screen are compared with the first entry point's. With `{ spellings = true }` \
                    each URL-shaped entry point also gets the link's other spellings — the scheme and a \
                    universal link's host in capitals, a letter percent-encoded — which every URL parser must \
                    read as the same link, and a push or a Handoff the link in their other shapes (a payload's \
                    `url`, an activity's `webpage_url`) where the door reads them. A link every entry point \
                    rejects fails (a typo in it compared no route), unless `{ rejected = true }` says the \
                    refusal everywhere is what is checked, or `{ rejected = "allowed" }` that the entry points \
                    need only agree. The scenario's own app is left untouched.
                    """,
                example: "expect_same_outcome(\"myapp://item/7\")"
            ) { call, _, world in
                let url = try call.string(1)
                // Each entry point gets the link in its own shape, made from the scheme link: given another
                // (a universal link), the scheme entry point would see it malformed and the app be blamed.
                let scheme = world.host.engine.manifest.scheme
                guard url.lowercased().hasPrefix(scheme.lowercased() + "://") else {
                    throw call.argumentError(
                        1,
                        "a link with the app's scheme expected (\(scheme)://…), got '\(url)': each "
                            + "entry point gets it in its own shape (a universal link for 'universal', a payload for 'push')")
                }
                let names =
                    try call.optionalTable(2).map { _ in try BindingSupport.strings(call, 2) }
                    ?? world.host.entryPoints.map(\.rawValue)
                let options = try call.optionalTable(3)
                let spellings = options?["spellings"].isTruthy ?? false
                let refusal: Expectation.Refusal
                switch options?["rejected"] {
                case nil, .nil?, .boolean(false)?: refusal = .fails
                case .boolean(true)?: refusal = .required
                case let value? where value.stringValue == "allowed": refusal = .allowed
                case let value?:
                    throw call.argumentError(
                        3,
                        "'rejected' is true (every entry point must reject the link) or \"allowed\" (they need only "
                            + "agree), not \(value.typeName == "string" ? "'\(value.stringValue ?? "")'" : "a \(value.typeName)")")
                }
                guard names.count >= 2 || (spellings && names.count == 1) else {
                    throw call.argumentError(
                        2,
                        "\(names.count) entry point\(names.count == 1 ? "" : "s") compare nothing: "
                            + "list at least two, or leave the list out for all of the app's")
                }
                if let twice = names.enumerated().first(where: { names[..<$0.offset].contains($0.element) })?.element {
                    throw call.argumentError(
                        2,
                        "'\(twice)' is listed twice, and an entry point compared with itself checks "
                            + "nothing: list each once")
                }
                var observations: [(entry: String, observation: [String], rejection: String?)] = []
                let shapes = EntryLinkSpelling(manifest: world.host.engine.manifest)
                for name in names {
                    let entry = try BindingSupport.entryPoint(name, call: call, position: 2, host: world.host)
                    let input = world.host.input(for: url, via: entry)
                    let variants =
                        spellings
                        ? EquivalentSpelling.variants(of: input).map { ("\(name) with \($0.change) (\($0.input))", $0.input, false) }
                            + shapes.otherShapes(for: url, via: entry).map { ("\(name) \($0.change) (\($0.input))", $0.input, true) }
                        : []
                    for (label, input, isOtherShape) in [(name, input, false)] + variants {
                        var request = world.launchRequest
                        request.link = nil
                        let app = try world.host.launch(request)
                        try app.settle()
                        let outcome = try app.perform(.deepLink(input, via: entry))
                        try app.settle()
                        // A door that does not take that shape at all (its adapter reads only the route) is
                        // not one that reads it differently: compared only where the shape is read.
                        if isOtherShape, outcome?.error == .malformed { continue }
                        let state = app.state
                        observations.append(
                            (
                                label,
                                [
                                    "outcome \(outcome.map(BindingSupport.describe) ?? "none")",
                                    "tab \(state.selectedTab)",
                                    "stack " + Expectation.render(state.stack(state.selectedTab).map(\.description)),
                                    "modals "
                                        + (state.modals.isEmpty
                                            ? "{}"  // none: a bare "modals" read like a word cut off
                                            : state.modals.map { Expectation.render($0.map(\.description)) }.joined(separator: " | ")),
                                    "screen \(state.visible?.description ?? "nothing")"
                                ],
                                outcome?.error?.rawValue
                            ))
                    }
                }
                return Expectation.sameOutcome(url: url, observations: observations, refusal: refusal)
            }
        ]
    }

    /// A mark argument (from `mark()`), or nil when absent: a position in
    /// the event log of `eventCount` events — one past it is a mistake, not a pass.
    static func mark(
        _ call: LuaCall, _ position: Int, eventCount count: Int, world: ScenarioWorld, required: Bool = false
    ) throws -> Int? {
        // Where the mark is required, nil is a mark variable never assigned (`local m` with its
        // `m = mark()` moved into a branch): read as "no mark", the check ran over the whole log and
        // passed on an event from before the mark was meant to be taken. (Where it is optional, nil
        // is "none", as Lua passes an optional argument on: `expect_no_event("warning", since)`.)
        if required && call[position].isNil {
            throw call.argumentError(
                position,
                "number expected, got " + (call.count >= position ? "nil" : "no value")
                    + ": take a mark with mark() before what you check (or give 0 for the whole log)")
        }
        guard let mark = try call.optionalInteger(position) else { return nil }
        // A mark of an app a launch{} or restart{} replaced counts events of a log that is gone:
        // read against the new log it would check the wrong events (and pass).
        if let taken = world.markTakenEarlier(mark) {
            throw call.argumentError(
                position,
                "mark \(mark) was taken at \(taken), in the event log of an app that a later "
                    + "launch or restart replaced; take a new mark() after it")
        }
        guard (0...count).contains(mark) else {
            throw call.argumentError(position, "mark \(mark) is not in the event log (0…\(count) so far); take marks with mark()")
        }
        // A mark kept in a file-level variable from another scenario counts another app's events:
        // it would check the wrong ones here (0, the start of the log, is no mark but always valid).
        guard mark == 0 || world.hasHandedOut(mark) else {
            throw call.argumentError(
                position,
                "mark \(mark) was not returned by mark() in this scenario (a mark kept from another scenario counts "
                    + "another app's events); take one with mark() in this scenario, or give 0 for the whole log")
        }
        return mark
    }

    /// A check whose answer depends on events the log no longer keeps
    /// (`dropped` of those it had to read) has no answer: neither a pass nor
    /// the app's failure, but a message saying how to check it.
    static func requireKept(_ dropped: Int, _ call: LuaCall, _ app: any AppDriver, cannot: String = "cannot tell") throws {
        guard dropped > 0 else { return }
        let kept = app.eventCount - app.eventsDropped
        throw LuaArgumentError(
            message: "\(call.functionName) \(cannot): this app recorded \(app.eventCount) events and the log keeps "
                + "only the latest \(kept) — \(dropped) of the events it had to read are gone; take a mark() shortly "
                + "before what you check and pass it (expect_events_since, or the mark argument)")
    }

    /// A failure of a check of screens, with a word when an expected screen is a typo of one
    /// the app has (`dicsover`): read as the app's fault otherwise.
    private static func naming(_ failure: ExpectationFailure?, screens: [String], _ world: ScenarioWorld) -> ExpectationFailure? {
        guard var failure, let hint = AppVocabulary(host: world.host, log: world.app?.events ?? []).typoHint(forScreens: screens)
        else { return failure }
        failure.message += " (\(hint))"
        return failure
    }

    /// A check that passed because nothing matched `item` passed for nothing when no event of
    /// the app could ever match it (see ``AppVocabulary``).
    private static func requireSpelledAsTheApp(_ item: String, _ call: LuaCall, _ position: Int, _ world: ScenarioWorld) throws {
        let log = world.app?.events ?? []
        if let problem = AppVocabulary(host: world.host, log: log).problem(with: item) { throw call.argumentError(position, problem) }
    }

    /// An event item: an empty one matches no event, so it would pass any
    /// `expect_no_event` and fail any `expect_events` for no reason.
    private static func eventItem(_ call: LuaCall, _ position: Int) throws -> String {
        let item = try call.string(position)
        guard !item.isEmpty else { throw call.argumentError(position, "an empty item matches no event") }
        return item
    }

    private static func eventItems(_ call: LuaCall, _ position: Int) throws -> [String] {
        let items = try BindingSupport.strings(call, position)
        if items.isEmpty {
            throw call.argumentError(
                position,
                "no events listed, and an empty list is in every log, so this expectation "
                    + "could never fail; list the events to expect, in order")
        }
        if let empty = items.firstIndex(of: "") {
            throw call.argumentError(position, "item \(empty + 1) is empty, and an empty item matches no event")
        }
        return items
    }

    /// Event checks read the app's event log, which holds every window's events: inside
    /// `in_scene(n, …)` of an app with several windows they read as window n's, and passed on another
    /// window's (a link that landed in window 2 "navigated" window 1). Refused there, with what to do —
    /// also once the other windows closed (their events stay in the log), and for `events()`.
    static func requireOneLog(_ name: String, _ world: ScenarioWorld) throws {
        guard let scene = world.actingScene, let windows = world.app as? any SceneDriving,
            windows.sceneNumbers.count > 1 || world.app?.events.contains(where: { $0.hasPrefix("scene-open ") }) == true
        else { return }
        throw BindingError.error(
            name + " inside in_scene(\(scene), …): the event log is the app's, every window's events in one, so "
                + "it cannot check window \(scene)'s alone; check window \(scene)'s state inside in_scene (expect_stack, "
                + "expect_screen, expect_modal), or the app's events outside it")
    }

    /// An expectation: settles nothing itself (verbs already settled), runs
    /// `check`, raises its failure, records a passing check on the timeline.
    private static func expect(
        _ name: String, parameters: [ScriptParameter], overloads: [String],
        documentation: String, example: String,
        _ check: @escaping (LuaCall, any AppDriver, ScenarioWorld) throws -> ExpectationFailure?
    ) -> ScriptFunction {
        ScriptFunction(
            name, .asserting, parameters: parameters, overloads: overloads, documentation: documentation,
            example: example,
            body: .binding { call, context in
                let world = try context.requireWorld(call)
                world.location = context.location(of: call)
                let app = try world.ensureApp(at: context.location(of: call))
                if let failure = try check(call, app, world) { throw BindingError.failure(failure) }
                return []
            })
    }
}
