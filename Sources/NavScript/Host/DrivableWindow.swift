import NavigationCore

/// What a ready-made driver needs of the window it drives, whichever
/// platform draws it: its state and logs, the built-in gestures as a user
/// makes them, and what happens around a delivered link and a settle.
///
/// Why a protocol: a UIKit-style ``SimulatedNavigation`` and a
/// ``SwiftUINavigation`` are driven the same way — the same gestures, the
/// same steps, the same reads — and ``WindowDriver`` says that once for
/// both. The requirements are named for the driver (`userTap`, not `tap`)
/// so a conformance never picks up a navigation method of the same name
/// that means something else.
public protocol DrivableWindow: AnyObject {
    var log: EventLog { get }
    var tracker: LifecycleTracker { get }
    var scheduler: Scheduler { get }
    var state: NavigationState { get }
    var selectedTab: TabID { get }
    var visibleScreen: Screen? { get }
    /// What the platform warned of so far (none on a platform that has none).
    var platformWarnings: [PlatformWarning] { get }

    /// The built-in gestures, each opening a step of the log first.
    func userTap(_ output: String, _ args: [String: String]) throws(NavigationError)
    func userSelectTab(_ tab: TabID) throws(NavigationError)
    func userBack() throws(NavigationError)
    func userBackSwipe(cancel: Bool, animated: Bool) throws(NavigationError)
    func userDismiss() throws(NavigationError)

    /// Delivers a link the way the platform hands one to the app (SwiftUI
    /// renders the pending frame before and after the turn of the run loop
    /// that handles it); `deliver` is the app's router.
    func receiveLink(_ deliver: () throws(HostError) -> LinkOutcome) throws(HostError) -> LinkOutcome
    /// Runs everything pending (and, on SwiftUI, renders and checks the bound state).
    func settleEverything() throws(HostError)
}

extension SimulatedNavigation: DrivableWindow {
    public var platformWarnings: [PlatformWarning] { [] }

    private var user: SimulatedUser { SimulatedUser(navigation: self) }
    public func userTap(_ output: String, _ args: [String: String]) throws(NavigationError) { try user.tap(output, args) }
    public func userSelectTab(_ tab: TabID) throws(NavigationError) { try user.selectTab(tab) }
    public func userBack() throws(NavigationError) { try user.back() }
    public func userBackSwipe(cancel: Bool, animated: Bool) throws(NavigationError) {
        try user.backSwipe(cancel: cancel, animated: animated)
    }
    public func userDismiss() throws(NavigationError) { try user.dismiss() }

    public func receiveLink(_ deliver: () throws(HostError) -> LinkOutcome) throws(HostError) -> LinkOutcome {
        try deliver()
    }

    public func settleEverything() throws(HostError) {
        do { try scheduler.settle() } catch { throw HostError("\(error)") }
    }
}

extension SwiftUINavigation: DrivableWindow {
    public var platformWarnings: [PlatformWarning] { warnings }

    public func userTap(_ output: String, _ args: [String: String]) throws(NavigationError) { try tap(output, args) }
    public func userSelectTab(_ tab: TabID) throws(NavigationError) { try selectTab(tab) }
    public func userBack() throws(NavigationError) { try back() }
    public func userBackSwipe(cancel: Bool, animated: Bool) throws(NavigationError) {
        try backSwipe(cancel: cancel, animated: animated)
    }
    public func userDismiss() throws(NavigationError) { try dismiss() }

    public func receiveLink(_ deliver: () throws(HostError) -> LinkOutcome) throws(HostError) -> LinkOutcome {
        render()
        let outcome = try deliver()
        // The link was handled in one turn of the run loop: its frame follows.
        render()
        return outcome
    }

    public func settleEverything() throws(HostError) {
        do { try settle() } catch { throw HostError("\(error)") }
    }
}
