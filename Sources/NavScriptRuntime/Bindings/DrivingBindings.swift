import NavScript
import NavigationCore

/// The built-in verbs that drive the app: `launch`, `tap`, `select_tab`,
/// `back`, `back_swipe`, `dismiss`, `deep_link`, `settle`, `restart`. Each
/// one is a user step: it is recorded on the timeline and, unless told
/// otherwise, the app is settled afterwards so the next line sees the
/// finished transition. Hosts add their own (`ScriptFunction.verb`).
enum DrivingBindings {
    static var functions: [ScriptFunction] {
        [
            ScriptFunction(
                "launch", .driving,
                parameters: [ScriptParameter("options", "navscript.LaunchOptions", optional: true)],
                documentation: """
                    Cold-starts a fresh app with `options` (the host's launch options; see `navscript.LaunchOptions`). \
                    Use it first in a scenario to choose the starting state; without it, the first verb, observer or \
                    expectation launches the app with defaults. An optional `url` is a cold-start link delivered \
                    through `via`. The app is settled afterwards. An unknown option, or a value that is not of \
                    the option's kind, is an error at this line naming the accepted options.
                    """,
                example: "launch{ url = \"myapp://item/7\", via = \"universal\" }",
                body: .binding { call, context in
                    let world = try context.requireWorld(call)
                    let options = try call.optionalTable(1) ?? LuaTable()
                    let request = try launchRequest(options) { call.argumentError(1, $0) }
                    do {
                        try world.launch(request, at: context.location(of: call))
                    } catch let failure as LaunchFailure {
                        throw failure
                    } catch {
                        throw BindingError.error("\(error)")
                    }
                    return []
                }),
            action(
                "tap",
                parameters: [
                    ScriptParameter("output", "navscript.Output"),
                    ScriptParameter("args", "string|integer|table<string, string|number|boolean>", optional: true)
                ],
                documentation: """
                    Fires output `output` of the top visible screen, then settles. `args` is an id (`tap("item", "7")` \
                    is `{ id = "7" }`) or a table of params (strings, numbers or booleans). A screen without that \
                    output is a failure listing the outputs it has.
                    """,
                example: "tap(\"item\", \"7\")"
            ) { call, app, context in
                let output = try call.string(1)
                let args = try BindingSupport.params(call[2], call: call, position: 2)
                if let screen = app.visibleDestination {
                    try checkTap(
                        output, args, on: screen, wired: app.visibleOutputs, declared: context.screens[screen],
                        engine: context.engine)
                }
                return (.tap(output: output, args: args), describeTap(output, args))
            },
            action(
                "select_tab", parameters: [ScriptParameter("name", "navscript.Tab")],
                documentation: """
                    Selects tab `name` (as the user tapping the tab bar), then settles. An unknown tab is a failure \
                    naming the tabs.
                    """,
                example: "select_tab(\"settings\")"
            ) { call, _, _ in
                let tab = try call.string(1)
                return (.selectTab(tab), "select_tab(\"\(tab)\")")
            },
            action(
                "back",
                documentation: """
                    Taps the navigation bar's back button of the top visible stack, then settles. Fails when there is \
                    nothing to pop.
                    """,
                example: "back()"
            ) { _, _, _ in (.back, "back()") },
            action(
                "back_swipe", parameters: [ScriptParameter("options", "navscript.BackSwipeOptions", optional: true)],
                documentation: """
                    Performs an interactive back-swipe on the top visible stack, then settles. `cancel = true` lifts \
                    the finger early (the screen stays; the app sees `will-disappear` and `swipe-cancelled`); \
                    `animated = false` pops without a transition. Fails when there is nothing to pop.
                    """,
                example: "back_swipe{ cancel = true }"
            ) { call, _, _ in
                let options = try call.optionalTable(1) ?? LuaTable()
                let cancel = options["cancel"].isTruthy
                let animated = options["animated"].isNil ? true : options["animated"].isTruthy
                return (
                    .backSwipe(cancel: cancel, animated: animated),
                    "back_swipe{ cancel = \(cancel), animated = \(animated) }"
                )
            },
            action(
                "dismiss",
                documentation: """
                    Swipes the top modal down (an interactive dismissal), then settles. Fails when no modal is \
                    presented.
                    """,
                example: "dismiss()"
            ) { _, _, _ in (.dismiss, "dismiss()") },
            ScriptFunction(
                "deep_link", .driving,
                parameters: [
                    ScriptParameter("input", "navscript.LinkInput"),
                    ScriptParameter("options", "navscript.LinkOptions", optional: true)
                ],
                returns: [ScriptReturn("navscript.LinkOutcome", name: "outcome")],
                documentation: """
                    Delivers a link through an entry point and returns what became of it. A URL string goes through \
                    `"scheme"` by default (an `http(s)` link through `"universal"`), a table is a push payload (`{ route = "item/7" }`, default `"push"`) or, \
                    with `activity_type`, a user activity (default `"spotlight"`). A rejected link is not a failure: \
                    check the outcome (or use `expect_error`). With `settle = false` the scheduler is not drained, so \
                    a second link can arrive while this one still executes (it is then `"queued"`); call `settle()` \
                    before observing. Leaks are judged where the app has settled: a sign-out, an expiry or a closed \
                    window before then tears down what this link would have left leaked, and that run leaked nothing \
                    — `settle()` first to judge it. An unknown `via` is an error.
                    """,
                example: """
                    local outcome = deep_link("myapp://account")
                    assert(outcome.status == "gated" and outcome.precondition == "auth")
                    """,
                body: .binding { call, context in
                    let world = try context.requireWorld(call)
                    let location = context.location(of: call)
                    let app = try world.ensureApp(at: location)
                    let (input, defaultEntry) = try BindingSupport.linkInput(call[1], call: call, position: 1)
                    let options = try call.optionalTable(2) ?? LuaTable()
                    let entry =
                        try options["via"].stringValue.map {
                            try BindingSupport.entryPoint($0, call: call, position: 2, host: context.host)
                        } ?? defaultEntry
                    let shouldSettle = options["settle"].isNil ? true : options["settle"].isTruthy
                    let outcome: LinkOutcome
                    if !options["scene"].isNil && options["scene"].intValue == nil {
                        // 1.5, 0/0, 2^63: no window has that number (the link must not go to the front one instead).
                        throw call.argumentError(
                            2, "scene must be a window's number (an integer from open_scene), got \(options["scene"])")
                    }
                    if let scene = options["scene"].intValue {
                        outcome = try deliver(input, via: entry, toScene: scene, app: app, call: call)
                    } else {
                        outcome =
                            try app.perform(.deepLink(input, via: entry))
                            ?? LinkOutcome(status: .error, message: "the app gave no outcome for the link")
                    }
                    if shouldSettle { try app.settle() }
                    world.record(
                        String(
                            concatenating: "deep_link(\"", input.description, "\", via ", entry.rawValue,
                            options["scene"].intValue.map { ", scene \($0)" } ?? "", ") → ",
                            outcome.status.rawValue, outcome.precondition.map { " " + $0.rawValue } ?? "",
                            outcome.error.map { " " + $0.rawValue } ?? ""),
                        at: location, settled: shouldSettle)
                    return [BindingSupport.outcomeTable(outcome)]
                }),
            ScriptFunction(
                "settle", .driving,
                documentation: """
                    Drains the app's virtual-time scheduler: transitions finish, async work (commits, deliveries) \
                    runs. Verbs already settle; use it after `deep_link(..., { settle = false })`. Fails if the app \
                    never goes idle, or if it leaves an object leaked (judged then, as after every step that settles).
                    """,
                example: "settle()",
                body: .binding { call, context in
                    let world = try context.requireWorld(call)
                    let location = context.location(of: call)
                    try world.ensureApp(at: location).settle()
                    world.judgeLeaks(after: "after settle()", at: location)
                    return []
                }),
            ScriptFunction(
                "restart", .driving,
                parameters: [ScriptParameter("options", "navscript.RestartOptions", optional: true)],
                documentation: """
                    Cold-starts the same device again: what the app persists survives, it is not a first launch, and \
                    no link is delivered. With `restore = true` (the default) the navigation is restored from the \
                    state-restoration archive of the app being replaced; `restore = false` starts from the root. The \
                    new app is settled.
                    """,
                example: "restart{ restore = false }",
                body: .binding { call, context in
                    let world = try context.requireWorld(call)
                    let location = context.location(of: call)
                    let options = try call.optionalTable(1) ?? LuaTable()
                    let restore = options["restore"].isNil ? true : options["restore"].isTruthy
                    try world.checkRestartKeepsTheOptionsLink()
                    let next = try world.ensureApp(at: location).relaunch(restore: restore)
                    try next.settle()
                    world.replaceApp(next, at: location)
                    world.record("restart{ restore = \(restore) }", at: location)
                    return []
                })
        ]
    }

