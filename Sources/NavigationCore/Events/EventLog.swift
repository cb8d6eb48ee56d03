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

    public private(set) var entries: [Entry] = []
    /// Number of the current user step (0 before the first).
    public private(set) var step = 0
    /// What each step was, by step number (index 0 is "launch").
    public private(set) var stepNames: [String] = ["launch"]
    /// Called for every event as it is recorded (tracing, streaming reports).
    public var observer: ((Entry) -> Void)?

    public init() {}

    /// The first loop-guard event, if a gate ever looped: its position is
    /// noted when recorded because invariants ask after every step, and
    /// finding it in the log meant copying every entry.
    public var firstLoopGuard: Entry? { firstLoopGuardIndex.map { entries[$0] } }
    private var firstLoopGuardIndex: Int?

    public func record(_ event: NavEvent) {
        let entry = Entry(index: entries.count, step: step, event: event)
        if case .loopGuard = event, firstLoopGuardIndex == nil { firstLoopGuardIndex = entries.count }
        entries.append(entry)
        observer?(entry)
    }

    /// Marks the start of a user action so later events, releases and leaks
    /// can say during which step they happened.
    public func beginStep(_ name: String) {
        step += 1
        stepNames.append(name)
    }

    public func name(ofStep step: Int) -> String {
        stepNames.indices.contains(step) ? stepNames[step] : "?"
    }

    /// Every event's text, oldest first. Each entry is rendered once, when
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
