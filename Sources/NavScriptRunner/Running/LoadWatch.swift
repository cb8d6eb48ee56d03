import Foundation
import NavScriptLua

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
    /// Why the watch stepped in.
    package enum Cause: Sendable {
        /// The load ran past the time limit and its grace.
        case pastLimit
        /// A stop was asked for (`interruption`, a signal) and the load did not end within
        /// ``InProcessWatch/stopGrace``: it cannot reach the instruction that would stop it.
        case stopped(String)
    }

    private let lock = NSLock()
    private let limit: Double?
    private let interruption: LuaInterruption?
    private let whenStuck: @Sendable (String, Cause) -> Void
    private var current: (path: String, since: Date)?
    private var ended = false

    /// `limit`: seconds a load may run (nil: no limit, only a stop is watched).
    package init(limit: Double?, interruption: LuaInterruption?, whenStuck: @escaping @Sendable (String, Cause) -> Void) {
        self.limit = limit
        self.interruption = interruption
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
        var stopSeenAt: Date?
        while true {
            usleep(200_000)
            let now = Date()
            if stopSeenAt == nil, interruption?.isRequested == true { stopSeenAt = now }
            lock.lock()
            let (done, loading) = (ended, current)
            lock.unlock()
            if done { return }
            guard let loading else { continue }
            if let limit, now.timeIntervalSince(loading.since) > limit {
                whenStuck(loading.path, .pastLimit)
                return
            }
            if let stopSeenAt, now.timeIntervalSince(stopSeenAt) > InProcessWatch.stopGrace {
                whenStuck(loading.path, .stopped(interruption?.reason ?? "interrupted"))
                return
            }
        }
    }
}
