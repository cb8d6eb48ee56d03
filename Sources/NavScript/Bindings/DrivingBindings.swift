import NavigationCore

/// The verbs that drive the app: `launch`, `tap`, `select_tab`, `back`,
/// `back_swipe`, `dismiss`, `deep_link`, `login`, `logout`,
/// `expire_session`, `settle`, `restart`. Each one is a user step: it is
/// recorded on the timeline and, unless told otherwise, the app is settled
/// afterwards so the next line sees the finished transition.
enum DrivingBindings {
    static func install(_ state: LuaState, _ session: ScenarioSession) {
        BindingSupport.define(state, session, "launch") { call, session in
            let world = try session.requireWorld(call)
            let options = try call.optionalTable(1) ?? LuaTable()
            let request = try launchRequest(options) { call.argumentError(1, $0) }
            do {
                try world.launch(request, at: session.location(of: call))
            } catch {
                throw BindingError.error("\(error)")
            }
            return []
        }
        action(state, session, "tap") { call in
            let output = try call.string(1)
            let args = try BindingSupport.params(call[2], call: call, position: 2)
            let described = args.isEmpty ? "tap(\"\(output)\")" : "tap(\"\(output)\", \(args.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")))"
            return (.tap(output: output, args: args), described)
        }
        action(state, session, "select_tab") { call in
            let tab = try call.string(1)
            return (.selectTab(tab), "select_tab(\"\(tab)\")")
        }
        action(state, session, "back") { _ in (.back, "back()") }
        action(state, session, "back_swipe") { call in
            let options = try call.optionalTable(1) ?? LuaTable()
            let cancel = options["cancel"].isTruthy
            let animated = options["animated"].isNil ? true : options["animated"].isTruthy
            return (.backSwipe(cancel: cancel, animated: animated),
                    "back_swipe{ cancel = \(cancel), animated = \(animated) }")
        }
        action(state, session, "dismiss") { _ in (.dismiss, "dismiss()") }
        action(state, session, "logout") { _ in (.logout, "logout()") }
        action(state, session, "expire_session") { _ in (.expireSession, "expire_session()") }
        action(state, session, "login") { call in
            let options = try call.optionalTable(1) ?? LuaTable()
            let cancel = options["cancel"].isTruthy
            return (.login(cancel: cancel), cancel ? "login{ cancel = true }" : "login{}")
        }
        BindingSupport.define(state, session, "deep_link") { call, session in
            let world = try session.requireWorld(call)
            let location = session.location(of: call)
            let app = try world.ensureApp(at: location)
            let (input, defaultEntry) = try BindingSupport.linkInput(call[1], call: call, position: 1)
            let options = try call.optionalTable(2) ?? LuaTable()
            let entry = try options["via"].stringValue.map { try BindingSupport.entryPoint($0, call: call, position: 2) } ?? defaultEntry
            let shouldSettle = options["settle"].isNil ? true : options["settle"].isTruthy
            let outcome = try app.perform(.deepLink(input, via: entry)) ?? LinkOutcome(status: "error", error: "internal")
            if shouldSettle { try app.settle() }
            world.record("deep_link(\"\(input)\", via \(entry)) → \(outcome.status)"
                + (outcome.precondition.map { " \($0)" } ?? "") + (outcome.error.map { " \($0)" } ?? ""), at: location)
            return [BindingSupport.outcomeTable(outcome)]
        }
        BindingSupport.define(state, session, "settle") { call, session in
            let world = try session.requireWorld(call)
            try world.ensureApp(at: session.location(of: call)).settle()
            return []
        }
        BindingSupport.define(state, session, "restart") { call, session in
            let world = try session.requireWorld(call)
            let location = session.location(of: call)
            let options = try call.optionalTable(1) ?? LuaTable()
            let restore = options["restore"].isNil ? true : options["restore"].isTruthy
            let next = try world.ensureApp(at: location).relaunch(restore: restore)
            try next.settle()
            world.replaceApp(next)
            world.record("restart{ restore = \(restore) }", at: location)
            return []
        }
    }

    /// A verb that performs one app action, settles, and records the step.
    private static func action(_ state: LuaState, _ session: ScenarioSession, _ name: String,
                               _ parse: @escaping (LuaCall) throws -> (AppAction, String)) {
        BindingSupport.define(state, session, name) { call, session in
            let world = try session.requireWorld(call)
            let location = session.location(of: call)
            let (action, described) = try parse(call)
            let app = try world.ensureApp(at: location)
            do {
                _ = try app.perform(action)
                try app.settle()
            } catch {
                world.record("\(described) ✗ \((error as? HostError)?.message ?? "\(error)")", at: location)
                throw error
            }
            world.record(described, at: location)
            return []
        }
    }

    /// Turns `launch{}`'s table into a host request; unknown keys are left
    /// for the host to reject with its list of accepted options.
    static func launchRequest(_ options: LuaTable, invalid: (String) -> Error) throws -> LaunchRequest {
        var request = LaunchRequest()
        for (key, value) in options.pairs {
            guard let key = key.stringValue else { throw invalid("launch option names must be strings") }
            switch (key, value) {
            case ("url", .nil), ("via", .nil): continue
            case ("url", .string(let url)):
                request.link = .url(url.string)
            case ("url", .table):
                let (input, entry) = try BindingSupport.linkInput(value, invalid: invalid)
                request.link = input
                if options["via"].isNil { request.via = entry }
            case ("via", .string(let name)):
                guard let entry = EntryPoint(rawValue: name.string) else {
                    throw invalid("unknown entry point '\(name.string)'; expected one of: "
                        + EntryPoint.allCases.map(\.rawValue).joined(separator: ", "))
                }
                request.via = entry
            case (_, .boolean(let flag)): request.options[key] = .bool(flag)
            case (_, .string(let text)): request.options[key] = .string(text.string)
            case (_, .integer(let number)): request.options[key] = .number(Double(number))
            case (_, .number(let number)): request.options[key] = .number(number)
            default:
                throw invalid("launch option '\(key)' must be a boolean, string or number, got \(value.typeName)")
            }
        }
        return request
    }
}
