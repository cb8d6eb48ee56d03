/// The headless stand-in for a SwiftUI window: a `TabView(selection:)` of
/// path-bound stacks (or one stack), and the sheets, full-screen covers
/// and alerts bound to optional items — all driven by the team's own
/// observable state, written the way SwiftUI writes it:
///
/// - a frame ends each user gesture and each turn of the run loop (a
///   ``Scheduler`` task); it reads every binding and brings what is shown
///   in line, so state written twice in one frame shows once — and is
///   reported, as SwiftUI reports it;
/// - the back button, the back-swipe, the tab bar and the sheet's
///   swipe-down write the bindings; the coordinator hears of them only
///   through its own state (its `didSet`, an `onDismiss`);
/// - one presentation per level: a second item set while one is up waits
///   (and is reported); presenting and dismissing take
///   ``transitionDuration`` on the virtual clock, and `onDismiss` runs
///   when the dismissal ends;
/// - a destination's screen and view model live exactly as long as its
///   path element's value: an unequal value rebuilds the screen.
///
/// What SwiftUI would print as a runtime warning is recorded as a
/// ``PlatformWarning`` (a `warning …` event) and kept in ``warnings``.
public final class SwiftUINavigation {
    /// Virtual milliseconds a presentation transition takes.
    public static let transitionDuration = 300

    public let log: EventLog
    public let tracker: LifecycleTracker
    public let scheduler: Scheduler
    /// Every warning so far, oldest first.
    public private(set) var warnings: [PlatformWarning] = []

    private struct Tab {
        let tag: AnyHashable
        let stack: PathStack
        var id: TabID { TabID(stack.name) }
    }

    private struct Selection {
        let read: () -> AnyHashable
        let write: (AnyHashable) -> Void
        let watch: WriteWatch
    }

    /// One presented level: which modifier presented it, for which item, and what it shows.
    private final class Level {
        let presenter: Presenter
        let identity: AnyHashable
        let content: PresentedContent
        init(presenter: Presenter, identity: AnyHashable, content: PresentedContent) {
            self.presenter = presenter
            self.identity = identity
            self.content = content
        }
        var label: String { content.screens.first?.label ?? presenter.style.rawValue }
    }

    private var tabs: [Tab] = []
    private var selection: Selection?
    private var selectedIndex = 0
    private var rootPresenters: [Presenter] = []
    private var levels: [Level] = []
    private var transitionsInFlight = 0
    /// The selection before the tab bar wrote it, until the next frame.
    private var selectionBeforeGesture: AnyHashable?
    /// The presentation a swipe-down wrote nil to, until the next frame.
    private var swipedDown: (presenter: Presenter, identity: AnyHashable)?
    /// A presenter whose new item replaces its old one once the dismissal ends (not a second presentation).
    private var replacing: Presenter?
    /// Frames rendered so far, and the frame the latest transition started in:
    /// an item written in the frame that started a dismissal waits for it
    /// quietly (SwiftUI queues it); one written while it runs is a warning.
    private var frame = 0
    private var transitionFrame = 0
    /// Presenters whose content is being dismissed (until the transition ends).
    private var dismissing: Set<ObjectIdentifier> = []
    /// Writes each presenter's item had in the current frame.
    private var presenterWrites: [ObjectIdentifier: Int] = [:]
    /// Warnings already recorded in the current step (one per kind and subject).
    private var warnedThisStep: (step: Int, texts: Set<String>) = (0, [])

    public init(log: EventLog, tracker: LifecycleTracker, scheduler: Scheduler) {
        self.log = log
        self.tracker = tracker
        self.scheduler = scheduler
        scheduler.afterEachTask = { [weak self] in self?.render() }
    }

    // MARK: - Building the window

    /// `NavigationStack(path: path) { root }`, named for events and state
    /// (its tab, or its sheet's flow). Register its destinations with
    /// ``PathStack/navigationDestination(for:_:)``.
    public func makeStack<Element: Hashable>(_ name: String, path: ViewBinding<[Element]>, root: Screen) -> PathStack {
        PathStack(name, path: path, root: root, log: log, tracker: tracker) { [weak self] in self?.warn($0) }
    }

