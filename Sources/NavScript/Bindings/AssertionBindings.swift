import NavigationCore

/// The expectations: each checks the app, and on a mismatch raises a
/// *failure* (not an error) carrying the scenario's `file:line`, expected
/// vs actual and a diff. The checks themselves live in ``Expectation``.
enum AssertionBindings {
    static func install(_ state: LuaState, _ session: ScenarioSession) {
        expect(state, session, "expect_stack") { call, app, _ in
            let tab: TabID
            let expected: [String]
            if case .string(let name) = call[1] {
                tab = TabID(name.string)
                try ObservingBindings.requireTab(tab, in: app, call: call)
                expected = try BindingSupport.strings(call, 2)
            } else {
                tab = app.state.selectedTab
                expected = try BindingSupport.strings(call, 1)
            }
            return Expectation.stack(expected, actual: app.state.stack(tab).map(\.description), tab: tab.rawValue)
        }
        expect(state, session, "expect_screen") { call, app, _ in
            Expectation.equal("the screen", expected: try call.string(1), actual: app.state.visible?.description)
        }
        expect(state, session, "expect_tab") { call, app, _ in
            Expectation.equal("the selected tab", expected: try call.string(1), actual: app.state.selectedTab.rawValue)
        }
        expect(state, session, "expect_modal") { call, app, _ in
            let expected = try call.string(1)
            let top = app.state.modals.last ?? []
            guard top.contains(where: { Expectation.entryMatches(expected, $0.description) }) else {
                let shown = app.state.modals.map { Expectation.render($0.map(\.description)) }
                return ExpectationFailure(
                    top.isEmpty ? "no modal is presented, expected '\(expected)'"
                        : "the top modal shows \(Expectation.render(top.map(\.description))), expected '\(expected)'",
                    details: shown.isEmpty ? "" : "modal chain, outermost first: " + shown.joined(separator: " | "))
            }
            return nil
        }
        expect(state, session, "expect_no_modal") { _, app, _ in
            guard app.state.modals.isEmpty else {
                return ExpectationFailure("a modal is presented: "
                    + app.state.modals.map { Expectation.render($0.map(\.description)) }.joined(separator: " | "))
            }
            return nil
        }
        expect(state, session, "expect_no_leaks") { _, app, _ in
            try app.settle()
            return Expectation.noLeaks(app.leaks.map(\.description))
        }
        expect(state, session, "expect_events") { call, app, _ in
            Expectation.events(try BindingSupport.strings(call, 1), actual: app.events)
        }
        expect(state, session, "expect_coordinators") { call, app, _ in
            Expectation.coordinators(try BindingSupport.strings(call, 1), actual: app.coordinatorPaths)
        }
        expect(state, session, "expect_error") { call, app, world in
            let (input, defaultEntry) = try BindingSupport.linkInput(call[1], call: call, position: 1)
            let kind = try call.string(2)
            let known = ["malformed", "unknown_route", "validation_failed"]
            guard known.contains(kind) else {
                throw call.argumentError(2, "unknown error kind '\(kind)'; expected one of: " + known.joined(separator: ", "))
            }
            let options = try call.optionalTable(3) ?? LuaTable()
            let entry = try options["via"].stringValue.map { try BindingSupport.entryPoint($0, call: call, position: 3) } ?? defaultEntry
            let outcome = try app.perform(.deepLink(input, via: entry)) ?? LinkOutcome(status: "error")
            try app.settle()
            world.record("expect_error(\"\(input)\", via \(entry)) → \(outcome.status) \(outcome.error ?? "")",
                         at: world.location ?? world.host.name)
            guard outcome.status == "error", outcome.error == kind else {
                return ExpectationFailure(
                    "\(input) via \(entry) gave \(outcome), expected error \(kind)",
                    details: outcome.message.map { "message: \($0)" } ?? "")
            }
            return nil
        }
        expect(state, session, "expect_same_outcome") { call, _, world in
            let url = try call.string(1)
            let names = try call.optionalTable(2).map { _ in try BindingSupport.strings(call, 2) }
                ?? EntryPoint.allCases.map(\.rawValue)
            var observations: [(entry: String, observation: [String])] = []
            for name in names {
                let entry = try BindingSupport.entryPoint(name, call: call, position: 2)
                var request = world.launchRequest
                request.link = nil
                let app = try world.host.launch(request)
                try app.settle()
                let outcome = try app.perform(.deepLink(world.host.input(for: url, via: entry), via: entry))
                try app.settle()
                let state = app.state
                observations.append((name, [
                    "outcome \(outcome?.description ?? "none")",
                    "tab \(state.selectedTab)",
                    "stack " + Expectation.render(state.stack(state.selectedTab).map(\.description)),
                    "modals " + state.modals.map { Expectation.render($0.map(\.description)) }.joined(separator: " | "),
                    "screen \(state.visible?.description ?? "nothing")",
                ]))
            }
            return Expectation.sameOutcome(url: url, observations: observations)
        }
    }

    /// An expectation: settles nothing itself (verbs already settled), runs
    /// `check`, raises its failure, records a passing check on the timeline.
    private static func expect(_ state: LuaState, _ session: ScenarioSession, _ name: String,
                               _ check: @escaping (LuaCall, any ScenarioApp, ScenarioWorld) throws -> ExpectationFailure?) {
        BindingSupport.define(state, session, name) { call, session in
            let world = try session.requireWorld(call)
            world.location = session.location(of: call)
            let app = try world.ensureApp(at: session.location(of: call))
            if let failure = try check(call, app, world) { throw BindingError.failure(failure) }
            return []
        }
    }
}
