/// A flow pushed inside a tab's stack (an item's detail and its sub-pages).
/// It lives exactly as long as its first screen is on the stack: the
/// ``TabFlow`` that started it tears it down when that screen leaves.
open class PushedFlow: FlowCoordinator {
    public let navigation: SimulatedNavigation
    public let tab: TabID
    /// The destination that starts this flow.
    public let entry: DestinationID
    private let destinations: Set<DestinationID>
    /// The flow's first screen (weak: the stack owns it).
    public private(set) weak var rootScreen: Screen?

    public init(
        name: String, tab: TabID, entry: DestinationID, destinations: Set<DestinationID>,
        navigation: SimulatedNavigation
    ) {
        self.navigation = navigation
        self.tab = tab
        self.entry = entry
        self.destinations = destinations.union([entry])
        super.init(name: name, log: navigation.log)
    }

    public var stack: NavigationStack { navigation.stack(tab) }

    /// Whether `destination` is one of this flow's screens.
    public func handles(_ destination: DestinationID) -> Bool { destinations.contains(destination) }

    /// Builds the first screen and anchors the flow to it.
    public func makeRootScreen(_ step: RouteStep) -> Screen {
        let screen = makeScreen(step)
        screen.owner = screen.owner ?? self
        rootScreen = screen
        return screen
    }

    /// Builds one of this flow's screens and pushes it on the flow's stack,
    /// owned by this flow: what an output of one of its screens does to go
    /// deeper (`tap("menu")` on a restaurant pushes its menu).
    public func push(_ step: RouteStep, animated: Bool = true) {
        let screen = makeScreen(step)
        screen.owner = screen.owner ?? self
        stack.push(screen, animated: animated)
    }

    /// Builds one of this flow's screens. Override to wire outputs.
    open func makeScreen(_ step: RouteStep) -> Screen {
        Screen(step.id, params: step.params)
    }
}