    /// The window shows `TabView(selection:)`: each tab a stack, tagged
    /// with the selection value that shows it; `presenters` are the
    /// modifiers on the tab view.
    public func showTabs<Value: Hashable>(
        selection: ViewBinding<Value>, _ tabs: [(tag: Value, stack: PathStack)], presenters: [Presenter] = []
    ) {
        precondition(!tabs.isEmpty, "a TabView needs at least one tab")
        self.tabs = tabs.map { Tab(tag: AnyHashable($0.tag), stack: $0.stack) }
        self.selection = Selection(
            read: { AnyHashable(selection.get()) },
            write: { value in if let value = value.base as? Value { selection.set(value) } },
            watch: WriteWatch { _ = selection.get() })
        rootPresenters = presenters
        selectedIndex = self.tabs.firstIndex { $0.tag == AnyHashable(selection.get()) } ?? 0
    }

    /// The window shows one stack, with `presenters` on it.
    public func show(_ stack: PathStack, presenters: [Presenter] = []) {
        tabs = [Tab(tag: AnyHashable(stack.name), stack: stack)]
        selection = nil
        selectedIndex = 0
        rootPresenters = presenters
    }

    // MARK: - Observation

    public var tabIDs: [TabID] { tabs.map(\.id) }
    public var selectedTab: TabID { tabs.isEmpty ? TabID("") : tabs[selectedIndex].id }
    /// Every tab's stack, in tab order.
    public var tabStacks: [PathStack] { tabs.map(\.stack) }
    /// The top visible screen: the top presentation's, else the selected tab's.
    public var visibleScreen: Screen? { levels.last?.content.screens.last ?? (tabs.isEmpty ? nil : tabs[selectedIndex].stack.top) }
    public var isTransitioning: Bool { transitionsInFlight > 0 }

    /// What is shown, as data.
    public var state: NavigationState {
        var stacks: [TabID: [RouteStep]] = [:]
        for tab in tabs { stacks[tab.id] = tab.stack.screens.map(\.step) }
        return NavigationState(
            selectedTab: selectedTab, tabs: tabIDs, stacks: stacks, modals: levels.map { $0.content.screens.map(\.step) })
    }

    // MARK: - User gestures (each opens a step of the log, as SimulatedUser's do)

    /// Fires `output` of the top visible screen. An alert's button then
    /// dismisses the alert, as SwiftUI does.
    public func tap(_ output: String, _ args: [String: String] = [:]) throws(NavigationError) {
        render()
        log.beginStep("tap \(output)")
        guard let screen = visibleScreen else { throw .noScreen }
        let alert = levels.last.flatMap { $0.presenter.style == .alert ? $0 : nil }
        try screen.fire(output, args)
        if let alert, levels.last === alert { alert.presenter.clear() }
        render()
    }

    /// The tab bar writes the selection.
    public func selectTab(_ tab: TabID) throws(NavigationError) {
        render()
        log.beginStep("select_tab \(tab)")
        guard let index = tabs.firstIndex(where: { $0.id == tab }) else {
            throw .unknownTab(tab.rawValue, tabs: tabIDs.map(\.rawValue))
        }
        if let level = levels.last { throw .tabBarCovered(by: level.label) }
        if let selection {
            selectionBeforeGesture = selection.read()
            selection.write(tabs[index].tag)
        } else if index != selectedIndex {
            selectedIndex = index
            log.record(.selectTab(tab))
        }
        render()
    }

    /// The navigation bar's back button on the visible stack.
    public func back() throws(NavigationError) {
        render()
        log.beginStep("back")
        try visibleStack().userPop(cancel: false)
        render()
    }

    /// The interactive edge swipe on the visible stack; `cancel` lifts the finger early.
    public func backSwipe(cancel: Bool = false, animated: Bool = true) throws(NavigationError) {
        render()
        log.beginStep(cancel ? "back_swipe (cancelled)" : animated ? "back_swipe" : "back_swipe (not animated)")
        try visibleStack().userPop(cancel: cancel)
        render()
    }

    /// The user swipes the top sheet down: the binding is written `nil`
    /// and `onDismiss` runs. A full-screen cover and an alert have no
    /// swipe; `interactiveDismissDisabled` makes the sheet bounce back.
    public func dismiss() throws(NavigationError) {
        render()
        log.beginStep("dismiss")
        guard let level = levels.last else { throw .noModal }
        switch level.presenter.style {
        case .fullScreenCover, .alert: throw .notSwipeDismissible(level.label, style: level.presenter.style.rawValue)
        case .sheet: break
        }
        guard !level.presenter.interactiveDismissDisabled else { return }
        swipedDown = (level.presenter, level.identity)
        remove(from: levels.count - 1)
        level.presenter.clear()
        level.presenter.onDismiss?()
        render()
    }

