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

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
        ) {
            let element = Element(name: elementName, attributes: attributeDict)
            if let parent = open.last { parent.children.append(element) } else { root = element }
            open.append(element)
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?
        ) {
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
