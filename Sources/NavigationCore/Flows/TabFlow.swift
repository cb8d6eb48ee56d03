/// A flow that owns one tab's stack: it builds its own screens, starts
/// pushed child flows (``PushedFlow``) when the stack reaches them and —
/// as the stack's delegate — tears a child flow down once its first screen
/// has left the stack, however it left: the back button, a back-swipe, a
/// non-animated pop, a deep link resetting the stack. A cancelled swipe
/// leaves the child alone.
///
/// Subclass it per tab and override ``makeOwnScreen(_:)`` and
/// ``makeChildFlow(for:)``.
open class TabFlow: FlowCoordinator, NavigationStackDelegate {
    public let navigation: SimulatedNavigation
    public let tab: TabID
    /// The destination at the bottom of the tab's stack.
    public let rootDestination: DestinationID

    public init(name: String, tab: TabID, root: DestinationID, navigation: SimulatedNavigation) {
        self.navigation = navigation
        self.tab = tab
        self.rootDestination = root
        super.init(name: name, log: navigation.log)
    }

    public var stack: NavigationStack { navigation.stack(tab) }
    public var pushedFlows: [PushedFlow] { childFlows.compactMap { $0 as? PushedFlow } }

    /// Becomes the stack's delegate and shows the root screen if the stack is empty.
    open override func start() {
        super.start()
        stack.delegate = self
        if stack.screens.isEmpty {
            stack.setScreens(screens(for: [RouteStep(rootDestination)], after: []), animated: false)
        }
    }

    // MARK: - Subclass hooks

    /// A screen this flow builds itself, or nil when `step` is not its own.
    open func makeOwnScreen(_ step: RouteStep) -> Screen? { nil }

    /// A child flow that starts at `step`, if any.
    open func makeChildFlow(for step: RouteStep) -> PushedFlow? { nil }

    /// Called once a child flow started with its first screen built.
    open func didStartChildFlow(_ child: PushedFlow, rootScreen: Screen) {}

    // MARK: - Building the stack

    /// Replaces the stack with `steps`, keeping its first `keeping` screens as they are.
    public func materialize(_ steps: [RouteStep], keeping: Int) {
        let kept = Array(stack.screens.prefix(keeping))
        stack.setScreens(kept + screens(for: steps.dropFirst(kept.count), after: kept), animated: true)
    }

    /// Pushes one step (an in-app tap that needs no gate).
    public func push(_ step: RouteStep) {
        for screen in screens(for: [step], after: stack.screens) { stack.push(screen) }
    }

    /// Updates the top screen in place when it shows `step`'s destination.
    public func updateTop(_ step: RouteStep) {
        guard let top = stack.top, top.destination == step.id else { return }
        top.update(params: step.params)
        log.record(.update(top.label))
    }

    /// Builds the screens for `steps` on top of `existing`: a step inside a
    /// live child flow is that child's; otherwise this flow's own; otherwise
    /// the first screen of a new child flow. A step nobody builds is logged
    /// (`cannot-build`) and skipped.
    public func screens(for steps: ArraySlice<RouteStep>, after existing: [Screen]) -> [Screen] {
        var built: [Screen] = []
        for step in steps {
            let context = existing + built
            if let child = pushedFlows.last(where: { child in
                child.handles(step.id) && child.entry != step.id && context.contains { $0 === child.rootScreen }
            }) {
                let screen = child.makeScreen(step)
                screen.owner = screen.owner ?? child
                built.append(screen)
            } else if let screen = makeOwnScreen(step) {
                screen.owner = screen.owner ?? self
                built.append(screen)
            } else if let child = makeChildFlow(for: step) {
                startChild(child)
                let screen = child.makeRootScreen(step)
                screen.owner = screen.owner ?? child
                navigation.tracker.track(child, label: child.path, kind: .coordinator, anchoredTo: screen)
                didStartChildFlow(child, rootScreen: screen)
                built.append(screen)
            } else {
                log.record(.cannotBuild(path, step))
            }
        }
        return built
    }

    // MARK: - Pop detection

    /// Tears down every child whose first screen is no longer on the stack.
    /// Why not the transition's `from` screen: a non-animated pop has none.
    open func navigationStack(_ stack: NavigationStack, didShow screen: Screen, from: Screen?) {
        for child in pushedFlows {
            let stillShown = child.rootScreen.map { root in stack.screens.contains { $0 === root } } ?? false
            if !stillShown { tearDown(child) }
        }
    }

    /// Ends a child flow (cancelled) and lets go of it.
    public func tearDown(_ child: PushedFlow) {
        child.finish(.cancelled)
        removeChild(child)
    }
}