    /// `deep_link(…, { scene = n })`: the system opens the link in window
    /// `n`. Only a link a window opens can name one: a push notification or
    /// a widget's tap reaches the app, which picks the window in front.
    private static func deliver(
        _ input: EntryInput, via entry: EntryPoint, toScene scene: Int, app: any AppDriver, call: LuaCall
    ) throws -> LinkOutcome {
        guard entry != .push && entry != .widget else {
            throw BindingError.error(
                "deep_link: { scene = \(scene) } names a window, but \(entry) input reaches the app, which picks the window "
                    + "in front; leave scene out, or focus_scene(\(scene)) first")
        }
        let scenes = try SceneBindings.sceneDriver(app, call: call)
        guard scenes.sceneNumbers.contains(scene) else {
            throw BindingError.error("deep_link: \(SceneError.noSuchScene(scene, open: scenes.sceneNumbers))")
        }
        return try scenes.deliver(input, via: entry, toScene: scene)
    }

    /// A verb that performs one app action, settles, and records the step.
    private static func action(
        _ name: String, parameters: [ScriptParameter] = [], documentation: String, example: String,
        _ parse: @escaping (LuaCall, any AppDriver, BindingContext) throws -> (AppAction, String)
    )
        -> ScriptFunction
    {
        ScriptFunction(
            name, .driving, parameters: parameters, documentation: documentation, example: example,
            body: .binding { call, context in
                let world = try context.requireWorld(call)
                let location = context.location(of: call)
                let app = try world.ensureApp(at: location)
                let (action, described): (AppAction, String)
                do {
                    (action, described) = try parse(call, app, context)
                } catch let error as HostError {
                    // The call as written: which arguments the app refused.
                    world.record(
                        String(
                            concatenating: name, "(", call.arguments.map(\.description).joined(separator: ", "), ") ✗ ",
                            error.message), at: location)
                    throw error
                }
                do {
                    _ = try app.perform(action)
                    try app.settle()
                } catch {
                    world.record("\(described) ✗ \((error as? HostError)?.message ?? "\(error)")", at: location)
                    throw error
                }
                world.record(described, at: location)
                return []
            })
    }

