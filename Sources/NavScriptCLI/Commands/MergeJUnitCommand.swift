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
        var blocks: [String] = []
        for path in inputs {
            let document: XMLDocument
            let text: String
            do {
                text = try String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8)
                document = try XMLDocument(xmlString: text, options: [.nodePreserveWhitespace])
            } catch {
                throw ValidationError("\(path) is not readable XML: \(error.localizedDescription)")
            }
            guard let root = document.rootElement() else { throw ValidationError("\(path) has no root element") }
            let found: [XMLElement]
            switch root.name {
            case "testsuites": found = root.elements(forName: "testsuite")
            case "testsuite": found = [root]
            default: throw ValidationError("\(path) is not a JUnit report (root element <\(root.name ?? "?")>)")
            }
            suites += found
            blocks += Self.suiteBlocks(of: text, count: found.count) ?? found.map { $0.xmlString(options: [.nodePreserveWhitespace]) }
        }
        for duplicate in Self.duplicates(in: suites) {
            writeStandardError("navscript merge-junit: warning: \(duplicate) appears more than once; "
                + "CI reporters keep only one (did two shards run the same file?)\n")
        }
        var totals = (tests: 0, failures: 0, errors: 0, skipped: 0, time: 0.0)
        for suite in suites {
            totals.tests += Int(suite.attribute(forName: "tests")?.stringValue ?? "") ?? 0
            totals.failures += Int(suite.attribute(forName: "failures")?.stringValue ?? "") ?? 0
            totals.errors += Int(suite.attribute(forName: "errors")?.stringValue ?? "") ?? 0
            totals.skipped += Int(suite.attribute(forName: "skipped")?.stringValue ?? "") ?? 0
            totals.time += Double(suite.attribute(forName: "time")?.stringValue ?? "") ?? 0
        }
        let time = String(format: "%.3f", totals.time)
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"navscript\" tests=\"\(totals.tests)\" failures=\"\(totals.failures)\" errors=\"\(totals.errors)\" skipped=\"\(totals.skipped)\" time=\"\(time)\">\n"
        for block in blocks { xml += block.hasSuffix("\n") ? block : block + "\n" }
        xml += "</testsuites>\n"
        let url = URL(fileURLWithPath: output)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(xml.utf8).write(to: url, options: .atomic)
        print("merged \(suites.count) test suite\(suites.count == 1 ? "" : "s") from \(inputs.count) report\(inputs.count == 1 ? "" : "s"): "
            + "\(totals.tests) tests, \(totals.failures) failures, \(totals.errors) errors, \(totals.skipped) skipped → \(output)")
    }

    /// The `<testsuite>` elements of a report as written, one per block —
    /// navscript writes each starting on a line of its own, indented two
    /// spaces — so a merged report reads like the shards' did. Nil when the
    /// text is laid out otherwise (the caller re-serializes then).
    static func suiteBlocks(of text: String, count: Int) -> [String]? {
        var blocks: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("  <testsuite ") || line == "  <testsuite>" {
                current = [line]
                if line.hasSuffix("/>") {
                    blocks.append(String(line))
                    current = nil
                }
            } else if current != nil {
                current?.append(line)
                if line == "  </testsuite>" {
                    blocks.append(current!.joined(separator: "\n"))
                    current = nil
                }
            }
        }
        return blocks.count == count && current == nil ? blocks : nil
    }

    /// `suite › classname › name` of every test case seen twice.
    static func duplicates(in suites: [XMLElement]) -> [String] {
        var seen: Set<String> = []
        var repeated: [String] = []
        for suite in suites {
            let suiteName = suite.attribute(forName: "name")?.stringValue ?? "?"
            for testcase in suite.elements(forName: "testcase") {
                let key = [suiteName, testcase.attribute(forName: "classname")?.stringValue ?? "",
                           testcase.attribute(forName: "name")?.stringValue ?? ""].joined(separator: " › ")
                if !seen.insert(key).inserted && !repeated.contains(key) { repeated.append(key) }
            }
        }
        return repeated
    }
}
