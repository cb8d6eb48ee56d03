import Foundation
import Testing

/// The Swift examples of the README and of the doc comments are compiled:
/// each is marked with the file that holds it (`<!-- compiled: PATH -->`
/// before a README block, `(Compiled as written: `PATH`.)` before a doc
/// comment's), that file belongs to a target every test build compiles
/// (`Tests/Fixtures/DocExamples`), and this suite checks that every line of
/// the example appears in it, in order — so an example that stops compiling
/// fails the build, and one edited apart from its compiled copy fails here.
@Suite("Docs: examples compile as written")
struct DocExampleTests {
    /// One ```swift block and the file it says compiles it.
    struct Example: CustomStringConvertible {
        var source: String  // where the example is written, `file:line`
        var compiledIn: String?
        var lines: [String]
        var description: String { source }
    }

    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
            url.deleteLastPathComponent()
        }
        return url
    }()

    /// A line as the comparison sees it: trimmed, without a trailing comment
    /// set off by two spaces (the README explains its lines there).
    static func normalized(_ line: Substring) -> String {
        var text = line.trimmingCharacters(in: .whitespaces)
        if let range = text.range(of: #"\s{2,}//.*$"#, options: .regularExpression) { text.removeSubrange(range) }
        return text
    }

    /// The ```swift blocks of `text`, with the marker before each; `prefix`
    /// is what every line of the block starts with (`/// ` in a doc comment).
    static func examples(in text: String, file: String, prefix: String, marker: String) -> [Example] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var examples: [Example] = []
        var index = 0
        while index < lines.count {
            let line = lines[index].trimmingCharacters(in: .whitespaces)
            guard line == prefix + "```swift" else {
                index += 1
                continue
            }
            let before = index > 0 ? lines[index - 1].trimmingCharacters(in: .whitespaces) : ""
            // The marker, then the path (in backticks in a doc comment), then `.)` or ` -->`.
            let pattern = NSRegularExpression.escapedPattern(for: marker) + #"\s*`?([^`> ]+)`?\.?\)?\s*(-->)?$"#
            var compiledIn: String?
            if let range = before.range(of: pattern, options: .regularExpression) {
                compiledIn = String(before[range]).replacingOccurrences(of: pattern, with: "$1", options: .regularExpression)
            }
            var body: [String] = []
            index += 1
            while index < lines.count, lines[index].trimmingCharacters(in: .whitespaces) != prefix + "```" {
                var text = lines[index].trimmingCharacters(in: .whitespaces)
                if text.hasPrefix(prefix.trimmingCharacters(in: .whitespaces)) {
                    text = String(lines[index].drop { $0 == " " }.dropFirst(prefix.trimmingCharacters(in: .whitespaces).count))
                }
                body.append(normalized(Substring(text)))
                index += 1
            }
            examples.append(
                Example(
                    source: "\(file):\(index - body.count)", compiledIn: compiledIn,
                    lines: body.filter { !$0.isEmpty }))
            index += 1
        }
        return examples
    }

    static var readmeExamples: [Example] {
        let text = (try? String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
        return examples(in: text, file: "README.md", prefix: "", marker: "<!-- compiled:")
    }

    static var docCommentExamples: [Example] {
        let sources = root.appendingPathComponent("Sources")
        let files =
            FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        return files.sorted { $0.path < $1.path }.flatMap { url in
            let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
            let relative = String(url.path.dropFirst(root.path.count + 1))
            return examples(in: text, file: relative, prefix: "/// ", marker: "(Compiled as written:")
        }
    }

    /// The first line of `example` that is not in `compiled` after the lines before it, if any.
    static func firstMissingLine(of example: Example, in compiled: String) -> String? {
        let available = compiled.split(separator: "\n").map(normalized)
        var position = 0
        for line in example.lines {
            guard let found = available[position...].firstIndex(of: line) else { return line }
            position = found + 1
        }
        return nil
    }

    @Test func everySwiftExampleSaysWhereItIsCompiled() {
        let examples = Self.readmeExamples + Self.docCommentExamples
        #expect(examples.count >= 9, "the README's and the doc comments' examples were found: \(examples)")
        // The README's first block is a Package.swift fragment (checked below), not Swift a target compiles.
        let unmarked = examples.filter { $0.compiledIn == nil && !$0.lines.contains("// Package.swift of your app") }
        #expect(unmarked.isEmpty, "examples with no compiled copy — add one under Tests/Fixtures/DocExamples: \(unmarked)")
    }

    @Test func everyExampleIsItsCompiledCopy() throws {
        for example in Self.readmeExamples + Self.docCommentExamples {
            guard let path = example.compiledIn else { continue }
            let compiled = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
            let missing = Self.firstMissingLine(of: example, in: compiled)
            #expect(
                missing == nil,
                "\(example.source): the line \"\(missing ?? "")\" is not in \(path) (in this order): edit both alike")
        }
    }

    @Test func theComparisonNoticesAnEditedLine() {
        let example = Example(source: "t", compiledIn: nil, lines: ["struct A {", "let b = 1", "}"])
        #expect(Self.firstMissingLine(of: example, in: "struct A {\n    let b = 1   // why\n}\n") == nil)
        #expect(Self.firstMissingLine(of: example, in: "struct A {\n    let b = 2\n}\n") == "let b = 1")
        #expect(Self.firstMissingLine(of: example, in: "let b = 1\nstruct A {\n}\n") == "let b = 1", "order counts")
    }

    /// The README's dependency line names the package, as the example apps'
    /// manifests do: a path dependency's identity is its folder's name, so
    /// without `name:` `.product(…, package: "navscript")` fails in a
    /// checkout called anything else (CI builds the examples from one).
    @Test func theDependencySnippetWorksFromAnyFolderName() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains(#".package(name: "navscript", path: "../navscript")"#))
        #expect(!readme.contains(#".package(path: "../navscript")"#))
        for example in ["Bistro", "Wander"] {
            let manifest = try String(
                contentsOf: Self.root.appendingPathComponent("Examples/\(example)/Package.swift"), encoding: .utf8)
            #expect(manifest.contains(#".package(name: "navscript", path: "../..")"#), "\(example)")
        }
    }
}
