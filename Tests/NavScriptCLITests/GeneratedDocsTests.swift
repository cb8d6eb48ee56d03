import Foundation
import Testing

/// The committed editor definitions and the README's reference table are
/// generated from the function declarations; these fail when either is
/// stale, with the command that regenerates it.
@Suite("Generated docs are up to date")
struct GeneratedDocsTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("types/navscript.lua is what `navscript types` writes for ShopApp")
    func definitions() throws {
        let output = try CLI.run(["types"], in: Self.root)
        #expect(output.status == 0, "\(output)")
        let committed = try String(contentsOf: Self.root.appendingPathComponent("types/navscript.lua"), encoding: .utf8)
        #expect(committed == output.stdout, "types/navscript.lua is stale: run `swift run navscript types -o types/navscript.lua`")
    }

    @Test("README's reference table is what `navscript types --format markdown` writes")
    func referenceTable() throws {
        let output = try CLI.run(["types", "--format", "markdown"], in: Self.root)
        #expect(output.status == 0, "\(output)")
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let begin = "<!-- reference:begin -->\n", end = "<!-- reference:end -->"
        guard let start = readme.range(of: begin), let stop = readme.range(of: end) else {
            Issue.record("README.md has no reference:begin/end markers")
            return
        }
        #expect(String(readme[start.upperBound..<stop.lowerBound]) == output.stdout,
                "README's reference table is stale: run scripts/update-readme.sh")
    }
}
