import Foundation
import Testing
@testable import NavScript

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
        for path in ["a.lua", "b.txt", "support/helper.lua", "flows/d.lua", "flows/c.lua",
                     "nested/e.lua", "nested/support/x.lua", "nested/deeper/f.lua"] {
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
}
