/// The user's thumb on a ``SimulatedNavigation``: taps an output of the
/// screen on top, the tab bar, the back button, an edge swipe, a modal's
/// swipe-down. Each gesture opens a new step of the ``EventLog`` first, so
/// every event after it — and every object released because of it — is
/// attributed to the gesture that caused it.
///
/// Apps and scenario hosts drive their navigation through this one type,
/// so a gesture means the same thing in a Swift test and in a scenario.
public struct SimulatedUser {
    public let navigation: SimulatedNavigation

    public init(navigation: SimulatedNavigation) {
        self.navigation = navigation
    }

    private var log: EventLog { navigation.log }

    /// Fires `output` of the top visible screen with `args` (a bare id
    /// arrives as `["id": value]`).
    public func tap(_ output: String, _ args: [String: String] = [:]) throws(NavigationError) {
        log.beginStep("tap \(output)")
        guard let screen = navigation.visibleScreen else { throw .noScreen }
        try screen.fire(output, args)
    }

    /// Taps a tab of the tab bar.
    public func selectTab(_ tab: TabID) throws(NavigationError) {
        log.beginStep("select_tab \(tab)")
        guard navigation.tabs.contains(tab) else {
            throw .unknownTab(tab.rawValue, tabs: navigation.tabs.map(\.rawValue))
        }
        // A thumb cannot reach a tab bar a modal covers.
        if let modal = navigation.modals.last {
            throw .tabBarCovered(by: modal.stack.root?.label ?? modal.stack.name)
        }
        navigation.select(tab)
    }

    /// The navigation bar's back button.
    public func back() throws(NavigationError) {
        log.beginStep("back")
        try navigation.backButton()
    }

    /// The interactive edge swipe; `cancel` lifts the finger early.
    public func backSwipe(cancel: Bool = false, animated: Bool = true) throws(NavigationError) {
        log.beginStep(cancel ? "back_swipe (cancelled)" : animated ? "back_swipe" : "back_swipe (not animated)")
        try navigation.backSwipe(cancel: cancel, animated: animated)
    }

    /// Swipes the top modal down.
    public func dismiss() throws(NavigationError) {
        log.beginStep("dismiss")
        try navigation.interactiveDismiss()
    }
}
