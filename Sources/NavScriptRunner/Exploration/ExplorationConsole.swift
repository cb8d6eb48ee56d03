import Foundation
import NavScript
import NavScriptRuntime

/// The console text of an exploration: for people only — processes that
/// need to know what an exploration found read its ``ExplorationRecord``s.
package enum ExplorationConsole {
    /// `file`: where its reproducer was written (nil: it could not be).
    package static func finding(_ finding: Explorer.Finding, file: String?, withFaults: Bool) -> String {
        var text = "\nVIOLATION \(finding.property) (after \(String(format: "%.1f", finding.timeToFind))s)\n"
        text += "    \(finding.message.replacingOccurrences(of: "\n", with: "\n    "))\n"
        text += "    shrunk from \(finding.originalSteps) steps to \(finding.steps.count); the reproducer's timeline:\n"
        // Numbered as the message and the reproducer's report number them
        // (the implicit launch is step 1; some actions record two steps).
        for (index, step) in finding.timeline.enumerated() { text += "      \(index + 1). \(step)\n" }
        guard let file else { return text + "    reproducer: not written (see below)\n" }
        text +=
            "    reproducer: \(file)"
            + (!finding.verified
                ? " (not verified)"
                : withFaults ? " (fails with the faults, passes without)" : " (fails on this build, as the property found it)") + "\n"
        return text
    }

    package static func summary(_ report: Explorer.Report, host: any ScenarioHost) -> String {
        let perSecond = report.seconds > 0 ? Int(Double(report.steps) / report.seconds) : 0
        var text = "\n\(report.walks) walks, \(report.steps) steps in \(String(format: "%.1f", report.seconds))s (\(perSecond) steps/s)\n"
        let coverage = report.coverage
        let kinds = [
            ("screens reached", "screen "), ("outputs fired", "tap "), ("link patterns, entry points and gate states", "link ")
        ]
        for (label, prefix) in kinds {
            let all = coverage.all.filter { $0.hasPrefix(prefix) }
            let done = coverage.covered.filter { $0.hasPrefix(prefix) }.intersection(all)
            text += "coverage: \(label) \(done.count)/\(all.count)"
            let missing = all.subtracting(done).sorted().prefix(6).map { String($0.dropFirst(prefix.count)) }
            text += missing.isEmpty ? "\n" : " (not yet: \(missing.joined(separator: ", "))\(all.count - done.count > 6 ? ", …" : ""))\n"
        }
        text +=
            report.findings.isEmpty
            ? (report.steps == 0 ? "no step was taken: nothing was explored\n" : "no property violated\n")
            : "\(report.findings.count) violation\(report.findings.count == 1 ? "" : "s") found"
                + (report.stoppedAtFirst ? " (stopped at the first verified one: --stop-at-first)\n" : "\n")
        return text
    }
}