    private func visibleStack() throws(NavigationError) -> PathStack {
        if let level = levels.last {
            guard let stack = level.content.stack else { throw .nothingToPop(screen: level.label) }
            return stack
        }
        guard !tabs.isEmpty else { throw .noScreen }
        return tabs[selectedIndex].stack
    }

    // MARK: - Frames

    /// Renders the pending frame, then runs the scheduler to idle (a frame
    /// after each task), then checks that the bound state and what is
    /// shown agree.
    public func settle() throws(SchedulerError) {
        render()
        try scheduler.settle()
        for disagreement in disagreements() where warnedThisStep.step != log.step || warnedThisStep.texts.isEmpty {
            warn(PlatformWarning(.outOfSync, disagreement.subject, disagreement.message))
        }
    }

    /// One frame: every binding read, every container brought in line.
    public func render() {
        frame += 1
        for tab in tabs { tab.stack.render() }
        renderSelection()
        renderPresentations()
        swipedDown = nil
    }

    private func renderSelection() {
        guard let selection else { return }
        let writes = selection.watch.writes
        selection.watch.reset()
        if writes > 1 {
            warn(
                PlatformWarning(
                    .multipleUpdates, "selection", "the TabView's selection was written \(writes) times in one frame"))
        }
        let bound = selection.read()
        if let before = selectionBeforeGesture {
            selectionBeforeGesture = nil
            if bound == before, bound != tabs[selectedIndex].tag {
                warn(
                    PlatformWarning(
                        .droppedWrite, "selection",
                        "the user tapped a tab but the selection binding did not take the write: the tab bar stays on "
                            + "'\(selectedTab)'"))
            }
        }
        guard bound != tabs[selectedIndex].tag else { return }
        guard let index = tabs.firstIndex(where: { $0.tag == bound }) else { return }
        selectedIndex = index
        log.record(.selectTab(tabs[index].id))
    }

    private func renderPresentations() {
        var presenters = rootPresenters
        var depth = 0
        while true {
            for presenter in presenters { countWrites(of: presenter) }
            if depth < levels.count {
                let level = levels[depth]
                let identity = level.presenter.identity()
                guard identity == level.identity else {
                    // The app dismissed it (nil), or set another item: dismiss, and present the new one when that ends.
                    if identity != nil { replacing = level.presenter }
                    remove(from: depth, animated: true)
                    return
                }
                for other in presenters where other !== level.presenter && other.identity() != nil {
                    warnSecond(other, over: level)
                }
                level.content.stack?.render()
                presenters = level.content.presenters
                depth += 1
                continue
            }
            let wanting = presenters.filter { $0.identity() != nil }
            guard let first = wanting.first else { return }
            if let swiped = swipedDown, swiped.presenter === first, first.identity() == swiped.identity {
                warn(
                    PlatformWarning(
                        .droppedWrite, first.style.rawValue,
                        "the user swiped the \(first.style.rawValue) down but its item binding did not take the nil: "
                            + "it is presented again"))
            }
            if transitionsInFlight > 0 {
                if replacing !== first, dismissing.contains(ObjectIdentifier(first)), transitionFrame < frame,
                    presenterWrites[ObjectIdentifier(first), default: 0] > 0
                {
                    warn(
                        PlatformWarning(
                            .writeDuringTransition, first.style.rawValue,
                            "a \(first.style.rawValue) was asked for while its previous content was still being dismissed "
                                + "(SwiftUI: \"Attempt to present … while a presentation is in progress\"): it waits for the "
                                + "dismissal"))
                }
                return
            }
            replacing = nil
            present(first)
            for other in wanting.dropFirst() { warnSecond(other, over: levels[levels.count - 1]) }
            return
        }
    }

    private func countWrites(of presenter: Presenter) {
        let writes = presenter.watch.writes
        presenter.watch.reset()
        presenterWrites[ObjectIdentifier(presenter)] = writes
        guard writes > 1 else { return }
        warn(
            PlatformWarning(
                .multipleUpdates, presenter.style.rawValue,
                "a \(presenter.style.rawValue)'s item was written \(writes) times in one frame"))
    }

