import NavigationCore
import Testing

@testable import NavScript
@testable import NavScriptLua
@testable import NavScriptRuntime

/// Every branch of every invariant, on a scripted app.
@Suite("Invariant")
struct InvariantTests {
    final class FakeApp: AppDriver {
        var coordinatorPaths: [String] = ["app", "app/tab"]
        var owners: [ScreenOwner]? = [ScreenOwner(screen: "home", owner: "app/tab")]
        var leaks: [LifecycleTracker.Leak] = []
        let eventLog = EventLog()
        var isIdle = true
        var pendingWork: [String] = []
        func perform(_ action: AppAction) throws(HostError) -> LinkOutcome? { nil }
        func settle() throws(HostError) {}
        func relaunch(restore: Bool) throws(HostError) -> any AppDriver { self }
        var state: NavigationState { shown }
        var visibleScreen: String? { "home" }
        var step: Int { 0 }
        var rootFlow: String { "main" }
        var screenOwners: [ScreenOwner]? { owners }
        var warnings: [PlatformWarning] = []
        var platformWarnings: [PlatformWarning] { warnings }
        var satisfied: Set<Precondition>?
        var satisfiedPreconditions: Set<Precondition>? { satisfied }
        var shown = NavigationState(selectedTab: "tab", tabs: ["tab"])
    }

    /// Two windows of a fake app: each its own state.
    final class TwoWindows: SceneDriving {
        let eventLog = EventLog()
        var states: [Int: NavigationState] = [:]
        var sceneNumbers: [Int] { states.keys.sorted() }
        var foregroundScene = 1
        var actingScene: Int?
        var satisfiedPreconditions: Set<Precondition>? = []
        func perform(_ action: AppAction) throws(HostError) -> LinkOutcome? { nil }
        func settle() throws(HostError) {}
        func relaunch(restore: Bool) throws(HostError) -> any AppDriver { self }
        var state: NavigationState { states[actingScene ?? foregroundScene]! }
        var visibleScreen: String? { nil }
        var coordinatorPaths: [String] { [] }
        var step: Int { 0 }
        var rootFlow: String { "main" }
        var leaks: [LifecycleTracker.Leak] { [] }
        func openScene(with activity: EntryInput?, via entry: EntryPoint) throws(HostError) -> (scene: Int, outcome: LinkOutcome?) {
            (0, nil)
        }
        func focusScene(_ number: Int) throws(HostError) {}
        func closeScene(_ number: Int) throws(HostError) {}
        func deliver(_ input: EntryInput, via entry: EntryPoint, toScene number: Int) throws(HostError) -> LinkOutcome {
            LinkOutcome(status: .proceed)
        }
        func state(ofScene number: Int) -> NavigationState? { states[number] }
    }

    static let manifest = RouteManifest(
        scheme: "t", universalHosts: [], tabs: ["tab", "orders"], preconditions: ["auth"],
        destinations: [
            RouteDefinition("home", tab: "tab", flow: "tab"), RouteDefinition("orders", tab: "orders", flow: "orders"),
            RouteDefinition("order", parent: "orders", flow: "orders", preconditions: ["auth"])
        ])

    static func gates() throws -> Invariant.ScreenGates { Invariant.ScreenGates(try RoutingEngine(manifest: manifest)) }

