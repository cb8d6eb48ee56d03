import NavigationCore

/// The observers: `screen`, `stack`, `tab`, `modals`, `coordinators`,
/// `events`, `snapshot`, `session` — the app's state as plain Lua values,
/// for custom assertions and for printing while writing a scenario.
enum ObservingBindings {
    static func install(_ state: LuaState, _ session: ScenarioSession) {
        observe(state, session, "screen") { _, app in
            [BindingSupport.string(app.state.visible?.id.rawValue)]
        }
        observe(state, session, "stack") { call, app in
            let tab = try call.optionalString(1).map { TabID($0) } ?? app.state.selectedTab
            try requireTab(tab, in: app, call: call)
            return [BindingSupport.list(app.state.stack(tab).map(\.id.rawValue))]
        }
        observe(state, session, "tab") { _, app in [BindingSupport.string(app.state.selectedTab.rawValue)] }
        observe(state, session, "modals") { _, app in
            [BindingSupport.list(app.state.modals.flatMap { $0.map(\.id.rawValue) })]
        }
        observe(state, session, "coordinators") { _, app in [BindingSupport.list(app.coordinatorPaths)] }
        observe(state, session, "events") { _, app in [BindingSupport.list(app.events)] }
        observe(state, session, "session") { _, app in
            var table = LuaTable()
            for (key, value) in app.session {
                switch value {
                case .bool(let flag): table[key] = .boolean(flag)
                case .string(let text): table[key] = .string(LuaString(text))
                case .number(let number): table[key] = .number(number)
                }
            }
            return [.table(table)]
        }
        observe(state, session, "snapshot") { _, app in
            let state = app.state
            var stacks = LuaTable()
            for tab in state.tabs { stacks[tab.rawValue] = BindingSupport.list(state.stack(tab).map(\.description)) }
            let modals = LuaTable(array: state.modals.map { BindingSupport.list($0.map(\.description)) })
            return [.table([
                "root": .string(LuaString(app.rootFlow)),
                "tab": .string(LuaString(state.selectedTab.rawValue)),
                "stacks": .table(stacks),
                "modals": .table(modals),
            ])]
        }
    }

    private static func observe(_ state: LuaState, _ session: ScenarioSession, _ name: String,
                                _ body: @escaping (LuaCall, any ScenarioApp) throws -> [LuaValue]) {
        BindingSupport.define(state, session, name) { call, session in
            let world = try session.requireWorld(call)
            return try body(call, try world.ensureApp(at: session.location(of: call)))
        }
    }

    static func requireTab(_ tab: TabID, in app: any ScenarioApp, call: LuaCall) throws {
        guard app.state.tabs.contains(tab) else {
            throw BindingError.error("\(call.functionName): unknown tab '\(tab)'; tabs are: "
                + app.state.tabs.map(\.rawValue).joined(separator: ", "))
        }
    }
}
