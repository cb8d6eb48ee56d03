import Testing

@testable import NavigationCore

// A small app on the flows layer, over the fixture manifest: home (with a
// pushed product flow), orders (auth; a pushed order flow), profile; cart
// and settings as modal flows; sign-in and payment as satisfying flows.

final class HomeFlow: TabFlow {
    override func makeOwnScreen(_ step: RouteStep) -> Screen? {
        ["home", "category", "promo"].contains(step.id) ? trackedScreen(step, navigation) : nil
    }
    override func makeChildFlow(for step: RouteStep) -> PushedFlow? {
        step.id == "product"
            ? TestPushedFlow(
                name: "product", tab: tab, entry: "product", destinations: ["reviews"],
                navigation: navigation) : nil
    }
}

final class OrdersFlow: TabFlow {
    override func makeOwnScreen(_ step: RouteStep) -> Screen? { step.id == "orders" ? trackedScreen(step, navigation) : nil }
    override func makeChildFlow(for step: RouteStep) -> PushedFlow? {
        step.id == "order"
            ? TestPushedFlow(
                name: "order", tab: tab, entry: "order", destinations: ["track"],
                navigation: navigation) : nil
    }
}

final class ProfileFlow: TabFlow {
    override func makeOwnScreen(_ step: RouteStep) -> Screen? { step.id == "profile" ? trackedScreen(step, navigation) : nil }
}

final class TestPushedFlow: PushedFlow {
    override func makeScreen(_ step: RouteStep) -> Screen { trackedScreen(step, navigation) }
}

/// A modal flow whose screens have `close`, and `submit` (completes, running `onSubmit` first).
final class TestModalFlow: ModalFlow {
    var onSubmit: () -> Void = {}
    override func makeScreen(_ step: RouteStep) -> Screen {
        let screen = trackedScreen(step, navigation)
        wireClose(screen)
        screen.setOutput("submit") { [weak self] _ in
            self?.onSubmit()
            self?.finish(.completed)
        }
        return screen
    }
}

func trackedScreen(_ step: RouteStep, _ navigation: SimulatedNavigation) -> Screen {
    let screen = Screen(step.id, params: step.params)
    navigation.tracker.track(screen, label: screen.label, kind: .screen)
    return screen
}

final class TestRoot: RootFlow {
    var satisfied: Set<Precondition> = []
    /// Sign-in "completes" without satisfying anything (a commit bug).
    var signInSatisfiesNothing = false
    var finishedModals: [String] = []

    override func start() {
        super.start()
        startTabFlow(HomeFlow(name: "browse", tab: "home", root: "home", navigation: navigation))
        startTabFlow(OrdersFlow(name: "orders", tab: "orders", root: "orders", navigation: navigation))
        startTabFlow(ProfileFlow(name: "profile", tab: "profile", root: "profile", navigation: navigation))
    }

    override func makeModalFlow(for destination: DestinationID) -> ModalFlow? {
        switch destination {
        case "cart", "settings": return TestModalFlow(name: destination.rawValue, navigation: navigation)
        default: return nil
        }
    }

    override func isSatisfied(_ precondition: Precondition) -> Bool { satisfied.contains(precondition) }

    override func satisfyingFlow(for precondition: Precondition) -> (flow: ModalFlow, steps: [RouteStep])? {
        guard precondition == "auth" || precondition == "payment_method" else { return nil }
        let flow = TestModalFlow(name: precondition == "auth" ? "auth" : "payment", navigation: navigation)
        flow.onSubmit = { [weak self] in
            guard let self, !(precondition == "auth" && self.signInSatisfiesNothing) else { return }
            self.satisfied.insert(precondition)
        }
        return (flow, [RouteStep(precondition == "auth" ? "login" : "add_payment")])
    }

    override func modalFlowDidFinish(_ flow: ModalFlow, result: FlowResult) {
        finishedModals.append("\(flow.name) \(result)")
    }
}

/// The test app: world, root and dispatcher.
struct FlowsApp {
    let world = World()
    let root: TestRoot
    let dispatcher: RouteDispatcher

    init() throws {
        root = TestRoot(navigation: world.nav)
        let root = self.root
        dispatcher = RouteDispatcher(engine: try Fixture.engine(), root: root, log: world.log, gateBound: 3) {
            RouteContext(satisfied: root.satisfied)
        }
        root.start()
    }

    var user: SimulatedUser { SimulatedUser(navigation: world.nav) }

    @discardableResult
    func link(_ url: String) throws -> RouteDispatcher.Outcome {
        let outcome = dispatcher.deliver(.url(url), via: .scheme)
        try world.scheduler.settle()
        return outcome
    }

