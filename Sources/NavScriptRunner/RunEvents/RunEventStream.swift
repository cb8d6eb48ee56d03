import Foundation
import NavScript
import NavScriptRuntime

/// Hands each run event to every subscribed reporter, in subscription
/// order. A reporter that throws is dropped from the stream and its error
/// kept in ``failures``, so one unwritable file neither stops the run nor
/// silences the other reports; the command exits 2 for it at the end.
///
/// Events may be published from any thread (the worker pool's loop, the
/// in-process runner); a lock keeps them whole and in order.
package final class RunEventStream: @unchecked Sendable {  // state guarded by `lock`
    private let lock = NSLock()
    private var reporters: [any RunReporter]
    private var failed: [(reporter: String, error: any Error)] = []
    /// The one thread whose events are still delivered, once ``claim(if:)`` succeeded.
    private var owner: pthread_t?

    package init(_ reporters: [any RunReporter] = []) {
        self.reporters = reporters
    }

    package func subscribe(_ reporter: any RunReporter) {
        lock.lock()
        defer { lock.unlock() }
        reporters.append(reporter)
    }

    package func publish(_ event: RunEvent) {
        lock.lock()
        defer { lock.unlock() }
        if let owner, pthread_equal(owner, pthread_self()) == 0 { return }
        reporters.removeAll { reporter in
            do {
                try reporter.receive(event)
                return false
            } catch {
                failed.append((reporter.name, error))
                return true
            }
        }
    }

    /// Makes the calling thread the only one whose events are delivered from
    /// now on, when `decide` — asked holding the stream, so no event arrives
    /// while it looks — says so; whether it did. Why: a run in this process
    /// whose scenario is stuck where nothing can stop it (``InProcessWatch``)
    /// is ended by another thread, and the stuck one, should it ever come
    /// back, must not add a word to reports already finished.
    package func claim(if decide: () -> Bool) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard owner == nil, decide() else { return false }
        owner = pthread_self()
        return true
    }

    /// Why each reporter that failed stopped (`cannot write the JUnit
    /// report to /ci/report.xml: …`), in order.
    package var failures: [String] {
        lock.lock()
        defer { lock.unlock() }
        return failed.map { failure in
            failure.error is ReportFile.WriteError ? "\(failure.error)" : "\(failure.reporter): \(failure.error)"
        }
    }

    /// A plain result (mutate's and explore's reports) as the events of a
    /// run that produced it: started, each file with its scenarios, finished.
    package func publish(_ result: RunResult, plan: RunPlan, interruption: String? = nil) {
        publish(.runStarted(plan))
        publishFiles(of: result, interruption: interruption)
    }

    /// The rest of ``publish(_:plan:interruption:)`` for a command that
    /// published `.runStarted` when it began — so a report file says "did
    /// not finish" from then on, and a command killed outright leaves that,
    /// not the last run's green report.
    package func publishFiles(of result: RunResult, interruption: String? = nil) {
        for file in result.files {
            publish(.fileStarted(file: file.file))
            for scenario in file.scenarios { publish(.scenarioFinished(scenario)) }
            publish(.fileFinished(file))
        }
        publish(.runFinished(result, interruption: interruption))
    }
}
