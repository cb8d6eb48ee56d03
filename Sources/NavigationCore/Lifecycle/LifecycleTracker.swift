/// Watches screens, view models and coordinators through real ARC.
///
/// Objects register with weak references; when one leaves the navigation
/// (popped, dismissed, its flow finished) it is *expected to be released*.
/// Deallocation is observed, not assumed: the object owns a
/// ``LifecycleToken`` whose deinit runs when the object's does. An object
/// that was expected to go but is still alive once the app is idle is a
/// leak — the symptom of a retain cycle or of a coordinator nobody told.
public final class LifecycleTracker {
    public enum Kind: String, Sendable {
        case screen
        case viewModel = "view-model"
        case coordinator
        case other
    }

    /// An object expected to be released that is still alive.
    public struct Leak: Hashable, Sendable, CustomStringConvertible {
        public let label: String
        public let kind: Kind
        /// The user step at which the object left the navigation.
        public let leftAtStep: Int
        public let leftDuring: String

        public init(label: String, kind: Kind, leftAtStep: Int, leftDuring: String) {
            self.label = label
            self.kind = kind
            self.leftAtStep = leftAtStep
            self.leftDuring = leftDuring
        }

        public var description: String {
            "\(label) (\(kind.rawValue)) left the navigation at step \(leftAtStep) (\(leftDuring)) and is still alive"
        }
    }

    private struct Record {
        let label: String
        let kind: Kind
        /// Only for an object watched without a token (``watch(_:label:kind:anchoredTo:)``):
        /// the weak reference that empties when it goes. An object holding a
        /// token is not referenced at all — its token reports its end — because
        /// a weak reference gives the object a side table, which sends every
        /// later retain and release of it down Swift's slow path (a tenth of a
        /// scenario's time went there).
        weak var untokenedObject: AnyObject?
        /// The object's key in `recordByObject` (kept so deallocation
        /// finds it without scanning the dictionary).
        let key: ObjectIdentifier
        let hasToken: Bool
        var leftAtStep: Int?
        var deallocated = false
        var anchor: Int?

        init(label: String, kind: Kind, object: AnyObject, hasToken: Bool, leftAtStep: Int? = nil, anchor: Int?) {
            self.label = label
            self.kind = kind
            self.key = ObjectIdentifier(object)
            self.hasToken = hasToken
            if !hasToken { untokenedObject = object }
            self.leftAtStep = leftAtStep
            self.anchor = anchor
        }

        /// Still alive: its token has not reported its end (or, without one, the weak reference holds).
        var isAlive: Bool { !deallocated && (hasToken || untokenedObject != nil) }

        /// Whether the record is of `object` itself, alive (an identifier reused
        /// by a new object after a token-less one went does not count; a token
        /// reports its object's end before its memory can be reused).
        func isOf(_ object: AnyObject) -> Bool {
            !deallocated && (hasToken ? key == ObjectIdentifier(object) : untokenedObject === object)
        }
    }

    private var records: [Record] = []
    /// Bumped by every change ``leaks()`` depends on (a record added or
    /// relabelled, a departure, a deallocation): the leaks are found again
    /// only after one. A scenario asks for them more than once at the same
    /// point (`expect_no_leaks`, then the invariants), and exploring asks
    /// after every step — each time a walk of every object ever tracked.
    private var revision = 0
    /// The last answer, with the records it names: an object watched
    /// without a token leaves without bumping the revision, so a cached
    /// leak is trusted only while its object is still there.
    private var foundLeaks: (revision: Int, records: [Int], leaks: [Leak])?
    private var recordByObject: [ObjectIdentifier: Int] = [:]
    /// The records that left the navigation and have not reported their
    /// end: the only candidates for a leak. Why: ``leaks()`` is asked after
    /// every step (storyboards, `--strict-steps`, exploring), and walking
    /// every record ever tracked made a long scenario quadratic.
    private var departed: Set<Int> = []
    /// The records anchored to each record, so a departure reaches its
    /// dependents without scanning every record (a long scenario builds
    /// tens of thousands).
    private var dependents: [Int: [Int]] = [:]
    private let log: EventLog

    public init(log: EventLog) { self.log = log }

    /// Starts watching `object`. `anchor` ties its expected lifetime to
    /// another tracked object: when the anchor leaves, so must this one
    /// (a view model with its screen, a child coordinator with its first screen).
    public func track(_ object: some LifecycleTracked, label: String, kind: Kind, anchoredTo anchor: AnyObject? = nil) {
        // Tracking twice must not orphan the first token (its deinit would
        // report a live object as deallocated): relabel the record instead.
        let anchorID = anchor.flatMap(recordID(of:))
        revision += 1
        if let existing = recordByObject[ObjectIdentifier(object)], records[existing].isOf(object) {
            if let old = records[existing].anchor { dependents[old]?.removeAll { $0 == existing } }
            records[existing] = Record(
                label: label, kind: kind, object: object, hasToken: records[existing].hasToken,
                leftAtStep: records[existing].leftAtStep, anchor: anchorID)
            if let anchorID { dependents[anchorID, default: []].append(existing) }
            return
        }
        let id = records.count
        records.append(Record(label: label, kind: kind, object: object, hasToken: true, anchor: anchorID))
        if let anchorID { dependents[anchorID, default: []].append(id) }
        recordByObject[ObjectIdentifier(object)] = id
        object.lifecycleToken = LifecycleToken(tracker: self, record: id)
    }

