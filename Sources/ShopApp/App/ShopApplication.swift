import Foundation
import NavigationCore

/// ShopApp, composed and running headless: the composition root that wires
/// the engine, the session and the services every window shares, and the
/// windows themselves (``ShopScene``: each its own navigation, root
/// coordinator, dispatcher and router); plus the Swift API that drives it
/// like a user would (the same calls the Lua bindings make) and observes it.
///
/// One instance is one app process: single-threaded, deterministic, and
/// thrown away after the scenario. The driving and observing API acts on
/// the *acting* window — the one in front, unless ``actingScene`` names
/// another.
public final class ShopApplication {
    public let options: LaunchOptions
    public let log = EventLog()
    public let scheduler = Scheduler()
    public let tracker: LifecycleTracker
    public let session: SessionStore
    private let shared: ShopScene.Shared
    private let scenes: SceneSet<ShopScene>
    /// Windows closed while the close-scene-keeps-flows bug is on ("kept for a quick reopen").
    private var closedScenes: [ShopScene] = []
    /// The window the driving and observing API acts on; nil: the one in front.
    public var actingScene: Int?

    /// Launches the app. `engine` is shared across launches (it is pure);
    /// by default it is built from the bundled `routes.json`.
    public init(options: LaunchOptions = LaunchOptions(), engine: RoutingEngine? = nil) throws {
        self.options = options
        let engine = try engine ?? Self.loadEngine()
        tracker = LifecycleTracker(log: log)
        session = SessionStore(log: log, token: options.loggedIn ? "token-0" : nil)
        let account = AccountStore(hasPaymentMethod: options.paymentMethod, twoFactorEnabled: options.twoFactor)
        shared = ShopScene.Shared(
            log: log, scheduler: scheduler, tracker: tracker, engine: engine, session: session, account: account,
            auth: AuthService(), faults: options.faults, experiment: options.experiment ?? .minimal)
        let firstNumber = options.restoredNumbers.first ?? 1
        let first = ShopScene(
            number: firstNumber, shared: shared, firstLaunch: options.firstLaunch, restoration: options.restoration?.state)
        scenes = SceneSet(log: log, first: first, number: firstNumber, next: options.restoredNextNumber)
        session.onExpire = { [weak self] in self?.sessionExpired() }
        // The bug (sign-in-one-scene): nothing tells the other windows of a sign-in.
        if !options.faults.contains(.signInOneScene) { session.observeCommit { [weak self] in self?.sessionCommitted() } }
        if let url = options.url { first.router.deliver(url, via: options.via) }
        first.start()
        // The other windows of the run being restored, each from its own archive.
        for (index, archive) in options.sceneRestorations.enumerated() {
            // The bug (restore-crosses-scenes): every window gets the first window's archive.
            let state = options.faults.contains(.restoreCrossesScenes) ? options.restoration?.state : archive.state
            let number = options.restoredNumbers.indices.contains(index + 1) ? options.restoredNumbers[index + 1] : nil
            scenes.open(restoring: number) { number in self.makeScene(number, restoring: state) }
        }
        if options.restoredForeground != scenes.foreground, scenes.numbers.contains(options.restoredForeground) {
            try? scenes.focus(options.restoredForeground)
        }
    }

    /// A new window's scene, started.
    private func makeScene(_ number: Int, restoring state: NavigationState? = nil) -> ShopScene {
        let scene = ShopScene(number: number, shared: shared, firstLaunch: false, restoration: state)
        scene.start()
        return scene
    }

    /// The engine over the bundled route manifest.
    public static func loadEngine() throws -> RoutingEngine {
        try RoutingEngine(manifest: loadManifest())
    }

    /// The bundled `routes.json`, validated.
    public static func loadManifest() throws -> RouteManifest {
        guard let url = Bundle.module.url(forResource: "routes", withExtension: "json") else {
            throw ShopError("routes.json is missing from the ShopApp resource bundle")
        }
        return try RouteManifest.load(json: Data(contentsOf: url))
    }

    // MARK: - Windows

    /// The window the API acts on.
    private var scene: ShopScene {
        actingScene.flatMap(scenes.scene) ?? scenes.foregroundScene
    }

    /// The open windows' numbers, in opening order.
    public var sceneNumbers: [Int] { scenes.numbers }
    /// The window in front.
    public var foregroundScene: Int { scenes.foreground }

    /// The user opens a new window, in front; with `activity`, it opens for
    /// that input (a Handoff activity, a link dragged out), delivered to it.
    /// The app is not settled.
    public func openScene(with activity: EntryInput? = nil, via entry: EntryPoint = .spotlight) -> (Int, LinkOutcome?) {
        log.beginStep(activity.map { "open_scene \($0) via \(entry)" } ?? "open_scene")
        let number = scenes.open { makeScene($0) }
        let outcome = activity.map { scenes.scene(number)!.router.deliver($0, via: entry) }
        return (number, outcome)
    }

