/// The ordered record of everything the core decided and did. Ordering bugs
/// (a resume before the session commit) are invisible in end state and
/// obvious here, so scenarios assert on it and failure reports print it.
public final class EventLog {
    /// One logged event and the user step during which it happened.
    public struct Entry: Hashable, Sendable, CustomStringConvertible {
        public let index: Int
        public let step: Int
        public let event: NavEvent
        public var text: String { event.text }
        public var description: String { text }
    }

    /// The entries the log keeps, oldest first: every one, or with a
    /// ``retention``, the latest (an entry's ``Entry/index`` counts from the
    /// log's first entry either way).
    public private(set) var entries: [Entry] = []
    /// How many of the oldest entries the log no longer keeps (see ``retention``).
    public private(set) var droppedCount = 0
    /// How many entries were ever recorded, kept or not.
    public var count: Int { droppedCount + entries.count }
    /// Keep only about this many of the latest entries and step names
    /// (nil: keep everything, the default). Why: a test harness driving an
    /// app for a million steps cannot keep every event of it; the oldest go
    /// first, in chunks, and ``droppedCount`` says how many went.
    public var retention: Int? {
        didSet { dropOldEntries() }
    }
    /// Number of the current user step (0 before the first).
    public private(set) var step = 0
    /// What each step was, by step number (index 0 is "launch"), from
    /// ``droppedStepNames`` on when a ``retention`` dropped the oldest.
    public private(set) var stepNames: [String] = ["launch"]
    /// How many of the first steps' names the log no longer keeps.
    public private(set) var droppedStepNames = 0
    /// Called for every event as it is recorded (tracing, streaming reports).
    public var observer: ((Entry) -> Void)?

    public init() {}

    /// The first loop-guard event, if a gate ever looped: its position is
    /// noted when recorded because invariants ask after every step, and
    /// finding it in the log meant copying every entry.
    /// Kept whatever the ``retention`` drops.
    public private(set) var firstLoopGuard: Entry?

    public func record(_ event: NavEvent) {
        let entry = Entry(index: count, step: step, event: event)
        if case .loopGuard = event, firstLoopGuard == nil { firstLoopGuard = entry }
        entries.append(entry)
        if let retention, entries.count >= retention + max(1, retention / 4) { dropOldEntries() }
        observer?(entry)
    }

    /// Drops what the ``retention`` no longer keeps, a quarter of it at a
    /// time (so dropping costs about four copies per entry over its life).
    private func dropOldEntries() {
        guard let retention else { return }
        let keep = max(0, retention)
        if entries.count > keep {
            let drop = entries.count - keep
            entries.removeFirst(drop)
            droppedCount += drop
            renderedTexts.removeFirst(min(drop, renderedTexts.count))
        }
        if stepNames.count > keep {
            let drop = stepNames.count - keep
            stepNames.removeFirst(drop)
            droppedStepNames += drop
        }
    }

    /// Marks the start of a user action so later events, releases and leaks
    /// can say during which step they happened.
    public func beginStep(_ name: String) {
        step += 1
        stepNames.append(name)
        if let retention, stepNames.count >= retention + max(1, retention / 4) { dropOldEntries() }
    }

    /// What step `step` was; `?` for a step the log never had or no longer keeps.
    public func name(ofStep step: Int) -> String {
        let position = step - droppedStepNames
        return stepNames.indices.contains(position) ? stepNames[position] : "?"
    }

    /// Every kept event's text, oldest first. Each entry is rendered once, when
    /// first asked for: scenarios, reports and storyboards read the log
    /// after every step, and re-rendering all of it each time made a long
    /// scenario quadratic.
    public var texts: [String] {
        if renderedTexts.count < entries.count {
            renderedTexts += entries[renderedTexts.count...].lazy.map(\.text)
        }
        return renderedTexts
    }

    private var renderedTexts: [String] = []
}
