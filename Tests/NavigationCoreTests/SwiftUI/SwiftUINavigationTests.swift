import Observation
import Testing

@testable import NavigationCore

/// A team's coordinator as SwiftUI binds it: a path, a sheet, a tab.
@Observable
private final class Model {
    var tab = "home"
    var path: [Route] = []
    var other: [Route] = []
    var sheet: Sheet?
    var cover: Sheet?
    var alert: Sheet?
    @ObservationIgnored var dismissed = 0
    @ObservationIgnored var cache: [String: PageModel] = [:]
}

private struct Route: Hashable {
    var id: String
    var nonce = 0
}

private struct Unregistered: Hashable {}

private struct Sheet: Identifiable, Hashable {
    var id: String
}

private final class PageModel {}

/// One window over a `Model`: tabs `home` (bound to `path`) and `other`,
/// a sheet, a full-screen cover and an alert on the tab view.
private struct Window {
    let model = Model()
    let log = EventLog()
    let scheduler = Scheduler()
    let tracker: LifecycleTracker
    let window: SwiftUINavigation
    let home: PathStack

    init(pathBinding: ((Model) -> ViewBinding<[Route]>)? = nil, cachesModels: Bool = false, extraSheet: Bool = false) {
        tracker = LifecycleTracker(log: log)
        window = SwiftUINavigation(log: log, tracker: tracker, scheduler: scheduler)
        let model = self.model
        home = window.makeStack("home", path: pathBinding?(model) ?? ViewBinding(model, \.path), root: Screen("root"))
        home.navigationDestination(for: Route.self) { route in
            let screen = Screen("item", params: ["id": route.id])
            if cachesModels {
                screen.viewModel = model.cache[route.id] ?? PageModel()
                model.cache[route.id] = screen.viewModel as? PageModel
            } else {
                screen.viewModel = PageModel()
            }
            screen.setOutput("next") { _ in model.path.append(Route(id: route.id + "+")) }
            return screen
        }
        let other = window.makeStack("other", path: ViewBinding(model, \.other), root: Screen("other"))
        let window = self.window
        var presenters: [Presenter] = [
            .sheet(item: ViewBinding(model, \.sheet), onDismiss: { model.dismissed += 1 }) { sheet in
                let stack = window.makeStack("sheet", path: ViewBinding(model, \.other), root: Screen(DestinationID(sheet.id)))
                stack.navigationDestination(for: Route.self) { Screen("inner", params: ["id": $0.id]) }
                return .stack(stack)
            },
            .fullScreenCover(item: ViewBinding(model, \.cover)) { .screen(Screen(DestinationID($0.id))) },
            .alert(item: ViewBinding(model, \.alert)) { _ in
                let screen = Screen("alert")
                screen.setOutput("ok") { _ in }
                return screen
            }
        ]
        if extraSheet { presenters.append(.sheet(item: ViewBinding(model, \.cover)) { .screen(Screen(DestinationID($0.id))) }) }
        window.showTabs(selection: ViewBinding(model, \.tab), [("home", home), ("other", other)], presenters: presenters)
    }

    func settle() throws { try window.settle() }
    var warnings: [String] { window.warnings.map(\.text) }
    var labels: [String] { home.screens.map(\.label) }
}

@Suite("SwiftUI platform: path-bound stacks")
struct PathStackTests {
    @Test func theStackFollowsTheBoundPathByDiffing() throws {
        let w = Window()
        w.model.path = [Route(id: "1"), Route(id: "2")]
        try w.settle()
        #expect(w.labels == ["root", "item:1", "item:2"])
        let kept = w.home.screens[1]
        w.model.path = [Route(id: "1"), Route(id: "3")]
        try w.settle()
        #expect(w.labels == ["root", "item:1", "item:3"])
        #expect(w.home.screens[1] === kept, "the common prefix keeps its screen")
        #expect(w.log.texts.contains("set-stack home root item:1 item:3"))
        w.model.path = [Route(id: "1")]
        try w.settle()
        #expect(w.log.texts.contains("pop item:3"))
        // Pop-to-root then push: two writes in one frame (an equal value
        // written again is no write: Observation does not report it).
        w.model.path.removeAll()
        w.model.path.append(Route(id: "9"))
        try w.settle()
        #expect(w.labels == ["root", "item:9"])
        #expect(w.warnings == ["warning multiple-updates home"])
    }

    @Test func popToRootOfSeveralScreensIsOnePopTo() throws {
        let w = Window()
        w.model.path = [Route(id: "1"), Route(id: "2")]
        try w.settle()
        w.model.path = []
        try w.settle()
        #expect(w.log.texts.contains("pop-to root"))
        #expect(w.tracker.leaks().isEmpty)
    }

    @Test func theBackButtonAndTheSwipeWriteTheBinding() throws {
        let w = Window()
        w.model.path = [Route(id: "1"), Route(id: "2")]
        try w.settle()
        try w.window.back()
        #expect(w.model.path == [Route(id: "1")])
        try w.window.backSwipe()
        #expect(w.model.path == [])
        try w.settle()
        #expect(w.warnings.isEmpty)
        #expect(w.tracker.leaks().isEmpty)
        #expect(throws: NavigationError.nothingToPop(screen: "root")) { try w.window.back() }
    }

