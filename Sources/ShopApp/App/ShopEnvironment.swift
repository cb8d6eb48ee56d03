import NavigationCore

/// Everything a ShopApp coordinator needs from the composition root, in
/// one place: the navigation seam, lifecycle tracking, services, the fault
/// switches and the sink that sends typed intents to the router.
/// It holds no coordinator, so it can be shared without cycles.
final class ShopEnvironment {
    let log: EventLog
    let tracker: LifecycleTracker
    let scheduler: Scheduler
    let navigation: SimulatedNavigation
    let session: SessionStore
    let account: AccountStore
    let auth: AuthService
    let faults: Set<Fault>
    let experiment: OnboardingExperiment
    /// Sends an in-app intent through the router (and so the engine's policy).
    var sink: (RouteRequest) -> Void = { _ in }
    /// The root's gate satisfiers: a sign-in any flow presents is the one
    /// gated requests wait for.
    var gates: GateSatisfier?

    init(
        log: EventLog, tracker: LifecycleTracker, scheduler: Scheduler, navigation: SimulatedNavigation,
        session: SessionStore, account: AccountStore, auth: AuthService, faults: Set<Fault>,
        experiment: OnboardingExperiment
    ) {
        self.log = log
        self.tracker = tracker
        self.scheduler = scheduler
        self.navigation = navigation
        self.session = session
        self.account = account
        self.auth = auth
        self.faults = faults
        self.experiment = experiment
    }

    func has(_ fault: Fault) -> Bool { faults.contains(fault) }

    /// Builds a screen with its view model and registers both for leak
    /// tracking. `owner` becomes the screen's delegate.
    func makeScreen(_ step: RouteStep, owner: AnyObject) -> ShopScreen {
        let screen = ShopScreen(step.id, params: step.params)
        tracker.track(screen, label: screen.label, kind: .screen)
        let model = ScreenModel(step: step)
        tracker.track(model, label: "\(screen.label) view-model", kind: .viewModel, anchoredTo: screen)
        screen.viewModel = model
        screen.owner = owner as? FlowCoordinator
        if has(.strongBackReference) {
            screen.retainedDelegate = owner
        } else {
            screen.delegate = owner
        }
        return screen
    }
}