    @Test func aGatedScreenLeftOnScreenWithoutItsPreconditionIsNamedInEveryWindow() throws {
        let windows = TwoWindows()
        windows.states[1] = NavigationState(
            selectedTab: "tab", tabs: ["tab", "orders"], stacks: ["orders": [RouteStep("orders"), RouteStep("order", params: ["id": "7"])]])
        windows.states[2] = NavigationState(selectedTab: "tab", tabs: ["tab", "orders"], stacks: ["tab": [RouteStep("home")]])
        let failure = try #require(Invariant.gatedScreens(windows, gates: try Self.gates()))
        #expect(
            failure.message
                == "a screen that needs a precondition is on screen without it: order:7 (scene 1, tab orders) needs auth, which does not hold"
        )
        windows.satisfiedPreconditions = ["auth"]
        #expect(Invariant.gatedScreens(windows, gates: try Self.gates()) == nil, "signed in: the order may be shown")
        windows.satisfiedPreconditions = nil
        #expect(
            Invariant.gatedScreens(windows, gates: try Self.gates()) == nil, "an app that does not say is not judged")
    }

    @Test func aGatedScreenInAModalOfOneWindowIsFound() throws {
        let app = FakeApp()
        app.satisfied = []
        #expect(Invariant.gatedScreens(app, gates: try Self.gates()) == nil, "nothing gated on screen")
        app.shown = NavigationState(selectedTab: "tab", tabs: ["tab"], modals: [[RouteStep("order", params: ["id": "3"])]])
        let failure = try #require(Invariant.gatedScreens(app, gates: try Self.gates()))
        #expect(failure.details == "  order:3 (modal 1) needs auth, which does not hold")
        #expect(Invariant.uniqueCoordinators.isPerScene && Invariant.flowOwnership.isPerScene)
        #expect(!Invariant.leaks.isPerScene && !Invariant.gatedScreens.isPerScene)
    }

    func violated(_ app: FakeApp) -> [String] {
        Invariant.violations(of: app, leaks: app.leaks, checking: Invariant.allCases) { "step \($0)" }.map(\.0.rawValue)
    }

    @Test func aHealthyAppViolatesNothing() {
        #expect(violated(FakeApp()).isEmpty)
    }

    @Test func eachInvariantHasItsSymptom() throws {
        let leaking = FakeApp()
        leaking.leaks = [LifecycleTracker.Leak(label: "item:7", kind: .screen, leftAtStep: 2, leftDuring: "back")]
        #expect(violated(leaking) == ["leaks"])
        let failure = try #require(
            Invariant.violations(of: leaking, leaks: leaking.leaks, checking: [.leaks]) { "step \($0 + 1)" }.first?.1)
        #expect(failure.details == "  leaked: item:7 (screen) left the navigation at step 3 and is still alive")

        let doubled = FakeApp()
        doubled.coordinatorPaths = ["app", "app/tab", "app/auth", "app/auth"]
        doubled.owners = [ScreenOwner(screen: "home", owner: "app/tab"), ScreenOwner(screen: "login", owner: "app/auth")]
        #expect(violated(doubled) == ["unique_coordinators"])

        let orphan = FakeApp()
        orphan.owners = [
            ScreenOwner(screen: "home", owner: "app/tab"), ScreenOwner(screen: "order:7", owner: nil),
            ScreenOwner(screen: "track:7", owner: "app/gone")
        ]
        #expect(violated(orphan) == ["flow_ownership"])
        let orphanDetails = try #require(
            Invariant.violations(of: orphan, leaks: orphan.leaks, checking: [.flowOwnership]) { "\($0)" }.first?.1)
        #expect(orphanDetails.details.contains("order:7 belongs to no flow"))
        #expect(orphanDetails.details.contains("track:7 belongs to app/gone, which is not alive"))

        let idleFlow = FakeApp()
        idleFlow.coordinatorPaths = ["app", "app/tab", "app/settings"]
        #expect(violated(idleFlow) == ["flow_ownership"])
        idleFlow.leaks = [LifecycleTracker.Leak(label: "app/settings", kind: .coordinator, leftAtStep: 1, leftDuring: "dismiss")]
        #expect(violated(idleFlow) == ["leaks"], "a leaked flow is reported as the leak it is, not twice")

        let busy = FakeApp()
        busy.isIdle = false
        #expect(violated(busy) == ["idle"])
        let unnamed = try #require(Invariant.violations(of: busy, leaks: [], checking: [.idle]) { "\($0)" }.first?.1)
        #expect(unnamed.message == "the app did not go idle" && unnamed.details == "settle() left work pending")
        // What is pending is named: the stranded request first, what queued behind it after.
        busy.pendingWork =
            ["dispatcher: executing orders (its completion not called yet)"] + (1...11).map { "dispatcher: queued p\($0) (external)" }
        let named = try #require(Invariant.violations(of: busy, leaks: [], checking: [.idle]) { "\($0)" }.first?.1)
        #expect(
            named.message == "the app did not go idle: dispatcher: executing orders (its completion not called yet) (and 11 more)",
            "\(named.message)")
        #expect(named.details.hasPrefix("settle() left pending:\n  dispatcher: executing orders"), "\(named.details)")
        #expect(named.details.hasSuffix("  dispatcher: queued p9 (external)\n  … and 2 more"), "\(named.details)")

        let looping = FakeApp()
        let cart = RouteRequest("cart")
        looping.eventLog.record(.gate("auth", cart))
        looping.eventLog.record(.loopGuard(cart, "auth", count: 5))
        #expect(violated(looping) == ["loop_guard"])

        let warned = FakeApp()
        warned.warnings = [
            PlatformWarning(.multipleUpdates, "home", "the path of 'home' was written 2 times in one frame"),
            PlatformWarning(.droppedWrite, "profile", "the binding kept it")
        ]
        #expect(violated(warned) == ["platform_warnings"])
        let warning = try #require(
            Invariant.violations(of: warned, leaks: [], checking: [.platformWarnings]) { "\($0)" }.first?.1)
        #expect(warning.message == "the platform warned 2 times: warning multiple-updates home")
        #expect(warning.details.contains("warning dropped-write profile: the binding kept it"))
        #expect(warning.details.contains("to fix (multiple-updates): write the bound value once per change"))

        let unknown = FakeApp()
        unknown.owners = nil
        unknown.coordinatorPaths = ["app", "app/x"]
        #expect(violated(unknown).isEmpty, "an app that cannot tell ownership is not checked for it")
    }
}
