/// The root (app) coordinator's reusable half: it orchestrates *between*
/// flows and never builds a screen of its own. It executes resolved
/// targets by planning them with the ``Reconciler`` and applying the plan
/// through its tab and modal flows (``NavOpApplier``); it satisfies gates
/// by presenting the flow that satisfies a precondition — one flow per
/// precondition, shared by every request waiting on it (``GateSatisfier``);
/// it restores a saved state through the flows; and it swaps every flow
/// out on logout or session expiry.
///
/// An app subclasses it and says what only it knows: its tab flows (start
/// them as children in `start()`), which modal flow presents a destination
/// (``makeModalFlow(for:)``), which flow satisfies a precondition
/// (``satisfyingFlow(for:)``) and whether it already holds
/// (``isSatisfied(_:)``), and what happens when a modal flow ends
/// (``modalFlowDidFinish(_:result:)``).
open class RootFlow: FlowCoordinator, RootCoordinating {
    public let navigation: SimulatedNavigation
    /// The one satisfier per precondition.
    public let gates: GateSatisfier

    public init(name: String = "app", navigation: SimulatedNavigation) {
        self.navigation = navigation
        self.gates = GateSatisfier(log: navigation.log)
        super.init(name: name, log: navigation.log)
    }

    public var tabFlows: [TabFlow] { childFlows.compactMap { $0 as? TabFlow } }
    public var modalFlows: [ModalFlow] { childFlows.compactMap { $0 as? ModalFlow } }

    public func tabFlow(_ tab: TabID) -> TabFlow? {
        tabFlows.first { $0.tab == tab }
    }

    /// Starts `flow` as a tab flow and tracks it (a tab flow lives until a flow swap).
    public func startTabFlow(_ flow: TabFlow) {
        startChild(flow)
        navigation.tracker.track(flow, label: flow.path, kind: .coordinator)
    }

    // MARK: - Subclass hooks

    /// The modal flow that presents `destination` as the first screen of a modal.
    open func makeModalFlow(for destination: DestinationID) -> ModalFlow? { nil }

    /// The flow that satisfies `precondition` and the screens it starts
    /// with, or nil when nothing in the app can satisfy it.
    open func satisfyingFlow(for precondition: Precondition) -> (flow: ModalFlow, steps: [RouteStep])? { nil }

    /// Whether `precondition` already holds (no flow needed).
    open func isSatisfied(_ precondition: Precondition) -> Bool { false }

    /// The precondition a modal flow satisfies when a link presents it
    /// directly (a `login` destination), so it is the one gated requests
    /// wait for. Default: none.
    open func precondition(satisfiedBy flow: ModalFlow) -> Precondition? { nil }

    /// Called when a modal flow the root started has ended and its modal is gone.
    open func modalFlowDidFinish(_ flow: ModalFlow, result: FlowResult) {}

    /// The plan for reaching `target`. Override only to observe it: the
    /// order of the ops is the reconciler's contract.
    open func plan(current: NavigationState, target: Target, source: RouteSource) -> [NavOp] {
        Reconciler.plan(current: current, target: target, source: source)
    }

    // MARK: - Executing targets

    public func execute(_ target: Target, source: RouteSource, completion: @escaping () -> Void) {
        if let leaf = target.leaf { log.record(.execute(leaf, source)) }
        NavOpApplier(root: self).apply(
            plan(current: navigation.state, target: target, source: source),
            tab: target.tab, completion: completion)
    }

    // MARK: - Modal flows

    /// Starts `flow` as a child, fills and presents its stack. When the flow
    /// ends its modal is dismissed, then ``modalFlowDidFinish(_:result:)``
    /// and `finished` run. `presented` reports whether UIKit showed it.
    public func startModalFlow(
        _ flow: ModalFlow, steps: [RouteStep], animated: Bool,
        presented: @escaping (Bool) -> Void = { _ in },
        finished: ((FlowResult) -> Void)? = nil
    ) {
        flow.onFinish = { [weak self, weak flow] result in
            guard let self, let flow else { return }
            self.removeChild(flow)
            // The flow is held until its modal is gone (the transition's
            // closure is the last owner), so the hook can read its result.
            self.navigation.dismiss(flow.stack, animated: true) { [weak self] in
                self?.modalFlowDidFinish(flow, result: result)
                finished?(result)
            }
        }
        startChild(flow)
        guard !flow.isFinished else { return presented(false) }
        flow.materialize(steps)
        flow.present(animated: animated) { [weak flow] ok in
            if !ok { flow?.finish(.cancelled) }
            presented(ok)
        }
    }

