import Foundation
import TestSupport
import Testing

@testable import NavScript
@testable import NavScriptLua
@testable import NavScriptRunner
@testable import NavScriptRuntime

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// One report with every outcome kind, read by each major JUnit consumer
/// the way it really reads it: Jenkins xunit's own schema, Python's
/// junitparser, junit2html and Codecov's test-results-parser (run when
/// installed — scripts/bootstrap.sh installs them), and the field logic of
/// GitLab, GitHub's dorny test-reporter and mikepenz action-junit-report
/// (their parsers are TypeScript/Ruby, so their rules are checked here,
/// quoted from their sources).
@Suite("Reporting: JUnit as its consumers read it")
struct ReportingConsumerTests {
    /// Every outcome, one scenario each, named after its stable form.
    static let run: RunResult = {
        let outcomes: [ScenarioOutcome] =
            [.passed]
            + ScenarioOutcome.Failure.allCases.map(ScenarioOutcome.failed)
            + ScenarioOutcome.ErrorKind.allCases.map(ScenarioOutcome.errored)
            + ScenarioOutcome.SkipReason.allCases.map(ScenarioOutcome.skipped)
        let file = "scenarios/gate_resume/cart_gate.lua"
        let scenarios = outcomes.enumerated().map { index, outcome in
            let label = outcome == .passed ? "passed" : "\(outcome.status.rawValue) \(outcome.kind)"
            let message = outcome == .passed ? "" : "\(file):\(index + 10): \(label) happened & <was> \"reported\""
            return ScenarioResult(
                name: "case \(label)", groups: ["cart gate"], file: file, line: index + 2,
                outcome: outcome, message: message,
                details: outcome.status == .failed ? "expected: a\n  actual: b" : "",
                timeline: ["\(file):\(index + 2)  launch{}  → home [tab home]"], duration: 0.001)
        }
        return RunResult(
            files: [FileResult(file: file, scenarios: scenarios, duration: 0.05)], duration: 0.05,
            seed: 42, startedAt: 0)
    }()

    static func write(strict: Bool) throws -> (URL, ReportingTemporaryFolder) {
        let folder = try ReportingTemporaryFolder()
        let url = folder.url.appendingPathComponent(strict ? "strict.xml" : "junit.xml")
        try JUnitReport(
            .init(
                strict: strict, hostname: "ci", invariants: ["leaks", "idle"],
                replayCommand: ["navscript", "run"])
        ).write(run, to: url)
        return (url, folder)
    }

    static let expected: [String: String] = Dictionary(uniqueKeysWithValues: run.scenarios.map { ($0.name, $0.status.rawValue) })

    // MARK: - Jenkins

    @Test("Jenkins xunit: --junit-strict validates against the plugin's junit-10.xsd")
    func jenkinsXunit() throws {
        let (url, folder) = try Self.write(strict: true)
        _ = folder
        let schema = ReportingFixtures.schema.deletingLastPathComponent().appendingPathComponent("xunit-junit-10.xsd")
        guard let result = XMLLint.run(url, schema: schema) else { return }
        #expect(result.status == 0, "xmllint --schema xunit-junit-10.xsd: \(result.messages)")
        let (loose, other) = try Self.write(strict: false)
        _ = other
        let rejected = XMLLint.run(loose, schema: schema)
        #expect(rejected?.status != 0, "the non-strict report uses file/line, which the xunit schema rejects")
    }

    @Test("Jenkins JUnit plugin: every failure, error and skip has a message attribute")
    func jenkinsJUnit() throws {
        let (url, folder) = try Self.write(strict: false)
        _ = folder
        let xml = try String(contentsOf: url, encoding: .utf8)
        for element in ["failure", "error", "skipped"] {
            let opened = xml.components(separatedBy: "<\(element) ").count - 1
            let withMessage = xml.components(separatedBy: "<\(element) message=\"").count - 1
            #expect(opened > 0 && opened == withMessage, "<\(element)> without a message")
        }
        #expect(XMLLint.run(url, schema: ReportingFixtures.schema)?.status == 0)
    }

    // MARK: - GitLab (lib/gitlab/ci/parsers/test/junit.rb)

