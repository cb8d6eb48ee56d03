/// The headless stand-in for the tab bar controller, its navigation
/// controllers and the presented-modal chain, with the UIKit behaviours
/// that cause real navigation bugs:
///
/// - a system back-swipe pops and tells the coordinator only through the
///   stack's delegate (`didShow(from:)`); a cancelled swipe leaves the screen;
/// - a non-animated pop reports no "from" screen;
/// - the user can swipe a modal down, which the app learns only through the
///   modal's delegate;
/// - presenting or dismissing is a transition that completes later on the
///   ``Scheduler``; presenting while a transition is in flight is refused;
/// - switching tabs tears nothing down.
public final class SimulatedNavigation {
    /// Virtual milliseconds a modal transition takes.
    public static let transitionDuration = 300

    public let tabs: [TabID]
    public private(set) var selectedTab: TabID
    public let stacks: [TabID: NavigationStack]
    /// ``stacks`` in the order of ``tabs`` (one per distinct tab): walked
    /// after every scenario (the screens' owners) without hashing a tab's
    /// name per tab.
    public let tabStacks: [NavigationStack]
    public private(set) var modals: [ModalPresentation] = []
    /// `stacks[selectedTab]`, kept: the visible screen is read after every
    /// step (by the app and the scenario's timeline), and hashing the tab's
    /// name each time cost more than the rest of the lookup.
    private var selectedStack: NavigationStack
    private var transitionsInFlight = 0
    public let log: EventLog
    public let tracker: LifecycleTracker
    public let scheduler: Scheduler

    public init(tabs: [TabID], log: EventLog, tracker: LifecycleTracker, scheduler: Scheduler) {
        precondition(!tabs.isEmpty, "a tab bar needs at least one tab")
        self.tabs = tabs
        self.selectedTab = tabs[0]
        self.log = log
        self.tracker = tracker
        self.scheduler = scheduler
        var stacks: [TabID: NavigationStack] = [:]
        var ordered: [NavigationStack] = []
        for tab in tabs where stacks[tab] == nil {  // a tab named twice is one tab
            let stack = NavigationStack(name: tab.rawValue, log: log, tracker: tracker)
            stacks[tab] = stack
            ordered.append(stack)
        }
        self.stacks = stacks
        tabStacks = ordered
        selectedStack = ordered[0]
    }

    public func stack(_ tab: TabID) -> NavigationStack {
        if tab == selectedTab { return selectedStack }
        return stacks[tab] ?? NavigationStack(name: tab.rawValue, log: log, tracker: tracker)
    }

    /// A fresh stack for a modal flow to fill and present.
    public func makeStack(name: String) -> NavigationStack {
        NavigationStack(name: name, log: log, tracker: tracker)
    }

    public func select(_ tab: TabID) {
        guard tab != selectedTab, let stack = stacks[tab] else { return }
        selectedTab = tab
        selectedStack = stack
        log.record(.selectTab(tab))
    }

    /// The stack the user is looking at: the top modal's, else the selected tab's.
    public var visibleStack: NavigationStack { modals.last?.stack ?? selectedStack }
    public var visibleScreen: Screen? { visibleStack.top }
    public var isTransitioning: Bool { transitionsInFlight > 0 }

    // MARK: - Modals

    /// Presents `stack` over everything. Completes after the transition;
    /// refused (completion `false`) while another transition is in flight,
    /// as UIKit refuses to present during a presentation.
    public func present(
        _ stack: NavigationStack, animated: Bool = true,
        delegate: ModalPresentationDelegate? = nil, completion: ((Bool) -> Void)? = nil
    ) {
        let label = stack.root?.label ?? stack.name
        guard transitionsInFlight == 0 else {
            log.record(.presentRejected(label))
            completion?(false)
            return
        }
        let modal = ModalPresentation(stack: stack, presentingTab: selectedTab, delegate: delegate)
        modals.append(modal)
        log.record(.present(label))
        transition(animated: animated, "present \(label)") {
            modal.state = .presented
            completion?(true)
        }
    }

    /// Dismisses the modal holding `stack` and every modal above it.
    public func dismiss(_ stack: NavigationStack, animated: Bool = true, completion: (() -> Void)? = nil) {
        guard let index = modals.firstIndex(where: { $0.stack === stack }) else {
            completion?()
            return
        }
        dismissModals(from: index, animated: animated, completion: completion)
    }

    /// Dismisses modals from `level` (0 = all) upward, top first.
    public func dismissModals(from level: Int = 0, animated: Bool = true, completion: (() -> Void)? = nil) {
        guard level < modals.count else {
            completion?()
            return
        }
        let removed = modals[level...].reversed()
        modals.removeSubrange(level...)
        for modal in removed {
            log.record(.dismiss(modal.stack.root?.label ?? modal.stack.name))
            modal.stack.screens.reversed().forEach { tracker.expectRelease($0) }
        }
        transition(animated: animated, "dismiss") { completion?() }
    }

    private func transition(animated: Bool, _ label: String, _ done: @escaping () -> Void) {
        guard animated else {
            done()
            return
        }
        transitionsInFlight += 1
        scheduler.schedule(after: Self.transitionDuration, label) { [weak self] in
            self?.transitionsInFlight -= 1
            done()
        }
    }

    // MARK: - User gestures

    /// The navigation bar's back button on the visible stack.
    public func backButton() throws(NavigationError) {
        let stack = visibleStack
        guard stack.screens.count > 1 else { throw .nothingToPop(screen: stack.top?.label ?? stack.name) }
        stack.pop(animated: true)
    }

    /// The interactive edge swipe on the visible stack.
    public func backSwipe(cancel: Bool = false, animated: Bool = true) throws(NavigationError) {
        try visibleStack.backSwipe(cancel: cancel, animated: animated)
    }

    /// The user swipes the top modal down. The app hears of it only
    /// through the modal's delegate.
    public func interactiveDismiss() throws(NavigationError) {
        guard let modal = modals.last else { throw .noModal }
        guard !modal.isModalInPresentation else { return }
        let delegate = modal.delegate
        dismissModals(from: modals.count - 1, animated: false)
        delegate?.modalDidDismissInteractively(modal.stack)
    }

    // MARK: - Observation

    /// What is on screen, as data.
    public var state: NavigationState {
        var stackSteps = [TabID: [RouteStep]](minimumCapacity: stacks.count)
        for (tab, stack) in stacks { stackSteps[tab] = stack.screens.map(\.step) }
        return NavigationState(
            selectedTab: selectedTab, tabs: tabs, stacks: stackSteps,
            modals: modals.map { $0.stack.screens.map(\.step) })
    }
}