    @Test func aCancelledSwipeWritesNothing() throws {
        let w = Window()
        w.model.path = [Route(id: "1")]
        try w.settle()
        try w.window.backSwipe(cancel: true)
        #expect(w.model.path == [Route(id: "1")])
        #expect(w.log.texts.suffix(2) == ["will-disappear item:1", "swipe-cancelled item:1"])
    }

    @Test func aBindingThatDropsTheWriteIsReportedAndTheScreenComesBack() throws {
        // Stores pushes only: the back-swipe's shorter path is dropped.
        let pushesOnly = { (model: Model) in
            ViewBinding(get: { model.path }, set: { if $0.count > model.path.count { model.path = $0 } })
        }
        let w = Window(pathBinding: pushesOnly)
        w.model.path = [Route(id: "1")]
        try w.settle()
        try w.window.backSwipe()
        try w.settle()
        #expect(w.labels == ["root", "item:1"])
        #expect(w.warnings == ["warning dropped-write home"])
    }

    @Test func aValueOfAnUnregisteredTypeShowsNothingAndIsReported() throws {
        let model = Model()
        let log = EventLog()
        let window = SwiftUINavigation(log: log, tracker: LifecycleTracker(log: log), scheduler: Scheduler())
        var erased: [AnyHashable] = [AnyHashable(Route(id: "1")), AnyHashable(Unregistered()), AnyHashable(Route(id: "2"))]
        let stack = window.makeStack("home", path: ViewBinding(get: { erased }, set: { erased = $0 }), root: Screen("root"))
        stack.navigationDestination(for: Route.self) { Screen("item", params: ["id": $0.id]) }
        window.show(stack)
        try window.settle()
        #expect(stack.screens.map(\.label) == ["root", "item:1"])
        #expect(window.warnings.map(\.text) == ["warning unregistered-destination Unregistered"])
        #expect(window.warnings[0].message.contains("registered: Route"))
        _ = model
    }

    @Test func anUnequalValueThatShowsTheSameScreenIsRebuiltAndReported() throws {
        let w = Window()
        w.model.path = [Route(id: "1")]
        try w.settle()
        let first = w.home.screens[1]
        w.model.path = [Route(id: "1", nonce: 1)]
        try w.settle()
        #expect(w.home.screens[1] !== first)
        #expect(w.warnings == ["warning recreated item:1"])
    }

    @Test func aViewModelCachedPastItsScreenLeaks() throws {
        let w = Window(cachesModels: true)
        w.model.path = [Route(id: "1")]
        try w.settle()
        try w.window.back()
        try w.settle()
        #expect(w.tracker.leaks().map(\.label) == ["item:1 view-model"])
        w.model.cache = [:]
        #expect(w.tracker.leaks().isEmpty, "a token-less object that went is no longer a leak, even from the cache")
    }

    @Test func aTapFiresTheVisibleScreensOutputAndItsWriteIsShown() throws {
        let w = Window()
        w.model.path = [Route(id: "1")]
        try w.settle()
        try w.window.tap("next")
        #expect(w.labels == ["root", "item:1", "item:1+"])
        #expect(throws: NavigationError.self) { try w.window.tap("missing") }
    }
}

@Suite("SwiftUI platform: tabs and presentations")
struct PresentationTests {
    @Test func theTabBarWritesTheSelection() throws {
        let w = Window()
        try w.window.selectTab("other")
        #expect(w.model.tab == "other")
        #expect(w.window.selectedTab == "other")
        w.model.tab = "home"
        try w.settle()
        #expect(w.window.state.selectedTab == "home")
        #expect(throws: NavigationError.self) { try w.window.selectTab("nowhere") }
        w.model.tab = "nowhere"
        try w.settle()
        #expect(w.warnings == ["warning out-of-sync selection"])
    }

    @Test func aSheetPresentsOnTheClockAndTheSwipeWritesNilAndRunsOnDismiss() throws {
        let w = Window()
        w.model.sheet = Sheet(id: "settings")
        w.window.render()
        #expect(w.window.isTransitioning)
        try w.settle()
        #expect(w.window.state.modals == [[RouteStep("settings")]])
        #expect(throws: NavigationError.tabBarCovered(by: "settings")) { try w.window.selectTab("other") }
        try w.window.dismiss()
        #expect(w.model.sheet == nil)
        #expect(w.model.dismissed == 1)
        #expect(w.window.state.modals.isEmpty)
        try w.settle()
        #expect(w.tracker.leaks().isEmpty)
        #expect(w.warnings.isEmpty)
    }

    @Test func aProgrammaticDismissalRunsOnDismissWhenTheTransitionEnds() throws {
        let w = Window()
        w.model.sheet = Sheet(id: "settings")
        try w.settle()
        w.model.sheet = nil
        w.window.render()
        #expect(w.model.dismissed == 0)
        try w.settle()
        #expect(w.model.dismissed == 1)
    }