    func tap(_ output: String) throws {
        try user.tap(output)
        try world.scheduler.settle()
    }

    var modalRoots: [String] { world.nav.modals.compactMap { $0.stack.root?.label } }
    var paths: [String] { root.treePaths() }
    func count(_ text: String) -> Int { world.log.texts.filter { $0 == text || $0.hasPrefix(text + " ") }.count }
}

@Suite("Flows: one sign-in for every waiting request")
struct SharedGateTests {
    @Test func twoWaitersShareOneSignInAndTheLastDecides() throws {
        let app = try FlowsApp()
        #expect(try app.link("shop://orders/7") == .gated("auth", resume: RouteRequest("order", params: ["id": "7"])))
        #expect(try app.link("shop://cart") == .gated("auth", resume: RouteRequest("cart")))
        #expect(app.modalRoots == ["login"])
        #expect(app.paths.filter { $0 == "app/auth" }.count == 1)
        #expect(app.root.gates.waiters(for: "auth") == 2)
        try app.tap("submit")
        #expect(app.count("join-gate auth") == 1)
        #expect(app.count("resume") == 2)
        #expect(app.world.log.texts.firstIndex(of: "resume order:7")! < app.world.log.texts.firstIndex(of: "resume cart")!)
        #expect(app.modalRoots == ["cart"], "the last link decides where the user ends")
        #expect(app.world.nav.stack("orders").screens.map(\.label) == ["orders", "order:7"])
        #expect(app.world.tracker.leaks().isEmpty)
    }

    @Test func threeWaitersResumeInArrivalOrder() throws {
        let app = try FlowsApp()
        try app.link("shop://orders/1")
        try app.link("shop://orders/2/track")
        try app.link("shop://orders/3")
        #expect(app.modalRoots == ["login"])
        #expect(app.count("join-gate auth") == 2)
        try app.tap("submit")
        let resumes = app.world.log.texts.filter { $0.hasPrefix("resume ") }
        #expect(resumes == ["resume order:1", "resume track:2", "resume order:3"])
        #expect(app.world.nav.stack("orders").screens.map(\.label) == ["orders", "order:3"])
        #expect(app.paths == ["app", "app/browse", "app/orders", "app/orders/order", "app/profile"])
        #expect(app.world.tracker.leaks().isEmpty)
    }

    @Test func cancellingDropsEveryWaiter() throws {
        let app = try FlowsApp()
        try app.link("shop://orders/7")
        try app.link("shop://cart")
        try app.tap("close")
        #expect(app.modalRoots.isEmpty)
        #expect(app.world.log.texts.filter { $0.hasPrefix("drop ") } == ["drop order:7", "drop cart"])
        #expect(!app.root.gates.isSatisfying("auth"))
        #expect(app.paths == ["app", "app/browse", "app/orders", "app/profile"])
        #expect(app.world.tracker.leaks().isEmpty)
    }

    @Test func aLinkArrivingDuringAnExpirySignInWaitsForIt() throws {
        let app = try FlowsApp()
        var expiryResult: Bool?
        app.root.satisfy("auth") { expiryResult = $0 }  // what session expiry does
        try app.world.scheduler.settle()
        try app.link("shop://orders/7")
        #expect(app.modalRoots == ["login"])
        try app.tap("submit")
        #expect(expiryResult == true)
        #expect(app.world.nav.stack("orders").screens.map(\.label) == ["orders", "order:7"])
        #expect(app.count("present login") == 1)
    }

    @Test func aChainedGateBehindASharedSignInStillAsksForTheNextPrecondition() throws {
        let app = try FlowsApp()
        try app.link("shop://orders/7")
        try app.link("shop://checkout")  // auth (the cart's), then payment_method
        try app.tap("submit")
        #expect(app.modalRoots == ["add_payment"], "the checkout's second gate presents its own flow")
        #expect(
            app.world.nav.stack("orders").screens.map(\.label) == ["orders", "order:7"],
            "the first waiter resumed before the chained one")
        try app.tap("submit")
        #expect(app.modalRoots == ["cart"])
        #expect(app.world.nav.modals.first?.stack.screens.map(\.label) == ["cart", "checkout"])
    }

    @Test func aGateThatNeverHoldsStopsAtTheLoopGuard() throws {
        let app = try FlowsApp()
        app.root.signInSatisfiesNothing = true
        try app.link("shop://orders/7")
        for _ in 0..<3 {
            #expect(app.modalRoots == ["login"])
            try app.tap("submit")
        }
        #expect(app.count("loop-guard order:7 auth") == 1)
        #expect(app.modalRoots.isEmpty)
        #expect(app.world.scheduler.isIdle)
    }

    @Test func anUnsatisfiablePreconditionIsLoggedAndRefused() throws {
        let app = try FlowsApp()
        var result: Bool?
        app.root.satisfy("vip") { result = $0 }
        #expect(result == false)
        #expect(app.count("unsatisfiable vip") == 1)
        app.root.satisfied.insert("auth")
        app.root.satisfy("auth") { result = $0 }
        #expect(result == true, "a precondition that already holds needs no flow")
    }
}

