import Foundation
import NavigationCore

/// A tiny second app on NavigationCore — notes and settings tabs, an
/// account screen behind sign-in — plugged into navscript through public
/// API only, as a team would. The CLI tests drive it end to end.
public final class NotesApp {
    public let log = EventLog()
    public let scheduler = Scheduler()
    public let tracker: LifecycleTracker
    public let navigation: SimulatedNavigation
    public let session: SessionStore
    public let dispatcher: RouteDispatcher
    let root: NotesRoot

    public init(engine: RoutingEngine, signedIn: Bool, faults: Set<NotesFault>, restoring: NavigationState? = nil) {
        tracker = LifecycleTracker(log: log)
        navigation = SimulatedNavigation(tabs: engine.manifest.tabs, log: log, tracker: tracker, scheduler: scheduler)
        session = SessionStore(log: log, token: signedIn ? "token" : nil)
        root = NotesRoot(navigation: navigation, session: session, faults: faults)
        let session = self.session
        dispatcher = RouteDispatcher(engine: engine, root: root, log: log) {
            RouteContext(satisfied: session.isLoggedIn ? ["auth"] : [])
        }
        root.dispatcher = dispatcher
        root.start(restoring: restoring)
    }

    public static func loadEngine() throws -> RoutingEngine {
        guard let url = Bundle.module.url(forResource: "routes", withExtension: "json") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try RoutingEngine(manifest: RouteManifest.load(json: Data(contentsOf: url)))
    }

    public var coordinatorPaths: [String] { root.treePaths() }
}

/// The bugs the notes app can be built with.
public enum NotesFault: String, CaseIterable, Sendable {
    /// Sign-in reports success without committing the session: the gate loops.
    case signInWithoutCommit = "sign-in-without-commit"
    /// The notes list caches every note screen it opened: popped notes leak.
    case keepPoppedNotes = "keep-popped-notes"
}

/// The root flow: builds every screen, executes targets, satisfies `auth`.
final class NotesRoot: FlowCoordinator, RootCoordinating, ModalPresentationDelegate {
    let navigation: SimulatedNavigation
    let session: SessionStore
    let faults: Set<NotesFault>
    weak var dispatcher: RouteDispatcher?
    private var cache: [Screen] = []
    private var pendingSignIn: ((Bool) -> Void)?

    init(navigation: SimulatedNavigation, session: SessionStore, faults: Set<NotesFault>) {
        self.navigation = navigation
        self.session = session
        self.faults = faults
        super.init(name: "app", log: navigation.log)
    }

    func start(restoring state: NavigationState?) {
        super.start()
        for tab in navigation.tabs {
            let steps = state?.stack(tab).isEmpty == false ? state!.stack(tab) : [RouteStep(DestinationID(tab.rawValue))]
            navigation.stack(tab).setScreens(steps.map(makeScreen), animated: false)
        }
        if let tab = state?.selectedTab { navigation.select(tab) }
    }

    func makeScreen(_ step: RouteStep) -> Screen {
        let screen = Screen(step.id, params: step.params)
        navigation.tracker.track(screen, label: screen.label, kind: .screen)
        switch step.id {
        case "notes":
            screen.setOutput("note") { [weak self] args in
                self?.dispatcher?.dispatch(RouteRequest("note", params: ["id": args["id"] ?? ""]), source: .internal)
            }
        case "note" where faults.contains(.keepPoppedNotes):
            cache.append(screen)
        case "settings":
            screen.setOutput("account") { [weak self] _ in self?.dispatcher?.dispatch(RouteRequest("account"), source: .internal) }
        default:
            break
        }
        return screen
    }

    func execute(_ target: Target, source: RouteSource, completion: @escaping () -> Void) {
        navigation.select(target.tab)
        let stack = navigation.stack(target.tab)
        let screens = target.baseRun.enumerated().map { index, step in
            index < stack.screens.count && stack.screens[index].step == step ? stack.screens[index] : makeScreen(step)
        }
        stack.setScreens(screens, animated: false)
        completion()
    }

    func satisfy(_ precondition: Precondition, completion: @escaping (Bool) -> Void) {
        let flow = FlowCoordinator(name: "auth", log: log)
        startChild(flow)
        let stack = navigation.makeStack(name: "sign_in")
        let screen = Screen("sign_in")
        navigation.tracker.track(screen, label: "sign_in", kind: .screen)
        navigation.tracker.track(flow, label: flow.path, kind: .coordinator, anchoredTo: screen)
        // Weak captures: the stack owns the screen, so the screen's outputs
        // must not own the stack or the flow (a retain cycle that leaks both).
        screen.setOutput("submit") { [weak self, weak flow, weak stack] _ in
            if let flow, let stack { self?.endSignIn(flow, stack, signedIn: true) }
        }
        screen.setOutput("close") { [weak self, weak flow, weak stack] _ in
            if let flow, let stack { self?.endSignIn(flow, stack, signedIn: false) }
        }
        stack.setScreens([screen], animated: false)
        pendingSignIn = completion
        navigation.present(stack, delegate: self)
    }

    private func endSignIn(_ flow: FlowCoordinator, _ stack: NavigationStack, signedIn: Bool) {
        if signedIn && !faults.contains(.signInWithoutCommit) { session.commit(token: "token") }
        flow.finish(signedIn ? .completed : .cancelled)
        removeChild(flow)
        let completion = pendingSignIn
        pendingSignIn = nil
        navigation.dismiss(stack) { completion?(signedIn) }
    }

    func modalDidDismissInteractively(_ stack: NavigationStack) {
        guard let flow = childFlows.first(where: { $0.name == "auth" }) else { return }
        flow.finish(.cancelled)
        removeChild(flow)
        let completion = pendingSignIn
        pendingSignIn = nil
        completion?(false)
    }
}
