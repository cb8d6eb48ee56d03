import NavigationCore

/// ShopApp's root on the shared ``RootFlow``: its three tab flows, the
/// modal flows that present its destinations, the flows that satisfy its
/// gates (sign-in, a payment method), the cross-flow handoff from checkout
/// to the orders tab, onboarding on a first launch, and the flow swaps of
/// logout and session expiry. The root-level faults live here, where a team
/// would make those mistakes: reordering or grafting the plan, answering a
/// cancelled sign-in with success, presenting a sign-in per gated request,
/// keeping stacks on logout.
final class AppCoordinator: RootFlow {
    let env: ShopEnvironment
    private let firstLaunch: Bool
    private let restoration: NavigationState?
    /// Whether a restored step may be shown with the current session.
    var isRestorable: (RouteStep) -> Bool = { _ in true }
    /// Called once the root is up (after onboarding on a first launch).
    var onReady: (() -> Void)?
    private(set) var isReady = false
    /// While the flows come down for a reset: onboarding ending then is no
    /// readiness (a link it held would be delivered into flows being torn
    /// down, and its transition would refuse the sign-in presented next).
    private var isResetting = false

    init(env: ShopEnvironment, firstLaunch: Bool, restoration: NavigationState?) {
        self.env = env
        self.firstLaunch = firstLaunch
        self.restoration = restoration
        super.init(name: "app", navigation: env.navigation)
    }

    var isOnboarding: Bool { childFlows.contains { $0 is OnboardingCoordinator } }

    override func start() {
        super.start()
        startMainFlows()
        if firstLaunch {
            startModalFlow(OnboardingCoordinator(env: env), steps: [RouteStep("welcome")], animated: false)
        } else if let restoration {
            restore(restoration, isRestorable: isRestorable) { [weak self] in self?.becomeReady() }
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
        for flow in [BrowseCoordinator(env: env), OrdersCoordinator(env: env), ProfileCoordinator(env: env)] as [TabFlow] {
            startTabFlow(flow)
        }
    }

    // MARK: - Executing targets

    override func plan(current: NavigationState, target: Target, source: RouteSource) -> [NavOp] {
        var ops = super.plan(current: current, target: target, source: source)
        if env.has(.graftExternalLink) && source == .external {
            // The bug: the link's path is appended to whatever is there.
            ops = ops.map { op in
                guard case .setStack(let tab, let run, 0) = op else { return op }
                let stack = current.stack(tab)
                return .setStack(tab, stack + run, keeping: stack.count)
            }
        }
        if env.has(.presentBeforeTab) {
            // The bug: modals go up first, then the rest of the plan runs.
            ops =
                ops.filter { if case .present = $0 { true } else { false } }
                + ops.filter { if case .present = $0 { false } else { true } }
        }
        return ops
    }

    override func makeModalFlow(for destination: DestinationID) -> ModalFlow? {
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

    override func precondition(satisfiedBy flow: ModalFlow) -> Precondition? {
        switch flow {
        case is AuthCoordinator: return "auth"
        case is PaymentCoordinator: return "payment_method"
        default: return nil
        }
    }

    override func modalFlowDidFinish(_ flow: ModalFlow, result: FlowResult) {
        if let order = (flow as? CheckoutCoordinator)?.placedOrder, result == .completed {
            // Cross-flow handoff: the new order opens on the orders tab.
            env.sink(RouteRequest("order", params: ["id": String(order)]))
        }
        if flow is OnboardingCoordinator, !isResetting { becomeReady() }
    }

    // MARK: - Gates

    override func isSatisfied(_ precondition: Precondition) -> Bool {
        switch precondition {
        case "auth": return env.session.isLoggedIn
        case "payment_method": return env.account.hasPaymentMethod
        default: return false
        }
    }

    override func satisfyingFlow(for precondition: Precondition) -> (flow: ModalFlow, steps: [RouteStep])? {
        switch precondition {
        case "auth": return (AuthCoordinator(env: env), [RouteStep("login")])
        case "payment_method": return (PaymentCoordinator(env: env), [RouteStep("add_payment")])
        default: return nil
        }
    }

    override func satisfy(_ precondition: Precondition, completion: @escaping (Bool) -> Void) {
        // The bug: a cancelled sign-in still reports the gate satisfied.
        let report: (Bool) -> Void =
            env.has(.cancelResumes) && precondition == "auth"
            ? { _ in completion(true) } : completion
        if env.has(.duplicateSignIn) {
            // The bug: every gated request presents a flow of its own.
            return presentSatisfyingFlow(for: precondition, completion: report)
        }
        super.satisfy(precondition, completion: report)
    }

    // MARK: - Flow swaps

    /// The user signed out (in this window or another): back to the main
    /// flows, nothing of the session left on screen. The app cleared the
    /// session; every window's root hears of it.
    func signedOut() {
        resetToMain()
        becomeReady()  // a link onboarding held goes to the fresh main flows
    }

    /// The session is gone: back to the main flows, with the sign-in up as
    /// the shared auth gate's flow, so a link arriving meanwhile waits for
    /// it instead of presenting another.
    func sessionExpired() {
        resetToMain()
        // A link onboarding held waits for the sign-in, signed in or not, as a cold start's does.
        satisfy("auth") { [weak self] _ in self?.becomeReady() }
    }

    /// The user signed in in another window: the sign-in this one shows is
    /// answered as completed (its waiting links resume). What was presented
    /// above it is cancelled first, top down: dismissing the sign-in takes
    /// the sheets above it along, and a flow dismissed without being told
    /// leaks and leaves its own gated links unanswered (a payment sheet over
    /// a sign-in a link had opened).
    func signedInElsewhere() {
        let flows = navigation.modals.compactMap { $0.delegate as? ModalFlow }
        guard let signIn = flows.firstIndex(where: { precondition(satisfiedBy: $0) == "auth" }) else { return }
        for flow in flows[signIn...].reversed() {
            flow.finish(precondition(satisfiedBy: flow) == "auth" ? .completed : .cancelled)
        }
    }

    /// Tears every flow down and starts the main flows afresh.
    private func resetToMain() {
        // The bug: only the session goes; stacks, modals and flows stay.
        if env.has(.logoutKeepsStacks) { return }
        isResetting = true
        tearDownAllFlows()
        isResetting = false
        startMainFlows()
        navigation.select("home")
    }
}
