import NavScript
import NavigationCore

/// The built-in observers: `screen`, `stack`, `tab`, `modals`,
/// `coordinators`, `events`, `snapshot` — the app's state as plain Lua
/// values, for custom assertions and for printing while writing a scenario.
enum ObservingBindings {
    static var functions: [ScriptFunction] {
        [
            observe(
                "screen", returns: [ScriptReturn("navscript.ScreenId?", name: "id")],
                documentation: """
                    Returns the id of the top visible screen (without parameters), or nil when nothing is on screen. \
                    For printing and custom checks; prefer `expect_screen` for assertions.
                    """,
                example: "if screen() == \"login\" then login{} end"
            ) { _, app in
                [BindingSupport.string(app.visibleDestination?.rawValue)]
            },
            observe(
                "stack", parameters: [ScriptParameter("tab", "navscript.Tab", optional: true)],
                returns: [ScriptReturn("navscript.ScreenId[]", name: "ids")],
                documentation: """
                    Returns a tab's stack, bottom to top, as screen ids without parameters; the selected tab by \
                    default. An unknown tab is an error. `snapshot().stacks` has the labels with parameters.
                    """,
                example: "assert(#stack() == 1)"
            ) { call, app in
                let tab = try call.optionalString(1).map { TabID($0) } ?? app.selectedTab
                try requireTab(tab, in: app, call: call)
                return [BindingSupport.list(app.state.stack(tab).map(\.id.rawValue))]
            },
            observe(
                "tab", returns: [ScriptReturn("navscript.Tab")],
                documentation: "Returns the selected tab's name.",
                example: "print(tab())"
            ) { _, app in [BindingSupport.string(app.selectedTab.rawValue)] },
            observe(
                "modals", returns: [ScriptReturn("navscript.ScreenId[]", name: "ids")],
                documentation: """
                    Returns the ids of every presented modal screen, outermost modal first (each modal's own stack \
                    bottom to top); empty when none.
                    """,
                example: "assert(#modals() == 0)"
            ) { _, app in
                [BindingSupport.list(app.state.modals.flatMap { $0.map(\.id.rawValue) })]
            },
            observe(
                "coordinators", returns: [ScriptReturn("string[]", name: "paths")],
                documentation: """
                    Returns the live coordinator tree as paths (`{ "app", "app/catalog" }`), depth-first, parents \
                    before their children.
                    """,
                example: "print(table.concat(coordinators(), \", \"))"
            ) { _, app in [BindingSupport.list(app.coordinatorPaths)] },
            ScriptFunction(
                "events", .observing, parameters: [ScriptParameter("mark", "integer", optional: true)],
                returns: [ScriptReturn("string[]", name: "events")],
                documentation: """
                    Returns the event log, oldest first, as the texts `expect_events` matches (see there for the \
                    vocabulary); with a mark (from `mark()`), the events after it. Handy with `print` while writing \
                    a scenario. A scenario of more than 100,000 events keeps the latest 100,000: reading from \
                    before them is an error that says so (a list without its oldest events would check the wrong \
                    ones) — take a mark shortly before what you read and pass it.
                    """,
                example: "print(table.concat(events(), \"\\n\"))",
                body: .binding { call, context in
                    let world = try context.requireWorld(call)
                    let app = try world.ensureApp(at: context.location(of: call))
                    try AssertionBindings.requireOneLog("events", world)
                    let mark = try AssertionBindings.mark(call, 1, eventCount: app.eventCount, world: world) ?? 0
                    let (texts, dropped) = app.events(since: mark)
                    try AssertionBindings.requireKept(dropped, call, app, cannot: "cannot return them all")
                    return [BindingSupport.list(Array(texts))]
                }),
            ScriptFunction(
                "mark", .observing, returns: [ScriptReturn("integer", name: "mark")],
                documentation: """
                    Returns a mark in the event log (the number of events so far), to check only what happens \
                    after it with `expect_events_since`, `expect_no_event` and `expect_event_count`. A mark belongs \
                    to the app it was taken on: after a `launch{}` or `restart{}`, take a new one (a number \
                    that a mark of the replaced app had is refused, even when it was computed otherwise). In a \
                    very long scenario (the log keeps its latest 100,000 events) a check reaching events no \
                    longer kept is an error that says so: take the mark shortly before what you check.
                    """,
                example: "local before = mark()\nback()\nexpect_events_since(before, { \"pop item:7\" })",
                body: .binding { call, context in
                    let world = try context.requireWorld(call)
                    let location = context.location(of: call)
                    let count = try world.ensureApp(at: location).eventCount
                    world.noteMark(count, at: location)
                    return [.integer(Int64(count))]
                }),
            observe(
                "snapshot", returns: [ScriptReturn("navscript.Snapshot")],
                documentation: """
                    Returns the whole navigation state: the root flow, the selected tab, every tab's stack and the \
                    modal chain, as labels (`"item:7"`).
                    """,
                example: "assert(snapshot().root == \"main\")"
            ) { _, app in
                let state = app.state
                var stacks = LuaTable()
                for tab in state.tabs { stacks[tab.rawValue] = BindingSupport.list(state.stack(tab).map(\.description)) }
                // A record too: `snapshot().stacks.ordrs` read nil, and every check of it held.
                stacks.record = LuaRecord(type: "navscript.Snapshot.stacks", fields: state.tabs.map(\.rawValue))
                let modals = LuaTable(array: state.modals.map { BindingSupport.list($0.map(\.description)) })
                return [
                    .table([
                        "root": .string(LuaString(app.rootFlow)),
                        "tab": .string(LuaString(state.selectedTab.rawValue)),
                        "stacks": .table(stacks),
                        "modals": .table(modals)
                    ])
                ]
            }
        ]
    }

    private static func observe(
        _ name: String, parameters: [ScriptParameter] = [], returns: [ScriptReturn],
        documentation: String, example: String,
        _ body: @escaping (LuaCall, any AppDriver) throws -> [LuaValue]
    ) -> ScriptFunction {
        ScriptFunction(
            name, .observing, parameters: parameters, returns: returns, documentation: documentation,
            example: example,
            body: .binding { call, context in
                let world = try context.requireWorld(call)
                return try body(call, try world.ensureApp(at: context.location(of: call)))
            })
    }

    static func requireTab(_ tab: TabID, in app: any AppDriver, call: LuaCall) throws {
        guard app.state.tabs.contains(tab) else {
            let names = app.state.tabs.map(\.rawValue)
            let suggestion = NameSuggestion.closest(to: tab.rawValue, among: names).map { "did you mean '\($0)'? " } ?? ""
            throw BindingError.error(
                "\(call.functionName): unknown tab '\(tab)'; \(suggestion)tabs are: " + names.joined(separator: ", "))
        }
    }
}
