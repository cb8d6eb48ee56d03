import Testing

@testable import NavigationCore

/// The modal's delegate as a coordinator would implement it: it learns
/// about the swipe-down and checks what the tracker now expects.
final class ModalSpy: ModalPresentationDelegate {
    let tracker: LifecycleTracker
    var dismissed: [String] = []
    var screensExpectedGone: [Bool] = []

    init(tracker: LifecycleTracker) { self.tracker = tracker }

    func modalDidDismissInteractively(_ stack: NavigationStack) {
        dismissed.append(stack.name)
        screensExpectedGone = stack.screens.map { tracker.hasLeft($0) }
    }
}

@Suite("SimulatedNavigation")
struct SimulatedNavigationTests {
    let world = World()
    var nav: SimulatedNavigation { world.nav }

    /// `tabStacks` is `stacks` in tab order, and a tab named twice is one tab.
    @Test func tabStacksFollowTheTabsAndATabNamedTwiceIsOne() {
        #expect(nav.tabStacks.map(\.name) == [Fixture.home, Fixture.orders, Fixture.profile].map(\.rawValue))
        #expect(zip(nav.tabs, nav.tabStacks).allSatisfy { nav.stacks[$0] === $1 })
        let twice = World(tabs: [Fixture.home, Fixture.orders, Fixture.home]).nav
        #expect(twice.tabStacks.map(\.name) == [Fixture.home, Fixture.orders].map(\.rawValue))
        #expect(twice.stack(Fixture.home) === twice.tabStacks[0])
    }

    /// Builds and presents a modal stack without keeping a reference to it.
    func presentModal(
        _ steps: [RouteStep], name: String = "modal", animated: Bool = true,
        delegate: ModalPresentationDelegate? = nil, completion: ((Bool) -> Void)? = nil
    ) {
        let stack = nav.makeStack(name: name)
        for step in steps { stack.push(world.screen(step.id, step.params), animated: false) }
        nav.present(stack, animated: animated, delegate: delegate, completion: completion)
    }

    @Test func presentCompletesOnlyAfterTheSchedulerRuns() throws {
        world.push([step("home")], on: "home")
        var completed: [Bool] = []
        presentModal([step("cart")]) { completed.append($0) }
        let modal = try #require(nav.modals.last)
        #expect(completed.isEmpty)
        #expect(modal.state == .presenting)
        #expect(nav.isTransitioning)
        #expect(!world.scheduler.isIdle)
        #expect(nav.visibleScreen?.label == "cart", "the modal is in the hierarchy while it animates")

        try world.scheduler.settle()
        #expect(completed == [true])
        #expect(modal.state == .presented)
        #expect(!nav.isTransitioning)
        #expect(world.scheduler.now == SimulatedNavigation.transitionDuration)
        #expect(modal.presentingTab == "home")
    }

    @Test func presentingDuringATransitionIsRejected() throws {
        var results: [String: [Bool]] = [:]
        presentModal([step("cart")], name: "cart") { results["cart", default: []].append($0) }
        presentModal([step("settings")], name: "settings") { results["settings", default: []].append($0) }
        #expect(results["settings"] == [false], "refused at once")
        #expect(nav.modals.count == 1)
        #expect(world.log.texts.contains("present-rejected settings"))
        try world.scheduler.settle()
        #expect(results == ["cart": [true], "settings": [false]])
        #expect(world.tracker.leaks().isEmpty)
        // The refused stack was dropped, and its screen with it (it never entered the navigation).
        #expect(world.tracker.liveLabels == ["cart"])
    }

    @Test func presentingOnAModalAfterItSettlesIsAccepted() throws {
        presentModal([step("settings")])
        try world.scheduler.settle()
        presentModal([step("address")])
        try world.scheduler.settle()
        #expect(nav.state.modals == [[step("settings")], [step("address")]])
        #expect(!world.log.texts.contains { $0.hasPrefix("present-rejected") })
    }

    @Test func dismissingIsATransitionToo() throws {
        presentModal([step("settings")])
        try world.scheduler.settle()
        var dismissed = false
        nav.dismissModals { dismissed = true }
        #expect(nav.modals.isEmpty)
        #expect(!dismissed)
        var refused: Bool?
        presentModal([step("cart")]) { refused = !$0 }
        #expect(refused == true, "presenting while a dismissal animates is refused")
        try world.scheduler.settle()
        #expect(dismissed)
    }

    @Test func aNonAnimatedPresentCompletesImmediately() {
        var completed: Bool?
        presentModal([step("cart")], animated: false) { completed = $0 }
        #expect(completed == true)
        #expect(world.scheduler.isIdle)
        #expect(nav.modals.first?.state == .presented)
    }

    @Test func interactiveDismissNotifiesTheDelegateAndExpectsTheScreensReleased() throws {
        let spy = ModalSpy(tracker: world.tracker)
        presentModal([step("cart"), step("checkout")], name: "cart-flow", delegate: spy)
        try world.scheduler.settle()
        let mark = world.log.entries.count

        try nav.interactiveDismiss()

        #expect(spy.dismissed == ["cart-flow"])
        #expect(spy.screensExpectedGone == [true, true])
        #expect(nav.modals.isEmpty)
        let after = world.decisions(since: mark)
        #expect(after.events == ["dismiss cart", "release checkout", "release cart"])
        #expect(after.deallocated == ["cart", "checkout"])
        #expect(world.tracker.leaks().isEmpty)
    }