    @Test func aNewItemReplacesThePresentedOneWithoutAWarning() throws {
        let w = Window()
        w.model.sheet = Sheet(id: "settings")
        try w.settle()
        w.model.sheet = Sheet(id: "sign_in")
        try w.settle()
        #expect(w.window.state.modals == [[RouteStep("sign_in")]])
        #expect(w.warnings.isEmpty)
    }

    @Test func whenShownWaitsForTheNextTurnAndForAnyTransition() throws {
        let w = Window()
        var ran: [Int] = []
        w.window.whenShown { ran.append(w.scheduler.now) }
        try w.settle()
        #expect(ran == [0], "the next turn, at once when nothing transitions")
        w.model.sheet = Sheet(id: "settings")
        w.window.render()
        w.window.whenShown { ran.append(w.scheduler.now) }
        try w.settle()
        #expect(ran.count == 2 && ran[1] >= SwiftUINavigation.transitionDuration, "after the presentation: \(ran)")
    }

    @Test func aSecondPresentationAtTheSameLevelWaitsAndIsReported() throws {
        let w = Window(extraSheet: true)
        w.model.sheet = Sheet(id: "settings")
        try w.settle()
        w.model.cover = Sheet(id: "promo")
        try w.settle()
        #expect(w.window.state.modals == [[RouteStep("settings")]])
        #expect(w.warnings.contains("warning second-presentation promo"))
        try w.window.dismiss()
        try w.settle()
        #expect(w.window.state.modals == [[RouteStep("promo")]], "it is shown once the first is dismissed")
    }

    @Test func anItemWrittenWhileItsPreviousContentIsDismissedIsReported() throws {
        let w = Window()
        w.model.sheet = Sheet(id: "settings")
        try w.settle()
        w.model.sheet = nil
        w.window.render()
        w.model.sheet = Sheet(id: "about")
        w.window.render()
        try w.settle()
        #expect(w.warnings == ["warning write-during-transition sheet"])
        #expect(w.window.state.modals == [[RouteStep("about")]])
    }

    @Test func aDroppedNilIsReportedAndTheSheetComesBack() throws {
        let model = Model()
        let log = EventLog()
        let scheduler = Scheduler()
        let window = SwiftUINavigation(log: log, tracker: LifecycleTracker(log: log), scheduler: scheduler)
        let stack = window.makeStack("home", path: ViewBinding(model, \.path), root: Screen("root"))
        let sticky = ViewBinding<Sheet?>(get: { model.sheet }, set: { if $0 != nil { model.sheet = $0 } })
        window.show(stack, presenters: [.sheet(item: sticky) { .screen(Screen(DestinationID($0.id))) }])
        model.sheet = Sheet(id: "settings")
        try window.settle()
        try window.dismiss()
        try window.settle()
        #expect(window.warnings.map(\.text) == ["warning dropped-write sheet"])
        #expect(window.state.modals == [[RouteStep("settings")]])
    }

    @Test func coversAndAlertsHaveNoSwipeAndAnAlertButtonDismissesIt() throws {
        let w = Window()
        w.model.cover = Sheet(id: "onboarding")
        try w.settle()
        #expect(throws: NavigationError.notSwipeDismissible("onboarding", style: "full-screen-cover")) { try w.window.dismiss() }
        w.model.cover = nil
        try w.settle()
        w.model.alert = Sheet(id: "confirm")
        try w.settle()
        #expect(throws: NavigationError.notSwipeDismissible("alert", style: "alert")) { try w.window.dismiss() }
        try w.window.tap("ok")
        #expect(w.model.alert == nil)
        try w.settle()
        #expect(w.window.state.modals.isEmpty)
    }

    @Test func aPresentedStackFollowsItsOwnPathAndGoesWithItsSheet() throws {
        let w = Window()
        w.model.sheet = Sheet(id: "settings")
        w.model.other = [Route(id: "a")]
        try w.settle()
        #expect(w.window.visibleScreen?.label == "inner:a")
        try w.window.back()
        #expect(w.model.other.isEmpty)
        #expect(throws: NavigationError.nothingToPop(screen: "settings")) { try w.window.back() }
        w.model.sheet = nil
        try w.settle()
        #expect(w.tracker.leaks().isEmpty)
    }

    @Test func theSwipeDownIsIgnoredWhenInteractiveDismissIsDisabled() throws {
        let model = Model()
        let log = EventLog()
        let window = SwiftUINavigation(log: log, tracker: LifecycleTracker(log: log), scheduler: Scheduler())
        let sheet = Presenter.sheet(item: ViewBinding(model, \.sheet)) { .screen(Screen(DestinationID($0.id))) }
        sheet.interactiveDismissDisabled = true
        window.show(window.makeStack("home", path: ViewBinding(model, \.path), root: Screen("root")), presenters: [sheet])
        model.sheet = Sheet(id: "form")
        try window.settle()
        try window.dismiss()
        #expect(model.sheet == Sheet(id: "form"))
        #expect(window.state.modals == [[RouteStep("form")]])
        #expect(throws: NavigationError.noModal) {
            model.sheet = nil
            try window.settle()
            try window.dismiss()
        }
    }
}
