import Testing

@testable import NavigationCore

@Suite("Coordinators and session")
struct CoordinatorTests {
    let log = EventLog()

    @Test func childrenAreHeldStronglyAndNamedByTheirPath() {
        let app = FlowCoordinator(name: "app", log: log)
        app.start()
        addChildren(to: app)
        #expect(app.treePaths() == ["app", "app/browse", "app/browse/reviews", "app/checkout"])
        #expect(app.childFlows.first?.childFlows.first?.path == "app/browse/reviews")
        #expect(log.texts == ["start app", "start app/browse", "start app/browse/reviews", "start app/checkout"])
    }

    /// A flow's kept path is reused only when the walk arrives with the
    /// prefix it was adopted under; any other prefix spells paths afresh.
    @Test func treePathsHonourAPrefixAndAPlainParent() {
        let app = FlowCoordinator(name: "app", log: log)
        addChildren(to: app)
        #expect(app.treePaths(prefix: "host") == ["host/app", "host/app/browse", "host/app/browse/reviews", "host/app/checkout"])
        let plain = PlainCoordinator(name: "root", children: [app.childFlows[1]])
        #expect(plain.treePaths() == ["root", "root/checkout"])
        #expect(app.childFlows[1].path == "app/checkout")
    }

    @Test func removingAChildFreesItAndItsSubtree() {
        let tracker = LifecycleTracker(log: log)
        let app = FlowCoordinator(name: "app", log: log)
        addChildren(to: app, tracker: tracker)
        #expect(tracker.liveLabels == ["app/browse", "app/browse/reviews", "app/checkout"])
        app.removeChild(app.childFlows[0])
        #expect(tracker.liveLabels == ["app/checkout"])
        #expect(Set(log.texts.filter { $0.hasPrefix("dealloc") }) == ["dealloc app/browse", "dealloc app/browse/reviews"])
        app.removeAllChildren()
        #expect(tracker.liveLabels.isEmpty)
        #expect(app.treePaths() == ["app"])
    }

    @Test func finishReportsOnceWithTheResult() {
        let app = FlowCoordinator(name: "app", log: log)
        addChildren(to: app)
        var results: [FlowResult] = []
        let checkout = app.childFlows[1]
        checkout.onFinish = { results.append($0) }
        checkout.finish(.cancelled)
        checkout.finish(.completed)
        #expect(results == [.cancelled])
        #expect(checkout.isFinished)
        #expect(log.texts.filter { $0.hasPrefix("finish") } == ["finish app/checkout cancelled"])
    }

    @Test func aChildDoesNotKeepItsParentAlive() {
        weak var weakApp: FlowCoordinator?
        var child: FlowCoordinator?
        do {
            let app = FlowCoordinator(name: "app", log: log)
            weakApp = app
            addChildren(to: app)
            child = app.childFlows.first
            child?.onFinish = { [weak app] _ in app?.removeAllChildren() }
        }
        #expect(weakApp == nil)
        #expect(child?.path == "app/browse")
        child?.finish(.completed)  // the parent is gone: nothing to call back into, no crash
        #expect(child?.isFinished == true)
    }

    @Test func sessionChangesAreExplicitObservableSteps() {
        let session = SessionStore(log: log)
        var expired = 0
        session.onExpire = { expired += 1 }
        #expect(!session.isLoggedIn)
        session.commit(token: "t1")
        #expect(session.isLoggedIn)
        #expect(session.token == "t1")
        session.clear()
        #expect(!session.isLoggedIn)
        #expect(expired == 0, "a requested logout is not an expiry")
        session.commit(token: "t2")
        session.expire()
        #expect(!session.isLoggedIn)
        #expect(expired == 1)
        #expect(log.texts == ["session-commit", "session-clear", "session-commit", "session-expire"])
        #expect(SessionStore(log: log, token: "restored").isLoggedIn)
    }

    private func addChildren(to app: FlowCoordinator, tracker: LifecycleTracker? = nil) {
        let browse = FlowCoordinator(name: "browse", log: log)
        let reviews = FlowCoordinator(name: "reviews", log: log)
        let checkout = FlowCoordinator(name: "checkout", log: log)
        tracker?.track(browse, label: "app/browse", kind: .coordinator)
        tracker?.track(reviews, label: "app/browse/reviews", kind: .coordinator)
        tracker?.track(checkout, label: "app/checkout", kind: .coordinator)
        app.startChild(browse)
        browse.startChild(reviews)
        app.startChild(checkout)
    }
}

/// A coordinator that is not a flow: its children are adopted by no one.
private final class PlainCoordinator: Coordinator {
    let name: String
    let children: [Coordinator]
    init(name: String, children: [Coordinator]) {
        self.name = name
        self.children = children
    }
    func start() {}
}