    /// Starts watching a screen a stack was given, unless it is watched
    /// already (the app tracked it, with its own label and view model).
    /// Why: a leak check must not depend on every screen factory
    /// remembering to track what it makes — a screen that was never
    /// tracked could leak and every check would still pass.
    public func trackIfNew(_ screen: Screen) {
        if isTracked(screen) { return }
        track(screen, label: screen.label, kind: .screen)
    }

    /// Starts watching an object that holds no ``LifecycleToken`` — a
    /// team's own view model, which should not have to adopt a protocol of
    /// ours to be checked. Its departure and any leak are seen as with
    /// ``track(_:label:kind:anchoredTo:)``; only its `dealloc` event is not
    /// logged (nothing tells the tracker when it goes; the weak reference
    /// simply empties). Watching an object already watched does nothing.
    public func watch(_ object: AnyObject, label: String, kind: Kind, anchoredTo anchor: AnyObject? = nil) {
        if let tracked = object as? any LifecycleTracked {
            if !isTracked(object) { track(tracked, label: label, kind: kind, anchoredTo: anchor) }
            return
        }
        guard !isTracked(object) else { return }
        let anchorID = anchor.flatMap(recordID(of:))
        revision += 1
        let id = records.count
        records.append(Record(label: label, kind: kind, object: object, hasToken: false, anchor: anchorID))
        if let anchorID { dependents[anchorID, default: []].append(id) }
        recordByObject[ObjectIdentifier(object)] = id
    }

    /// Whether `object` itself is watched (an identifier reused by a new
    /// object after a token-less one went does not count).
    public func isTracked(_ object: AnyObject) -> Bool {
        recordID(of: object) != nil
    }

    /// The live record of `object` itself. Why the identity check: a
    /// token-less object's record keeps its identifier after the object
    /// went, and a new object may be allocated at the same address.
    private func recordID(of object: AnyObject) -> Int? {
        guard let id = recordByObject[ObjectIdentifier(object)], records[id].isOf(object) else { return nil }
        return id
    }

    /// Declares that `object` left the navigation now; it and everything
    /// anchored to it should be deallocated once the app settles.
    public func expectRelease(_ object: AnyObject) {
        guard let id = recordID(of: object) else { return }
        markLeft(id)
    }

    private func markLeft(_ id: Int) {
        guard records[id].leftAtStep == nil else { return }
        records[id].leftAtStep = log.step
        revision += 1
        if !records[id].deallocated {
            departed.insert(id)
            log.record(.release(records[id].label))
        }
        for dependent in dependents[id] ?? [] where records[dependent].anchor == id {
            markLeft(dependent)
        }
    }

    fileprivate func didDeallocate(_ id: Int) {
        guard records.indices.contains(id), !records[id].deallocated else { return }
        records[id].deallocated = true
        departed.remove(id)
        revision += 1
        let key = records[id].key
        if recordByObject[key] == id { recordByObject[key] = nil }
        log.record(.dealloc(records[id].label))
    }

    /// Objects that left the navigation but are still alive, oldest first.
    public func leaks() -> [Leak] {
        if let foundLeaks, foundLeaks.revision == revision, foundLeaks.records.allSatisfy({ records[$0].isAlive }) {
            return foundLeaks.leaks
        }
        // Oldest first; a token-less object whose weak reference emptied is no longer a candidate.
        var leaks: [Leak] = []
        var named: [Int] = []
        for index in departed.sorted() {
            guard let step = records[index].leftAtStep, records[index].isAlive else {
                departed.remove(index)
                continue
            }
            named.append(index)
            leaks.append(
                Leak(
                    label: records[index].label, kind: records[index].kind, leftAtStep: step,
                    leftDuring: log.name(ofStep: step)))
        }
        foundLeaks = (revision, named, leaks)
        return leaks
    }

    /// Labels of tracked objects still alive, registration order.
    public var liveLabels: [String] {
        records.filter(\.isAlive).map(\.label)
    }

    /// Whether `object` has been declared gone.
    public func hasLeft(_ object: AnyObject) -> Bool {
        recordByObject[ObjectIdentifier(object)].map { records[$0].leftAtStep != nil } ?? false
    }
}

/// Adopted by anything the tracker watches: the object stores the token
/// the tracker hands it, so the token dies exactly when the object does.
public protocol LifecycleTracked: AnyObject {
    var lifecycleToken: LifecycleToken? { get set }
}

/// The deinit sentinel: held only by the tracked object, it reports the
/// object's deallocation to the tracker from its own deinit.
public final class LifecycleToken {
    private weak var tracker: LifecycleTracker?
    private let record: Int

    fileprivate init(tracker: LifecycleTracker, record: Int) {
        self.tracker = tracker
        self.record = record
    }

    deinit { tracker?.didDeallocate(record) }
}
