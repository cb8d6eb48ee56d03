/// Plans how to get from what is on screen to a resolved target, as a pure
/// function — the most logic-dense part of navigation, kept headless so each
/// branch is one unit test.
///
/// The plan's order is load-bearing: dismiss a stale modal (a stack cannot
/// be reconciled under it), select the tab (the stack to reconcile is the
/// target tab's), reconcile the stack, then present the modal chain last.
///
/// The stack decision is five-way: no-op, update in place, pop to, reset to
/// canonical (external source) or keep the shared prefix and rebuild the
/// tail (internal source).
///
/// Identity is the destination id **plus parameters**, for the prefix too:
/// `order:41` is not a prefix of a path through `order:42`, so tracking
/// order 42 never lands on top of order 41's screen. The leaf itself is
/// matched by id first, so that a parameter-only change updates the screen
/// in place instead of rebuilding it — but only when the screens below it
/// are exactly the target's ancestry; otherwise the stack is rebuilt.
/// A leaf already on top with the same parameters is a no-op whatever is
/// below it: the user is looking at the target.
public enum Reconciler {
    public static func plan(current: NavigationState, target: Target, source: RouteSource) -> [NavOp] {
        var ops: [NavOp] = []
        let modalRootsMatch = current.modals.map { $0.first } == target.modals.map { $0.first }

        if !current.modals.isEmpty && !modalRootsMatch {
            ops.append(.dismissModals)
        }
        if current.selectedTab != target.tab {
            ops.append(.selectTab(target.tab))
        }
        ops += stackPlan(current.stack(target.tab), run: target.baseRun, tab: target.tab, source: source)
        if modalRootsMatch {
            for (level, (have, want)) in zip(current.modals, target.modals).enumerated() where have != want {
                ops.append(.setModalStack(level: level, want))
            }
        } else if !target.modals.isEmpty {
            ops.append(.present(target.modals))
        }
        return ops
    }

    static func stackPlan(_ stack: [RouteStep], run: [RouteStep], tab: TabID, source: RouteSource) -> [NavOp] {
        guard let leaf = run.last else { return [] }
        if stack.last == leaf { return [] }
        let ancestry = Array(run.dropLast())
        if let top = stack.last, top.id == leaf.id, Array(stack.dropLast()) == ancestry {
            return [.updateTop(leaf)]
        }
        if let index = stack.lastIndex(where: { $0.id == leaf.id }), Array(stack[..<index]) == ancestry {
            return stack[index].params == leaf.params ? [.popTo(leaf.id)] : [.popTo(leaf.id), .updateTop(leaf)]
        }
        switch source {
        case .external:
            return [.setStack(tab, run, keeping: 0)]
        case .internal:
            let shared = zip(stack, run).prefix { $0 == $1 }.count
            return [.setStack(tab, run, keeping: shared)]
        }
    }
}
