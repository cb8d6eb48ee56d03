import Foundation
import NavScript
import NavScriptRuntime

/// The report files a command was asked to write (`--junit`, `--json`,
/// `--html`), each a subscriber of its run's event stream.
package struct ReportTargets: Sendable {
    package var junit: String?
    /// Leave file/line attributes out of the JUnit report.
    package var junitStrict = false
    /// A file, or `-` for standard output.
    package var json: String?
    package var html: String?

    package init(junit: String? = nil, junitStrict: Bool = false, json: String? = nil, html: String? = nil) {
        self.junit = junit
        self.junitStrict = junitStrict
        self.json = json
        self.html = html
    }

    /// No report file asked for.
    package var isEmpty: Bool { junit == nil && json == nil && html == nil }

    /// The storyboard needs the navigation after every step.
    package var recordsFrames: Bool { html != nil }

    /// Where the terminal report goes: standard error when a report has
    /// standard output — the JSON stream (`--json -`), or a report written to
    /// `/dev/stdout` (by that name or another) while it is a pipe or a
    /// terminal: `--junit /dev/stdout | consumer` got the terminal report
    /// and the XML mixed, not XML.
    package func terminal(_ streams: OutputStreams) -> @Sendable (String) -> Void {
        json == "-" || [junit, html, json].contains(where: { $0.map(Self.isStandardOutputStream) ?? false })
            ? streams.error : streams.output
    }

    /// Whether `path` opens standard output itself: `/dev/stdout`, `/dev/fd/1`, or a path to the
    /// pipe or terminal it is. (A regular file standard output is redirected to is refused before.)
    package static func isStandardOutputStream(_ path: String) -> Bool {
        if ReportFile.ownDescriptor(path) == STDOUT_FILENO { return true }
        guard let file = FileIdentity(path: path), !file.isRegularFile else { return false }
        return file == FileIdentity(descriptor: STDOUT_FILENO)
    }

    /// The reporters asked for; a JSON file that cannot be created is a
    /// usage problem before anything runs.
    ///
    /// `abandonStream`: asked while a stream's reader (`--json` to a pipe, any report to a FIFO) is
    /// not reading; true gives the report up (the run was stopped and it still waits), so a
    /// stalled reader cannot hold the run.
    package func reporters(
        junit junitOptions: JUnitReport.Options = .init(), abandonStream: (@Sendable () -> Bool)? = nil
    ) throws(UsageProblem) -> [any RunReporter] {
        var reporters: [any RunReporter] = []
        if let junit {
            var options = junitOptions
            options.strict = junitStrict
            let report = JUnitReport(options)
            reporters.append(
                RunReportFile(kind: "JUnit report", path: junit, abandon: abandonStream) { report.render($0.result, app: $0.plan?.app) })
        }
        if let html {
            reporters.append(RunReportFile(kind: "HTML report", path: html, abandon: abandonStream) { HTMLReport().render($0) })
        }
        if let json {
            do {
                reporters.append(try JSONLinesReport(path: json, abandon: abandonStream))
            } catch {
                throw UsageProblem("--json: \(error)")
            }
        }
        return reporters
    }

    /// After the run: says which reports could not be written; true when
    /// one could not (the command then exits 2, unless a signal's status
    /// takes precedence).
    package static func reportFailures(_ stream: RunEventStream, to streams: OutputStreams) -> Bool {
        let failures = stream.failures
        for failure in failures { streams.error("\(streams.executableName): \(failure)\n") }
        return !failures.isEmpty
    }
}
