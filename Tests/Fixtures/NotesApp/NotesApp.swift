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
    /// The bugs this app was built with: a relaunch (`restart()`) builds the next one with them.
    public let faults: Set<NotesFault>
    let root: NotesRoot

    public init(engine: RoutingEngine, signedIn: Bool, faults: Set<NotesFault>, restoring: NavigationState? = nil) {
        self.faults = faults
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

    /// The outputs each screen may offer, spelled as the flows wire them.
    public static let screens: [ScreenDeclaration] = [
        ScreenDeclaration("notes", [.note]), ScreenDeclaration("note", []),
        ScreenDeclaration("settings", ["account"]), ScreenDeclaration("account", []),
        ScreenDeclaration("sign_in", ["close", "submit"])
    ]

    public var coordinatorPaths: [String] { root.treePaths() }
}

/// The bugs the notes app can be built with.
public enum NotesFault: String, CaseIterable, Sendable {
    /// Sign-in reports success without committing the session: the gate loops.
    case signInWithoutCommit = "sign-in-without-commit"
    /// The notes list caches every note screen it opened: popped notes leak.
    case keepPoppedNotes = "keep-popped-notes"
    /// A note row opens the first note whatever row was tapped (an id captured once).
    case noteRowOpensFirst = "note-row-opens-first"

    /// One line for `mutate --list` and the reports.
    public var summary: String {
        switch self {
        case .signInWithoutCommit: return "sign-in succeeds without committing the session"
        case .keepPoppedNotes: return "popped note screens stay cached and leak"
        case .noteRowOpensFirst: return "a note row opens the first note, not the one tapped"
        }
    }
}

/// The root: two tab flows, and the sign-in sheet that satisfies `auth`.
final class NotesRoot: RootFlow {
    let session: SessionStore
    let faults: Set<NotesFault>
    weak var dispatcher: RouteDispatcher?

    init(navigation: SimulatedNavigation, session: SessionStore, faults: Set<NotesFault>) {
        self.session = session
        self.faults = faults
        super.init(name: "app", navigation: navigation)
    }

    func start(restoring state: NavigationState?) {
        super.start()
        let send: (RouteRequest) -> Void = { [weak self] in _ = self?.dispatcher?.dispatch($0, source: .internal) }
        startTabFlow(
            NotesTab(
                navigation: navigation, send: send, cachesNotes: faults.contains(.keepPoppedNotes),
                opensFirstNote: faults.contains(.noteRowOpensFirst)))
        startTabFlow(SettingsTab(navigation: navigation, send: send))
        if let state { restore(state, isRestorable: { _ in true }) {} }
    }

    override func isSatisfied(_ precondition: Precondition) -> Bool { session.isLoggedIn }

    override func satisfyingFlow(for precondition: Precondition) -> (flow: ModalFlow, steps: [RouteStep])? {
        let session = self.session
        let commits = !faults.contains(.signInWithoutCommit)
        return (SignInSheet(navigation: navigation) { if commits { session.commit(token: "token") } }, [RouteStep("sign_in")])
    }
}

/// A screen registered for leak tracking.
func trackedScreen(_ step: RouteStep, _ navigation: SimulatedNavigation) -> Screen {
    let screen = Screen(step.id, params: step.params)
    navigation.tracker.track(screen, label: screen.label, kind: .screen)
    return screen
}

/// The notes tab: the list and the notes it opens.
final class NotesTab: TabFlow {
    let send: (RouteRequest) -> Void
    let cachesNotes: Bool
    let opensFirstNote: Bool
    private var cache: [Screen] = []

    init(navigation: SimulatedNavigation, send: @escaping (RouteRequest) -> Void, cachesNotes: Bool, opensFirstNote: Bool = false) {
        self.send = send
        self.cachesNotes = cachesNotes
        self.opensFirstNote = opensFirstNote
        super.init(name: "notes", tab: "notes", root: "notes", navigation: navigation)
    }

    override func makeOwnScreen(_ step: RouteStep) -> Screen? {
        let screen = trackedScreen(step, navigation)
        if step.id == "notes" {
            let first = opensFirstNote
            screen.setOutput(.note) { [weak self] args in
                self?.send(RouteRequest("note", params: ["id": first ? "1" : args["id"] ?? ""]))  // the bug: a captured id
            }
        } else if cachesNotes {
            cache.append(screen)  // the bug: "for a faster reopen"
        }
        return screen
    }
}

/// The settings tab: settings and the account behind sign-in.
final class SettingsTab: TabFlow {
    let send: (RouteRequest) -> Void

    init(navigation: SimulatedNavigation, send: @escaping (RouteRequest) -> Void) {
        self.send = send
        super.init(name: "settings", tab: "settings", root: "settings", navigation: navigation)
    }

    override func makeOwnScreen(_ step: RouteStep) -> Screen? {
        let screen = trackedScreen(step, navigation)
        if step.id == "settings" {
            screen.setOutput("account") { [weak self] _ in self?.send(RouteRequest("account")) }
        }
        return screen
    }
}

extension ScreenOutput {
    static let note = ScreenOutput("note", parameters: ["id"], opens: "note")
}

/// The sign-in sheet: `submit` signs in (through `signIn`), `close` cancels.
final class SignInSheet: ModalFlow {
    let signIn: () -> Void

    init(navigation: SimulatedNavigation, signIn: @escaping () -> Void) {
        self.signIn = signIn
        super.init(name: "auth", navigation: navigation)
    }

    override func makeScreen(_ step: RouteStep) -> Screen {
        let screen = trackedScreen(step, navigation)
        wireClose(screen)
        screen.setOutput("submit") { [weak self] _ in
            self?.signIn()
            self?.finish(.completed)
        }
        return screen
    }
}