    /// `tap("item", id=7)`: the timeline's words for a tap, parameters by name.
    static func describeTap(_ output: String, _ args: [String: String]) -> String {
        switch args.count {
        case 0: return String(concatenating: "tap(\"", output, "\")")
        case 1: return String(concatenating: "tap(\"", output, "\", ", args.first!.key, "=", args.first!.value, ")")
        default:
            let pairs = args.sorted { $0.key < $1.key }.map { String(concatenating: $0.key, "=", $0.value) }
            return String(concatenating: "tap(\"", output, "\", ", pairs.joined(separator: ", "), ")")
        }
    }

    /// Strict like a thumb: a tap must give the parameters its output
    /// declares, and values the destination it opens accepts. A bare id
    /// (`tap("promo", "SALE10")`) stands for an output's one parameter.
    ///
    /// The output's spec is the one the app wired (`wired`); a driver that
    /// cannot tell (none wired) falls back on the host's declaration. The
    /// declaration must list every output the screen wires, spelled the same:
    /// otherwise the tools that read it (types, lint, graph, routes check)
    /// tell a scenario's author something the app does not do.
    static func checkTap(
        _ output: String, _ args: [String: String], on screen: DestinationID, wired: [ScreenOutput],
        declared: ScreenDeclaration?, engine: RoutingEngine
    ) throws(HostError) {
        if let declared { try checkDeclaration(declared, against: wired) }
        let fromWiring = !wired.isEmpty
        guard
            let spec = fromWiring
                ? wired.first(where: { $0.name == output }) : declared?.outputs.first(where: { $0.name == output })
        else { return }
        var params = args
        // Counts first: each lookup hashes a name, and a tap is checked on every call.
        if args.count == 1, spec.parameters.count == 1, spec.parameters[0] != "id", let bare = args["id"] {
            params = [spec.parameters[0]: bare]
        }
        // A parameter the output does not take was meant for something (a typo: `idd`): said
        // first, with what it may have meant, rather than dropped unread or reported as missing.
        if params.keys.contains(where: { !spec.parameters.contains($0) }),
            let extra = params.keys.sorted().first(where: { !spec.parameters.contains($0) })
        {
            let takes =
                spec.parameters.isEmpty
                ? "takes no parameters"
                : "takes \(spec.parameters.joined(separator: ", "))"
            let suggestion =
                NameSuggestion.closest(to: extra, among: spec.parameters).map { " (did you mean '\($0)'?)" }
                ?? (extra == "id" && args.count == 1 ? " (a value given alone stands for id)" : "")
            throw HostError("output '\(output)' of '\(screen)' \(takes); '\(extra)' is not one of them\(suggestion)")
        }
        // Only the declared parameters go to the destination, each looked up once.
        var passed = RouteParams()
        var missing: [String] = []
        for name in spec.parameters {
            if let value = params[name] { passed[name] = value } else { missing.append(name) }
        }
        guard missing.isEmpty else {
            throw HostError(
                "output '\(output)' of '\(screen)' takes \(spec.parameters.joined(separator: ", ")); "
                    + "missing \(missing.joined(separator: ", ")) (tap(\"\(output)\", { \(missing[0]) = … }))")
        }
        guard let destination = spec.destination else { return }
        let request = RouteRequest(destination, params: passed)
        do {
            try engine.validateParams(of: request)
        } catch {
            // When the output itself passes other parameters than the destination takes, no
            // tap could pass: the host is to fix, not the scenario.
            let takes = engine.manifest.destinations.first { $0.id == destination }.map { $0.params.map(\.name) } ?? []
            let whose =
                fromWiring
                ? "the app wires output '\(output)' of '\(screen)' (its ScreenOutput) with the parameters "
                : "the host's declaration of '\(screen)' (ScenarioHost.screens) gives output '\(output)' the parameters "
            let blame =
                takes.allSatisfy(spec.parameters.contains)
                ? ""
                : " — \(whose)[\(spec.parameters.joined(separator: ", "))] but '\(destination)' takes "
                    + "[\(takes.joined(separator: ", "))]: fix the \(fromWiring ? "ScreenOutput" : "declaration")"
            throw HostError("output '\(output)' of '\(screen)' opens '\(destination)', whose spec refuses it: \(error)\(blame)")
        }
    }

