/// Told when the user dismisses a modal interactively (swipe-down) — the
/// modal counterpart of a back-swipe: the app did not ask for it.
public protocol ModalPresentationDelegate: AnyObject {
    func modalDidDismissInteractively(_ stack: NavigationStack)
}

/// One presented modal: its own stack, its transition state, and the tab
/// that was selected when it was presented (which is where UIKit would have
/// presented it from).
public final class ModalPresentation {
    public enum State: Sendable { case presenting, presented }

    public let stack: NavigationStack
    public internal(set) var state: State
    public let presentingTab: TabID
    public weak var delegate: ModalPresentationDelegate?
    /// Refuses swipe-down (UIKit's `isModalInPresentation`).
    public var isModalInPresentation = false

    init(stack: NavigationStack, presentingTab: TabID, delegate: ModalPresentationDelegate?) {
        self.stack = stack
        self.state = .presenting
        self.presentingTab = presentingTab
        self.delegate = delegate
    }
}
