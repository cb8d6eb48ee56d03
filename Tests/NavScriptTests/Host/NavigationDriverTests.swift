import NavigationCore
import NotesApp
import TestSupport
import Testing

@testable import NavScript
@testable import NavScriptLua

/// The ready-made AppDriver: gestures through SimulatedUser, links and
/// restarts only where the host overrides them.
@Suite("NavigationDriver")
struct NavigationDriverTests {
    /// A restart builds the next app with the faults the run injected: a
    /// fault lost on `restart()` would let a scenario pass that fails
    /// before it. (The notes driver once relaunched without them.)
    @Test func aRelaunchKeepsTheInjectedFaults() throws {
        func leaksAfterOpeningAndClosingANote(_ app: any AppDriver) throws -> Int {
            _ = try app.perform(.tap(output: "note", args: ["id": "7"]))
            try app.settle()
            _ = try app.perform(.back)
            try app.settle()
            return app.leaks.count
        }
        let faulty = try NotesHost().launch(LaunchRequest(faults: ["keep-popped-notes"]))
        try faulty.settle()
        #expect(try leaksAfterOpeningAndClosingANote(faulty) > 0, "the fault leaks a popped note")
        let relaunched = try faulty.relaunch(restore: false)
        try relaunched.settle()
        #expect(try leaksAfterOpeningAndClosingANote(relaunched) > 0, "and still does after a restart")
        let healthy = try NotesHost().launch(LaunchRequest()).relaunch(restore: false)
        try healthy.settle()
        #expect(try leaksAfterOpeningAndClosingANote(healthy) == 0)
    }

    @Test func gesturesDriveTheNavigationAndOpenSteps() throws {
        let app = try NotesHost().launch(LaunchRequest())
        try app.settle()
        #expect(try app.perform(.tap(output: "note", args: ["id": "7"])) == nil)
        try app.settle()
        #expect(app.visibleScreen == "note:7")
        #expect(app.step == 1)
        _ = try app.perform(.back)
        _ = try app.perform(.selectTab("settings"))
        #expect(app.state.selectedTab == "settings")
        #expect(app.selectedTab == app.state.selectedTab, "the cheap accessor agrees with the state")
        #expect(app.visibleDestination == app.state.visible?.id, "so does the visible destination")
        #expect(app.step == 3)
        #expect(app.events.contains("pop note:7"))
        let outcome = try app.perform(.deepLink(.url("notes://account"), via: .scheme))
        #expect(outcome?.status == .gated)
        #expect(app.step == 4, "a delivered link is a step of its own")
    }

    @Test func refusalsAreHostErrorsWithTheCoresMessage() throws {
        let app = try NotesHost().launch(LaunchRequest())
        #expect(throws: HostError("'notes' is the root of its stack: there is no back button and nothing to swipe back to")) {
            _ = try app.perform(.back)
        }
        #expect(throws: HostError("unknown tab 'x'; tabs are: notes, settings")) { _ = try app.perform(.selectTab("x")) }
    }

    @Test func theLoopGuardEventIsFoundWithoutRenderingTheLog() throws {
        let log = EventLog()
        let navigation = SimulatedNavigation(tabs: ["a"], log: log, tracker: LifecycleTracker(log: log), scheduler: Scheduler())
        let driver = NavigationDriver(navigation: navigation)
        log.record(.selectTab("a"))
        #expect(driver.loopGuardEvent == nil)
        log.record(.loopGuard(RouteRequest("cart"), "auth", count: 3))
        log.record(.loopGuard(RouteRequest("orders"), "auth", count: 4))
        // The same answer as the protocol's default, which searches the rendered texts.
        #expect(driver.loopGuardEvent == driver.events.first { $0.hasPrefix("loop-guard ") })
        #expect(driver.loopGuardEvent == "loop-guard cart auth 3")
    }

    @Test func whatOnlyTheAppKnowsMustBeOverridden() throws {
        let log = EventLog()
        let navigation = SimulatedNavigation(tabs: ["a"], log: log, tracker: LifecycleTracker(log: log), scheduler: Scheduler())
        let driver = NavigationDriver(navigation: navigation)
        #expect(throws: HostError("NavigationDriver does not deliver links: override deliver(_:via:)")) {
            _ = try driver.perform(.deepLink(.url("x://y"), via: .scheme))
        }
        #expect(throws: HostError("NavigationDriver cannot restart: override relaunch(restore:)")) {
            _ = try driver.relaunch(restore: true)
        }
        #expect(driver.coordinatorPaths.isEmpty && driver.rootFlow == "main")
    }

    @Test func launchOptionsAreCheckedAgainstTheHostsDeclarations() throws {
        let host = try NotesHost()
        #expect(throws: Never.self) {
            try host.check(LaunchRequest(options: ["signed_in": .bool(true)]), declared: host.declaredLaunchOptions)
        }
        #expect(throws: HostError("unknown launch option 'x'; NotesApp accepts: signed_in, url, via")) {
            try host.check(LaunchRequest(options: ["x": .bool(true)]), declared: host.declaredLaunchOptions)
        }
        #expect(throws: HostError("launch{ signed_in = 1.0 }: expected a boolean")) {
            try host.check(LaunchRequest(options: ["signed_in": .number(1)]), declared: host.declaredLaunchOptions)
        }
        let choice = LaunchOption.oneOf("mode", ["a", "b"], "")
        #expect(throws: HostError("launch{ mode = \"c\" }: expected one of \"a\", \"b\"")) { try choice.check(.string("c")) }
        #expect(throws: HostError("launch{ mode = true }: expected a string")) { try choice.check(.bool(true)) }
        #expect(throws: HostError("launch{ n = \"1\" }: expected a number")) { try LaunchOption.number("n", "").check(.string("1")) }
    }

    /// A host verb finds its own driver through `app(as:)`: the exact class,
    /// a superclass of it, or a clear error for anything else.
    @Test func aStepHandsOutTheAppAsTheHostsType() throws {
        final class ProbeDriver: NavigationDriver {}
        let log = EventLog()
        let app = ProbeDriver(
            navigation: SimulatedNavigation(
                tabs: ["a"], log: log, tracker: LifecycleTracker(log: log),
                scheduler: Scheduler()))
        let lua = try LuaState.forTests()
        var outcomes: [String] = []
        lua.register("probe") { call in
            let step = ScriptStep(app: app, arguments: call, description: "probe()")
            outcomes.append(try step.app(as: ProbeDriver.self) === app ? "exact" : "other object")
            outcomes.append(try step.app(as: NavigationDriver.self) === app ? "superclass" : "other object")
            do {
                _ = try step.app(as: String.self)
                outcomes.append("cast a driver to a String")
            } catch {
                outcomes.append((error as? HostError)?.message ?? "\(error)")
            }
            return .noValues
        }
        _ = try lua.run(source: "probe()", chunkName: "probe.lua")
        #expect(outcomes == ["exact", "superclass", "probe: the running app is a ProbeDriver, not a String"])
    }
}
