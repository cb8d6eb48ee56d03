import Foundation
import NotesApp
import TestSupport
import Testing

@testable import NavScriptRunner
@testable import NavScriptRuntime

/// A standard function navscript wraps (to meter it, or to make it
/// reproducible) raises its errors as the stock one would: at the
/// script's line, under its own name, and no more fatal than it was.
@Suite("Library error messages")
struct LibraryErrorMessageTests {
    private func results(_ source: String) throws -> [ScenarioResult] {
        try runSource(source, file: "lib.lua").results
    }

    @Test func anErrorRaisedInsideAWrapperIsPlacedAtTheScriptsLineUnderItsOwnName() throws {
        let found = try results(
            """
            scenario("randomseed", function()
              math.randomseed(0/0)
            end)
            scenario("insert", function()
              local t = {}
              table.insert(t, 5, 1)
            end)
            scenario("protected", function()
              setmetatable(_G, nil)
            end)
            scenario("rawset on a string", function()
              rawset(getmetatable(""), "__unm", 1)
            end)
            scenario("setmetatable on a string", function()
              setmetatable("", {})
            end)
            """
        ).map(\.message)
        #expect(found.count == 5)
        #expect(found[3].hasSuffix("lib.lua:12: bad argument #1 to 'rawset' (table expected, got string)"), "\(found)")
        #expect(found[4].hasSuffix("lib.lua:15: bad argument #1 to 'setmetatable' (table expected, got string)"), "\(found)")
        #expect(found[0].hasSuffix("lib.lua:2: bad argument #1 to 'randomseed' (number has no integer representation)"), "\(found)")
        #expect(found[1].hasSuffix("lib.lua:6: bad argument #2 to 'insert' (position out of bounds)"), "\(found)")
        #expect(found[2].hasSuffix("lib.lua:9: cannot change a protected metatable"), "\(found)")
        #expect(!found.contains { $0.contains("navscript") }, "no place inside navscript: \(found)")
    }

    /// `coroutine.wrap` puts its caller's place before an error that has one
    /// already: the message says it once (`lib.lua:2: lib.lua:2: boom`).
    @Test func anErrorThroughCoroutineWrapIsPlacedOnce() throws {
        let found = try results(
            """
            scenario("wrapped", function()
              coroutine.wrap(function() error("boom") end)()
            end)
            scenario("wrapped three times", function()
              coroutine.wrap(function() coroutine.wrap(function() coroutine.wrap(function() error("deep") end)() end)() end)()
            end)
            """
        ).map(\.message)
        #expect(found.count == 2 && found[1].hasSuffix("/lib.lua:5: deep"), "\(found)")
        #expect(found.last?.components(separatedBy: "lib.lua:5:").count == 2, "the place once: \(found)")
        #expect(found.first?.hasSuffix("/lib.lua:2: boom") == true, "\(found)")
        #expect(found.first?.components(separatedBy: "lib.lua:2:").count == 2, "the place once: \(found)")
    }

    /// `warn` writes where `print` does once `warn("@on")` turned warnings on
    /// (Lua's went to the process's stderr, which no report kept).
    @Test func warningsAreTheScenariosOutput() throws {
        let found = try results(
            """
            scenario("warns", function()
              warn("dropped: warnings are off")
              warn("@on")
              warn("kept ", "in pieces")
              warn("@off")
              warn("dropped again")
            end)
            """)
        #expect(found.first?.output == "Lua warning: kept in pieces\n", "\(found.map(\.output))")
    }

    /// More values than a Lua stack holds are refused at once, an error a
    /// pcall may catch, as in stock Lua: not charged to the budget first.
    @Test func anUnpackTooLargeToHappenIsACatchableErrorNotTheBudget() throws {
        let found = try results(
            """
            scenario("unpack", function()
              local ok, message = pcall(table.unpack, {}, 1, 1e8)
              assert(not ok and message:find("too many results to unpack"), tostring(message))
            end)
            """)
        #expect(found.map(\.status) == [.passed], "\(found.map(\.message))")
    }

    /// An error raised inside a support module names the scenario's line
    /// that called into it, as a failure there does.
    @Test func anErrorInASupportModuleIsNamedAtTheScenariosLineToo() throws {
        let (results, path) = try runSource(
            """
            local helpers = require("helpers")
            scenario("boom", function()
              launch{}
              helpers.boom()
            end)
            """, file: "calls.lua", support: ["helpers.lua": "local M = {}\nfunction M.boom()\n  local x\n  return x.y\nend\nreturn M\n"])
        let message = results.first?.message
        #expect(message?.hasPrefix("\(path):4 (in ") == true, "\(message ?? "")")
        #expect(message?.contains("support/helpers.lua:4): attempt to index a nil value (local 'x')") == true, "\(message ?? "")")
        // A message that already leads with the scenario's place keeps one.
        let (declared, _) = try runSource(
            """
            scenario("declares from a module", function()
              require("declares")
            end)
            """, support: ["declares.lua": "scenario(\"late\", function() end)\nreturn {}\n"])
        let once = declared.first?.message ?? ""
        #expect(once.components(separatedBy: "(in ").count == 2, "one place: \(once)")
    }

    /// A precompiled file (luac output) is said to be one, with what to do:
    /// not Lua's "attempt to load a binary chunk (mode is 't')".
    @Test func aPrecompiledFileIsSaidToBeOne() throws {
        let suite = try TemporarySuite()
        let url = try suite.write("compiled.lua", bytes: [0x1B] + Array("Lua".utf8) + [0x54, 0x00, 0x19, 0x93])
        let entry = SuiteFile(path: url.path, url: url, suiteRoot: suite.root)
        let message = ScenarioRunner(host: try NotesHost(), options: RunOptions()).runFile(entry, filter: nil).scenarios.first?.message
        #expect(
            message == "\(url.path): the file is precompiled Lua bytecode (luac output), which navscript does not load: "
                + "scenarios run from their source — give it the .lua source file", "\(message ?? "")")
    }
}
