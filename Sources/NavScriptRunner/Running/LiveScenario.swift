import Foundation
import NavScriptRuntime

/// What the scenario running in this process has done so far — its call
/// under way, the failures it recorded, what it printed — kept where
/// another thread can read it.
///
/// Why: a scenario stuck in process where nothing can stop it is reported
/// by ``InProcessWatch`` from its own thread; the stuck thread's world is
/// out of reach, and a worker's parent has all of this from its messages.
/// Without it the report lost the recorded failures, the output and the
/// call that hung.
package final class LiveScenario: @unchecked Sendable {  // state guarded by `lock`
    private let lock = NSLock()
    private var call: String?
    private var returned = false
    private var recorded: [ExpectationFailure] = []
    private var printed = ""

    /// What a worker's parent keeps of a scenario's failures and output.
    static let keptFailures = 100
    static let keptOutput = 64 * 1024

    package init() {}

    /// A scenario begins: nothing of the one before.
    func reset() {
        lock.withLock { (call, returned, recorded, printed) = (nil, false, [], "") }
    }

    func called(_ line: String) { lock.withLock { (call, returned) = (line, false) } }
    func returnedFromCall() { lock.withLock { returned = true } }
    func failed(_ failure: ExpectationFailure) {
        lock.withLock { if recorded.count < Self.keptFailures { recorded.append(failure) } }
    }
    func wrote(_ text: String) {
        lock.withLock { if printed.utf8.count < Self.keptOutput { printed += text } }
    }

    /// `the last call was a.lua:7  tap("submit")`, when a call is under way.
    var callUnderWay: String? { lock.withLock { returned ? nil : call.map { "the last call was \($0)" } } }
    var failures: [ExpectationFailure] { lock.withLock { recorded } }
    var output: String { lock.withLock { printed } }

    /// An observer that keeps this up to date, beside `observer`'s own work.
    func watching(_ observer: ScenarioObserver) -> ScenarioObserver {
        var watched = observer
        let (output, call, returned, failure) = (observer.output, observer.call, observer.returned, observer.failure)
        watched.call = { [self] line in
            called(line); call?(line)
        }
        watched.returned = { [self] in
            returnedFromCall(); returned?()
        }
        watched.output = { [self] text in
            wrote(text); output?(text)
        }
        watched.failure = { [self] found in
            failed(found); failure?(found)
        }
        return watched
    }
}
