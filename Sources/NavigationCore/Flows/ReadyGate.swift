/// Holds the links that arrive during a cold start until the root is up
/// (onboarding finished, state restored), then lets them through in
/// arrival order. Each held link is logged as `stash <entry> <input>`.
public final class ReadyGate {
    private let log: EventLog
    private var held: [(EntryInput, EntryPoint)] = []
    public private(set) var isOpen = false

    public init(log: EventLog) {
        self.log = log
    }

    /// Holds `input` if the root is not up yet; true when it was held.
    public func hold(_ input: EntryInput, via entry: EntryPoint) -> Bool {
        guard !isOpen else { return false }
        held.append((input, entry))
        log.record(.stash(entry, input.description))
        return true
    }

    /// Opens the gate (once) and delivers what it held, oldest first.
    public func open(deliver: (EntryInput, EntryPoint) -> Void) {
        guard !isOpen else { return }
        isOpen = true
        let pending = held
        held = []
        for (input, entry) in pending { deliver(input, entry) }
    }
}