    /// Every output `wired` on a screen is in its declaration, spelled the
    /// same; a declared output the screen does not wire now is fine (a
    /// button shown only when signed in).
    static func checkDeclaration(_ declared: ScreenDeclaration, against wired: [ScreenOutput]) throws(HostError) {
        // The common case first, without a search: the declaration in wiring order.
        if declared.outputs == wired { return }
        var problems: [String] = []
        for output in wired {
            guard let listed = declared.outputs.first(where: { $0.name == output.name }) else {
                problems.append("it wires '\(output)', which the declaration leaves out")
                continue
            }
            if listed != output { problems.append("it wires '\(output)', which the declaration spells '\(listed)'") }
        }
        guard !problems.isEmpty else { return }
        throw HostError(
            "the host's declaration of screen '\(declared.id)' (ScenarioHost.screens) does not match the app: "
                + problems.joined(separator: "; ")
                + " — list the same ScreenOutput values the coordinator passes to setOutput")
    }

    /// Turns `launch{}`'s table into a host request; unknown keys are left
    /// for the host to reject with its list of accepted options.
    static func launchRequest(_ options: LuaTable, invalid: (String) -> Error) throws -> LaunchRequest {
        var request = LaunchRequest()
        for (key, value) in options.pairs {
            guard let key = key.stringValue else { throw invalid("launch option names must be strings") }
            switch (key, value) {
            case ("url", .nil), ("via", .nil): continue
            case ("url", .string), ("url", .table):
                let (input, entry) = try BindingSupport.linkInput(value, invalid: invalid)
                request.link = input
                if options["via"].isNil { request.via = entry }
            case ("via", .string(let name)):
                guard let entry = EntryPoint(rawValue: name.string) else {
                    throw invalid(
                        "unknown entry point '\(name.string)'; expected one of: "
                            + EntryPoint.allCases.map(\.rawValue).joined(separator: ", "))
                }
                request.via = entry
            case ("url", _):
                throw invalid(
                    "launch option 'url' is the cold-start link: a URL string or a table (a push payload, an "
                        + "activity), got \(value.typeName)")
            case ("via", _):
                throw invalid(
                    "launch option 'via' names the entry point of the cold-start link (one of: "
                        + EntryPoint.allCases.map(\.rawValue).joined(separator: ", ") + "), got \(value.typeName)")
            case (_, .boolean(let flag)): request.options[key] = .bool(flag)
            case (_, .string(let text)): request.options[key] = .string(text.string)
            case (_, .integer(let number)): request.options[key] = .number(Double(number))
            case (_, .number(let number)): request.options[key] = .number(number)
            default:
                throw invalid("launch option '\(key)' must be a boolean, string or number, got \(value.typeName)")
            }
        }
        // A door with no link to carry (`url` misspelt or nil): a plain cold start, and a check of what the
        // link should have done passed.
        if request.link == nil, options["via"].stringValue != nil {
            throw invalid(
                "launch option 'via' names the door of the cold-start link, but there is no 'url' to carry; give the link "
                    + "as url = \"…\" (or leave 'via' out for a cold start without a link)")
        }
        return request
    }
}
