import Foundation
import NavigationCore

/// ShopApp, composed and running headless: the composition root that wires
/// engine, dispatcher, root coordinator, navigation and services, plus the
/// Swift API that drives it like a user would (the same calls the Lua
/// bindings make) and observes it.
///
/// One instance is one app process: single-threaded, deterministic, and
/// thrown away after the scenario.
public final class ShopApplication {
    public let options: LaunchOptions
    public let log = EventLog()
    public let scheduler = Scheduler()
    public let tracker: LifecycleTracker
    public let navigation: SimulatedNavigation
    public let session: SessionStore
    private let env: ShopEnvironment
    private let root: AppCoordinator
    private let router: ShopRouter

    /// Launches the app. `engine` is shared across launches (it is pure);
    /// by default it is built from the bundled `routes.json`.
    public init(options: LaunchOptions = LaunchOptions(), engine: RoutingEngine? = nil) throws {
        self.options = options
        let engine = try engine ?? Self.loadEngine()
        tracker = LifecycleTracker(log: log)
        navigation = SimulatedNavigation(tabs: engine.manifest.tabs, log: log, tracker: tracker, scheduler: scheduler)
        session = SessionStore(log: log, token: options.loggedIn ? "token-0" : nil)
        let account = AccountStore(hasPaymentMethod: options.paymentMethod, twoFactorEnabled: options.twoFactor)
        env = ShopEnvironment(
            log: log, tracker: tracker, scheduler: scheduler, navigation: navigation,
            session: session, account: account, auth: AuthService(), faults: options.faults,
            experiment: options.experiment ?? .minimal)
        root = AppCoordinator(env: env, firstLaunch: options.firstLaunch, restoration: options.restoration?.state)
        env.gates = root.gates
        let (session, env) = (self.session, self.env)
        let context: () -> RouteContext = {
            var satisfied: Set<Precondition> = []
            if session.isLoggedIn { satisfied.insert("auth") }
            if env.account.hasPaymentMethod { satisfied.insert("payment_method") }
            return RouteContext(satisfied: satisfied)
        }
        let dispatcher = RouteDispatcher(engine: engine, root: root, log: log, context: context)
        router = ShopRouter(engine: engine, dispatcher: dispatcher, env: env, root: root, context: context)
        env.sink = { [weak router] request in router?.request(request) }
        root.onReady = { [weak router] in router?.rootDidBecomeReady() }
        root.isRestorable = { step in
            engine.preconditions(of: step.id).allSatisfy { context().satisfied.contains($0) }
        }
        if let url = options.url { router.deliver(url, via: options.via) }
        root.start()
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

    // MARK: - Driving

    /// The user's gestures on this app's navigation.
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

    /// Hands a link to the router within the current step (whoever drives
    /// the app opened the step). The app is not settled.
    @discardableResult
    public func receive(_ input: EntryInput, via entry: EntryPoint) -> LinkOutcome {
        router.deliver(input, via: entry)
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

    /// Signs out through the app. Refused when already signed out: the app
    /// offers no sign-out then, as `login` is refused when signed in.
    public func logout() throws(ShopError) {
        guard session.isLoggedIn else { throw ShopError("logout(): already signed out; the app shows no sign-out") }
        log.beginStep("logout")
        root.logout()
    }

    /// Expires the session as the server would. Refused when there is none.
    public func expireSession() throws(ShopError) {
        guard session.isLoggedIn else { throw ShopError("expire_session(): signed out, so there is no session to expire") }
        log.beginStep("expire_session")
        session.expire()
    }

    /// Runs scheduled work (transitions, async commits) until idle.
    public func settle() throws(ShopError) {
        try settleOrThrow()
    }

    private func settleOrThrow() throws(ShopError) {
        do { try scheduler.settle() } catch { throw ShopError(error.description) }
    }

    /// The navigation state as a restoration archive.
    public func archive() -> RestorationArchive {
        RestorationArchive(state: navigation.state)
    }

    /// A cold start of the same device: session and account persist, the
    /// navigation is restored from an archive when `restore` is set.
    public func relaunched(restore: Bool) throws -> ShopApplication {
        var next = options
        next.loggedIn = session.isLoggedIn
        next.paymentMethod = env.account.hasPaymentMethod
        next.firstLaunch = false
        next.url = nil
        next.restoration = restore ? archive() : nil
        return try ShopApplication(options: next, engine: router.engine)
    }

    // MARK: - Observing

    public var state: NavigationState { navigation.state }
    public var visibleScreen: Screen? { navigation.visibleScreen }
    /// The live coordinator tree as paths (`app`, `app/browse`, …).
    public var coordinatorPaths: [String] { root.treePaths() }
    public var isLoggedIn: Bool { session.isLoggedIn }
    public var hasPaymentMethod: Bool { env.account.hasPaymentMethod }
    /// `onboarding` while first-launch onboarding is up, else `main`.
    public var rootFlow: String { root.isOnboarding ? "onboarding" : "main" }
    public var engine: RoutingEngine { router.engine }
    public var leaks: [LifecycleTracker.Leak] { tracker.leaks() }
}

/// A driving call that could not be carried out, with what to do about it.
public struct ShopError: Error, Hashable, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
