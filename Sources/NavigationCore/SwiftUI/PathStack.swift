/// SwiftUI's `NavigationStack(path:)`, headless: a root screen and one
/// screen per element of a bound path.
///
/// The stack follows the bound value by diffing what it shows against what
/// the binding reads at each frame: the common prefix keeps its screens
/// (and their view models) by value equality, everything after it is
/// replaced. The back button and the interactive swipe do not tell the
/// coordinator anything — they write the binding (the path minus its last
/// element); a cancelled swipe writes nothing. Made by
/// ``SwiftUINavigation/makeStack(_:path:root:)``.
public final class PathStack {
    /// The stack's name in events and state: its tab, or its sheet's flow.
    public let name: String
    public let root: Screen
    /// What `navigationDestination(for:)` registered on this stack.
    public private(set) var destinations = DestinationRegistry()
    /// Root first, then one screen per shown path element.
    public private(set) var screens: [Screen]
    /// The path values shown, parallel to `screens.dropFirst()`.
    private(set) var shown: [AnyHashable] = []
    private let read: () -> [AnyHashable]
    private let write: ([AnyHashable]) -> Void
    private let watch: WriteWatch
    /// The value before a gesture wrote the binding, until the next frame:
    /// a binding still reading it dropped the write.
    private var beforeGesture: [AnyHashable]?
    private let log: EventLog
    private let tracker: LifecycleTracker
    private let warn: (PlatformWarning) -> Void

    init<Element: Hashable>(
        _ name: String, path: ViewBinding<[Element]>, root: Screen, log: EventLog, tracker: LifecycleTracker,
        warn: @escaping (PlatformWarning) -> Void
    ) {
        self.name = name
        self.root = root
        screens = [root]
        read = { path.get().map { AnyHashable($0) } }
        write = { values in path.set(values.compactMap { $0.base as? Element }) }
        watch = WriteWatch { _ = path.get() }
        self.log = log
        self.tracker = tracker
        self.warn = warn
        SwiftUINavigation.track(root, tracker: tracker)
    }

    /// `navigationDestination(for: type) { value in … }`: how a value of `type` is shown.
    public func navigationDestination<Value: Hashable>(for type: Value.Type, _ build: @escaping (Value) -> Screen) {
        destinations.register(type, build)
    }

    public var top: Screen { screens[screens.count - 1] }

    /// What the bound path reads now, as the stack would label it.
    public var boundLabels: [String] {
        read().map { destinations.screen(for: $0)?.label ?? "<\(DestinationRegistry.name(of: type(of: $0.base)))>" }
    }

    // MARK: - Gestures

    /// The back button or the interactive swipe: the screen goes, then the
    /// binding is written; `cancel` lifts the finger early and writes nothing.
    func userPop(cancel: Bool) throws(NavigationError) {
        guard screens.count > 1 else { throw .nothingToPop(screen: top.label) }
        let current = top
        log.record(.willDisappear(current.label))
        current.onWillDisappear?()
        if cancel {
            log.record(.swipeCancelled(current.label))
            return
        }
        beforeGesture = shown
        screens.removeLast()
        shown.removeLast()
        log.record(.pop(current.label))
        tracker.expectRelease(current)
        write(shown)
    }

    // MARK: - Frames

    /// One frame: counts the writes since the last, tells a dropped write,
    /// and brings the screens in line with the bound path.
    func render() {
        let writes = watch.writes
        watch.reset()
        if writes > 1 {
            warn(
                PlatformWarning(
                    .multipleUpdates, name,
                    "the path of '\(name)' was written \(writes) times in one frame (SwiftUI: \"Update NavigationRequestObserver "
                        + "tried to update multiple times per frame\"): only the last write is shown, with no transition"))
        }
        let bound = read()
        if let before = beforeGesture {
            beforeGesture = nil
            if bound == before, bound != shown {
                warn(
                    PlatformWarning(
                        .droppedWrite, name,
                        "the user went back on '\(name)' but its path binding did not take the write: it still reads "
                            + labels(bound).joined(separator: ", ") + ", so the screen comes back"))
            }
        }
        guard bound != shown else { return }
        apply(bound)
    }

    private func labels(_ values: [AnyHashable]) -> [String] {
        values.map { destinations.screen(for: $0)?.label ?? DestinationRegistry.name(of: type(of: $0.base)) }
    }

    private func apply(_ bound: [AnyHashable]) {
        var keep = 0
        while keep < min(bound.count, shown.count), bound[keep] == shown[keep] { keep += 1 }
        var built: [Screen] = []
        var values: [AnyHashable] = []
        for (offset, element) in bound[keep...].enumerated() {
            guard let screen = destinations.screen(for: element) else {
                let type = DestinationRegistry.name(of: type(of: element.base))
                let registered = destinations.typeNames.isEmpty ? "none" : destinations.typeNames.joined(separator: ", ")
                warn(
                    PlatformWarning(
                        .unregisteredDestination, type,
                        "the path of '\(name)' holds a \(type) but the stack has no navigationDestination(for: \(type).self) "
                            + "(registered: \(registered)); SwiftUI shows nothing for it and for what follows"))
                break
            }
            let position = keep + offset
            if position < shown.count, screens[position + 1].step == screen.step {
                warn(
                    PlatformWarning(
                        .recreated, screen.label,
                        "'\(screen.label)' on '\(name)' was replaced by an unequal value that shows the same screen: "
                            + "SwiftUI rebuilds it and its view state is lost"))
            }
            built.append(screen)
            values.append(element)
        }
        let removed = Array(screens[(keep + 1)...])
        guard !(built.isEmpty && removed.isEmpty) else { return }
        screens = Array(screens[...keep]) + built
        shown = Array(shown[..<keep]) + values
        for screen in built { SwiftUINavigation.track(screen, tracker: tracker) }
        if built.isEmpty {
            if removed.count == 1 {
                log.record(.pop(removed[0].label))
            } else {
                log.record(.popTo(top.label))
            }
        } else if removed.isEmpty {
            for screen in built { log.record(.push(screen.label)) }
        } else {
            log.record(.setStack(TabID(name), screens.map(\.label)))
        }
        removed.reversed().forEach { tracker.expectRelease($0) }
    }

    /// Every screen leaves (the stack's tab or sheet went away).
    func removeAll() {
        screens.reversed().forEach { tracker.expectRelease($0) }
    }
}
