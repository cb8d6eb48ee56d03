import Foundation

/// Watches files being loaded in this process, one at a time, and calls
/// `whenStuck` (on its own thread) with one whose load runs past `limit`.
///
/// Why: a file's top level runs under the time limit, which Lua's hook
/// enforces at the next instruction — but one instruction can run for
/// minutes (a table whose `__call` is a table), and a suite read to select
/// from it (`--filter`, `--tags`) is read in the parent process. The caller
/// ends the process there, with its reports, since the loading thread
/// cannot be stopped.
package final class LoadWatch: @unchecked Sendable {  // state guarded by `lock`
    private let lock = NSLock()
    private let limit: Double
    private let whenStuck: @Sendable (String) -> Void
    private var current: (path: String, since: Date)?
    private var ended = false

    package init(limit: Double, whenStuck: @escaping @Sendable (String) -> Void) {
        self.limit = limit
        self.whenStuck = whenStuck
        BackgroundThread.start { [self] in watch() }
    }

    /// `path` begins loading (the one before it is done).
    package func loading(_ path: String) {
        lock.lock()
        current = (path, Date())
        lock.unlock()
    }

    /// Loading is over: the watch stops looking.
    package func end() {
        lock.lock()
        ended = true
        lock.unlock()
    }

    private func watch() {
        while true {
            usleep(200_000)
            lock.lock()
            let (done, stuck) = (ended, current.flatMap { Date().timeIntervalSince($0.since) > limit ? $0.path : nil })
            lock.unlock()
            if done { return }
            if let stuck {
                whenStuck(stuck)
                return
            }
        }
    }
}