    @Test("GitLab: the body of every result starts with its message; no type ActiveSupport would convert")
    func gitlab() throws {
        let (url, folder) = try Self.write(strict: false)
        _ = folder
        let document = try XMLDocument(contentsOf: url)
        let results = try document.nodes(forXPath: "//failure|//error|//skipped").compactMap { $0 as? XMLElement }
        #expect(results.count == Self.run.scenarios.filter { $0.status != .passed }.count)
        // ActiveSupport's Hash.from_xml converts these `type`s (or fails on them).
        let converted: Set<String> = [
            "symbol", "yaml", "date", "datetime", "integer", "float", "decimal", "boolean",
            "array", "string", "file", "base64Binary", "binary"
        ]
        for element in results {
            let message = element.attribute(forName: "message")?.stringValue ?? ""
            let body = element.stringValue ?? ""
            #expect(!message.isEmpty && body.hasPrefix(message), "GitLab shows only the body: \(element.xmlString)")
            if element.name != "skipped" {
                #expect(body.contains("\ntimeline:\n  scenarios/gate_resume/cart_gate.lua:"), "and the steps: \(body)")
            }
            if let type = element.attribute(forName: "type")?.stringValue { #expect(!converted.contains(type)) }
        }
    }

    // MARK: - GitHub

    @Test("dorny/test-reporter: the body carries a stack frame that locates the failing line")
    func dorny() throws {
        let (url, folder) = try Self.write(strict: false)
        _ = folder
        let document = try XMLDocument(contentsOf: url)
        let tracked = ["scenarios/gate_resume/cart_gate.lua", "scenarios/gate_resume/support/cart_gate.lua", "cart_gate.lua"]
        for element in try document.nodes(forXPath: "//failure|//error").compactMap({ $0 as? XMLElement }) {
            let body = element.stringValue ?? ""
            let location = try #require(Self.dornyLocation(body, tracked: tracked), "dorny finds no file in \(body)")
            let message = element.attribute(forName: "message")?.stringValue ?? ""
            #expect(location.file == "scenarios/gate_resume/cart_gate.lua")
            #expect(message.hasPrefix("scenarios/gate_resume/cart_gate.lua:\(location.line):"), "the frame names the failing line")
        }
    }

    @Test(
        "dorny/test-reporter: files in lower-case folders are placed whatever their names",
        arguments: [
            "scenarios/gate_resume/cart_gate.lua", "suite/checkout/_setup.lua", "suite/my flows/cart gate.lua",
            "suite/deep/er/2fa.lua", "suite/kasse/übersicht.lua", "suite/cart.v2.lua", "flows/Checkout.lua"
        ])
    func dornyPlacesEveryFile(_ file: String) throws {
        let result = ScenarioResult(
            name: "n", file: file, line: 3, outcome: .failed(.expectation),
            message: "\(file):7: expected the cart")
        let frame = try #require(JUnitReport.frame(result))
        let location = try #require(Self.dornyLocation(frame, tracked: [file, "other/" + file]), "\(frame)")
        #expect(location.file == file && location.line == 7, "\(frame)")
    }

    @Test("dorny/test-reporter: no frame it would misread (parentheses, absolute paths)")
    func dornyGetsNoMisleadingFrame() {
        for file in ["suite/cart (old).lua", "/abs/suite/cart.lua", "suite/notes.txt"] {
            #expect(JUnitReport.frame(ScenarioResult(name: "n", file: file, line: 3, outcome: .failed(.expectation))) == nil, "\(file)")
        }
    }

    /// Where dorny's java-junit parser annotates a failure body: the first
    /// line its stack-frame pattern reads (java-stack-trace-element-parser.ts)
    /// whose file `getFilePath` finds among the repository's `tracked`
    /// files (java-junit-parser.ts): the package is the dotted segments of
    /// the frame's path before the first that starts with a character up to
    /// `Z`; a tracked file matches when it has the frame's file name and its
    /// last folders are the package (none: no match).
    static func dornyLocation(_ body: String, tracked: [String]) -> (file: String, line: Int)? {
        guard let pattern = try? Regex(#"^\s*at (\S+\/\S*\/)?(.*)\((.*):(\d+)\)$"#) else { return nil }
        for text in body.split(separator: "\n", omittingEmptySubsequences: false) {
            guard let match = try? pattern.wholeMatch(in: String(text)),
                let path = match.output[2].substring, let name = match.output[3].substring,
                let line = Int(match.output[4].substring ?? "")
            else { continue }
            var package = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            if let end = package.firstIndex(where: { ($0.utf16.first ?? 0xFFFF) <= 0x5A }) {  // JS: part[0] <= 'Z'
                package.removeSubrange(end...)
            }
            guard !package.isEmpty else { continue }
            for file in tracked where file.split(separator: "/").last.map(String.init) == String(name) {
                let folders = file.split(separator: "/").dropLast().map(String.init)
                if package.count <= folders.count && Array(folders.suffix(package.count)) == package { return (file, line) }
            }
        }
        return nil
    }

    @Test("mikepenz/action-junit-report: file and line on every testcase (testParser.ts resolveFileAndLine)")
    func mikepenz() throws {
        let (url, folder) = try Self.write(strict: false)
        _ = folder
        let cases = try XMLDocument(contentsOf: url).nodes(forXPath: "//testcase").compactMap { $0 as? XMLElement }
        #expect(cases.count == Self.run.scenarios.count)
        for (testcase, scenario) in zip(cases, Self.run.scenarios) {
            #expect(testcase.attribute(forName: "file")?.stringValue == "scenarios/gate_resume/cart_gate.lua")
            // Its annotation goes on `line` (as EnricoMi's does): a failure's or error's own line.
            let line = Int(testcase.attribute(forName: "line")?.stringValue ?? "") ?? 0
            let failing = scenario.message.split(separator: ":").dropFirst().first.flatMap { Int($0) }
            #expect(line == (scenario.status.isProblem ? failing : scenario.line), "\(scenario.name): line \(line)")
        }
    }

    // MARK: - Python consumers (run for real)

    @Test(
        "junitparser reads every outcome as its own kind",
        .enabled(if: Python.has("junitparser"), "pip install junitparser (scripts/bootstrap.sh does)"))
    func junitparser() throws {
        let (url, folder) = try Self.write(strict: false)
        _ = folder
        let output = try Python.run(
            """
            import sys, json, junitparser
            out = {}
            for suite in junitparser.JUnitXml.fromfile(sys.argv[1]):
                for case in suite:
                    kinds = [type(r).__name__ for r in case.result]
                    out[case.name] = kinds[0].lower() if kinds else "passed"
                    if kinds:
                        r = case.result[0]
                        out[case.name + " message"] = r.message or ""
                        out[case.name + " text"] = r.text or ""
            print(json.dumps(out))
            """, url.path)
        let read = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: String] ?? [:]
        let mapping = ["passed": "passed", "failed": "failure", "errored": "error", "skipped": "skipped"]
        for (name, status) in Self.expected {
            #expect(read[name] == mapping[status], "\(name): junitparser read \(read[name] ?? "nothing")")
            if status != "passed" { #expect(read[name + " text"]?.hasPrefix(read[name + " message"] ?? "?") == true) }
        }
    }

    @Test(
        "Codecov test-results-parser counts every outcome, skips included",
        .enabled(if: Python.has("test_results_parser"), "pip install test-results-parser (scripts/bootstrap.sh does)"))
    func codecov() throws {
        let (url, folder) = try Self.write(strict: false)
        _ = folder
        let output = try Python.run(
            """
            import sys, json, test_results_parser as t
            parsed = t.parse_junit_xml(open(sys.argv[1], 'rb').read())
            print(json.dumps({r.name: str(r.outcome) for r in parsed.testruns}))
            """, url.path)
        let read = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: String] ?? [:]
        let mapping = ["passed": "pass", "failed": "failure", "errored": "error", "skipped": "skip"]
        for (name, status) in Self.expected {
            let outcome = read[name]?.lowercased() ?? "missing"
            #expect(outcome.contains(mapping[status] ?? "?"), "\(name): Codecov read \(outcome), expected \(status)")
        }
    }

    @Test(
        "junit2html renders the report and counts every case",
        .enabled(if: Python.has("junit2htmlreport"), "pip install junit2html (scripts/bootstrap.sh does)"))
    func junit2html() throws {
        let (url, folder) = try Self.write(strict: false)
        let html = folder.url.appendingPathComponent("report.html")
        _ = try Python.run(
            """
            import sys
            from junit2htmlreport import runner
            runner.run([sys.argv[1], sys.argv[2]])
            """, url.path, html.path)
        let text = try String(contentsOf: html, encoding: .utf8)
        for name in Self.expected.keys { #expect(text.contains(name.replacingOccurrences(of: "&", with: "&amp;"))) }
        // junit2html has no error outcome of its own: it counts errors under Failures.
        let problems = Self.run.scenarios.filter { $0.status == .failed || $0.status == .errored }.count
        #expect(text.contains(">\(problems)<") || text.contains(" \(problems) "), "failures + errors counted")
    }
}

/// Python 3 and its modules, for the consumer checks.
enum Python {
    static func has(_ module: String) -> Bool {
        (try? run("import \(module)")) != nil
    }

    /// Runs `source` with `arguments`; its stdout, or an error with its stderr.
    static func run(_ source: String, _ arguments: String...) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", source] + arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PythonError(description: String(decoding: errors, as: UTF8.self))
        }
        return String(decoding: data, as: UTF8.self)
    }

    struct PythonError: Error, CustomStringConvertible { var description: String }
}
