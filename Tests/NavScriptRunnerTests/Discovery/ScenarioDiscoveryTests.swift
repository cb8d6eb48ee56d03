import Foundation
import TestSupport
import Testing

@testable import NavScript
@testable import NavScriptLua
@testable import NavScriptRunner
@testable import NavScriptRuntime

@Suite("ScenarioDiscovery")
struct ScenarioDiscoveryTests {
    /// suite/                 (has support/)
    ///   a.lua, b.txt
    ///   support/helper.lua   (a helper, not a scenario)
    ///   flows/c.lua, flows/d.lua
    ///   nested/              (a suite of its own: has support/)
    ///     e.lua, support/x.lua
    ///     deeper/f.lua
    static func suite() throws -> TemporarySuite {
        let suite = try TemporarySuite()
        for path in [
            "a.lua", "b.txt", "support/helper.lua", "flows/d.lua", "flows/c.lua",
            "nested/e.lua", "nested/support/x.lua", "nested/deeper/f.lua"
        ] {
            try suite.write(path, "-- \(path)\n")
        }
        return suite
    }

    @Test func findsLuaFilesSortedSkippingSupportFolders() throws {
        let suite = try Self.suite()
        let discovery = ScenarioDiscovery(workingDirectory: suite.root)
        let entries = try discovery.discover(["."])
        #expect(entries.map(\.path) == ["a.lua", "flows/c.lua", "flows/d.lua", "nested/deeper/f.lua", "nested/e.lua"])
        #expect(try discovery.discover([".", "a.lua", "flows"]).map(\.path) == entries.map(\.path), "each file once")
    }

    /// Each file's suite root is the nearest folder at or above it with a
    /// `support/` — looked up once per folder, never shared across folders.
    @Test func eachFileGetsTheNearestSuiteRoot() throws {
        let suite = try Self.suite()
        let discovery = ScenarioDiscovery(workingDirectory: suite.root)
        let roots = Dictionary(uniqueKeysWithValues: try discovery.discover(["."]).map { ($0.path, discovery.display($0.suiteRoot)) })
        let top = discovery.display(suite.root)
        #expect(roots["a.lua"] == top)
        #expect(roots["flows/c.lua"] == top && roots["flows/d.lua"] == top)
        #expect(roots["nested/e.lua"] == "nested")
        #expect(roots["nested/deeper/f.lua"] == "nested")
    }

    @Test func aMissingPathOrAFileThatIsNotLuaIsAnError() throws {
        let suite = try Self.suite()
        let discovery = ScenarioDiscovery(workingDirectory: suite.root)
        #expect(throws: DiscoveryError.notFound("nope")) { try discovery.discover(["nope"]) }
        #expect(throws: DiscoveryError.notLua("b.txt")) { try discovery.discover(["b.txt"]) }
    }

