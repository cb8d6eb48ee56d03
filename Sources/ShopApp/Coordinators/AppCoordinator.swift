import NavigationCore

/// The root: it orchestrates *between* flows and never builds a screen of
/// its own. It maps a resolved target to flows (the tab flows own the
/// stacks, modal flows own the modal chain), satisfies gates by presenting
/// the auth or payment flow, swaps flows on logout and session expiry, and
/// hands a finished checkout over to the orders tab.
final class AppCoordinator: FlowCoordinator, RootCoordinating {
    let env: ShopEnvironment
    private let firstLaunch: Bool
    private let restoration: NavigationState?
    /// Whether a restored step may be shown with the current session.
    var isRestorable: (RouteStep) -> Bool = { _ in true }
    /// Called once the root is up (after onboarding on a first launch).
    var onReady: (() -> Void)?
    private(set) var isReady = false

    init(env: ShopEnvironment, firstLaunch: Bool, restoration: NavigationState?) {
        self.env = env
        self.firstLaunch = firstLaunch
        self.restoration = restoration
        super.init(name: "app", log: env.log)
        env.session.onExpire = { [weak self] in self?.sessionExpired() }
    }

    private var navigation: SimulatedNavigation { env.navigation }
    var tabFlows: [TabFlowCoordinator] { childFlows.compactMap { $0 as? TabFlowCoordinator } }

    var isOnboarding: Bool { childFlows.contains { $0 is OnboardingCoordinator } }

    override func start() {
        super.start()
        startMainFlows()
        if firstLaunch {
            let onboarding = OnboardingCoordinator(env: env)
            startModalFlow(onboarding, steps: [RouteStep("welcome")], animated: false) { _ in }
        } else if let restoration {
            restore(restoration) { [weak self] in self?.becomeReady() }
        } else {
            becomeReady()
        }
    }

    private func becomeReady() {
        guard !isReady else { return }
        isReady = true
        onReady?()
    }

    private func startMainFlows() {
        for flow in [BrowseCoordinator(env: env), OrdersCoordinator(env: env), ProfileCoordinator(env: env)] as [TabFlowCoordinator] {
            startChild(flow)
            env.track(flow)
        }
    }

    private func tabFlow(_ tab: TabID) -> TabFlowCoordinator? {
        tabFlows.first { $0.tab == tab }
    }

    // MARK: - Executing targets

    func execute(_ target: Target, source: RouteSource, completion: @escaping () -> Void) {
        if let leaf = target.leaf { log.record(.execute(leaf, source)) }
        var ops = Reconciler.plan(current: navigation.state, target: target, source: source)
        if env.has(.graftExternalLink) && source == .external {
            // The bug: the link's path is appended to whatever is there.
            ops = ops.map { op in
                guard case .setStack(let tab, let run, 0) = op else { return op }
                let current = navigation.state.stack(tab)
                return .setStack(tab, current + run, keeping: current.count)
            }
        }
        if env.has(.presentBeforeTab) {
            // The bug: modals go up first, then the rest of the plan runs.
            ops = ops.filter { if case .present = $0 { true } else { false } }
                + ops.filter { if case .present = $0 { false } else { true } }
        }
        apply(ops[...], tab: target.tab, completion: completion)
    }

    /// Applies ops strictly in order, waiting for each transition.
    private func apply(_ ops: ArraySlice<NavOp>, tab: TabID, completion: @escaping () -> Void) {
        guard let op = ops.first else {
            completion()
            return
        }
        let next: () -> Void = { [weak self] in
            guard let self else { return completion() }
            self.apply(ops.dropFirst(), tab: tab, completion: completion)
        }
        switch op {
        case .dismissModals:
            dismissAllModals(animated: true, completion: next)
        case .selectTab(let tab):
            navigation.select(tab)
            next()
        case .updateTop(let step):
            tabFlow(tab)?.updateTop(step)
            next()
        case .popTo(let destination):
            tabFlow(tab)?.stack.pop(to: destination)
            next()
        case .setStack(let tab, let steps, let keeping):
            tabFlow(tab)?.materialize(steps, keeping: keeping)
            next()
        case .setModalStack(let level, let steps):
            if navigation.modals.indices.contains(level) {
                (navigation.modals[level].delegate as? ModalFlowCoordinator)?.materialize(steps)
            }
            next()
        case .present(let chain):
            presentChain(chain[...], completion: next)
        }
    }

    private func presentChain(_ chain: ArraySlice<[RouteStep]>, completion: @escaping () -> Void) {
        guard let steps = chain.first, let root = steps.first else {
            completion()
            return
        }
        guard let flow = makeModalFlow(for: root.id) else {
            log.record(ShopEvent.noModalFlow(root))
            return presentChain(chain.dropFirst(), completion: completion)
        }
        startModalFlow(flow, steps: steps, animated: chain.count == 1) { [weak self] _ in
            guard let self else { return completion() }
            self.presentChain(chain.dropFirst(), completion: completion)
        }
    }

