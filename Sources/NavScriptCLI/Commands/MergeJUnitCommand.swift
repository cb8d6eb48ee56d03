import ArgumentParser
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// `navscript merge-junit`: combines the JUnit reports of a sharded run
/// into one, with recomputed totals, so CI shows one report for the suite.
struct MergeJUnitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge-junit",
        abstract: "Merge JUnit XML reports (e.g. from --shard runs) into one."
    )

    @Argument(help: "The reports to merge.")
    var inputs: [String]

    @Option(name: .shortAndLong, help: "Where to write the merged report.")
    var output: String

    func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("give at least one JUnit report to merge") }
    }

    func run() throws {
        var suites: [XMLElement] = []
        for path in inputs {
            let document: XMLDocument
            do {
                document = try XMLDocument(contentsOf: URL(fileURLWithPath: path), options: [.nodePreserveWhitespace])
            } catch {
                throw ValidationError("\(path) is not readable XML: \(error.localizedDescription)")
            }
            guard let root = document.rootElement() else { throw ValidationError("\(path) has no root element") }
            switch root.name {
            case "testsuites": suites += root.elements(forName: "testsuite")
            case "testsuite": suites.append(root)
            default: throw ValidationError("\(path) is not a JUnit report (root element <\(root.name ?? "?")>)")
            }
        }
        var totals = (tests: 0, failures: 0, errors: 0, skipped: 0, time: 0.0)
        for suite in suites {
            totals.tests += Int(suite.attribute(forName: "tests")?.stringValue ?? "") ?? 0
            totals.failures += Int(suite.attribute(forName: "failures")?.stringValue ?? "") ?? 0
            totals.errors += Int(suite.attribute(forName: "errors")?.stringValue ?? "") ?? 0
            totals.skipped += Int(suite.attribute(forName: "skipped")?.stringValue ?? "") ?? 0
            totals.time += Double(suite.attribute(forName: "time")?.stringValue ?? "") ?? 0
        }
        let time = String(Int((totals.time * 1000).rounded()) / 1000) + "." + String(format: "%03d", Int((totals.time * 1000).rounded()) % 1000)
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"navscript\" tests=\"\(totals.tests)\" failures=\"\(totals.failures)\" errors=\"\(totals.errors)\" skipped=\"\(totals.skipped)\" time=\"\(time)\">\n"
        for suite in suites { xml += "  " + suite.xmlString(options: [.nodePreserveWhitespace]) + "\n" }
        xml += "</testsuites>\n"
        let url = URL(fileURLWithPath: output)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(xml.utf8).write(to: url, options: .atomic)
        print("merged \(suites.count) test suite\(suites.count == 1 ? "" : "s") from \(inputs.count) report\(inputs.count == 1 ? "" : "s"): "
            + "\(totals.tests) tests, \(totals.failures) failures, \(totals.errors) errors, \(totals.skipped) skipped → \(output)")
    }
}