    @Test func interactiveDismissOfARetainedModalIsALeak() throws {
        let spy = ModalSpy(tracker: world.tracker)
        let kept = nav.makeStack(name: "kept")  // the test plays a coordinator that forgets to let go
        kept.push(world.screen("cart"), animated: false)
        nav.present(kept, delegate: spy)
        try world.scheduler.settle()
        world.log.beginStep("swipe down")
        try nav.interactiveDismiss()
        #expect(world.tracker.leaks().map(\.label) == ["cart"])
        #expect(world.tracker.leaks().first?.leftDuring == "swipe down")
        withExtendedLifetime(kept) {}
    }

    @Test func modalInPresentationRefusesTheSwipe() throws {
        let spy = ModalSpy(tracker: world.tracker)
        presentModal([step("checkout")], delegate: spy)
        try world.scheduler.settle()
        nav.modals.last?.isModalInPresentation = true
        try nav.interactiveDismiss()
        #expect(nav.modals.count == 1)
        #expect(spy.dismissed.isEmpty)
    }

    @Test func interactiveDismissWithoutAModalIsAnError() {
        #expect(throws: NavigationError.noModal) { try nav.interactiveDismiss() }
    }

    @Test func dismissingAModalDismissesTheOnesAboveIt() throws {
        let bottom = nav.makeStack(name: "settings")
        bottom.push(world.screen("settings"), animated: false)
        nav.present(bottom, animated: false)
        presentModal([step("address")], animated: false)
        nav.dismiss(bottom, animated: false)
        #expect(nav.modals.isEmpty)
        #expect(world.decisions().events.suffix(4) == ["dismiss address", "release address", "dismiss settings", "release settings"])
        var called = false
        nav.dismiss(bottom, animated: false) { called = true }  // no longer presented
        #expect(called)
    }

    @Test func backButtonActsOnTheVisibleStack() throws {
        world.push([step("home"), step("product", id: "p1")], on: "home")
        presentModal([step("cart"), step("checkout")], animated: false)
        try nav.backButton()
        #expect(nav.state.modals == [[step("cart")]])
        #expect(nav.state.stack("home") == [step("home"), step("product", id: "p1")])
    }

    @Test func tabSwitchKeepsOtherStacksIntact() throws {
        world.push([step("home"), step("product", id: "p1")], on: "home")
        world.push([step("orders"), step("order", id: "7")], on: "orders")
        let homeScreens = nav.stack("home").screens.map(ObjectIdentifier.init)
        var disappeared = 0
        for screen in nav.stack("home").screens { screen.onWillDisappear = { disappeared += 1 } }
        let mark = world.log.entries.count

        nav.select("orders")
        #expect(nav.visibleScreen?.label == "order:7")
        #expect(nav.visibleStack === nav.stacks["orders"], "the selected tab's own stack")
        nav.select("profile")
        #expect(nav.visibleStack === nav.stacks["profile"])
        nav.select("home")
        #expect(nav.visibleStack === nav.stacks["home"])

        #expect(world.events(since: mark) == ["select-tab orders", "select-tab profile", "select-tab home"])
        #expect(nav.stack("home").screens.map(ObjectIdentifier.init) == homeScreens, "same instances")
        #expect(nav.stack("orders").screens.map(\.label) == ["orders", "order:7"])
        #expect(disappeared == 0)
        #expect(world.tracker.liveLabels.count == 4)
        #expect(world.tracker.leaks().isEmpty)
    }

    @Test func selectingTheCurrentOrAnUnknownTabDoesNothing() {
        nav.select("home")
        nav.select("nowhere")
        #expect(nav.selectedTab == "home")
        #expect(nav.visibleStack === nav.stacks["home"])
        #expect(world.log.entries.isEmpty)
    }

    @Test func stateIsASnapshotOfTheNavigation() throws {
        world.push([step("home"), step("product", id: "p1")], on: "home")
        world.push([step("profile")], on: "profile")
        nav.select("profile")
        presentModal([step("settings")], animated: false)
        presentModal([step("address")], animated: false)

        let snapshot = nav.state
        #expect(
            snapshot
                == NavigationState(
                    selectedTab: "profile", tabs: ["home", "orders", "profile"],
                    stacks: ["home": [step("home"), step("product", id: "p1")], "orders": [], "profile": [step("profile")]],
                    modals: [[step("settings")], [step("address")]]))
        #expect(snapshot.visible == step("address"))

        // A value, not a view: later navigation does not change it.
        try nav.interactiveDismiss()
        #expect(snapshot.modals.count == 2)
        #expect(nav.state.modals.count == 1)
        #expect(nav.state.visible == step("settings"))
    }

    @Test func updateInPlaceChangesParamsNotTheInstance() throws {
        world.push([step("home"), step("product", id: "p1")], on: "home")
        let top = try #require(nav.visibleScreen)
        #expect(top.label == "product:p1")
        top.update(params: ["id": "p2"])
        #expect(nav.state.stack("home").last == step("product", id: "p2"))
        #expect(nav.visibleScreen === top)
        #expect(top.label == "product:p2", "the kept label follows the parameters")
    }
}
