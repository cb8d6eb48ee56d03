/// What is on screen, as data: the selected tab, every tab's stack and the
/// modal chain. It is read off the navigation (never kept as a parallel
/// mirror), fed to the reconciler, compared by scenarios, and encoded for
/// state restoration.
public struct NavigationState: Hashable, Sendable, Codable {
    public var selectedTab: TabID
    /// Tabs in tab-bar order.
    public var tabs: [TabID]
    /// Each tab's stack, bottom to top.
    public var stacks: [TabID: [RouteStep]]
    /// Presented modals, outermost first; each is a stack of its own.
    public var modals: [[RouteStep]]

    public init(selectedTab: TabID, tabs: [TabID], stacks: [TabID: [RouteStep]] = [:], modals: [[RouteStep]] = []) {
        self.selectedTab = selectedTab
        self.tabs = tabs
        self.stacks = stacks
        self.modals = modals
    }

    /// The screen the user sees: the top of the top modal, else of the selected tab.
    public var visible: RouteStep? { modals.last?.last ?? stacks[selectedTab]?.last }

    public func stack(_ tab: TabID) -> [RouteStep] { stacks[tab] ?? [] }
}

/// Where a navigation request came from, which decides how the stack is
/// reconciled: an external link is a fresh intent (reset to canonical
/// ancestry); an in-app request continues what the user was doing.
public enum RouteSource: String, Hashable, Sendable, Codable {
    case `internal`
    case external
}
