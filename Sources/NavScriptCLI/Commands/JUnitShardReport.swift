import ArgumentParser
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// One report given to `merge-junit`, read and checked before anything is
/// merged.
///
/// Why the checks: the reports come from shards, and a shard killed while
/// writing leaves a cut-short or empty file. libxml2 recovers what it can
/// from such a file (and Foundation's XML document crashed on an empty
/// one), so merging it as parsed turned a lost shard into a green total.
/// A report is accepted only when it is well-formed and every suite's
/// counts agree with the test cases it holds.
struct JUnitShardReport {
    let path: String
    /// The `<testsuite>` elements, in order.
    let suites: [XMLElement]
    /// Each suite as the file spells it (see ``suiteBlocks(of:count:)``).
    let blocks: [String]
    /// The report's own total time: its root's `time`, else its suites'.
    let time: Double
    /// Written for Jenkins' xunit schema (`--junit-strict`): a
    /// `<testsuites>` root without a `skipped` total.
    let isStrict: Bool

    init(path: String) throws(ValidationError) {
        self.path = path
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ValidationError("\(path) is not readable: \(error.localizedDescription)")
        }
        let text = String(decoding: data, as: UTF8.self)
        guard !text.allSatisfy(\.isWhitespace) else {
            throw ValidationError("\(path) is empty; was the run that writes it stopped before it finished? Run that shard again.")
        }
        try Self.checkWellFormed(data, path: path)
        let root: XMLElement
        do {
            guard let element = try XMLDocument(xmlString: text, options: [.nodePreserveWhitespace]).rootElement() else {
                throw ValidationError("\(path) has no root element")
            }
            root = element
        } catch let error as ValidationError {
            throw error
        } catch {
            throw ValidationError("\(path) is not readable XML: \(error.localizedDescription)")
        }
        switch root.name {
        case "testsuites": suites = root.elements(forName: "testsuite")
        case "testsuite": suites = [root]
        default: throw ValidationError("\(path) is not a JUnit report (root element <\(root.name ?? "?")>)")
        }
        for suite in suites { try Self.checkCounts(of: suite, path: path) }
        blocks = Self.suiteBlocks(of: text, count: suites.count)
            ?? suites.map { $0.xmlString(options: [.nodePreserveWhitespace]) }
        time = Self.number(root, "time") ?? suites.reduce(0) { $0 + (Self.number($1, "time") ?? 0) }
        isStrict = root.name == "testsuites" && root.attribute(forName: "skipped") == nil
    }

    /// The totals of a suite, counted from its test cases.
    static func totals(of suite: XMLElement) -> (tests: Int, failures: Int, errors: Int, skipped: Int) {
        let cases = suite.elements(forName: "testcase")
        return (cases.count,
                cases.filter { !$0.elements(forName: "failure").isEmpty }.count,
                cases.filter { !$0.elements(forName: "error").isEmpty }.count,
                cases.filter { !$0.elements(forName: "skipped").isEmpty }.count)
    }

    /// Well-formed XML, or an error naming the line where it stops being so.
    /// (`XMLParser` on Linux returns true from `parse()` even then: the
    /// error is read from `parserError`.)
    private static func checkWellFormed(_ data: Data, path: String) throws(ValidationError) {
        let parser = XMLParser(data: data)
        let parsed = parser.parse()
        guard !parsed || parser.parserError != nil else { return }
        // libxml2's codes say little here (a cut-short file and a mismatched
        // tag both read as "error 5"): the position is what helps.
        throw ValidationError("\(path):\(parser.lineNumber):\(parser.columnNumber): not well-formed XML from here on; "
            + "a report cut short (its run stopped while writing: run that shard again) or not written by a JUnit reporter")
    }

    /// A suite whose `tests`, `failures`, `errors` or `skipped` disagrees
    /// with its test cases was edited or cut: merging would carry the wrong
    /// total into CI.
    private static func checkCounts(of suite: XMLElement, path: String) throws(ValidationError) {
        let counted = totals(of: suite)
        let name = suite.attribute(forName: "name")?.stringValue ?? "?"
        for (attribute, actual) in [("tests", counted.tests), ("failures", counted.failures),
                                    ("errors", counted.errors), ("skipped", counted.skipped)] {
            guard let stated = suite.attribute(forName: attribute)?.stringValue else { continue }
            guard Int(stated) == actual else {
                throw ValidationError("\(path): <testsuite name=\"\(name)\"> says \(attribute)=\"\(stated)\" "
                    + "but holds \(actual); the report was edited or cut short. Write it again from its run.")
            }
        }
    }

    private static func number(_ element: XMLElement, _ attribute: String) -> Double? {
        element.attribute(forName: attribute)?.stringValue.flatMap(Double.init)
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
}
