/// Deterministic virtual time for everything UIKit would do asynchronously
/// (modal transitions, animated pops). Tasks run in due-time order, ties in
/// scheduling order, so the same inputs give the same trace on every run.
public final class Scheduler {
    private struct Task {
        let due: Int
        let sequence: Int
        let label: String
        let action: () -> Void
    }

    /// Virtual milliseconds since launch.
    public private(set) var now = 0
    private var tasks: [Task] = []
    private var sequence = 0

    /// Runs after every task: a turn of the run loop has ended. The SwiftUI
    /// platform renders a frame here, so state a task wrote is shown before
    /// the next task runs.
    public var afterEachTask: (() -> Void)?

    public init() {}

    public var isIdle: Bool { tasks.isEmpty }
    /// Labels of pending work, next first (for "did not settle" reports).
    public var pending: [String] { tasks.sorted(by: Self.order).map(\.label) }

    public func schedule(after delay: Int = 0, _ label: String, _ action: @escaping () -> Void) {
        sequence += 1
        tasks.append(Task(due: now + max(0, delay), sequence: sequence, label: label, action: action))
    }

    /// Runs the next due task, advancing virtual time to it.
    @discardableResult
    public func runNext() -> Bool {
        guard let index = tasks.indices.min(by: { Self.order(tasks[$0], tasks[$1]) }) else { return false }
        let task = tasks.remove(at: index)
        now = max(now, task.due)
        task.action()
        afterEachTask?()
        return true
    }

    /// Runs until nothing is pending. Work that keeps rescheduling itself is
    /// reported instead of hanging the run.
    public func settle(maxTasks: Int = 10_000) throws(SchedulerError) {
        var count = 0
        while runNext() {
            count += 1
            if count >= maxTasks && !isIdle { throw SchedulerError(tasksRun: count, pending: pending) }
        }
    }

    private static func order(_ a: Task, _ b: Task) -> Bool {
        (a.due, a.sequence) < (b.due, b.sequence)
    }
}

/// The scheduler kept finding work after its task bound: something
/// reschedules itself forever.
public struct SchedulerError: Error, Hashable, Sendable, CustomStringConvertible {
    public let tasksRun: Int
    public let pending: [String]

    public var description: String {
        "the app did not settle after \(tasksRun) scheduled tasks; still pending: "
            + pending.prefix(5).joined(separator: ", ")
    }
}