    /// Presents a modal flow of a target's modal chain. A flow that
    /// satisfies a precondition goes through ``gates``: if that
    /// precondition's flow is already on screen, nothing more is presented;
    /// otherwise this flow becomes the one gated requests wait for.
    public func presentModalFlow(
        _ flow: ModalFlow, steps: [RouteStep], animated: Bool,
        presented: @escaping (Bool) -> Void
    ) {
        guard let precondition = precondition(satisfiedBy: flow) else {
            return startModalFlow(flow, steps: steps, animated: animated, presented: presented)
        }
        if gates.isSatisfying(precondition) { return presented(true) }
        gates.satisfy(
            precondition,
            start: { [weak self] done in
                guard let self else { return done(false) }
                self.startModalFlow(
                    flow, steps: steps, animated: animated, presented: presented,
                    finished: { done($0 == .completed) })
            }, completion: { _ in })
    }

    /// Dismisses the whole modal chain at once, then tells each modal flow
    /// it was abandoned so its owner lets go of it.
    public func dismissAllModals(animated: Bool, completion: @escaping () -> Void) {
        let flows = navigation.modals.reversed().compactMap { $0.delegate as? ModalFlow }
        navigation.dismissModals(from: 0, animated: animated, completion: completion)
        for flow in flows { flow.finish(.cancelled) }
    }

    // MARK: - Gates

    /// Satisfies `precondition` through the shared ``gates``: the first
    /// request presents the satisfying flow, later ones join it.
    open func satisfy(_ precondition: Precondition, completion: @escaping (Bool) -> Void) {
        gates.satisfy(
            precondition,
            start: { [weak self] done in
                guard let self else { return done(false) }
                self.presentSatisfyingFlow(for: precondition, completion: done)
            }, completion: completion)
    }

    /// Presents the flow that satisfies `precondition` and reports whether
    /// it completed — without joining a flow already on screen.
    public func presentSatisfyingFlow(for precondition: Precondition, completion: @escaping (Bool) -> Void) {
        if isSatisfied(precondition) { return completion(true) }
        guard let (flow, steps) = satisfyingFlow(for: precondition) else {
            log.record(.unsatisfiable(precondition))
            return completion(false)
        }
        startModalFlow(flow, steps: steps, animated: true, finished: { result in completion(result == .completed) })
    }

    // MARK: - Flow swaps and restoration

    /// Tears every flow down — modal flows, tab flows and their children,
    /// every stack — and drops the requests waiting on gates (each logged as
    /// `drop`), those gated while the flows came down included; the app then
    /// starts its flows afresh. Nothing of the old session survives on a stack or in
    /// a modal.
    public func tearDownAllFlows() {
        gates.reset()
        let modalFlows = navigation.modals.reversed().compactMap { $0.delegate as? ModalFlow }
        navigation.dismissModals(from: 0, animated: false)
        for flow in modalFlows { flow.finish(.cancelled) }
        for flow in childFlows {
            flow.removeAllChildren()
            flow.finish(.cancelled)
            navigation.tracker.expectRelease(flow)
            removeChild(flow)
        }
        for tab in navigation.tabs { navigation.stack(tab).removeAll() }
        // A flow's cancellation may itself gate a request (onboarding ending releases a link it
        // held, which meets the sign-in gate) while the flows are coming down: that request's
        // satisfying flow goes with them and never reports, so its waiter is dropped here too.
        gates.reset()
    }

    /// Rebuilds a saved state through the flows, dropping any screen
    /// `isRestorable` refuses (and everything above it in its stack).
    public func restore(
        _ state: NavigationState, isRestorable: (RouteStep) -> Bool,
        completion: @escaping () -> Void
    ) {
        var ops: [NavOp] = []
        for tab in state.tabs {
            let steps = Array(state.stack(tab).prefix { isRestorable($0) })
            if steps.count > 1 { ops.append(.setStack(tab, steps, keeping: 1)) }
        }
        ops.append(.selectTab(state.selectedTab))
        let modals = state.modals.map { Array($0.prefix { isRestorable($0) }) }.prefix { !$0.isEmpty }
        if !modals.isEmpty { ops.append(.present(Array(modals))) }
        NavOpApplier(root: self).apply(ops, tab: state.selectedTab, completion: completion)
    }
}
