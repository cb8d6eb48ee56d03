import NavigationCore

/// A flow that owns one tab's stack: it builds its own screens, starts
/// pushed child flows (cart, order) when the stack reaches them, and — as
/// the stack's delegate — removes a child flow once its first screen has
/// been popped, however the pop happened (back button, back-swipe, a
/// non-animated pop, a deep link resetting the stack).
class TabFlowCoordinator: FlowCoordinator, NavigationStackDelegate {
    let env: ShopEnvironment
    let tab: TabID
    let rootDestination: DestinationID

    init(name: String, tab: TabID, root: DestinationID, env: ShopEnvironment) {
        self.env = env
        self.tab = tab
        self.rootDestination = root
        super.init(name: name, log: env.log)
    }

    var stack: NavigationStack { env.navigation.stack(tab) }
    var pushedChildren: [PushedFlowCoordinator] { childFlows.compactMap { $0 as? PushedFlowCoordinator } }

    override func start() {
        super.start()
        stack.delegate = self
        if stack.screens.isEmpty {
            stack.setScreens(screens(for: [RouteStep(rootDestination)], after: []), animated: false)
        }
    }

    // MARK: - Subclass hooks

    /// A screen this flow builds itself, or nil when `step` is not its own.
    func makeOwnScreen(_ step: RouteStep) -> Screen? { nil }

    /// A child flow that starts at `step` (the cart, an order), if any.
    func makeChildFlow(for step: RouteStep) -> PushedFlowCoordinator? { nil }

    // MARK: - Building stacks

    /// Replaces the tab's stack with `steps`, keeping the first `keeping`
    /// screens as they are.
    func materialize(_ steps: [RouteStep], keeping: Int) {
        let kept = Array(stack.screens.prefix(keeping))
        stack.setScreens(kept + screens(for: steps.dropFirst(kept.count), after: kept), animated: true)
    }

    /// Pushes one step (an in-app tap that needs no gate).
    func push(_ step: RouteStep) {
        for screen in screens(for: [step], after: stack.screens) { stack.push(screen) }
    }

    func updateTop(_ step: RouteStep) {
        guard let top = stack.top, top.destination == step.id else { return }
        top.update(params: step.params)
        log.record(.update(top.label))
    }

    func screens(for steps: ArraySlice<RouteStep>, after existing: [Screen]) -> [Screen] {
        var built: [Screen] = []
        for step in steps {
            let context = existing + built
            if let child = pushedChildren.last(where: { child in
                child.handles(step.id) && child.entry != step.id
                    && context.contains { $0 === child.rootScreen }
            }) {
                built.append(child.makeScreen(step))
            } else if let screen = makeOwnScreen(step) {
                built.append(screen)
            } else if let child = makeChildFlow(for: step) {
                startChild(child)
                let screen = child.makeRootScreen(step)
                env.track(child, anchoredTo: screen)
                if env.has(.teardownOnDisappear) {
                    screen.onWillDisappear = { [weak self, weak child] in
                        guard let self, let child else { return }
                        self.tearDown(child)
                    }
                }
                built.append(screen)
            } else {
                log.record(ShopEvent.cannotBuild(path: path, step))
            }
        }
        return built
    }

    // MARK: - Pop detection

    func navigationStack(_ stack: NavigationStack, didShow screen: Screen, from: Screen?) {
        if env.has(.noPopDetection) { return }
        if env.has(.animatedPopOnly) {
            // The textbook membership test alone: a non-animated pop has no
            // `from`, so the child it popped is never found.
            guard let from, !stack.screens.contains(where: { $0 === from }) else { return }
            for child in pushedChildren where child.rootScreen === from { tearDown(child) }
            return
        }
        for child in pushedChildren {
            let stillShown = child.rootScreen.map { root in stack.screens.contains { $0 === root } } ?? false
            if !stillShown { tearDown(child) }
        }
    }

    func tearDown(_ child: PushedFlowCoordinator) {
        child.finish(.cancelled)
        removeChild(child)
    }
}

/// A flow pushed inside a tab's stack (the cart, an order's detail and
/// tracking). It lives while its first screen is on the stack.
class PushedFlowCoordinator: FlowCoordinator {
    let env: ShopEnvironment
    let tab: TabID
    /// The destination that starts this flow.
    let entry: DestinationID
    private let destinations: Set<DestinationID>
    private(set) weak var rootScreen: Screen?

    init(name: String, tab: TabID, entry: DestinationID, destinations: Set<DestinationID>, env: ShopEnvironment) {
        self.env = env
        self.tab = tab
        self.entry = entry
        self.destinations = destinations
        super.init(name: name, log: env.log)
    }

    var stack: NavigationStack { env.navigation.stack(tab) }

    func handles(_ destination: DestinationID) -> Bool { destinations.contains(destination) }

    func makeRootScreen(_ step: RouteStep) -> Screen {
        let screen = makeScreen(step)
        rootScreen = screen
        return screen
    }

    func makeScreen(_ step: RouteStep) -> Screen {
        env.makeScreen(step, owner: self)
    }
}
