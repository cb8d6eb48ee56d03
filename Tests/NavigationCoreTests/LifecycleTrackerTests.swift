import Testing

@testable import NavigationCore

/// Leak detection on real ARC: nothing here is simulated — objects are freed
/// (or not) by the runtime and the tracker learns of it from their deinit.
@Suite("LifecycleTracker")
struct LifecycleTrackerTests {
    let world = World()
    var stack: NavigationStack { world.nav.stack("home") }

    init() {
        world.push([step("home"), step("product", id: "p1")], on: "home")
    }

    @Test func aPoppedScreenNobodyHoldsIsFreedAndNotALeak() throws {
        world.log.beginStep("tap back")
        try world.nav.backButton()
        try world.scheduler.settle()
        #expect(world.tracker.leaks().isEmpty)
        #expect(world.log.texts.suffix(2) == ["release product:p1", "dealloc product:p1"])
        #expect(world.log.entries.last?.step == 1)
        #expect(world.tracker.liveLabels == ["home"])
    }

    @Test func aPoppedScreenTheTestRetainsIsReportedWithLabelAndStep() throws {
        world.log.beginStep("open reviews")
        world.push([step("reviews", id: "p1")], on: "home")
        world.log.beginStep("swipe back")
        let retained = try #require(stack.pop())
        world.log.beginStep("tap home")
        try world.scheduler.settle()

        let leaks = world.tracker.leaks()
        #expect(leaks == [LifecycleTracker.Leak(label: "reviews:p1", kind: .screen, leftAtStep: 2, leftDuring: "swipe back")])
        #expect(leaks.first?.description == "reviews:p1 (screen) left the navigation at step 2 (swipe back) and is still alive")
        #expect(!world.log.texts.contains("dealloc reviews:p1"))
        withExtendedLifetime(retained) {}
    }

    /// A screen the app's factory never tracked is watched from the moment a
    /// stack is given it (pushed or set): a leak check cannot pass by omission.
    @Test(arguments: [false, true])
    func aScreenNobodyTrackedIsWatchedOnceAStackHasIt(bySetting: Bool) throws {
        func untracked() -> Screen { Screen("reviews", params: ["id": "p1"]) }
        if bySetting { stack.setScreens(stack.screens + [untracked()]) } else { stack.push(untracked()) }
        world.log.beginStep("swipe back")
        let retained = try #require(stack.pop())
        #expect(world.tracker.leaks().map(\.label) == ["reviews:p1"], "\(world.log.texts)")
        #expect(world.log.texts.last == "release reviews:p1")
        withExtendedLifetime(retained) {}
    }

    /// What the app tracked keeps its own label (and its anchored view model).
    @Test func aScreenTheAppTrackedKeepsItsRecord() throws {
        let screen = Screen("reviews", params: ["id": "p1"])
        world.tracker.track(screen, label: "reviews (app's label)", kind: .screen)
        stack.push(screen)
        _ = stack.pop()
        #expect(world.tracker.leaks().map(\.label) == ["reviews (app's label)"])
        withExtendedLifetime(screen) {}
    }

    @Test func releasingTheRetainedScreenClearsTheLeakAndLogsTheDealloc() throws {
        var retained: Screen? = stack.pop()
        #expect(world.tracker.leaks().map(\.label) == ["product:p1"])
        retained = nil
        #expect(retained == nil)
        #expect(world.tracker.leaks().isEmpty)
        #expect(world.log.texts.last == "dealloc product:p1")
    }

    /// The leaks are remembered between changes; each kind of change is seen.
    @Test func leaksAreFoundAgainAfterEveryChange() throws {
        #expect(world.tracker.leaks().isEmpty)
        var retained: Screen? = stack.pop()  // a departure
        #expect(world.tracker.leaks().map(\.label) == ["product:p1"])
        #expect(world.tracker.leaks().map(\.label) == ["product:p1"], "asked again, unchanged")
        let extra = Screen("promo", params: ["code": "SALE"])
        world.tracker.track(extra, label: "promo:SALE", kind: .screen)  // a new record
        world.tracker.expectRelease(extra)  // its departure
        #expect(world.tracker.leaks().map(\.label) == ["product:p1", "promo:SALE"])
        retained = nil  // a deallocation
        #expect(retained == nil)
        #expect(world.tracker.leaks().map(\.label) == ["promo:SALE"])
        world.tracker.track(extra, label: "promo:SALE2", kind: .screen)  // relabelled
        #expect(world.tracker.leaks().map(\.label) == ["promo:SALE2"])
        withExtendedLifetime(extra) {}
    }