    /// The user brings window `number` to the front.
    public func focusScene(_ number: Int) throws(ShopError) {
        log.beginStep("focus_scene \(number)")
        do { try scenes.focus(number) } catch { throw ShopError(error.description) }
    }

    /// The user closes window `number`: its flows are torn down.
    public func closeScene(_ number: Int) throws(ShopError) {
        log.beginStep("close_scene \(number)")
        let closed: ShopScene
        do { closed = try scenes.close(number) } catch { throw ShopError(error.description) }
        if actingScene == number { actingScene = nil }
        closed.close()
        // The bug: the scene is "kept for a quick reopen", and everything it held with it.
        if options.faults.contains(.closedSceneKept) { closedScenes.append(closed) }
    }

    /// What window `number` shows, nil when it is not open.
    public func state(ofScene number: Int) -> NavigationState? {
        scenes.scene(number)?.navigation.state
    }

    // MARK: - Driving

    /// The acting window's navigation.
    public var navigation: SimulatedNavigation { scene.navigation }

    /// The user's gestures on the acting window's navigation.
    public var user: SimulatedUser { SimulatedUser(navigation: navigation) }

    /// Fires an output of the top visible screen.
    public func tap(_ output: String, _ args: [String: String] = [:]) throws(ShopError) {
        do { try user.tap(output, args) } catch { throw ShopError(error.description) }
    }

    public func selectTab(_ name: String) throws(ShopError) {
        do { try user.selectTab(TabID(name)) } catch { throw ShopError(error.description) }
    }

    /// The navigation bar's back button.
    public func back() throws(ShopError) {
        do { try user.back() } catch { throw ShopError(error.description) }
    }

    public func backSwipe(cancel: Bool = false, animated: Bool = true) throws(ShopError) {
        do { try user.backSwipe(cancel: cancel, animated: animated) } catch { throw ShopError(error.description) }
    }

    /// The user swipes the top modal down.
    public func dismiss() throws(ShopError) {
        do { try user.dismiss() } catch { throw ShopError(error.description) }
    }

    /// Delivers a link through an entry point. The app is not settled.
    @discardableResult
    public func deepLink(_ input: EntryInput, via entry: EntryPoint = .scheme) -> LinkOutcome {
        log.beginStep("deep_link \(input) via \(entry)")
        return receive(input, via: entry)
    }

    /// Hands a link to a window's router within the current step (whoever
    /// drives the app opened the step). A push notification or a widget's
    /// tap reaches the app, which gives it to the window in front; a link
    /// a window opens goes to the acting window. The app is not settled.
    @discardableResult
    public func receive(_ input: EntryInput, via entry: EntryPoint) -> LinkOutcome {
        let target = entry == .push || entry == .widget ? scenes.foregroundScene : scene
        return target.router.deliver(input, via: entry)
    }

    /// A link the system opened in window `number`, within the current step.
    public func receive(_ input: EntryInput, via entry: EntryPoint, inScene number: Int) throws(ShopError) -> LinkOutcome {
        guard var target = scenes.scene(number) else {
            throw ShopError(SceneError.noSuchScene(number, open: scenes.numbers).description)
        }
        // The bug: the app delegate hands every link to the window in front.
        if options.faults.contains(.linkToForegroundScene) { target = scenes.foregroundScene }
        return target.router.deliver(input, via: entry)
    }

    /// Completes (or cancels) the sign-in flow on screen; with none on
    /// screen, opens the app's own sign-in from the profile tab first.
    public func login(cancel: Bool = false) throws(ShopError) {
        log.beginStep(cancel ? "login (cancel)" : "login")
        let visible = navigation.visibleScreen?.destination
        let onAuth = visible == "login" || visible == "two_factor"
        if cancel {
            guard onAuth, let screen = navigation.visibleScreen else {
                throw ShopError("login{cancel=true}: no sign-in screen is on screen (visible: \(visible?.rawValue ?? "nothing"))")
            }
            do { try screen.fire("close") } catch { throw ShopError(error.description) }
            return
        }
        if !onAuth {
            guard !session.isLoggedIn else { throw ShopError("login{}: already signed in and no sign-in screen is on screen") }
            guard navigation.modals.isEmpty else {
                throw ShopError(
                    "login{}: no sign-in screen is on screen and a modal (\(visible?.rawValue ?? "?")) covers the app's sign-in button")
            }
            navigation.select("profile")
            navigation.stack("profile").pop(to: "profile", animated: false)
            do { try navigation.visibleScreen?.fire("sign_in") } catch { throw ShopError(error.description) }
            try settleOrThrow()
        }
        for _ in 0..<2 {
            guard let screen = navigation.visibleScreen, screen.destination == "login" || screen.destination == "two_factor" else { break }
            do { try screen.fire("submit") } catch { throw ShopError(error.description) }
        }
    }

