/// One navigation side effect, as data. The reconciler emits them; the root
/// coordinator applies them in order. Keeping them data is what lets every
/// reconciliation branch be unit-tested without a navigation stack.
public enum NavOp: Hashable, Sendable, CustomStringConvertible {
    /// Dismiss the whole modal chain (it does not match the target's).
    case dismissModals
    case selectTab(TabID)
    /// The right destination is on top with other parameters: update it in place.
    case updateTop(RouteStep)
    /// Pop the tab's stack back to the last screen showing this destination.
    case popTo(DestinationID)
    /// Replace the tab's stack. The first `keeping` screens already on the
    /// stack stay as they are (same instances); the rest are built fresh.
    case setStack(TabID, [RouteStep], keeping: Int)
    /// Replace the stack inside an already presented modal (0 = outermost).
    case setModalStack(level: Int, [RouteStep])
    /// Present a chain of modals, each with its stack, outermost first.
    case present([[RouteStep]])

    public var description: String {
        switch self {
        case .dismissModals: return "dismiss-modals"
        case .selectTab(let tab): return "select-tab \(tab)"
        case .updateTop(let step): return "update \(step)"
        case .popTo(let id): return "pop-to \(id)"
        case .setStack(let tab, let steps, let keeping):
            return "set-stack \(tab) [\(steps.map(\.description).joined(separator: ", "))] keeping \(keeping)"
        case .setModalStack(let level, let steps):
            return "set-modal-stack \(level) [\(steps.map(\.description).joined(separator: ", "))]"
        case .present(let chain):
            return "present " + chain.map { "[" + $0.map(\.description).joined(separator: ", ") + "]" }.joined(separator: " ")
        }
    }
}
