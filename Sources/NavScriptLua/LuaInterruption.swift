import CNavScriptLua
import Foundation

/// A stop request for the Lua states that share it: once requested, the
/// next instruction any of them runs — or the next million steps of a
/// pattern match — raises "interrupted", at every instruction after that
/// too, so no `pcall` keeps a script going. Requested from any thread (a
/// signal handler's queue) while the states run on theirs: an in-process
/// run stopped by SIGTERM must end the scenario under way, whatever loop
/// it is in, and still write its reports.
public final class LuaInterruption: @unchecked Sendable {
    /// The flag the states' hook reads (set atomically, never freed before the states).
    let flag: UnsafeMutablePointer<Int32>
    private let lock = NSLock()
    private var why: String?

    public init() {
        flag = .allocate(capacity: 1)
        flag.initialize(to: 0)
    }

    deinit { flag.deallocate() }

    /// Stops every state that shares this at its next instruction;
    /// `reason` says why (`interrupted (SIGTERM)`), for the report.
    public func request(_ reason: String) {
        lock.lock()
        if why == nil { why = reason }
        lock.unlock()
        clua_interrupt_set(flag)
    }

    public var isRequested: Bool { clua_interrupt_get(flag) != 0 }

    /// Why it was requested (nil: it was not).
    public var reason: String? {
        lock.lock()
        defer { lock.unlock() }
        return why
    }
}
