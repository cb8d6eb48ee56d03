import ArgumentParser
import Foundation
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
    /// The `<testsuite>` elements, in order: their attributes and counted cases.
    let suites: [JUnitShardScan.Suite]
    /// Each suite as the file spells it, indented as a child of the merged root.
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

    /// The most of one report merge-junit reads: a long suite's report is
    /// tens of megabytes (merging one of 74 MB peaks at about 470 MB); a pipe
    /// that does not end (`<(yes)`) stops here instead of filling memory.
    static let sizeLimit = 1 << 30

    /// The bytes of the report at `path`: a file, or a pipe (`<(curl …)`, a
    /// FIFO) read to its end — at most ``sizeLimit`` of it; a device
    /// (`/dev/zero`) is refused before a byte is read.
    static func read(_ path: String) throws(ValidationError) -> Data {
        do {
            return try InputFile.contents(of: path, limit: sizeLimit)
        } catch {
            switch error {
            case .missing:
                throw ValidationError("\(path) does not exist: give the path of a JUnit report (a shard's --junit file)")
            case .folder:
                throw ValidationError("\(path) is a folder: give the JUnit reports in it (e.g. \(path)/*.xml)")
            case .device:
                throw ValidationError(
                    "\(path) is a device, not a file, and reading it might never end: give the path of a JUnit report "
                        + "(a shard's --junit file) or a pipe")
            case .unreadable(let reason):
                throw ValidationError("\(path) cannot be read (\(reason)); check its permissions")
            case .tooLarge(let limit):
                throw ValidationError(
                    "\(path) is larger than \(InputFile.size(limit)), more than merge-junit reads of one report (a pipe that "
                        + "does not end?); merge smaller shards")
            case .outOfMemory(let read):
                throw ValidationError(
                    "\(path): memory ran out after reading \(InputFile.size(read)) of it (an address-space limit, ulimit -v?); raise "
                        + "the limit or merge smaller shards")
            }
        }
    }

    /// The counts a report states that merge-junit reads (`disabled`: cases
    /// some tools leave out of `skipped`).
    static let countAttributes = ["tests", "failures", "errors", "skipped", "disabled"]

    /// The largest count merge-junit takes from a report: no suite holds a
    /// trillion test cases, and below it millions of such counts still add up
    /// without overflowing (9223372036854775807 trapped when added to 1).
    static let countLimit = 1_000_000_000_000

    /// The counts `attributes` state (those of ``countAttributes`` present), as
    /// numbers: each a whole number in decimal digits, at most
    /// ``countLimit``. Blanks around the digits are taken, and the number
    /// counted, as JUnit readers that parse with Python's `int()` or .NET's
    /// `int.Parse` do. Anything else (`1.5`, `0x1`, `-1`, `abc`, a number
    /// past the limit) is refused, naming `element` at `path`:`line`: read
    /// as none, a failure the suite states was dropped and the merge was green.
    static func statedCounts(
        _ attributes: [String: String], of element: String, line: Int, path: String
    ) throws(ValidationError) -> [String: Int] {
        var counts: [String: Int] = [:]
        for attribute in countAttributes {
            guard let value = attributes[attribute] else { continue }
            let shown = value.count > 40 ? String(value.prefix(40)) + "…" : value
            let said = "\(path):\(line): \(element) says \(attribute)=\"\(shown)\""
            let digits = value.trimmingCharacters(in: CharacterSet(charactersIn: " \t\r\n"))
            guard !digits.isEmpty, digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
                throw ValidationError(
                    "\(said), which is not a count: merge-junit expects a whole number in decimal digits (0, 1, 2, …); "
                        + "read as none, what it counts would be lost. Write the number, or leave the attribute out.")
            }
            guard let count = Int(digits), count <= countLimit else {
                throw ValidationError(
                    "\(said): more than merge-junit adds up (at most \(countLimit), 10^12) and more than any suite "
                        + "holds. Write the count of its test cases, or leave the attribute out.")
            }
            counts[attribute] = count
        }
        return counts
    }

    /// `counts` added up; nil past `Int.max` (each count is at most
    /// ``countLimit``, but reports may hold millions of suites).
    static func total(_ counts: some Sequence<Int>) -> Int? {
        var sum = 0
        for count in counts {
            let (next, overflow) = sum.addingReportingOverflow(count)
            if overflow { return nil }
            sum = next
        }
        return sum
    }

    /// A `time` attribute as seconds: a plain decimal, finite and not
    /// negative (`inf`, `NaN`, hex or a 300-digit total would make the
    /// merged root's time something CI parsers refuse); else nil.
    static func seconds(_ text: String?) -> Double? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty,
            text.allSatisfy({ $0.isASCII && ($0.isNumber || ".eE+-".contains($0)) }),
            let value = Double(text), value.isFinite, value >= 0, value < 1e12
        else { return nil }
        return value
    }

    init(path: String, data: Data) throws(ValidationError) {
        self.path = path
        guard data.contains(where: { !(UInt8(ascii: " ") == $0 || (9...13).contains($0)) }) else {
            throw ValidationError("\(path) is empty; was the run that writes it stopped before it finished? Run that shard again.")
        }
        let scan = try Self.scan(data, path: path)
        var suites: [JUnitShardScan.Suite]
        switch scan.rootName {
        case "testsuites", "testsuite": suites = scan.suites
        default: throw ValidationError("\(path) is not a JUnit report (root element <\(scan.rootName ?? "?")>)")
        }
        if let stray = scan.strays.first {
            throw ValidationError(
                "\(path): \(stray) is not inside a <testsuite> directly under the report's root, where merge-junit "
                    + "reads test cases: merged, it would be dropped with any failure it holds. Write the report with "
                    + "each <testsuite> directly under <testsuites> (or as the root).")
        }
        // Every count a suite or the root states, read once: one that is not a count is refused. Read as
        // none, a stated failure was dropped (a green merge); a huge one trapped when added up.
        let rootCounts = try Self.statedCounts(
            scan.rootAttributes, of: "<\(scan.rootName ?? "?")>", line: scan.rootLine, path: path)
        for index in suites.indices {
            suites[index].stated = try Self.statedCounts(
                suites[index].attributes, of: "<testsuite name=\"\(suites[index].name)\">", line: suites[index].line, path: path)
        }
        let rootName = scan.rootName == "testsuites" ? scan.rootAttributes["name"] : nil
        let isNavscript = rootName.map(JUnitReport.isRootName) ?? false
        if !isNavscript {
            // Another tool may count an error outside any test case and write no element for it (a
            // package that did not build): its suite keeps the errors it states, never fewer.
            suites = suites.map { suite in
                var suite = suite
                suite.errors = max(suite.errors, suite.stated["errors"] ?? 0)
                suite.failures = max(suite.failures, suite.stated["failures"] ?? 0)
                return suite
            }
            // Totals stated on the root only (its suites say none): a report that says it failed is kept red.
            for key in ["failures", "errors"] {
                let stated = rootCounts[key] ?? 0
                // Past what a number holds, the suites hold more than any root states.
                let held = Self.total(suites.lazy.map { key == "failures" ? $0.failures : $0.errors }) ?? .max
                if stated > held {
                    throw ValidationError(
                        "\(path): its root says \(key)=\"\(stated)\" but its test suites hold \(held): merge-junit reads the "
                            + "suites, and merged the report would lose them; write each failure and error in its test suite")
                }
            }
        }
        // navscript's root states its suites' totals: a suite cut out of the file (or a failure edited out
        // of one, its suite's count with it) left a report that merged green without a word.
        if isNavscript {
            for key in ["tests", "failures", "errors", "skipped"] {
                guard let stated = rootCounts[key] else { continue }
                let held = Self.total(suites.lazy.map { $0.stated[key] ?? 0 }) ?? .max
                if stated != held {
                    throw ValidationError(
                        "\(path): its root says \(key)=\"\(stated)\" but its test suites hold \(held); the report was edited or "
                            + "cut short. Write it again from its run.")
                }
            }
        }
        self.suites = suites
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
            } else if !isNavscript && ["tests", "failures", "errors", "skipped"].contains(where: { suite.attributes[$0] == nil }) {
                recounted.insert(index)  // another tool left counts out: the merged suite states them
            }
        }
        self.warnings = warnings
        self.blocks = try Self.blocks(of: data, suites: suites, recounted: recounted, asNavscriptWrites: isNavscript, path: path)
        time = Self.seconds(scan.rootAttributes["time"]) ?? suites.reduce(0) { $0 + (Self.seconds($1.attributes["time"]) ?? 0) }
        isStrict = isNavscript && scan.rootAttributes["skipped"] == nil
    }

    /// Each suite's text: as navscript laid it out when it did, else as the
    /// file spells it; a suite whose stated counts were wrong or missing
    /// gets the counts of its cases in its start tag, so every level of the
    /// merged report agrees (its consumers read the suite's); and each
    /// carries the namespace prefixes the root declared for it.
    private static func blocks(
        of data: Data, suites: [JUnitShardScan.Suite], recounted: Set<Int>, asNavscriptWrites: Bool, path: String
    ) throws(ValidationError)
        -> [String]
    {
        guard let text = String(data: data, encoding: .utf8) ?? Self.decodedAsDeclared(data) else {
            throw ValidationError(
                "\(path) is in an encoding merge-junit does not read (UTF-8, UTF-16 and ISO-8859-1 are read); write it as UTF-8")
        }
        let bytes = Array(text.utf8)
        let spans = XMLElementSpans(bytes)
        // Entities declared before the root: the suites' text may refer to them, and the merged report would not declare them.
        if let root = spans.root, String(decoding: bytes[..<root.range.lowerBound], as: UTF8.self).contains("<!ENTITY") {
            throw ValidationError(
                "\(path) declares entities (<!ENTITY …>): the merged report copies the suites' text, which would refer "
                    + "to entities it does not declare; a JUnit reporter writes none — write the report without them")
        }
        if asNavscriptWrites, recounted.isEmpty, let blocks = suiteBlocks(of: text, count: suites.count) { return blocks }
        let suiteSpans = spans.root?.name == "testsuite" ? spans.root.map { [$0] } ?? [] : spans.children.filter { $0.name == "testsuite" }
        guard suiteSpans.count == suites.count else {
            throw ValidationError("\(path): its suites could not be told apart in its text; write it again from its run")
        }
        // Prefixes the root declared are in scope in its suites: the merged root does not declare them.
        let rootTag = spans.root.map { String(decoding: bytes[$0.startTag], as: UTF8.self) } ?? ""
        let inherited = spans.root?.name == "testsuite" ? [] : namespaceDeclarations(in: rootTag)
        return suiteSpans.enumerated().map { index, span in
            var block = String(decoding: bytes[span.range], as: UTF8.self)
            var startTag = String(decoding: bytes[span.startTag], as: UTF8.self)
            let tagLength = startTag.count
            if recounted.contains(index) { startTag = recount(startTag, suite: suites[index]) }
            let own = Set(namespaceDeclarations(in: startTag).map(\.name))
            let carried = inherited.filter { !own.contains($0.name) }
            if !carried.isEmpty, let nameEnd = startTag.firstIndex(where: { $0.isWhitespace || $0 == "/" || $0 == ">" }) {
                startTag.insert(contentsOf: carried.map { " " + $0.text }.joined(), at: nameEnd)
            }
            if startTag.count != tagLength || recounted.contains(index) || !carried.isEmpty {
                block = startTag + block.dropFirst(tagLength)
            }
            return "  " + block
        }
    }

    /// A start tag with its `tests`, `failures`, `errors` and `skipped`
    /// replaced by the counts of the suite's cases.
    static func recount(_ startTag: String, suite: JUnitShardScan.Suite) -> String {
        var tag = startTag.replacing(/\s(tests|failures|errors|skipped)\s*=\s*("[^"]*"|'[^']*')/, with: "")
        let closing = tag.hasSuffix("/>") ? "/>" : ">"
        tag.removeLast(closing.count)
        while tag.last?.isWhitespace == true { tag.removeLast() }
        return tag + " tests=\"\(suite.tests)\" failures=\"\(suite.failures)\" errors=\"\(suite.errors)\" skipped=\"\(suite.skipped)\""
            + closing
    }

    /// The `xmlns` and `xmlns:p` attributes of a start tag, each as its name and as written.
    static func namespaceDeclarations(in startTag: String) -> [(name: String, text: String)] {
        startTag.matches(of: /\s(xmlns(?::[^\s=\/>]+)?)\s*=\s*("[^"]*"|'[^']*')/).map {
            (String($0.output.1), String($0.output.0.dropFirst()))
        }
    }

    /// The report's XML declaration (`<?xml version="1.0" …?>`, after a
    /// UTF-8 byte-order mark), read as ASCII; nil when it has none.
    private static func declaration(of data: Data) -> String? {
        let head = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3).prefix(200) : data.prefix(200)
        guard head.starts(with: Data("<?xml".utf8)), let end = head.firstRange(of: Data("?>".utf8)) else { return nil }
        return String(decoding: head[head.startIndex..<end.lowerBound], as: UTF8.self)
    }

    /// A report declared UTF-16 (with its byte-order mark) or ISO-8859-1.
    private static func decodedAsDeclared(_ data: Data) -> String? {
        if data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]) { return String(data: data, encoding: .utf16) }
        let head = String(decoding: data.prefix(200), as: UTF8.self).lowercased()
        if head.contains("iso-8859-1") || head.contains("latin1") || head.contains("latin-1") {
            return String(data: data, encoding: .isoLatin1)
        }
        return nil
    }

    /// Reads the report as a stream: well-formed XML, or an error naming the
    /// line where it stops being so; what merging needs, if it is.
    /// (`XMLParser` on Linux returns true from `parse()` even then: the
    /// error is read from `parserError`.) A stream too because, handed all
    /// its bytes at once, libxml2 refuses a document past 10 MB as if it
    /// were broken at its last line — a long suite's report is that large.
    private static func scan(_ data: Data, path: String) throws(ValidationError) -> JUnitShardScan {
        // Foundation's XML reader hands a null pointer on for an empty processing instruction (`<?pi?>`) or
        // an attribute-list or notation declaration, and crashed: refused first, as a JUnit reporter writes none.
        for declaration in ["<!ATTLIST", "<!NOTATION"] where data.range(of: Data(declaration.utf8)) != nil {
            throw ValidationError(
                "\(path): the report declares \(declaration) …>, which merge-junit does not read (a JUnit reporter writes none)")
        }
        if let version = declaration(of: data)?.firstMatch(of: /version\s*=\s*["']([^"']*)["']/)?.output.1, version != "1.0" {
            let shown = String(version.prefix(20).filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == ".") })
            throw ValidationError(
                "\(path):1: the report declares XML version \(shown), which merge-junit does not read: JUnit reports "
                    + "are XML 1.0 — write it as 1.0 (<?xml version=\"1.0\"?>)")
        }
        // `<?` in UTF-16 (either byte order) with no byte-order mark before it.
        if data.starts(with: [0x3C, 0x00, 0x3F, 0x00]) || data.starts(with: [0x00, 0x3C, 0x00, 0x3F]) {
            throw ValidationError(
                "\(path):1: the report is UTF-16 text without a byte-order mark, which XML requires of UTF-16; "
                    + "write it with one, or as UTF-8")
        }
        switch XMLPreflight.problem(in: data) {
        case .emptyInstruction(let line):
            throw ValidationError(
                "\(path):\(line): a processing instruction with nothing in it (<?name?>), which merge-junit does not read "
                    + "(a JUnit reporter writes none)")
        case .crowdedElement(let line):
            throw ValidationError(
                "\(path):\(line): an element with more than \(XMLPreflight.attributeLimit) attributes; a JUnit report's "
                    + "elements have a handful, and the XML reader checks each new attribute against all before it (so such "
                    + "a tag takes minutes): not a report merge-junit reads")
        case nil:
            break
        }
        let parser = XMLParser(stream: InputStream(data: data))
        let scan = JUnitShardScan()
        parser.delegate = scan
        let parsed = parser.parse()
        guard !parsed || parser.parserError != nil else {
            guard scan.rootName != nil else { throw ValidationError("\(path) has no root element") }
            return scan
        }
        // The error the parser keeps is the one it met at the end of the file
        // (a cut-short file and a mismatched tag both read as "error 5"): the
        // first one reported (JUnitShardScan.firstError) says where and what.
        // Its internal error is a limit (elements nested past 256 levels).
        // Entities a JUnit reporter never writes: refused (an expansion bomb, an external file), said as such.
        if data.range(of: Data("<!ENTITY".utf8)) != nil {
            throw ValidationError(
                "\(path):\(parser.lineNumber):\(parser.columnNumber): the report declares entities that expand too far or "
                    + "name an outside file, which merge-junit does not load; a JUnit reporter writes none")
        }
        if (parser.parserError as? NSError)?.code == 1 {
            throw ValidationError(
                "\(path):\(parser.lineNumber):\(parser.columnNumber): more than an XML reader accepts — elements nested "
                    + "deeper than 256 levels, or an attribute value longer than 10 MB: not a JUnit report navscript can merge")
        }
        // Where the reader first stopped: the end of the file only when the file ends before its XML does.
        let (line, column, code) = scan.firstError.map { ($0.line, $0.column, $0.code) } ?? (parser.lineNumber, parser.columnNumber, 0)
        if isAtEnd(line: line, column: column, of: data) {
            throw ValidationError(
                "\(path):\(line):\(column): not well-formed XML from here on: the file ends inside an element; a report "
                    + "cut short (its run stopped while writing: run that shard again)")
        }
        throw ValidationError(
            "\(path):\(line):\(column): not well-formed XML: \(xmlProblem(code)); the file goes on after it, so it was "
                + "not cut short: it was written wrongly (a JUnit reporter writes well-formed XML) — fix what wrote it")
    }

    /// Whether `line`:`column` (as the XML reader counts: lines ended by LF,
    /// CR LF or CR, columns in characters from 1) is the end of `data` — where
    /// a cut-short report breaks, and no other.
    private static func isAtEnd(line: Int, column: Int, of data: Data) -> Bool {
        guard let text = String(data: data, encoding: .utf8) ?? decodedAsDeclared(data) else { return false }
        var endLine = 1
        var endColumn = 1
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            if scalar == "\n" && previous == "\r" {
                // The CR before it ended the line.
            } else if scalar == "\n" || scalar == "\r" {
                endLine += 1
                endColumn = 1
            } else {
                endColumn += 1
            }
            previous = scalar
        }
        return line > endLine || (line == endLine && column >= endColumn)
    }

    /// What libxml2's error `code` (its `xmlParserErrors`) found, said for
    /// the person fixing the file; the code for the rest.
    private static func xmlProblem(_ code: Int) -> String {
        let what: String
        switch code {
        case 5: what = "more after the root element ends (a report has one root)"
        case 6, 7, 8, 9: what = "a character XML does not allow (a control character, or a reference to one such as &#0;)"
        case 22, 23, 68:
            what = "a name expected here (a bare & or < in text or in a value is written &amp; or &lt;)"
        case 26: what = "an entity that is not declared (only &amp; &lt; &gt; &quot; &apos; and &#…; are)"
        case 38: what = "a < inside an attribute value (written &lt;)"
        case 39, 40, 41, 75: what = "an attribute without a quoted value (name=\"value\")"
        case 42: what = "an attribute given twice in one tag"
        case 62: what = "]]> outside a CDATA section"
        case 64: what = "an XML declaration (<?xml …?>) that is not at the very start of the file, where nothing may come before it"
        case 65: what = "a space expected here (between attributes)"
        case 73: what = "a tag not closed with >"
        case 76: what = "an end tag that does not match the element it closes"
        default: what = "what the XML reader does not accept here"
        }
        return code == 0 ? what : "\(what) (libxml2 error \(code))"
    }

    /// How a suite's `tests`, `failures`, `errors` or `skipped` disagrees
    /// with its test cases, if it does. `lenient` (another tool's report)
    /// allows `skipped` to leave out what it counts as `disabled`, and
    /// `errors` to count errors outside any case.
    private static func countDisagreement(in suite: JUnitShardScan.Suite, lenient: Bool) -> String? {
        func stated(_ attribute: String) -> Int? { suite.stated[attribute] }
        let disabled = stated("disabled") ?? 0
        let checks: [(String, Int, (Int) -> Bool)] = [
            ("tests", suite.tests, { $0 == suite.tests }),
            ("failures", suite.failures, { $0 == suite.failures }),
            ("errors", suite.errors, { lenient ? $0 >= suite.errors : $0 == suite.errors }),
            ("skipped", suite.skipped, { lenient ? $0 == suite.skipped || $0 + disabled == suite.skipped : $0 == suite.skipped })
        ]
        for (attribute, actual, agrees) in checks {
            guard let value = stated(attribute), !agrees(value) else { continue }
            return "<testsuite name=\"\(suite.name)\"> says \(attribute)=\"\(value)\" but holds \(actual)"
        }
        return nil
    }

    /// The `<testsuite>` elements of a report as written, one per block —
    /// navscript writes each starting on a line of its own, indented two
    /// spaces — so a merged report reads like the shards' did. Nil when the
    /// text is laid out otherwise (the caller finds each in the text then).
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
