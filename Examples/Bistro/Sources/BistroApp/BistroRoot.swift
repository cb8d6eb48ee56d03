import BistroAccount
import BistroCatalog
import BistroOrders
import NavigationCore

/// The app-level coordinator: where module boundaries meet. It starts one
/// tab flow per module, presents settings, satisfies the `auth` gate with
/// the account module's sign-in flow (one for every waiting link), runs
/// onboarding on a first launch, and swaps every flow out on sign-out.
final class BistroRoot: RootFlow {
    let services: AccountServices
    let faults: Set<BistroFault>
    let placeOrder: (String) -> Void
    var isSignedIn: () -> Bool = { false }
    var onReady: () -> Void = {}
    private(set) var isOnboarding = false

    init(
        navigation: SimulatedNavigation, services: AccountServices, faults: Set<BistroFault>,
        placeOrder: @escaping (String) -> Void
    ) {
        self.services = services
        self.faults = faults
        self.placeOrder = placeOrder
        super.init(name: "app", navigation: navigation)
    }

    func start(firstLaunch: Bool, restoring state: NavigationState?) {
        super.start()
        startModules()
        if firstLaunch {
            isOnboarding = true
            startModalFlow(
                OnboardingFlow(navigation: navigation, services: services), steps: [RouteStep("welcome")],
                animated: false)
        } else if let state {
            let signedIn = isSignedIn()
            restore(
                state,
                isRestorable: { step in
                    signedIn || !["order", "tracking", "addresses"].contains(step.id)
                }, completion: { [weak self] in self?.onReady() })
        } else {
            onReady()
        }
    }

    private func startModules() {
        startTabFlow(
            CatalogFlow(
                navigation: navigation, placeOrder: placeOrder,
                observersNeverRemoved: faults.contains(.observerNeverRemoved),
                endsOnDisappear: faults.contains(.teardownOnDisappear)))
        startTabFlow(OrdersFlow(navigation: navigation, send: services.send))
        startTabFlow(AccountFlow(navigation: navigation, services: services))
    }

    override func plan(current: NavigationState, target: Target, source: RouteSource) -> [NavOp] {
        var ops = super.plan(current: current, target: target, source: source)
        if faults.contains(.linkResetsOtherTab), current.selectedTab != target.tab,
            let root = current.stack(current.selectedTab).first
        {
            // The bug: "clean up" the tab being left.
            ops.insert(.setStack(current.selectedTab, [root], keeping: 1), at: 0)
        }
        guard faults.contains(.linkGraftsStack), source == .external else { return ops }
        // The bug: the link's path goes on top of whatever is there.
        return ops.map { op in
            guard case .setStack(let tab, let run, 0) = op else { return op }
            return .setStack(tab, current.stack(tab) + run, keeping: current.stack(tab).count)
        }
    }

    override func makeModalFlow(for destination: DestinationID) -> ModalFlow? {
        switch destination {
        case "settings": return SettingsFlow(navigation: navigation, services: services)
        case "sign_in": return SignInFlow(navigation: navigation, services: services)
        case "welcome": return OnboardingFlow(navigation: navigation, services: services)
        default: return nil
        }
    }

    /// A sign-in a link opens is the one gated links wait for.
    override func precondition(satisfiedBy flow: ModalFlow) -> Precondition? {
        flow is SignInFlow && !faults.contains(.signInPerLink) ? "auth" : nil
    }

    override func modalFlowDidFinish(_ flow: ModalFlow, result: FlowResult) {
        if flow is OnboardingFlow {
            isOnboarding = false
            onReady()
        }
    }

    override func isSatisfied(_ precondition: Precondition) -> Bool {
        precondition == "auth" && isSignedIn()
    }

    override func satisfyingFlow(for precondition: Precondition) -> (flow: ModalFlow, steps: [RouteStep])? {
        precondition == "auth" ? (SignInFlow(navigation: navigation, services: services), [RouteStep("sign_in")]) : nil
    }

    override func satisfy(_ precondition: Precondition, completion: @escaping (Bool) -> Void) {
        // The bug: whatever the user did, the gate is "satisfied".
        let report: (Bool) -> Void = faults.contains(.cancelResumes) ? { _ in completion(true) } : completion
        // The bug: a sheet per gated link.
        if faults.contains(.signInPerLink) { return presentSatisfyingFlow(for: precondition, completion: report) }
        super.satisfy(precondition, completion: report)
    }

    /// Sign-out or expiry: every module starts afresh on its root.
    func resetModules() {
        let stale = faults.contains(.logoutKeepsOrders) ? navigation.stack(OrdersModule.tab).screens : []
        tearDownAllFlows()
        startModules()
        // The bug: the orders stack is "kept for speed" across sessions.
        if !stale.isEmpty { navigation.stack(OrdersModule.tab).setScreens(stale, animated: false) }
        navigation.select(CatalogModule.tab)
    }
}
