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
        #expect(
            String(readme[start.upperBound..<stop.lowerBound]) == output.stdout,
            "README's reference table is stale: run scripts/update-readme.sh")
    }
}

/// The shipped scenarios lint clean with the generated `.luacheckrc`.
@Suite("Lint")
struct LintTests {
    static let root = GeneratedDocsTests.root

    @Test(".luacheckrc is what `navscript types --format luacheck` writes")
    func config() throws {
        let output = try CLI.run(["types", "--format", "luacheck"], in: Self.root)
        let committed = try String(contentsOf: Self.root.appendingPathComponent(".luacheckrc"), encoding: .utf8)
        #expect(committed == output.stdout, ".luacheckrc is stale: run `swift run navscript types --format luacheck -o .luacheckrc`")
    }

    @Test("luacheck finds nothing in the shipped suite, and does flag a misspelt verb")
    func shippedSuiteIsClean() throws {
        guard let luacheck = ["/usr/bin/luacheck", "/usr/local/bin/luacheck"].first(where: FileManager.default.isExecutableFile)
        else {
            Issue.record("luacheck is not installed (scripts/bootstrap.sh installs lua-check); cannot lint the suite")
            return
        }
        func lint(_ paths: [String], in folder: URL) throws -> (Int32, String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: luacheck)
            process.arguments = ["--no-color", "--formatter", "plain"] + paths
            process.currentDirectoryURL = folder
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: data, as: UTF8.self))
        }
        let (status, text) = try lint(["scenarios"], in: Self.root)
        #expect(status == 0, "luacheck scenarios/:\n\(text)")

        let fixture = try Fixture([
            ".luacheckrc": try String(contentsOf: Self.root.appendingPathComponent(".luacheckrc"), encoding: .utf8),
            "suite/typo.lua": "scenario(\"x\", function() tapp(\"cart\") end)\n"
        ])
        let (typoStatus, typo) = try lint(["suite"], in: fixture.root)
        #expect(typoStatus != 0 && typo.contains("tapp"), "\(typo)")
    }
}
