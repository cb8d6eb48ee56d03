/// The headless stand-in for a view controller: an inert node that shows a
/// destination and reports user intent through named outputs. It never
/// builds or pushes other screens — its coordinator does.
open class Screen: LifecycleTracked {
    public let destination: DestinationID
    public private(set) var params: RouteParams {
        didSet { label = RouteStep.label(destination, params) }
    }
    public var lifecycleToken: LifecycleToken?
    /// The screen's view model, owned strongly as a view controller owns its VM.
    public var viewModel: AnyObject?
    /// UIKit's `viewWillDisappear`: fired when a pop or back-swipe begins,
    /// even one the user then cancels — so teardown must not hang off it.
    public var onWillDisappear: (() -> Void)?
    /// The flow that built the screen and wires its outputs (weak: flows own
    /// screens through their stacks, never the other way round). Every
    /// screen on screen should have a live owner — scenarios check it.
    public weak var owner: FlowCoordinator?

    /// Handlers in declaration order, parallel to `outputs` (a screen has a
    /// handful: a linear search beats hashing and growing a dictionary for
    /// every screen built).
    private var outputHandlers: [([String: String]) -> Void] = []
    /// The intents a user can trigger here, in the order they were wired.
    public private(set) var outputs: [ScreenOutput] = []

    public init(_ destination: DestinationID, params: RouteParams = [:]) {
        self.destination = destination
        self.params = params
        label = RouteStep.label(destination, params)
    }

    public var step: RouteStep { RouteStep(destination, params: params) }
    /// `id` or `id:primary-param`, as scenarios and events spell screens.
    /// Kept, not derived on each read: every push and pop event, every
    /// timeline line and the checks after a scenario spell the screens,
    /// and building the string each time showed in a scenario's cost.
    public private(set) var label: String

    /// Wires an output: the handler receives the tap's arguments (a bare id
    /// arrives as `["id": value]`). Wiring a name again replaces it.
    public func setOutput(_ output: ScreenOutput, _ handler: @escaping ([String: String]) -> Void) {
        if let index = outputs.firstIndex(where: { $0.name == output.name }) {
            outputs[index] = output
            outputHandlers[index] = handler
        } else {
            outputs.append(output)
            outputHandlers.append(handler)
        }
    }

    /// Fires an output as a user tap would.
    public func fire(_ output: String, _ args: [String: String] = [:]) throws(NavigationError) {
        guard let index = outputs.firstIndex(where: { $0.name == output }) else {
            throw .noSuchOutput(screen: label, output: output, available: outputs.map(\.name))
        }
        outputHandlers[index](args)
    }

    /// Update in place: same screen, new parameters (no push, no pop).
    open func update(params: RouteParams) {
        self.params = params
    }
}