@Suite("GateSatisfier")
struct GateSatisfierTests {
    @Test func theFirstRequestStartsLaterOnesJoinAndAllHearTheResultInOrder() {
        let log = EventLog()
        let gates = GateSatisfier(log: log)
        var finish: ((Bool) -> Void)?
        var starts = 0
        var heard: [String] = []
        for name in ["a", "b", "c"] {
            gates.satisfy(
                "auth",
                start: { done in
                    starts += 1; finish = done
                }
            ) { heard.append("\(name) \($0)") }
        }
        #expect(starts == 1 && gates.waiters(for: "auth") == 3 && gates.isSatisfying("auth"))
        #expect(log.texts == ["join-gate auth", "join-gate auth"])
        finish?(true)
        #expect(heard == ["a true", "b true", "c true"])
        #expect(!gates.isSatisfying("auth"))
        finish?(false)
        #expect(heard.count == 3, "a second report of the same flow reaches nobody")
        gates.satisfy(
            "auth",
            start: { done in
                starts += 1; done(false)
            }
        ) { heard.append("d \($0)") }
        #expect(starts == 2 && heard.last == "d false")
    }

    @Test func preconditionsAreIndependentAndResetDropsWaiters() {
        let gates = GateSatisfier(log: EventLog())
        var heard: [String] = []
        var finish: ((Bool) -> Void)?
        gates.satisfy("auth", start: { finish = $0 }) { heard.append("auth \($0)") }
        gates.satisfy("payment_method", start: { done in done(true) }) { heard.append("pay \($0)") }
        #expect(heard == ["pay true"])
        gates.reset()
        #expect(heard == ["pay true", "auth false"], "a waiter hears that its gate was dropped")
        #expect(!gates.isSatisfying("auth"))
        finish?(true)
        #expect(heard.count == 2, "the torn-down flow's late report reaches nobody")
    }
}

@Suite("Flows: tab, pushed and modal flows, the op applier, the ready gate")
struct FlowMechanicsTests {
    @Test func aPushedFlowLivesWhileItsFirstScreenIsOnTheStack() throws {
        let app = try FlowsApp()
        try app.link("shop://product/p1/reviews")
        #expect(app.paths.contains("app/browse/product"))
        #expect(app.world.nav.stack("home").screens.map(\.label) == ["home", "product:p1", "reviews:p1"])
        try app.user.backSwipe(cancel: true)
        try app.world.scheduler.settle()
        #expect(app.paths.contains("app/browse/product"), "a cancelled swipe tears nothing down")
        try app.user.back()
        #expect(app.paths.contains("app/browse/product"), "reviews belong to the product flow")
        try app.user.backSwipe(animated: false)
        try app.world.scheduler.settle()
        #expect(!app.paths.contains("app/browse/product"), "a non-animated pop is detected too")
        #expect(app.world.tracker.leaks().isEmpty)
        #expect(app.count("finish app/browse/product cancelled") == 1)
    }

    /// A screen an output pushes inside its flow (deeper in a product) is
    /// the flow's without a line of app code: `push(_:)` sets its owner.
    @Test func aScreenAFlowPushesItselfIsOwnedByThatFlow() throws {
        let app = try FlowsApp()
        try app.link("shop://product/p1")
        let stack = app.world.nav.stack("home")
        let flow = try #require(stack.screens.last?.owner as? PushedFlow)
        flow.push(RouteStep("reviews", params: ["id": "p1"]))
        try app.world.scheduler.settle()
        #expect(stack.screens.map(\.label) == ["home", "product:p1", "reviews:p1"])
        #expect(stack.screens.last?.owner === flow)
    }

    @Test func aResetStackTearsDownTheChildrenItReplaced() throws {
        let app = try FlowsApp()
        try app.link("shop://product/p1")
        try app.link("shop://product/p2")
        #expect(app.paths.filter { $0 == "app/browse/product" }.count == 1)
        #expect(app.world.tracker.leaks().isEmpty)
        app.root.tabFlow("home")?.materialize([RouteStep("home"), RouteStep("checkout")], keeping: 1)
        #expect(app.count("cannot-build app/browse checkout") == 1)
    }

