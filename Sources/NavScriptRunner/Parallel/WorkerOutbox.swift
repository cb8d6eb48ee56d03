import CWorkerOutbox
import NavScript
import NavScriptRuntime

/// The safe face of the worker's C outbox (`CWorkerOutbox`): protocol
/// messages are buffered and written in large pieces, and a trap, a fault
/// or the parent's SIGUSR1 before it kills a hung worker still sends what
/// was buffered — the steps and the call that was running — from a signal
/// handler. See `CWorkerOutbox/include/worker_outbox.h` for when it writes.
struct WorkerOutbox {
    /// Takes over `descriptor` (the protocol stream) and installs the
    /// signal handlers; nil when the buffer cannot be allocated.
    init?(descriptor: Int32, capacity: Int = 64 * 1024) {
        guard navscript_outbox_open(descriptor, capacity) == 0 else { return nil }
        navscript_outbox_flush_on_signals()
        // A finished scenario reaches the parent within 50 ms, whatever the next one does.
        _ = navscript_outbox_start_ticker(50_000_000)
    }

    /// Buffers one message line.
    func append(_ line: [UInt8]) {
        line.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { navscript_outbox_append($0.baseAddress, $0.count) }
        }
    }

    /// Keeps one line aside, replacing the last, for a signal to send after
    /// everything buffered (a crash, or the parent's request before it kills
    /// a hung worker); nil clears it. Never sent otherwise.
    /// The noted call returned (see `navscript_outbox_note_returned`).
    func noteReturned() { navscript_outbox_note_returned() }

    func note(_ line: [UInt8]?) {
        guard let line else { navscript_outbox_note(nil, 0); return }
        line.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { navscript_outbox_note($0.baseAddress, $0.count) }
        }
    }

    /// Writes everything buffered.
    func flush() {
        navscript_outbox_flush()
    }

    /// A scenario starts or ends now: `flushed` reports how long ago.
    func markPhase() {
        navscript_outbox_mark_phase()
    }
}
