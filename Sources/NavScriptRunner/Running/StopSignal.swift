import Foundation
import NavScriptLua

/// Set by SIGINT, SIGTERM, SIGHUP (and the other signals that end a process by default) or fail-fast; read by the pool between events.
package final class StopSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var reasonText: String?
    private var signalNumber: Int32?
    /// When the first signal came: a second within ``sameSignalWindow`` is the same request.
    private var firstSignalAt: Date?
    private var sources: [DispatchSourceSignal] = []
    /// A report written as the run goes (`the --json stream`) that holds what finished when a
    /// second signal ends the process before the others are written; nil: none.
    private var liveReport: String?

    /// A second signal this soon after the first is the same request delivered twice — GNU
    /// `timeout` signals navscript and then its process group, a terminal's Ctrl-C reaches the
    /// whole group — not a user insisting: the run goes on stopping and writes its reports.
    static let sameSignalWindow: TimeInterval = 1

    /// What stops Lua in this process at its next instruction (a run in
    /// process: the scenario under way is ended, not waited for).
    package let interruption = LuaInterruption()

    package init() {}

    package var isSet: Bool { lock.lock(); defer { lock.unlock() }; return reasonText != nil }
    package var reason: String { lock.lock(); defer { lock.unlock() }; return reasonText ?? "interrupted" }
    /// How long ago the first stop signal came (nil: none came).
    package var stoppedFor: TimeInterval? {
        lock.lock()
        defer { lock.unlock() }
        return firstSignalAt.map { Date().timeIntervalSince($0) }
    }
    /// Names a report written as the run goes, for the note a second signal prints.
    package func keepsLiveReport(_ name: String) { lock.lock(); liveReport = name; lock.unlock() }

    /// The signal that stopped the run, if one did.
    package var interruptingSignal: Int32? { lock.lock(); defer { lock.unlock() }; return signalNumber }
    /// The conventional exit status of a run a signal stopped: 128 + its
    /// number (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP).
    package var exitStatus: Int32? { interruptingSignal.map { 128 + $0 } }

    /// Passes the interrupt on to a child process (an exploration): the
    /// same signal, or SIGTERM for a stop that had none.
    package func passOn(to process: Process) {
        if process.isRunning { kill(process.processIdentifier, interruptingSignal ?? SIGTERM) }
    }

    package func set(_ reason: String, signal: Int32? = nil) {
        lock.lock()
        let now = Date()
        let insisted = signalNumber != nil && firstSignalAt.map { now.timeIntervalSince($0) >= Self.sameSignalWindow } ?? false
        if signal != nil && firstSignalAt == nil { firstSignalAt = now }
        if reasonText == nil {
            reasonText = reason
            signalNumber = signal
        } else if signal != nil && signalNumber == nil {
            signalNumber = signal  // a fail-fast stop, then a signal: the signal is the exit status
        }
        let live = liveReport
        lock.unlock()
        if let signal, insisted {
            // A second signal: the run did not stop on the first (in process, a hang inside the
            // app never reaches a next instruction). It ends now, with what was written.
            let text =
                "navscript: a second signal (\(reason)): exiting now, without writing the reports"
                + (live.map { " (\($0) holds what finished)" } ?? "") + "; one signal stops a run and writes them\n"
            _ = text.withCString { write(STDERR_FILENO, $0, strlen($0)) }
            _exit(128 + signal)
        }
        // A signal stops what runs now; fail-fast lets the scenario under way finish.
        if signal != nil { interruption.request(reason) }
    }

    /// Turns Ctrl-C, a CI runner's SIGTERM (cancel, timeout) and SIGHUP —
    /// and the other signals whose default is to end the process without a
    /// word (SIGUSR1, SIGUSR2, SIGALRM, a CPU-time limit's SIGXCPU, …) —
    /// into a stop request instead of killing the process, so the
    /// report for what finished is still written. A second signal ends the
    /// process at once (a hang in process would otherwise need SIGKILL).
    package func catchSignals() {
        // Every catchable signal whose default ends the process: SIGXCPU is what a CPU-time
        // limit sends before its SIGKILL, precisely so that reports can be written; SIGQUIT is a
        // terminal's Ctrl-\ (its default dumps core: the backtracer took it for a crash). (Not SIGXFSZ:
        // it is ignored, so a report written past the file-size limit fails and is named.)
        let stopping = [
            (SIGINT, "SIGINT"), (SIGTERM, "SIGTERM"), (SIGHUP, "SIGHUP"), (SIGQUIT, "SIGQUIT"), (SIGUSR1, "SIGUSR1"), (SIGUSR2, "SIGUSR2"),
            (SIGALRM, "SIGALRM"), (SIGXCPU, "SIGXCPU"), (SIGVTALRM, "SIGVTALRM"), (SIGPROF, "SIGPROF"),
            (SIGIO, "SIGIO"), (SIGPWR, "SIGPWR")
        ]
        for (number, name) in stopping {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in self?.set("interrupted (\(name))", signal: number) }
            source.resume()
            sources.append(source)
        }
    }
}