    @Test func aModalFlowEndsOnCloseOrSwipeDownAndTheRootHearsOfIt() throws {
        let app = try FlowsApp()
        try app.link("shop://settings")
        #expect(app.modalRoots == ["settings"])
        try app.tap("close")
        try app.link("shop://settings")
        try app.user.dismiss()
        try app.world.scheduler.settle()
        #expect(app.root.finishedModals == ["settings cancelled", "settings cancelled"])
        #expect(app.modalRoots.isEmpty && app.world.tracker.leaks().isEmpty)
        #expect(app.paths == ["app", "app/browse", "app/orders", "app/profile"])
    }

    @Test func plansAreAppliedInOrderWaitingForTransitions() throws {
        let app = try FlowsApp()
        try app.link("shop://settings/address")
        #expect(app.modalRoots == ["settings"], "the chain stops where no modal flow presents a destination")
        #expect(app.count("no-modal-flow address") == 1)
        app.root.satisfied.insert("auth")
        try app.link("shop://orders/7")
        let texts = app.world.log.texts
        let dismiss = try #require(texts.lastIndex { $0.hasPrefix("dismiss ") })
        let select = try #require(texts.lastIndex(of: "select-tab orders"))
        #expect(dismiss < select, "stale modals go before the tab switch")
        #expect(app.modalRoots.isEmpty)
    }

    @Test func tearingDownAllFlowsReleasesEverything() throws {
        let app = try FlowsApp()
        app.root.satisfied.insert("auth")
        try app.link("shop://orders/7")
        try app.link("shop://settings")
        app.root.tearDownAllFlows()
        try app.world.scheduler.settle()
        #expect(app.paths == ["app"])
        #expect(app.world.nav.modals.isEmpty)
        #expect(app.world.tracker.leaks().isEmpty)
    }

    /// A flow's cancellation can gate a request while the flows come down
    /// (onboarding ending releases a link it held, which meets sign-in):
    /// that request is dropped too, not left waiting on a flow torn down
    /// with the rest, which would never report (a closed window's root is
    /// gone before the dismissal it waits for completes): dropped at once,
    /// as teardown returns.
    @Test func aRequestGatedWhileTheFlowsComeDownIsDroppedToo() throws {
        let app = try FlowsApp()
        try app.link("shop://settings")
        let settings = try #require(app.world.nav.modals.first?.delegate as? ModalFlow)
        let finished = settings.onFinish
        let dispatcher = app.dispatcher
        settings.onFinish = { result in
            finished?(result)
            _ = dispatcher.deliver(.url("shop://orders/7"), via: .scheme)
        }
        app.root.tearDownAllFlows()
        #expect(app.world.log.texts.contains("gate auth order:7"), "\(app.world.log.texts)")
        #expect(app.world.log.texts.filter { $0.hasPrefix("drop ") } == ["drop order:7"], "\(app.world.log.texts)")
        try app.world.scheduler.settle()
        #expect(app.world.log.texts.filter { $0.hasPrefix("drop ") } == ["drop order:7"], "dropped once")
        #expect(!app.root.gates.isSatisfying("auth"))
    }

    @Test func restoringDropsWhatTheSessionMayNotSee() throws {
        let app = try FlowsApp()
        let saved = NavigationState(
            selectedTab: "orders", tabs: ["home", "orders", "profile"],
            stacks: [
                "home": [RouteStep("home"), RouteStep("product", params: ["id": "p1"])],
                "orders": [RouteStep("orders"), RouteStep("order", params: ["id": "7"])]
            ])
        var done = false
        app.root.restore(saved, isRestorable: { $0.id != "order" }) { done = true }
        try app.world.scheduler.settle()
        #expect(done)
        #expect(app.world.nav.stack("home").screens.map(\.label) == ["home", "product:p1"])
        #expect(app.world.nav.stack("orders").screens.map(\.label) == ["orders"])
        #expect(app.world.nav.selectedTab == "orders")
    }

    @Test func theReadyGateHoldsColdStartLinksUntilItOpens() {
        let log = EventLog()
        let gate = ReadyGate(log: log)
        #expect(gate.hold(.url("shop://a"), via: .scheme))
        #expect(gate.hold(.payload(["route": "b"]), via: .push))
        var delivered: [String] = []
        gate.open { input, entry in delivered.append("\(entry) \(input)") }
        #expect(delivered == ["scheme shop://a", "push {route=b}"])
        #expect(!gate.hold(.url("shop://c"), via: .scheme), "an open gate holds nothing")
        gate.open { _, _ in delivered.append("again") }
        #expect(delivered.count == 2)
        #expect(log.texts == ["stash scheme shop://a", "stash push {route=b}"])
    }
}
