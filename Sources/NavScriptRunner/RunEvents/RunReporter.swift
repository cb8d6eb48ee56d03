import NavScript
import NavScriptRuntime

/// Something that turns run events into a report: the console, a JUnit
/// file, an HTML file, a JSON-lines stream. Reporters only listen; which
/// ones a run has is chosen by its options.
package protocol RunReporter: AnyObject {
    /// What the report is, for messages (`the JUnit report report.xml`).
    var name: String { get }
    /// Called for every event, in order, on one thread at a time. A thrown
    /// error (a file that cannot be written) stops this reporter only.
    func receive(_ event: RunEvent) throws
}
