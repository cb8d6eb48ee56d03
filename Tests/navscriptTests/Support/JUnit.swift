import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A parsed JUnit report: just enough of a DOM (elements, attributes, text)
/// to check what CI reporters read.
struct JUnit {
    final class Element {
        let name: String
        let attributes: [String: String]
        var children: [Element] = []
        var text = ""

        init(name: String, attributes: [String: String]) {
            self.name = name
            self.attributes = attributes
        }

        subscript(_ attribute: String) -> String? { attributes[attribute] }

        func children(_ name: String) -> [Element] { children.filter { $0.name == name } }
        func child(_ name: String) -> Element? { children.first { $0.name == name } }
        func int(_ attribute: String) -> Int? { attributes[attribute].flatMap { Int($0) } }
    }

    struct ParseError: Error, CustomStringConvertible {
        var description: String
    }

    let root: Element
    let raw: String

    init(_ data: Data, sourceLocation: SourceLocation = #_sourceLocation) throws {
        raw = String(decoding: data, as: UTF8.self)
        let builder = TreeBuilder()
        let parser = XMLParser(data: data)
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else {
            let reason = parser.parserError.map { "\($0)" } ?? "no root element"
            Issue.record("the JUnit report is not well-formed XML: \(reason)\n\(raw)", sourceLocation: sourceLocation)
            throw ParseError(description: reason)
        }
        self.root = root
    }

    var suites: [Element] { root.children("testsuite") }
    var cases: [Element] { suites.flatMap { $0.children("testcase") } }

    func suite(_ name: String) -> Element? { suites.first { $0["name"] == name } }
    func testcase(_ name: String) -> Element? { cases.first { $0["name"] == name } }

    /// `passed` / `failure` / `error` / `skipped`: what a reporter would show.
    static func outcome(_ testcase: Element) -> String {
        for kind in ["failure", "error", "skipped"] where testcase.child(kind) != nil { return kind }
        return "passed"
    }

    func outcome(_ name: String) -> String? { testcase(name).map(Self.outcome) }

    /// Test case names in report (= run) order.
    var caseNames: [String] { cases.compactMap { $0["name"] } }

    private final class TreeBuilder: NSObject, XMLParserDelegate {
        var root: Element?
        private var open: [Element] = []

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
            let element = Element(name: elementName, attributes: attributeDict)
            if let parent = open.last { parent.children.append(element) } else { root = element }
            open.append(element)
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?) {
            _ = open.popLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            open.last?.text += string
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            open.last?.text += String(decoding: CDATABlock, as: UTF8.self)
        }
    }
}

/// `xmllint`, as CI's schema check runs it.
enum XMLLint {
    struct Result {
        var status: Int32
        var messages: String
    }

    /// The JUnit schema the reports must validate against (strict Ant/Jenkins + file/line).
    static let schema: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // navscriptTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("NavScriptTests/Reporting/Fixtures/junit.xsd")

    static func executable() -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"] {
            let candidate = URL(fileURLWithPath: folder).appendingPathComponent("xmllint")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// `xmllint --noout [--schema xsd] file`. Missing xmllint (or schema) is
    /// a recorded failure, never a silent pass.
    static func check(_ file: URL, schema: URL? = nil, sourceLocation: SourceLocation = #_sourceLocation) -> Result? {
        guard let xmllint = executable() else {
            Issue.record("""
                xmllint not found on PATH: the JUnit validity tests need it. \
                Install it (Debian/Ubuntu: apt-get install libxml2-utils; macOS ships it).
                """, sourceLocation: sourceLocation)
            return nil
        }
        if let schema, !FileManager.default.fileExists(atPath: schema.path) {
            Issue.record("the JUnit schema is missing at \(schema.path)", sourceLocation: sourceLocation)
            return nil
        }
        let process = Process()
        process.executableURL = xmllint
        process.arguments = ["--noout"] + (schema.map { ["--schema", $0.path] } ?? []) + [file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do {
            try process.run()
        } catch {
            Issue.record("cannot start \(xmllint.path): \(error)", sourceLocation: sourceLocation)
            return nil
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, messages: String(decoding: data, as: UTF8.self))
    }

    /// Well-formed and schema-valid, both checked.
    static func expectValid(_ file: URL, sourceLocation: SourceLocation = #_sourceLocation) {
        if let wellFormed = check(file, sourceLocation: sourceLocation) {
            #expect(wellFormed.status == 0, "xmllint --noout: \(wellFormed.messages)", sourceLocation: sourceLocation)
        }
        if let valid = check(file, schema: schema, sourceLocation: sourceLocation) {
            #expect(valid.status == 0, "xmllint --schema junit.xsd: \(valid.messages)", sourceLocation: sourceLocation)
        }
    }
}
