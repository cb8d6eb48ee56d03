/// Told when a stack finished showing a screen — the only signal a
/// coordinator gets when the system back button or a back-swipe pops.
public protocol NavigationStackDelegate: AnyObject {
    /// `from` is the screen the transition came from, or nil for a
    /// non-animated transition (UIKit has no transition coordinator then).
    /// A pop is detectable as `from` no longer being in `stack.screens`;
    /// after a push or a cancelled swipe it still is.
    func navigationStack(_ stack: NavigationStack, didShow screen: Screen, from: Screen?)
}

/// The stand-in for a navigation controller: it alone owns its screens
/// strongly, and it reports transitions only through its weak delegate.
public final class NavigationStack {
    public let name: String
    public private(set) var screens: [Screen] = []
    public weak var delegate: NavigationStackDelegate?
    private let log: EventLog
    private let tracker: LifecycleTracker

    public init(name: String, log: EventLog, tracker: LifecycleTracker) {
        self.name = name
        self.log = log
        self.tracker = tracker
    }

    public var top: Screen? { screens.last }
    public var root: Screen? { screens.first }

    public func push(_ screen: Screen, animated: Bool = true) {
        let from = top
        tracker.trackIfNew(screen)
        screens.append(screen)
        log.record(.push(screen.label))
        delegate?.navigationStack(self, didShow: screen, from: animated ? from : nil)
    }

    /// Pops the top screen, as the back button does.
    @discardableResult
    public func pop(animated: Bool = true) -> Screen? {
        guard screens.count > 1, let popped = top else { return nil }
        log.record(.willDisappear(popped.label))
        popped.onWillDisappear?()
        screens.removeLast()
        log.record(.pop(popped.label))
        tracker.expectRelease(popped)
        delegate?.navigationStack(self, didShow: screens[screens.count - 1], from: animated ? popped : nil)
        return popped
    }

    /// Pops back to the last screen showing `destination`.
    public func pop(to destination: DestinationID, animated: Bool = true) {
        guard let index = screens.lastIndex(where: { $0.destination == destination }), index < screens.count - 1 else { return }
        let removed = Array(screens[(index + 1)...])
        screens.removeSubrange((index + 1)...)
        log.record(.popTo(screens[index].label))
        removed.reversed().forEach { tracker.expectRelease($0) }
        delegate?.navigationStack(self, didShow: screens[index], from: animated ? removed.last : nil)
    }

    /// Replaces the whole stack in one operation (UIKit's `setViewControllers`).
    public func setScreens(_ newScreens: [Screen], animated: Bool = true) {
        let from = top
        let removed = screens.filter { old in !newScreens.contains { $0 === old } }
        for screen in newScreens { tracker.trackIfNew(screen) }
        screens = newScreens
        log.record(.setStack(TabID(name), newScreens.map(\.label)))
        removed.reversed().forEach { tracker.expectRelease($0) }
        if let top = screens.last { delegate?.navigationStack(self, didShow: top, from: animated ? from : nil) }
    }

    /// An interactive back-swipe. A cancelled swipe fires will-disappear and
    /// then leaves everything in place — the case that exposes teardown
    /// hung on disappearance.
    public func backSwipe(cancel: Bool, animated: Bool = true) throws(NavigationError) {
        guard screens.count > 1, let current = top else { throw .nothingToPop(screen: top?.label ?? name) }
        if cancel {
            log.record(.willDisappear(current.label))
            current.onWillDisappear?()
            log.record(.swipeCancelled(current.label))
            delegate?.navigationStack(self, didShow: current, from: animated ? current : nil)
        } else {
            pop(animated: animated)
        }
    }

    /// Removes every screen without a transition (flow swaps on logout).
    public func removeAll() {
        let removed = screens
        screens = []
        removed.reversed().forEach { tracker.expectRelease($0) }
    }
}