    private func warnSecond(_ presenter: Presenter, over level: Level) {
        let what = presenter.content()?.screens.first?.label ?? presenter.style.rawValue
        warn(
            PlatformWarning(
                .secondPresentation, what,
                "'\(what)' was asked for while '\(level.label)' is presented at the same level (SwiftUI: \"Currently, only "
                    + "presenting a single sheet is supported\"): it is not shown until that one is dismissed"))
    }

    private func present(_ presenter: Presenter) {
        guard let identity = presenter.identity(), let content = presenter.content() else { return }
        let level = Level(presenter: presenter, identity: identity, content: content)
        levels.append(level)
        for screen in content.screens { Self.track(screen, tracker: tracker) }
        log.record(.present(level.label))
        transition("present \(level.label)") {}
    }

    /// Removes the levels from `depth` up, top first; an animated removal
    /// runs their `onDismiss` when the transition ends (a swipe-down's
    /// caller runs it at once).
    private func remove(from depth: Int, animated: Bool = false) {
        let removed = Array(levels[depth...].reversed())
        levels.removeSubrange(depth...)
        for level in removed {
            log.record(.dismiss(level.label))
            level.content.screens.reversed().forEach { tracker.expectRelease($0) }
        }
        guard animated else { return }
        // Only the handlers wait for the transition: the content is gone from
        // the hierarchy now, so a check between steps sees no false leak.
        let handlers = removed.compactMap(\.presenter.onDismiss)
        let presenters = removed.map { ObjectIdentifier($0.presenter) }
        dismissing.formUnion(presenters)
        transition("dismiss \(removed.last?.label ?? "")") { [weak self] in
            self?.dismissing.subtract(presenters)
            for handler in handlers { handler() }
        }
    }

    private func transition(_ label: String, _ done: @escaping () -> Void) {
        transitionsInFlight += 1
        transitionFrame = frame
        scheduler.schedule(after: Self.transitionDuration, label) { [weak self] in
            self?.transitionsInFlight -= 1
            done()
        }
    }

    /// Runs `work` once the window has shown what the current turn wrote:
    /// on the next turn of the run loop, after any presentation transition.
    /// What a link's `execute` completion waits for, so the dispatcher's
    /// next request is a frame of its own (two resumed links are not one
    /// path written twice) and a sheet is not asked for mid-dismissal.
    public func whenShown(_ work: @escaping () -> Void) {
        scheduler.schedule(after: isTransitioning ? Self.transitionDuration / 6 : 0, "shown") { [weak self] in
            guard let self else { return }
            if self.isTransitioning { self.whenShown(work) } else { work() }
        }
    }

    // MARK: - Agreement

    /// Where the bound state and what is shown disagree at rest.
    public func disagreements() -> [(subject: String, message: String)] {
        var found: [(String, String)] = []
        func check(_ stack: PathStack) {
            let bound = stack.boundLabels
            let shown = stack.screens.dropFirst().map(\.label)
            if bound != shown {
                found.append(
                    (
                        stack.name,
                        "the path of '\(stack.name)' reads [\(bound.joined(separator: ", "))] but the stack shows "
                            + "[\(shown.joined(separator: ", "))]"
                    ))
            }
        }
        tabs.forEach { check($0.stack) }
        levels.compactMap(\.content.stack).forEach(check)
        if let selection, selection.read() != tabs[selectedIndex].tag {
            found.append(
                (
                    "selection",
                    "the TabView's selection reads \(selection.read().base) but no tab is tagged with it; "
                        + "'\(selectedTab)' is shown"
                ))
        }
        return found
    }

    // MARK: - Support

    private func warn(_ warning: PlatformWarning) {
        if warnedThisStep.step != log.step { warnedThisStep = (log.step, []) }
        guard warnedThisStep.texts.insert(warning.text).inserted else { return }
        warnings.append(warning)
        log.record(.warning(warning))
    }

    /// Watches a screen the window shows, and its view model with it.
    static func track(_ screen: Screen, tracker: LifecycleTracker) {
        tracker.trackIfNew(screen)
        if let model = screen.viewModel {
            tracker.watch(model, label: "\(screen.label) view-model", kind: .viewModel, anchoredTo: screen)
        }
    }
}
