import Foundation

/// Counts Lua states opened and closed, and any bytes a closed state failed
/// to release.
///
/// Why: "no leaked states" must be checkable without timing or RSS sampling.
/// `LuaStateCounter.global` sees every state; a test (or a runner) passes its
/// own instance in `LuaState.Options.counter` to watch only its states, which
/// stays exact while other tests run in parallel. Thread-safe.
public final class LuaStateCounter: @unchecked Sendable {
    // @unchecked: every stored var is guarded by `lock`.
    private let lock = NSLock()
    private var open = 0
    private var created = 0
    private var unreleased = 0

    /// Every state in the process.
    public static let global = LuaStateCounter()

    public init() {}

    /// States created and not yet closed.
    public var openStates: Int { locked { open } }

    /// States ever created.
    public var createdStates: Int { locked { created } }

    /// Bytes still allocated when closed states finished `lua_close` (0 unless Lua leaked;
    /// a state abandoned in its region instead of closed adds nothing — see `LuaState.deinit`).
    public var bytesUnreleasedAtClose: Int { locked { unreleased } }

    // NSLock.withLock needs macOS 14; the package supports macOS 13.
    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    func stateOpened() {
        locked {
            open += 1
            created += 1
        }
    }

    func stateClosed(unreleasedBytes: Int) {
        locked {
            open -= 1
            unreleased += unreleasedBytes
        }
    }
}
