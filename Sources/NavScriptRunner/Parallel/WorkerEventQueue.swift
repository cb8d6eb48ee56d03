import Foundation
import NavScript
import NavScriptRuntime

/// What the workers' reader threads hand the pool's loop: messages, stderr
/// text and exits, in the order each worker produced them.
///
/// Events are posted and taken in batches: a reader posts every message of
/// a chunk it read at once, and the loop takes everything waiting at once,
/// so a chatty worker (a step per message) costs one wake-up per pipe read
/// rather than one per message.
final class WorkerEventQueue: @unchecked Sendable {  // state guarded by `condition`
    struct Event {
        enum Kind {
            case message(WorkerMessage)
            case stderr(String)
            case exited(status: Int32, signaled: Bool)
        }

        let worker: Int
        let kind: Kind
    }

    private var waiting: [Event] = []
    private let condition = NSCondition()

    func post(_ events: [Event]) {
        guard !events.isEmpty else { return }
        condition.lock()
        waiting.append(contentsOf: events)
        condition.signal()
        condition.unlock()
    }

    /// Everything posted so far, oldest first; waits up to `timeout`
    /// seconds for something when nothing is waiting (then returns none).
    func take(timeout: Double) -> [Event] {
        condition.lock()
        defer { condition.unlock() }
        if waiting.isEmpty { _ = condition.wait(until: Date(timeIntervalSinceNow: timeout)) }
        let taken = waiting
        waiting.removeAll(keepingCapacity: true)
        return taken
    }
}
