import Foundation
import TestSupport
import Testing

@testable import NavScript
@testable import NavScriptLua
@testable import NavScriptRunner
@testable import NavScriptRuntime

/// The reports validated by `xmllint` against Fixtures/junit.xsd (strict
/// Ant/Jenkins JUnit plus `file`/`line`), as CI reporters would read them.
@Suite("Reporting: JUnit schema validity")
struct ReportingSchemaTests {
    private func validate(
        _ run: RunResult, options: JUnitReport.Options,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let folder = try ReportingTemporaryFolder()
        let file = folder.url.appendingPathComponent("junit.xml")
        try JUnitReport(options).write(run, to: file)
        guard let result = XMLLint.run(file, schema: ReportingFixtures.schema, sourceLocation: sourceLocation)
        else { return }
        #expect(result.status == 0, "xmllint: \(result.messages)", sourceLocation: sourceLocation)
    }

    @Test(arguments: [true, false])
    func mixedRunValidates(includeFileAttributes: Bool) throws {
        try validate(
            ReportingFixtures.mixedRun(),
            options: .init(strict: !includeFileAttributes, hostname: "ci"))
    }

    @Test func emptyRunValidates() throws {
        try validate(RunResult(files: [], duration: 0, startedAt: 0), options: .init(hostname: "ci"))
        try validate(
            RunResult(
                files: [FileResult(file: "a.lua", scenarios: [], duration: 0)], duration: 0,
                startedAt: 0), options: .init(hostname: "ci"))
    }

    @Test func hostileRunIsWellFormedAndValid() throws {
        let folder = try ReportingTemporaryFolder()
        let file = folder.url.appendingPathComponent("junit.xml")
        let run = ReportingFixtures.hostileRun()
        try JUnitReport(.init(hostname: ReportingFixtures.hostile)).write(run, to: file)
        guard let wellFormed = XMLLint.run(file) else { return }
        #expect(wellFormed.status == 0, "xmllint: \(wellFormed.messages)")
        try validate(run, options: .init(hostname: ReportingFixtures.hostile))
        try validate(run, options: .init(strict: true, hostname: "\u{1B}[0m"))
    }

    /// Guards the guard: the schema really is strict, so a pass means something.
    @Test func schemaRejectsWhatReportersReject() throws {
        let folder = try ReportingTemporaryFolder()
        let good = JUnitReport(.init(hostname: "ci")).render(ReportingFixtures.mixedRun())
        let broken: [(String, String)] = [
            ("comma decimal", good.replacingOccurrences(of: #"time="0.541""#, with: #"time="0,541""#)),
            ("zone suffix", good.replacingOccurrences(of: "05:44:57\"", with: "05:44:57Z\"")),
            (
                "duplicate name",
                good.replacingOccurrences(
                    of: "login remembers the user",
                    with: "login shows the form")
            ),
            ("unknown attribute", good.replacingOccurrences(of: #" line="4""#, with: #" line="4" rerun="1""#)),
            (
                "nested suite",
                good.replacingOccurrences(
                    of: "<testsuite name=\"scenarios/tabs.lua\"",
                    with:
                        "<testsuite name=\"nested\" tests=\"0\" failures=\"0\" errors=\"0\" skipped=\"0\" time=\"0\" timestamp=\"2026-11-21T05:44:57\" hostname=\"h\"><testsuite name=\"scenarios/tabs.lua\""
                )
                .replacingOccurrences(of: "</testsuites>", with: "</testsuite></testsuites>")
            ),
            (
                "bad classname",
                good.replacingOccurrences(
                    of: #"classname="scenarios.tabs""#,
                    with: #"classname="scenarios..tabs""#)
            )
        ]
        for (label, xml) in broken {
            #expect(xml != good, "\(label): the mutation applied")
            let file = folder.url.appendingPathComponent("broken.xml")
            try Data(xml.utf8).write(to: file)
            guard let result = XMLLint.run(file, schema: ReportingFixtures.schema) else { return }
            #expect(result.status != 0, "\(label) should not validate")
        }
    }
}
