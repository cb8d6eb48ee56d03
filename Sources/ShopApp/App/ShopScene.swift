import NavigationCore

/// One window of ShopApp (a scene): its own navigation, root coordinator,
/// dispatcher and router — the root router the scene delegate holds. What
/// is the app's — the engine, the session, the account, the log, the
/// clock, the tracker — every scene shares.
final class ShopScene {
    let number: Int
    let navigation: SimulatedNavigation
    let env: ShopEnvironment
    let root: AppCoordinator
    let router: ShopRouter

    /// The parts every scene shares, from the app.
    struct Shared {
        let log: EventLog
        let scheduler: Scheduler
        let tracker: LifecycleTracker
        let engine: RoutingEngine
        let session: SessionStore
        let account: AccountStore
        let auth: AuthService
        let faults: Set<Fault>
        let experiment: OnboardingExperiment
    }

    init(number: Int, shared: Shared, firstLaunch: Bool, restoration: NavigationState?) {
        self.number = number
        navigation = SimulatedNavigation(
            tabs: shared.engine.manifest.tabs, log: shared.log, tracker: shared.tracker, scheduler: shared.scheduler)
        env = ShopEnvironment(
            log: shared.log, tracker: shared.tracker, scheduler: shared.scheduler, navigation: navigation,
            session: shared.session, account: shared.account, auth: shared.auth, faults: shared.faults,
            experiment: shared.experiment)
        root = AppCoordinator(env: env, firstLaunch: firstLaunch, restoration: restoration)
        // Watched like any coordinator: a closed window's root must go with it.
        shared.tracker.track(root, label: number == 1 ? "app" : "scene \(number) app", kind: .coordinator)
        env.gates = root.gates
        let (session, account) = (shared.session, shared.account)
        // The bug (scene-copies-session): a window opened later reads the session as it was when it opened.
        let copied = shared.faults.contains(.sceneCopiesSession) && number > 1 ? session.isLoggedIn : nil
        let context: () -> RouteContext = {
            var satisfied: Set<Precondition> = []
            if copied ?? session.isLoggedIn { satisfied.insert("auth") }
            if account.hasPaymentMethod { satisfied.insert("payment_method") }
            return RouteContext(satisfied: satisfied)
        }
        let dispatcher = RouteDispatcher(engine: shared.engine, root: root, log: shared.log, context: context)
        router = ShopRouter(engine: shared.engine, dispatcher: dispatcher, env: env, root: root, context: context)
        env.sink = { [weak router] request in router?.request(request) }
        root.onReady = { [weak router] in router?.rootDidBecomeReady() }
        let engine = shared.engine
        root.isRestorable = { step in
            engine.preconditions(of: step.id).allSatisfy { context().satisfied.contains($0) }
        }
    }

    func start() { root.start() }

    /// The window closes: every flow is torn down, every screen released,
    /// and the root itself must go with the scene.
    func close() {
        root.tearDownAllFlows()
        env.tracker.expectRelease(root)
    }
}