    /// Signs out through the app: the session goes, and every window
    /// starts afresh. Refused when already signed out: the app offers no
    /// sign-out then, as `login` is refused when signed in.
    public func logout() throws(ShopError) {
        guard session.isLoggedIn else { throw ShopError("logout(): already signed out; the app shows no sign-out") }
        log.beginStep("logout")
        session.clear()
        shared.auth.forget()
        // The bug (sign-out-one-scene): only the window the user signed out in hears of it.
        let windows = options.faults.contains(.signOutOneScene) ? [scene] : scenes.scenes.map(\.scene)
        for window in windows { window.root.signedOut() }
    }

    /// Expires the session as the server would. Refused when there is none.
    public func expireSession() throws(ShopError) {
        guard session.isLoggedIn else { throw ShopError("expire_session(): signed out, so there is no session to expire") }
        log.beginStep("expire_session")
        session.expire()
    }

    /// The user signed in, in the acting window: a sign-in another window
    /// still shows is answered too, so its waiting links go on.
    private func sessionCommitted() {
        let acting = scene
        for window in scenes.scenes.map(\.scene) where window !== acting { window.root.signedInElsewhere() }
    }

    /// The server ended the session: every window goes back to its main
    /// flows, the one in front with the sign-in up.
    private func sessionExpired() {
        shared.auth.forget()
        let front = scenes.foregroundScene
        // The bug (expiry-foreground-only): the handler reaches the window in front only.
        let others = options.faults.contains(.expiryForegroundOnly) ? [] : scenes.scenes.map(\.scene).filter { $0 !== front }
        for window in others { window.root.signedOut() }
        front.root.sessionExpired()
    }

    /// Runs scheduled work (transitions, async commits) until idle.
    public func settle() throws(ShopError) {
        try settleOrThrow()
    }

    private func settleOrThrow() throws(ShopError) {
        do { try scheduler.settle() } catch { throw ShopError(error.description) }
    }

    /// The acting window's navigation state as a restoration archive.
    public func archive() -> RestorationArchive {
        RestorationArchive(state: navigation.state)
    }

    /// A cold start of the same device: session and account persist; when
    /// `restore` is set, every window comes back from its own archive.
    public func relaunched(restore: Bool) throws -> ShopApplication {
        var next = options
        next.loggedIn = session.isLoggedIn
        next.paymentMethod = shared.account.hasPaymentMethod
        // Onboarding never finished is a first launch still: it starts again (and holds links as
        // before), not a restored welcome screen over a root already taking links.
        // The bug (onboarding-done-at-launch): the flag was cleared when this launch began.
        next.firstLaunch = !options.faults.contains(.onboardingDoneAtLaunch) && scenes.scenes.contains { $0.scene.root.isOnboarding }
        next.url = nil
        let windows = scenes.scenes.map(\.scene)
        next.restoration = restore ? RestorationArchive(state: windows[0].navigation.state) : nil
        next.sceneRestorations = restore ? windows.dropFirst().map { RestorationArchive(state: $0.navigation.state) } : []
        next.restoredForeground = restore ? scenes.foreground : 1
        next.restoredNumbers = restore ? scenes.numbers : []
        next.restoredNextNumber = restore ? scenes.numberOfNextScene : 2
        return try ShopApplication(options: next, engine: shared.engine)
    }

    // MARK: - Observing

    public var state: NavigationState { navigation.state }
    public var visibleScreen: Screen? { navigation.visibleScreen }
    /// The acting window's live coordinator tree as paths (`app`, `app/browse`, …).
    public var coordinatorPaths: [String] { scene.root.treePaths() }
    public var isLoggedIn: Bool { session.isLoggedIn }
    public var hasPaymentMethod: Bool { shared.account.hasPaymentMethod }
    /// `onboarding` while first-launch onboarding is up, else `main`.
    public var rootFlow: String { scene.root.isOnboarding ? "onboarding" : "main" }
    public var engine: RoutingEngine { shared.engine }
    public var leaks: [LifecycleTracker.Leak] { tracker.leaks() }
    /// Whether no window's dispatcher is executing a request or holding a queue.
    public var isRoutingIdle: Bool { scenes.scenes.allSatisfy { $0.scene.router.dispatcher.isIdle } }
    /// What each window's dispatcher still has under way, named with its window when there are several.
    public var routingPending: [String] {
        scenes.scenes.flatMap { entry in
            entry.scene.router.dispatcher.pending.map {
                scenes.scenes.count > 1 ? "window \(entry.number) dispatcher: \($0)" : "dispatcher: \($0)"
            }
        }
    }
}

/// A driving call that could not be carried out, with what to do about it.
public struct ShopError: Error, Hashable, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
