import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// What `merge-junit` needs of one report, read in the same streaming pass
/// that checks it is well-formed: the root, and each top-level suite's
/// attributes, the counts of its test cases and the keys of its own cases.
///
/// Why a stream and not a document: a DOM of a JUnit report holds about 35
/// times the file in memory (an 81 MB report needed 2.7 GB); this holds the
/// counts, and one short key per test case.
final class JUnitShardScan: NSObject, XMLParserDelegate {
    /// A `<testsuite>` directly under the root (or the root itself).
    struct Suite {
        var attributes: [String: String]
        /// The line of its start tag (where the XML reader finished reading it), for messages.
        var line = 0
        /// Its `tests`, `failures`, `errors`, `skipped` and `disabled` as
        /// numbers, each one it states (``JUnitShardReport`` reads them, and
        /// refuses a report that states one that is not a count).
        var stated: [String: Int] = [:]
        /// Test cases anywhere inside it (nested suites' too), and how many
        /// have a `<failure>`, `<error>` or `<skipped>` child; a `<failure>`
        /// or `<error>` of a suite itself (a setup hook that failed, a
        /// package that did not build) counts as one too: it has no test
        /// case, and merged without it a red report turned green.
        var tests = 0, failures = 0, errors = 0, skipped = 0
        /// `classname › name` of each test case directly inside it, for the duplicate check.
        var caseKeys: [String] = []
        /// Its `navscript.shard` property (`1/3`): the share of a split suite it comes from.
        var shard: String?
        /// Its `navscript.selection` property: what selected and changed the shard's scenarios.
        var selection: String?
        /// Its `navscript.split` property: which suite of which app was split.
        var split: String?

        var name: String { attributes["name"] ?? "?" }
    }

    private(set) var rootName: String?
    private(set) var rootAttributes: [String: String] = [:]
    /// The line of the root's start tag.
    private(set) var rootLine = 0
    private(set) var suites: [Suite] = []
    /// Test cases and suites that are not in a `<testsuite>` directly under
    /// the root (nested `<testsuites>`, a wrapper element, a case under the
    /// root, a prefixed `<j:testsuite>`), as `<name name="…">`: merging
    /// would drop them — and their failures — so the report is refused.
    private(set) var strays: [String] = []

    /// The first error the XML reader reported while reading: where it
    /// stopped (line and column, in characters) and libxml2's code for what
    /// it found. After it, the reader goes on to the end of the file, and
    /// its own line and column — and the error it keeps — are the end's:
    /// every broken report was named at its last byte.
    private(set) var firstError: (line: Int, column: Int, code: Int)?

    /// Open elements' depth (the root is 1).
    private var depth = 0
    /// Whether a top-level suite is open (its cases are counted into `suites.last`).
    private var inSuite = false
    private var suiteDepth = 0
    /// The depths of the open suites inside the top-level one (itself first).
    private var openSuites: [Int] = []
    /// The open test cases' depths and what their children said, innermost last.
    private var openCases: [(depth: Int, failure: Bool, error: Bool, skipped: Bool)] = []

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        depth += 1
        if depth == 1 {
            rootName = elementName
            rootAttributes = attributes
            rootLine = parser.lineNumber
            if elementName == "testsuite" { startSuite(attributes, line: parser.lineNumber) }
            return
        }
        if depth == 2, rootName == "testsuites", elementName == "testsuite" {
            startSuite(attributes, line: parser.lineNumber)
            return
        }
        guard inSuite else {
            let local = elementName.split(separator: ":").last.map(String.init) ?? elementName
            if ["testcase", "testsuite", "testsuites"].contains(local), strays.count < 5 {
                strays.append("<\(elementName)" + (attributes["name"].map { " name=\"\($0)\"" } ?? "") + ">")
            }
            return
        }
        if openSuites.last == depth - 1, elementName == "failure" || elementName == "error" {
            if elementName == "failure" { suites[suites.count - 1].failures += 1 } else { suites[suites.count - 1].errors += 1 }
        }
        if elementName == "property", depth == suiteDepth + 2 {
            if attributes["name"] == "navscript.shard" { suites[suites.count - 1].shard = attributes["value"] }
            if attributes["name"] == "navscript.selection" { suites[suites.count - 1].selection = attributes["value"] }
            if attributes["name"] == "navscript.split" { suites[suites.count - 1].split = attributes["value"] }
        }
        if elementName == "testsuite" {
            openSuites.append(depth)
        } else if elementName == "testcase" {
            openCases.append((depth, false, false, false))
            if depth == suiteDepth + 1 {
                suites[suites.count - 1].caseKeys.append((attributes["classname"] ?? "") + " › " + (attributes["name"] ?? ""))
            }
        } else if let last = openCases.last, last.depth == depth - 1 {
            switch elementName {
            case "failure": openCases[openCases.count - 1].failure = true
            case "error": openCases[openCases.count - 1].error = true
            case "skipped": openCases[openCases.count - 1].skipped = true
            default: break
            }
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        let code = (parseError as NSError).code
        // libxml2's warnings (XML_WAR_*: an undeclared entity where that is allowed, a namespace URI) stop nothing.
        guard firstError == nil, ![27, 93, 97, 98, 99, 100, 102, 106, 107].contains(code) else { return }
        firstError = (parser.lineNumber, parser.columnNumber, code)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        defer { depth -= 1 }
        guard inSuite else { return }
        if let last = openCases.last, last.depth == depth {
            openCases.removeLast()
            suites[suites.count - 1].tests += 1
            if last.failure { suites[suites.count - 1].failures += 1 }
            if last.error { suites[suites.count - 1].errors += 1 }
            if last.skipped { suites[suites.count - 1].skipped += 1 }
        }
        if openSuites.last == depth { openSuites.removeLast() }
        if depth == suiteDepth { inSuite = false }
    }

    private func startSuite(_ attributes: [String: String], line: Int) {
        suites.append(Suite(attributes: attributes, line: line))
        inSuite = true
        suiteDepth = depth
        openSuites = [depth]
    }
}
