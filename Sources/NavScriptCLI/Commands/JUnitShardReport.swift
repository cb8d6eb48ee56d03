import ArgumentParser
import Foundation
import FoundationXML
import NavScriptRunner
import NavScriptRuntime

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
    /// Written by navscript for Jenkins' xunit schema (`--junit-strict`): its
    /// `<testsuites>` root has no `skipped` total. (Other
    /// tools' roots often have none either; that says nothing.)
    let isStrict: Bool
    /// Written by navscript (its `<testsuites name="App (navscript)">` root).
    let isNavscript: Bool
    /// The root's name when navscript wrote the report: the merged report
    /// keeps it when every shard agrees.
    let rootName: String?
    /// Where a suite's stated counts disagree with its test cases, in a
    /// report another tool wrote (some count `disabled` cases or errors
    /// outside any case): said, then counted from the cases.
    let warnings: [String]

    /// The bytes of the report at `path`.
    static func read(_ path: String) throws(ValidationError) -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ValidationError("\(path) is not readable: \(error.localizedDescription)")
        }
    }

    init(path: String, data: Data) throws(ValidationError) {
        self.path = path
        guard data.contains(where: { !(UInt8(ascii: " ") == $0 || (9...13).contains($0)) }) else {
            throw ValidationError("\(path) is empty; was the run that writes it stopped before it finished? Run that shard again.")
        }
        try Self.checkWellFormed(data, path: path)
        let root: XMLElement
        do {
            // From the bytes: the document says its own encoding.
            guard let element = try XMLDocument(data: data, options: [.nodePreserveWhitespace]).rootElement() else {
                throw ValidationError("\(path) has no root element")
            }
            root = element
        } catch let error as ValidationError {
            throw error
        } catch {
            throw ValidationError("\(path) is not readable XML: \(error.localizedDescription)")
        }
        let suites: [XMLElement]
        switch root.name {
        case "testsuites": suites = root.elements(forName: "testsuite")
        case "testsuite": suites = [root]
        default: throw ValidationError("\(path) is not a JUnit report (root element <\(root.name ?? "?")>)")
        }
        self.suites = suites
        let rootName = root.name == "testsuites" ? root.attribute(forName: "name")?.stringValue : nil
        let isNavscript = rootName.map(JUnitReport.isRootName) ?? false
        self.isNavscript = isNavscript
        self.rootName = isNavscript ? rootName : nil
        var warnings: [String] = []
        var recounted: Set<Int> = []
        for (index, suite) in suites.enumerated() {
            if let disagreement = Self.countDisagreement(in: suite, lenient: !isNavscript) {
                // navscript writes its counts from its cases: a mismatch means the file was edited or cut.
                guard !isNavscript else {
                    throw ValidationError("\(path): \(disagreement); the report was edited or cut short. Write it again from its run.")
                }
                warnings.append("\(path): \(disagreement); the merged report counts the test cases")
                recounted.insert(index)
            } else if !isNavscript && ["tests", "failures", "errors", "skipped"].contains(where: { suite.attribute(forName: $0) == nil }) {
                recounted.insert(index)  // another tool left counts out: the merged suite states them
            }
        }
        self.warnings = warnings
        var blocks =
            String(data: data, encoding: .utf8).flatMap { Self.suiteBlocks(of: $0, count: suites.count) }
            ?? suites.map { $0.xmlString(options: [.nodePreserveWhitespace]) }
        // A suite whose stated counts were wrong or missing is written with the counts of its
        // cases, so every level of the merged report agrees (its consumers read the suite's).
        for index in recounted.sorted() {
            let suite = suites[index]
            let counted = Self.totals(of: suite)
            for (name, value) in [
                ("tests", counted.tests), ("failures", counted.failures), ("errors", counted.errors),
                ("skipped", counted.skipped)
            ] {
                suite.removeAttribute(forName: name)
                if let attribute = XMLNode.attribute(withName: name, stringValue: String(value)) as? XMLNode {
                    suite.addAttribute(attribute)
                }
            }
            // As the other blocks are: indented as a child of the merged root.
            blocks[index] = "  " + suite.xmlString(options: [.nodePreserveWhitespace])
        }
        self.blocks = blocks
        time = Self.number(root, "time") ?? suites.reduce(0) { $0 + (Self.number($1, "time") ?? 0) }
        isStrict = isNavscript && root.attribute(forName: "skipped") == nil
    }

    /// The totals of a suite, counted from its test cases (nested suites' too).
    static func totals(of suite: XMLElement) -> (tests: Int, failures: Int, errors: Int, skipped: Int) {
        let cases = ((try? suite.nodes(forXPath: ".//testcase")) ?? []).compactMap { $0 as? XMLElement }
        func count(_ element: String) -> Int { cases.filter { !$0.elements(forName: element).isEmpty }.count }
        return (cases.count, count("failure"), count("error"), count("skipped"))
    }

    /// Well-formed XML, or an error naming the line where it stops being so.
    /// (`XMLParser` on Linux returns true from `parse()` even then: the
    /// error is read from `parserError`.) Parsed as a stream: handed all its
    /// bytes at once, libxml2 refuses a document past 10 MB as if it were
    /// broken at its last line — a long suite's report is that large.
    private static func checkWellFormed(_ data: Data, path: String) throws(ValidationError) {
        let parser = XMLParser(stream: InputStream(data: data))
        let parsed = parser.parse()
        guard !parsed || parser.parserError != nil else { return }
        // libxml2's codes say little here (a cut-short file and a mismatched
        // tag both read as "error 5"): the position is what helps. Its
        // internal error is a limit (elements nested past 256 levels).
        // Entities a JUnit reporter never writes: refused (an expansion bomb, an external file), said as such.
        if data.range(of: Data("<!ENTITY".utf8)) != nil {
            throw ValidationError(
                "\(path):\(parser.lineNumber):\(parser.columnNumber): the report declares entities that expand too far or "
                    + "name an outside file, which merge-junit does not load; a JUnit reporter writes none")
        }
        if (parser.parserError as? NSError)?.code == 1 {
            throw ValidationError(
                "\(path):\(parser.lineNumber):\(parser.columnNumber): nested deeper than an XML reader accepts "
                    + "(256 levels): not a JUnit report navscript can merge")
        }
        throw ValidationError(
            "\(path):\(parser.lineNumber):\(parser.columnNumber): not well-formed XML from here on; "
                + "a report cut short (its run stopped while writing: run that shard again) or not written by a JUnit reporter")
    }

    /// How a suite's `tests`, `failures`, `errors` or `skipped` disagrees
    /// with its test cases, if it does. `lenient` (another tool's report)
    /// allows `skipped` to leave out what it counts as `disabled`, and
    /// `errors` to count errors outside any case.
    private static func countDisagreement(in suite: XMLElement, lenient: Bool) -> String? {
        let counted = totals(of: suite)
        let name = suite.attribute(forName: "name")?.stringValue ?? "?"
        func stated(_ attribute: String) -> Int? { suite.attribute(forName: attribute)?.stringValue.flatMap { Int($0) } }
        let disabled = stated("disabled") ?? 0
        let checks: [(String, Int, (Int) -> Bool)] = [
            ("tests", counted.tests, { $0 == counted.tests }),
            ("failures", counted.failures, { $0 == counted.failures }),
            ("errors", counted.errors, { lenient ? $0 >= counted.errors : $0 == counted.errors }),
            ("skipped", counted.skipped, { lenient ? $0 == counted.skipped || $0 + disabled == counted.skipped : $0 == counted.skipped })
        ]
        for (attribute, actual, agrees) in checks {
            guard let value = stated(attribute), !agrees(value) else { continue }
            return "<testsuite name=\"\(name)\"> says \(attribute)=\"\(value)\" but holds \(actual)"
        }
        return nil
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