    private func makeModalFlow(for destination: DestinationID) -> ModalFlowCoordinator? {
        switch destination {
        case "checkout_address": return CheckoutCoordinator(env: env)
        case "settings": return SettingsCoordinator(env: env)
        case "profile_edit": return ProfileEditCoordinator(env: env)
        case "add_payment": return PaymentCoordinator(env: env)
        case "login": return AuthCoordinator(env: env)
        case "welcome": return OnboardingCoordinator(env: env)
        default: return nil
        }
    }

    /// Starts a modal flow as a child, fills and presents its stack, and
    /// wires what happens when it finishes.
    private func startModalFlow(_ flow: ModalFlowCoordinator, steps: [RouteStep], animated: Bool,
                                presented: @escaping (Bool) -> Void) {
        flow.onFinish = { [weak self, weak flow] result in
            guard let self, let flow else { return }
            self.modalFlowFinished(flow, result: result)
        }
        startChild(flow)
        guard !flow.isFinished else { return presented(false) }
        flow.materialize(steps)
        flow.present(animated: animated) { [weak flow] ok in
            if !ok { flow?.finish(.cancelled) }
            presented(ok)
        }
    }

    private func modalFlowFinished(_ flow: ModalFlowCoordinator, result: FlowResult) {
        removeChild(flow)
        let placedOrder = (flow as? CheckoutCoordinator)?.placedOrder
        let wasOnboarding = flow is OnboardingCoordinator
        navigation.dismiss(flow.stack, animated: true) { [weak self] in
            guard let self else { return }
            if let order = placedOrder, result == .completed {
                // Cross-flow handoff: the new order opens on the orders tab.
                self.env.sink(RouteRequest("order", params: ["id": String(order)]))
            }
            if wasOnboarding { self.becomeReady() }
        }
    }

    /// Dismisses the whole modal chain at once, then tells each flow it
    /// was abandoned so its owner can let go of it.
    private func dismissAllModals(animated: Bool, completion: @escaping () -> Void) {
        let flows = navigation.modals.reversed().compactMap { $0.delegate as? ModalFlowCoordinator }
        navigation.dismissModals(from: 0, animated: animated, completion: completion)
        for flow in flows { flow.finish(.cancelled) }
    }

    // MARK: - Gates

    func satisfy(_ precondition: Precondition, completion: @escaping (Bool) -> Void) {
        switch precondition {
        case "auth":
            guard !env.session.isLoggedIn else { return completion(true) }
            let cancelResumes = env.has(.cancelResumes)
            AuthCoordinator.run(from: self, env: env) { result in
                // The healthy contract: only a completed sign-in resumes.
                completion(result == .completed || cancelResumes)
            }
        case "payment_method":
            guard !env.account.hasPaymentMethod else { return completion(true) }
            let payment = PaymentCoordinator(env: env)
            payment.onFinish = { [weak self, weak payment] result in
                guard let self, let payment else { return }
                self.removeChild(payment)
                self.navigation.dismiss(payment.stack) { completion(result == .completed) }
            }
            startChild(payment)
            payment.materialize([RouteStep("add_payment")])
            payment.present(animated: true) { [weak payment] ok in if !ok { payment?.finish(.cancelled) } }
        default:
            log.record(ShopEvent.unsatisfiable(precondition))
            completion(false)
        }
    }

    // MARK: - Flow swaps

    func logout() {
        env.session.clear()
        env.auth.forget()
        resetToMain()
    }

    private func sessionExpired() {
        env.auth.forget()
        resetToMain()
        AuthCoordinator.run(from: self, env: env) { _ in }
    }

    /// Tears every flow down and starts the main flows afresh: nothing of
    /// the signed-in session may survive on a stack or in a modal.
    private func resetToMain() {
        // The bug: only the session goes; stacks, modals and flows stay.
        if env.has(.logoutKeepsStacks) { return }
        let modalFlows = navigation.modals.reversed().compactMap { $0.delegate as? ModalFlowCoordinator }
        navigation.dismissModals(from: 0, animated: false)
        for flow in modalFlows { flow.finish(.cancelled) }
        for flow in tabFlows {
            flow.removeAllChildren()
            flow.finish(.cancelled)
            env.tracker.expectRelease(flow)
            removeChild(flow)
        }
        for tab in navigation.tabs { navigation.stack(tab).removeAll() }
        startMainFlows()
        navigation.select("home")
    }

    // MARK: - Restoration

    /// Rebuilds a saved state through the flows, dropping any screen the
    /// current session may not see (and everything above it).
    private func restore(_ state: NavigationState, completion: @escaping () -> Void) {
        var ops: [NavOp] = []
        for tab in state.tabs {
            let steps = Array(state.stack(tab).prefix { isRestorable($0) })
            if steps.count > 1 { ops.append(.setStack(tab, steps, keeping: 1)) }
        }
        ops.append(.selectTab(state.selectedTab))
        let modals = state.modals.map { Array($0.prefix { isRestorable($0) }) }.prefix { !$0.isEmpty }
        if !modals.isEmpty { ops.append(.present(Array(modals))) }
        apply(ops[...], tab: state.selectedTab, completion: completion)
    }
}