    /// Opening a FIFO waits for a writer: one named like a scenario file is an
    /// error before anything opens it, given or met while walking.
    @Test func aFIFONamedLikeAScenarioIsAnError() throws {
        let suite = try Self.suite()
        try #require(mkfifo(suite.root.appendingPathComponent("flows/pipe.lua").path, 0o600) == 0)
        let discovery = ScenarioDiscovery(workingDirectory: suite.root)
        #expect(throws: DiscoveryError.notRegular("flows/pipe.lua", "a FIFO")) { try discovery.discover(["."]) }
        #expect(throws: DiscoveryError.notRegular("flows/pipe.lua", "a FIFO")) { try discovery.discover(["flows/pipe.lua"]) }
        #expect(
            DiscoveryError.notRegular("flows/pipe.lua", "a FIFO").description
                .hasPrefix("flows/pipe.lua is a FIFO, not a scenario file: scenario files are regular files"))
    }

    /// A folder named `*.lua` is walked like any folder, not loaded as a file.
    @Test func aFolderNamedLikeAScenarioIsWalked() throws {
        let suite = try Self.suite()
        try suite.write("pkg.lua/inner.lua", "-- inner\n")
        let discovery = ScenarioDiscovery(workingDirectory: suite.root)
        let paths = try discovery.discover(["."]).map(\.path)
        #expect(paths.contains("pkg.lua/inner.lua") && !paths.contains("pkg.lua"), "\(paths)")
        #expect(try discovery.discover(["pkg.lua"]).map(\.path) == ["pkg.lua/inner.lua"])
    }

    /// A suite folder given through a symbolic link is walked, its files shown
    /// under the name given; links to files are scenario files, and a dangling
    /// one is kept (loading it says why) rather than dropped without a word.
    @Test func symbolicLinks() throws {
        let suite = try Self.suite()
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: suite.root.appendingPathComponent("alias").path, withDestinationPath: "nested")
        try fm.createSymbolicLink(
            atPath: suite.root.appendingPathComponent("flows/linked.lua").path,
            withDestinationPath: "../a.lua")
        try fm.createSymbolicLink(
            atPath: suite.root.appendingPathComponent("flows/dangling.lua").path,
            withDestinationPath: "missing.lua")
        let discovery = ScenarioDiscovery(workingDirectory: suite.root)
        let aliased = try discovery.discover(["alias"])
        #expect(aliased.map(\.path) == ["alias/deeper/f.lua", "alias/e.lua"])
        #expect(aliased.map { discovery.display($0.suiteRoot) } == ["alias", "alias"])
        #expect(
            try discovery.discover(["flows"]).map(\.path)
                == ["flows/c.lua", "flows/d.lua", "flows/dangling.lua", "flows/linked.lua"])
        // A file reached through the link and through its folder runs once.
        #expect(try discovery.discover(["alias", "nested"]).map(\.path) == ["alias/deeper/f.lua", "alias/e.lua"])
        // A link to a file the walk meets as itself runs once, under the file's own name: it ran
        // twice, under both names, each result counted (and in two shards).
        #expect(
            try discovery.discover(["."]).map(\.path)
                == ["a.lua", "flows/c.lua", "flows/d.lua", "flows/dangling.lua", "nested/deeper/f.lua", "nested/e.lua"])
        #expect(try discovery.discover(["flows/linked.lua", "a.lua"]).map(\.path) == ["a.lua"])
        // A hard link is the same file under another name too.
        try fm.linkItem(atPath: suite.root.appendingPathComponent("a.lua").path, toPath: suite.root.appendingPathComponent("b.lua").path)
        #expect(try discovery.discover(["a.lua", "b.lua"]).count == 1)
        try fm.removeItem(at: suite.root.appendingPathComponent("b.lua"))
        try fm.createSymbolicLink(atPath: suite.root.appendingPathComponent("flows/again.lua").path, withDestinationPath: "linked.lua")
        #expect(try discovery.discover(["flows"]).map(\.path) == ["flows/again.lua", "flows/c.lua", "flows/d.lua", "flows/dangling.lua"])
    }

    /// One file in two suites (a hard link in another root) runs in each: it runs against its own
    /// root's support/ modules, so it was a different run there, and it was dropped.
    @Test func theSameFileInTwoSuitesRunsInEach() throws {
        let first = try TemporarySuite()
        try first.write("support/m.lua", "return { ok = true }\n")
        try first.write("a.lua", "-- a scenario file\n")
        let second = try TemporarySuite()
        try second.write("support/m.lua", "return { ok = false }\n")
        try FileManager.default.linkItem(
            atPath: first.root.appendingPathComponent("a.lua").path, toPath: second.root.appendingPathComponent("a.lua").path)
        let entries = try ScenarioDiscovery().discover([first.root.path, second.root.path])
        #expect(entries.count == 2, "\(entries.map(\.path))")
    }

    /// Without a support/ folder, a file's root is its own folder: a link to it from another folder
    /// of the walk had another root, and the file ran twice, under two names (in two shards).
    @Test func aLinkFromAnotherFolderOfASuiteWithoutSupportRunsTheFileOnce() throws {
        let suite = try TemporarySuite()
        try suite.write("x/r.lua", "-- a scenario file\n")
        try FileManager.default.createSymbolicLink(
            atPath: suite.root.appendingPathComponent("l.lua").path, withDestinationPath: "x/r.lua")
        let entries = try ScenarioDiscovery(workingDirectory: suite.root).discover(["."])
        #expect(entries.map(\.path) == ["x/r.lua"], "\(entries.map(\.path))")
    }

    /// Two files whose names read the same but are different bytes (`café` composed and
    /// decomposed) are two files: keyed by Swift's String equality, one was dropped without a
    /// word and the run went green without it. Reports tell files apart by name: an error.
    @Test func twoFilesWhoseNamesReadTheSameAreRefusedByName() throws {
        let suite = try TemporarySuite()
        try suite.write("caf\u{E9}.lua", "-- composed\n")
        try suite.write("cafe\u{301}.lua", "-- decomposed\n")
        let composedBytes = Array("caf\u{E9}.lua".utf8)
        let names = try FileManager.default.contentsOfDirectory(atPath: suite.root.path)
        try #require(names.filter { $0.hasSuffix(".lua") }.count == 2, "the file system keeps both names: \(names)")
        #expect(throws: DiscoveryError.self) { try ScenarioDiscovery(workingDirectory: suite.root).discover(["."]) }
        do {
            _ = try ScenarioDiscovery(workingDirectory: suite.root).discover(["."])
        } catch {
            #expect(error.description.contains("are two files whose names read the same"), "\(error)")
        }
        // So are two that differ by a character nothing draws (a zero-width space), spelled out.
        let invisible = try TemporarySuite()
        try invisible.write("zw.lua", "-- one\n")
        try invisible.write("z\u{200B}w.lua", "-- two\n")
        do {
            _ = try ScenarioDiscovery(workingDirectory: invisible.root).discover(["."])
            Issue.record("two names that read the same were both taken")
        } catch {
            #expect(error.description.contains("z<U+200B>w.lua"), "\(error)")
        }
        // Each alone is found, by its own bytes.
        let one = try ScenarioDiscovery(workingDirectory: suite.root).discover([String(decoding: composedBytes, as: UTF8.self)])
        #expect(one.count == 1 && Array(one[0].path.utf8) == composedBytes)
    }

    /// A link to a folder met inside the suite (a folder of scenarios shared
    /// between apps) is walked, its files shown under the link's name; it
    /// was left out without a word. Links back up, or to what the walk
    /// covers already, are not walked again.
    @Test func aLinkedFolderInsideTheSuiteIsWalked() throws {
        let suite = try Self.suite()
        let shared = try TemporarySuite()
        try shared.write("s.lua", "-- shared\n")
        try shared.write("support/m.lua", "-- a module\n")
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: suite.root.appendingPathComponent("flows/shared").path, withDestinationPath: shared.root.path)
        try fm.createSymbolicLink(atPath: suite.root.appendingPathComponent("nested/up").path, withDestinationPath: "..")
        try fm.createSymbolicLink(atPath: suite.root.appendingPathComponent("again").path, withDestinationPath: "flows")
        // An editor's lock on a file being edited (Emacs: a dangling link `.#c.lua`) is no scenario file.
        try fm.createSymbolicLink(atPath: suite.root.appendingPathComponent("flows/.#c.lua").path, withDestinationPath: "user@host.1234:0")
        // Nor is anything in a hidden folder (a checkout's `.git`, a build's `.build`).
        try suite.write(".build/checkouts/dep/x.lua", "-- a dependency's file\n")
        let entries = try ScenarioDiscovery(workingDirectory: suite.root).discover(["."])
        #expect(
            entries.map(\.path) == ["a.lua", "flows/c.lua", "flows/d.lua", "flows/shared/s.lua", "nested/deeper/f.lua", "nested/e.lua"],
            "\(entries.map(\.path))")
    }

    /// A link to a folder inside a suite finds that suite's root where the
    /// folder really is, not above the link (whose folder has no `support/`).
    @Test func aLinkedSubfolderKeepsItsSuiteRoot() throws {
        let suite = try Self.suite()
        let elsewhere = try TemporarySuite()
        try FileManager.default.removeItem(at: elsewhere.root.appendingPathComponent("support"))
        try FileManager.default.createSymbolicLink(
            atPath: elsewhere.root.appendingPathComponent("myflows").path,
            withDestinationPath: suite.root.appendingPathComponent("flows").path)
        let discovery = ScenarioDiscovery(workingDirectory: elsewhere.root)
        let entries = try discovery.discover(["myflows"])
        #expect(entries.map(\.path) == ["myflows/c.lua", "myflows/d.lua"])
        let real = try #require(ScenarioDiscovery.realPath(suite.root.path))
        #expect(entries.allSatisfy { $0.suiteRoot.standardizedFileURL.path == real }, "\(entries.map(\.suiteRoot))")
    }
}
