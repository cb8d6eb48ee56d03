import NavigationCore

/// A ready-made ``AppDriver`` for a SwiftUI app whose window is a
/// ``SwiftUINavigation``: the built-in gestures write the team's bound
/// state as SwiftUI does; settling renders the pending frame and drains
/// the scheduler; state, events, leaks and SwiftUI's warnings are read
/// from the window.
///
/// A host subclasses it and overrides what only the app knows: how a link
/// is delivered, the coordinator tree, restarting.
///
/// (Compiled as written: `Tests/Fixtures/DocExamples/MySwiftUIApp/MySwiftUIApp.swift`.)
/// ```swift
/// final class MyDriver: SwiftUIDriver {
///     let app: MyApp
///     init(_ app: MyApp) { self.app = app; super.init(window: app.window) }
///     override func deliver(_ input: EntryInput, via entry: EntryPoint) throws(HostError) -> LinkOutcome {
///         app.deliver(input, via: entry)
///     }
/// }
/// ```
open class SwiftUIDriver: AppDriver {
    private let launchedWindow: SwiftUINavigation

    public init(window: SwiftUINavigation) {
        launchedWindow = window
    }

    /// The window everything here acts on: the one the driver was made
    /// with. A driver of an app with several windows (``SceneDriving``)
    /// overrides it with the acting scene's.
    open var window: SwiftUINavigation { launchedWindow }

    open func perform(_ action: AppAction) throws(HostError) -> LinkOutcome? {
        do {
            switch action {
            case .tap(let output, let args): try window.tap(output, args)
            case .selectTab(let tab): try window.selectTab(TabID(tab))
            case .back: try window.back()
            case .backSwipe(let cancel, let animated): try window.backSwipe(cancel: cancel, animated: animated)
            case .dismiss: try window.dismiss()
            case .deepLink(let input, let entry):
                window.render()
                window.log.beginStep("deep_link \(input) via \(entry)")
                let outcome = try deliver(input, via: entry)
                // The link was handled in one turn of the run loop: its frame follows.
                window.render()
                return outcome
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

    /// Renders the pending frame, drains the virtual-time scheduler, and
    /// checks that the bound state and what is shown agree.
    open func settle() throws(HostError) {
        do { try window.settle() } catch { throw HostError("\(error)") }
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
    public var visibleOutputs: [String] { window.visibleScreen?.outputs ?? [] }
    public var platformWarnings: [PlatformWarning] { window.warnings }

    /// The preconditions that hold now (signed in: `auth`), for the
    /// `gated_screens` invariant. Override: only the app knows its session.
    open var satisfiedPreconditions: Set<Precondition>? { nil }

    /// The live coordinator tree as paths. Override when the app keeps one.
    open var coordinatorPaths: [String] { [] }
    /// `main`, or the flow that replaces it. Override when the app has such flows.
    open var rootFlow: String { "main" }
}
