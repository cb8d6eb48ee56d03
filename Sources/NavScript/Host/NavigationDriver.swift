import NavigationCore

/// A ready-made ``AppDriver`` for an app whose screens live in a
/// ``SimulatedNavigation``: the built-in gestures (tap, select_tab, back,
/// back_swipe, dismiss) go through a ``SimulatedUser``, each opening a step
/// of the event log; settling drains the app's scheduler; state, events,
/// leaks and the step number are read from the navigation.
///
/// A host subclasses it and overrides what only the app knows: how a link
/// is delivered, the coordinator tree, restarting.
///
/// (Compiled as written: `Tests/Fixtures/DocExamples/MyAppNavScript/MyAppHost.swift`.)
/// ```swift
/// final class MyAppDriver: NavigationDriver {
///     let app: MyApp
///     init(_ app: MyApp) { self.app = app; super.init(navigation: app.navigation) }
///     override func deliver(_ input: EntryInput, via entry: EntryPoint) throws(HostError) -> LinkOutcome {
///         LinkOutcome(app.dispatcher.deliver(input, via: entry))
///     }
///     override var coordinatorPaths: [String] { app.coordinatorPaths }
/// }
/// ```
open class NavigationDriver: AppDriver {
    private let launchedNavigation: SimulatedNavigation

    public init(navigation: SimulatedNavigation) {
        launchedNavigation = navigation
    }

    /// The navigation everything here acts on: the one the driver was made
    /// with. A driver of an app with several windows (``SceneDriving``)
    /// overrides it with the acting scene's.
    open var navigation: SimulatedNavigation { launchedNavigation }

    /// The user's thumb on ``navigation``.
    public var user: SimulatedUser { SimulatedUser(navigation: navigation) }

    open func perform(_ action: AppAction) throws(HostError) -> LinkOutcome? {
        do {
            switch action {
            case .tap(let output, let args): try user.tap(output, args)
            case .selectTab(let tab): try user.selectTab(TabID(tab))
            case .back: try user.back()
            case .backSwipe(let cancel, let animated): try user.backSwipe(cancel: cancel, animated: animated)
            case .dismiss: try user.dismiss()
            case .deepLink(let input, let entry):
                navigation.log.beginStep("deep_link \(input) via \(entry)")
                return try deliver(input, via: entry)
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

    /// Drains the virtual-time scheduler.
    open func settle() throws(HostError) {
        do { try navigation.scheduler.settle() } catch { throw HostError("\(error)") }
    }

    /// A fresh app as after a cold start. Override to support `restart`.
    open func relaunch(restore: Bool) throws(HostError) -> any AppDriver {
        throw HostError("\(type(of: self)) cannot restart: override relaunch(restore:)")
    }

    public var state: NavigationState { navigation.state }
    public var selectedTab: TabID { navigation.selectedTab }
    public var visibleDestination: DestinationID? { navigation.visibleScreen?.destination }
    public var visibleScreen: String? { navigation.visibleScreen?.label }
    public var eventLog: EventLog { navigation.log }
    public var step: Int { navigation.log.step }
    public var leaks: [LifecycleTracker.Leak] { navigation.tracker.leaks() }
    /// Nothing scheduled. Override to add what only the app knows is still
    /// under way — its dispatcher executing or holding a queue — so the
    /// `idle` invariant sees a request that never finished.
    open var isIdle: Bool { navigation.scheduler.isIdle }
    public var visibleOutputs: [String] { navigation.visibleScreen?.outputs ?? [] }

    /// Every screen of every tab and modal, with its owner's path (a
    /// finished owner counts as none).
    public var screenOwners: [ScreenOwner]? {
        // Read after every scenario: one pass, one array.
        var owners: [ScreenOwner] = []
        owners.reserveCapacity(16)
        func add(_ stack: NavigationStack) {
            for screen in stack.screens {
                owners.append(ScreenOwner(screen: screen.label, owner: screen.owner.flatMap { $0.isFinished ? nil : $0.path }))
            }
        }
        for stack in navigation.tabStacks { add(stack) }
        for modal in navigation.modals { add(modal.stack) }
        return owners
    }

    /// The preconditions that hold now (signed in: `auth`), for the
    /// `gated_screens` invariant. Override: only the app knows its session.
    open var satisfiedPreconditions: Set<Precondition>? { nil }

    /// The live coordinator tree as paths. Override: only the app knows its root.
    open var coordinatorPaths: [String] { [] }
    /// `main`, or the flow that replaces it. Override when the app has such flows.
    open var rootFlow: String { "main" }
}
