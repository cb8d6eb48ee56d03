/// Carries out a ``Reconciler`` plan through a root's flows, strictly in
/// the order given, waiting for each transition before the next op:
/// dismissing stale modals, selecting the tab, reconciling the tab's stack
/// through its ``TabFlow``, presenting the modal chain through new
/// ``ModalFlow``s. The order is the plan's: reordering belongs to whoever
/// makes the plan.
public struct NavOpApplier {
    unowned let root: RootFlow

    public init(root: RootFlow) {
        self.root = root
    }

    public func apply(_ ops: [NavOp], tab: TabID, completion: @escaping () -> Void) {
        apply(ops[...], tab: tab, completion: completion)
    }

    private func apply(_ ops: ArraySlice<NavOp>, tab: TabID, completion: @escaping () -> Void) {
        guard let op = ops.first else { return completion() }
        let root = self.root
        let next: () -> Void = { [weak root] in
            guard let root else { return completion() }
            NavOpApplier(root: root).apply(ops.dropFirst(), tab: tab, completion: completion)
        }
        switch op {
        case .dismissModals:
            root.dismissAllModals(animated: true, completion: next)
        case .selectTab(let tab):
            root.navigation.select(tab)
            next()
        case .updateTop(let step):
            root.tabFlow(tab)?.updateTop(step)
            next()
        case .popTo(let destination):
            root.tabFlow(tab)?.stack.pop(to: destination)
            next()
        case .setStack(let tab, let steps, let keeping):
            root.tabFlow(tab)?.materialize(steps, keeping: keeping)
            next()
        case .setModalStack(let level, let steps):
            if root.navigation.modals.indices.contains(level) {
                (root.navigation.modals[level].delegate as? ModalFlow)?.materialize(steps)
            }
            next()
        case .present(let chain):
            presentChain(chain[...], completion: next)
        }
    }

    /// Presents each modal of the chain through the flow the root makes
    /// for its first screen, one after the other.
    private func presentChain(_ chain: ArraySlice<[RouteStep]>, completion: @escaping () -> Void) {
        guard let steps = chain.first, let first = steps.first else { return completion() }
        guard let flow = root.makeModalFlow(for: first.id) else {
            root.log.record(.noModalFlow(first))
            return presentChain(chain.dropFirst(), completion: completion)
        }
        let root = self.root
        root.presentModalFlow(flow, steps: steps, animated: chain.count == 1) { [weak root] _ in
            guard let root else { return completion() }
            NavOpApplier(root: root).presentChain(chain.dropFirst(), completion: completion)
        }
    }
}
