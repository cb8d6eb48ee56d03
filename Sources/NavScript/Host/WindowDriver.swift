import NavigationCore

/// The ready-made ``AppDriver`` of an app drawn in one ``DrivableWindow``:
/// the built-in gestures go to the window as a user makes them, each
/// opening a step of the event log; a link is delivered the way the
/// platform hands it over; settling runs everything pending; state,
/// events, leaks and warnings are read from the window.
///
/// Hosts subclass ``NavigationDriver`` (a ``SimulatedNavigation``) or
/// ``SwiftUIDriver`` (a ``SwiftUINavigation``) and override what only the
/// app knows: how a link is delivered, the coordinator tree, restarting.
open class WindowDriver<Window: DrivableWindow>: AppDriver {
    /// The window the driver was made with.
    public let launchedWindow: Window

    public init(launchedWindow: Window) {
        self.launchedWindow = launchedWindow
    }

    /// The window everything here acts on: the one the driver was made
    /// with. A driver of an app with several windows (``SceneDriving``)
    /// overrides it with the acting scene's.
    open var window: Window { launchedWindow }

    open func perform(_ action: AppAction) throws(HostError) -> LinkOutcome? {
        let window = self.window
        do {
            switch action {
            case .tap(let output, let args): try window.userTap(output, args)
            case .selectTab(let tab): try window.userSelectTab(TabID(tab))
            case .back: try window.userBack()
            case .backSwipe(let cancel, let animated): try window.userBackSwipe(cancel: cancel, animated: animated)
            case .dismiss: try window.userDismiss()
            case .deepLink(let input, let entry):
                return try window.receiveLink { () throws(HostError) -> LinkOutcome in
                    window.log.beginStep("deep_link \(input) via \(entry)")
                    return try deliver(input, via: entry)
                }
            }
        } catch {
            throw HostError.from(error)
        }
        return nil
    }

    /// Delivers a link through an entry point, without settling. Override:
    /// only the app knows its router.
    open func deliver(_ input: EntryInput, via entry: EntryPoint) throws(HostError) -> LinkOutcome {
        throw HostError("\(type(of: self)) does not deliver links: override deliver(_:via:)")
    }

    /// Runs everything pending: drains the virtual-time scheduler (on
    /// SwiftUI, renders and checks the bound state against what is shown).
    open func settle() throws(HostError) {
        try window.settleEverything()
    }

    /// A fresh app as after a cold start. Override to support `restart`.
    open func relaunch(restore: Bool) throws(HostError) -> any AppDriver {
        throw HostError("\(type(of: self)) cannot restart: override relaunch(restore:)")
    }

    public var state: NavigationState { window.state }
    public var selectedTab: TabID { window.selectedTab }
    public var visibleDestination: DestinationID? { window.visibleScreen?.destination }
    public var visibleScreen: String? { window.visibleScreen?.label }
    public var eventLog: EventLog { window.log }
    public var step: Int { window.log.step }
    public var leaks: [LifecycleTracker.Leak] { window.tracker.leaks() }
    /// Nothing scheduled. Override to add what only the app knows is still
    /// under way — its dispatcher executing or holding a queue — so the
    /// `idle` invariant sees a request that never finished.
    open var isIdle: Bool { window.scheduler.isIdle }
    /// The scheduler's pending tasks. Override to add what your ``isIdle``
    /// adds (`super.pendingWork + app.dispatcher.pending.map { "dispatcher: \($0)" }`).
    open var pendingWork: [String] { window.scheduler.pending.map { "scheduled: \($0)" } }
    public var visibleOutputs: [ScreenOutput] { window.visibleScreen?.outputs ?? [] }
    open var platformWarnings: [PlatformWarning] { window.platformWarnings }
    /// Every screen on screen with its owner's path, for `flow_ownership`;
    /// nil (not checked) unless the driver's platform can tell.
    open var screenOwners: [ScreenOwner]? { nil }

    /// The preconditions that hold now (signed in: `auth`), for the
    /// `gated_screens` invariant. Override: only the app knows its session.
    open var satisfiedPreconditions: Set<Precondition>? { nil }

    /// The live coordinator tree as paths. Override: only the app knows its root.
    open var coordinatorPaths: [String] { [] }
    /// `main`, or the flow that replaces it. Override when the app has such flows.
    open var rootFlow: String { "main" }
}