    @Test func anchoredViewModelIsExpectedToGoWithItsScreen() throws {
        attachViewModel(to: try #require(stack.top))
        world.log.beginStep("tap back")
        try world.nav.backButton()
        let after = world.decisions()
        #expect(after.events.suffix(2) == ["release product:p1", "release vm product:p1"])
        #expect(after.deallocated == ["product:p1", "vm product:p1"])
        #expect(world.tracker.leaks().isEmpty)
    }

    @Test func anchoredViewModelRetainedElsewhereIsALeakOfItsOwn() throws {
        let cache = attachViewModel(to: try #require(stack.top))
        world.log.beginStep("tap back")
        try world.nav.backButton()
        #expect(
            world.tracker.leaks() == [
                LifecycleTracker.Leak(
                    label: "vm product:p1", kind: .viewModel,
                    leftAtStep: 1, leftDuring: "tap back")
            ])
        #expect(world.log.texts.contains("dealloc product:p1"), "the screen itself went")
        withExtendedLifetime(cache) {}
    }

    @Test func aRetainCycleBetweenScreenAndViewModelLeaksBoth() throws {
        let screen = try #require(stack.top)
        attachViewModel(to: screen, cycle: true)
        world.log.beginStep("tap back")
        try world.nav.backButton()
        #expect(world.tracker.leaks().map(\.label) == ["product:p1", "vm product:p1"])
        #expect(world.tracker.leaks().map(\.kind) == [.screen, .viewModel])
        // Breaking the cycle frees both, and the tracker sees it.
        screen.viewModel = nil
        #expect(world.tracker.leaks().map(\.label) == ["product:p1"], "the test's `screen` still holds the screen")
    }

    @Test func quietWhenNothingLeftTheNavigation() throws {
        attachViewModel(to: try #require(stack.top))
        world.nav.select("orders")
        try world.scheduler.settle()
        #expect(world.tracker.leaks().isEmpty)
        #expect(world.tracker.liveLabels == ["home", "product:p1", "vm product:p1"])
        #expect(!world.log.texts.contains { $0.hasPrefix("release") || $0.hasPrefix("dealloc") })
    }

    @Test func quietWhenEverythingLeftAndWasFreed() throws {
        attachViewModel(to: try #require(stack.top))
        stack.removeAll()
        #expect(world.tracker.leaks().isEmpty)
        #expect(world.tracker.liveLabels.isEmpty)
    }

    @Test func deallocationIsObservedEvenWithoutARelease() {
        do {
            let vm = ViewModel()
            world.tracker.track(vm, label: "orphan", kind: .viewModel)
            #expect(world.tracker.liveLabels.contains("orphan"))
        }
        #expect(world.log.texts.last == "dealloc orphan")
        #expect(!world.log.texts.contains("release orphan"))
        #expect(world.tracker.leaks().isEmpty)
    }

    @Test func expectingTheReleaseOfAnUntrackedObjectIsIgnored() {
        let stranger = ViewModel()
        world.tracker.expectRelease(stranger)
        #expect(!world.tracker.hasLeft(stranger))
        #expect(world.tracker.leaks().isEmpty)
    }

    @Test func releaseIsMarkedOnce() throws {
        let screen = try #require(stack.top)
        world.tracker.expectRelease(screen)
        world.log.beginStep("later")
        world.tracker.expectRelease(screen)
        #expect(world.log.texts.filter { $0 == "release product:p1" }.count == 1)
        #expect(world.tracker.leaks().first?.leftAtStep == 0, "the first departure counts")
    }

    @Test func aCoordinatorAnchoredToItsFirstScreenLeaksWhenItsParentForgetsIt() throws {
        let parent = FlowCoordinator(name: "app", log: world.log)
        world.tracker.track(parent, label: "app", kind: .coordinator)
        startReviewsFlow(under: parent, anchoredTo: try #require(stack.top))
        world.log.beginStep("swipe back")
        try world.nav.backSwipe()
        // The parent never heard of the swipe, so it still holds the child.
        #expect(
            world.tracker.leaks() == [
                LifecycleTracker.Leak(
                    label: "app/reviews", kind: .coordinator,
                    leftAtStep: 1, leftDuring: "swipe back")
            ])
        // Once the parent lets go, ARC frees it and the leak is gone.
        parent.removeAllChildren()
        #expect(world.tracker.leaks().isEmpty)
        #expect(world.log.texts.last == "dealloc app/reviews")
        #expect(world.tracker.liveLabels == ["home", "app"])
    }

    private func startReviewsFlow(under parent: FlowCoordinator, anchoredTo screen: Screen) {
        let child = FlowCoordinator(name: "reviews", log: world.log)
        world.tracker.track(child, label: "app/reviews", kind: .coordinator, anchoredTo: screen)
        parent.startChild(child)
    }

    /// Tracking an object a second time replaces its token; the old token's
    /// deinit then reports a deallocation of an object that is still alive.
    @Test func reTrackingAnObjectDoesNotReportItDeallocated() throws {
        let vm = ViewModel()
        world.tracker.track(vm, label: "vm", kind: .viewModel)
        world.tracker.track(vm, label: "vm again", kind: .viewModel)
        #expect(!world.log.texts.contains { $0.hasPrefix("dealloc") }, "\(world.log.texts)")
        #expect(world.tracker.liveLabels.contains("vm again"))
        withExtendedLifetime(vm) {}
    }

    // MARK: - Helpers

    /// Gives `screen` a tracked view model anchored to it. Returns an extra
    /// strong reference only when the caller keeps it.
    @discardableResult
    private func attachViewModel(to screen: Screen, cycle: Bool = false) -> ViewModel {
        let vm = ViewModel()
        world.tracker.track(vm, label: "vm \(screen.label)", kind: .viewModel, anchoredTo: screen)
        screen.viewModel = vm
        if cycle { vm.owner = screen }
        return vm
    }
}

@Suite("Lifecycle tracker: objects without a token")
struct WatchedObjectTests {
    final class Plain {}

    @Test func aWatchedObjectLeaksOnlyWhileItIsAliveAfterItsAnchorLeft() {
        let log = EventLog()
        let tracker = LifecycleTracker(log: log)
        let screen = Screen("item")
        tracker.track(screen, label: "item", kind: .screen)
        var model: Plain? = Plain()
        tracker.watch(model!, label: "item view-model", kind: .viewModel, anchoredTo: screen)
        #expect(tracker.isTracked(model!))
        tracker.expectRelease(screen)
        #expect(tracker.leaks().map(\.label) == ["item", "item view-model"])
        model = nil
        // No token, no event: the cached answer must still notice the object went.
        #expect(tracker.leaks().map(\.label) == ["item"])
        #expect(log.texts.contains("release item view-model"))
    }

    @Test func anAddressReusedAfterAWatchedObjectWentIsANewObject() {
        let tracker = LifecycleTracker(log: EventLog())
        var first: Plain? = Plain()
        tracker.watch(first!, label: "first", kind: .other)
        let id = ObjectIdentifier(first!)
        first = nil
        // Whatever lives at that address now, the old record no longer answers for it.
        var reused: [Plain] = []
        for _ in 0..<64 {
            let candidate = Plain()
            reused.append(candidate)
            if ObjectIdentifier(candidate) == id {
                #expect(!tracker.isTracked(candidate))
                tracker.expectRelease(candidate)
                #expect(tracker.leaks().isEmpty)
            }
        }
        let fresh = Plain()
        tracker.watch(fresh, label: "fresh", kind: .other)
        tracker.watch(fresh, label: "again", kind: .other)
        tracker.expectRelease(fresh)
        #expect(tracker.leaks().map(\.label) == ["fresh"])
    }
}
