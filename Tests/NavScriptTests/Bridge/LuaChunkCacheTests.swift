import Foundation
import Testing
@testable import NavScript

/// The process's cache of compiled chunks: a file compiled a second time is
/// kept as bytecode, later loads use it, and nothing a script can observe
/// changes (messages, line numbers, edits to the file).
@Suite("Lua bridge: chunk cache")
struct LuaChunkCacheTests {
    /// Loads `url` in a fresh state and runs it, as a runner does for each file.
    private func run(_ url: URL, chunkName: String) throws -> [LuaValue] {
        let lua = try LuaState.forTests()
        return try lua.call(try lua.loadFile(atPath: url.path, chunkName: chunkName))
    }

    private func bytes(_ url: URL) throws -> [UInt8] { Array(try Data(contentsOf: url)) }

    @Test("a file is kept as bytecode once it was compiled twice, and then loaded from it")
    func keptAfterTheSecondCompile() throws {
        let suite = try TemporarySuite()
        let url = try suite.write("twice.lua", "local t = { 1, 2, 3 }\nreturn #t * 2, 'text'\n")
        let name = "@" + url.path
        #expect(!LuaChunkCache.holdsBytecode(for: try bytes(url), chunkName: name))
        #expect(try run(url, chunkName: url.path) == [6, "text"])
        #expect(!LuaChunkCache.holdsBytecode(for: try bytes(url), chunkName: name), "a file run once is not dumped")
        #expect(try run(url, chunkName: url.path) == [6, "text"])
        #expect(LuaChunkCache.holdsBytecode(for: try bytes(url), chunkName: name))
        let before = LuaChunkCache.statistics.hits
        #expect(try run(url, chunkName: url.path) == [6, "text"])
        #expect(LuaChunkCache.statistics.hits > before)
    }

    @Test("a file edited since is compiled again: the cache is keyed by the exact bytes, not the name or length")
    func editedFileIsCompiledAgain() throws {
        let suite = try TemporarySuite()
        let url = try suite.write("edited.lua", "return 'one'\n")
        for _ in 0..<3 { #expect(try run(url, chunkName: url.path) == ["one"]) }
        try suite.write("edited.lua", "return 'two'\n")   // the same length
        #expect(try run(url, chunkName: url.path) == ["two"])
        #expect(try run(url, chunkName: "elsewhere.lua") == ["two"], "another name is another chunk")
    }

    @Test("an error from bytecode reads as from text: the same message, line and traceback")
    func errorsAreTheSame() throws {
        let suite = try TemporarySuite()
        let url = try suite.write("fails.lua", """
            -- a comment
            local function inner(x)
              return x.missing.field
            end
            return inner({})
            """)
        var messages: [String] = []
        var tracebacks: [String] = []
        for _ in 0..<3 {
            let error = try #require(luaError { _ = try run(url, chunkName: "fails.lua") })
            messages.append(error.message)
            tracebacks.append(error.traceback ?? "")
        }
        #expect(LuaChunkCache.holdsBytecode(for: try bytes(url), chunkName: "@fails.lua"))
        #expect(messages[0].hasPrefix("fails.lua:3: attempt to index a nil value (field 'missing')"))
        #expect(Set(messages).count == 1, "\(messages)")
        #expect(tracebacks[0].contains("fails.lua:3: in"), "\(tracebacks[0])")
        #expect(Set(tracebacks).count == 1, "\(tracebacks)")
    }

    @Test("a BOM and a first '#' line are skipped on every load without moving line numbers")
    func headerSkippedOnEveryLoad() throws {
        let suite = try TemporarySuite()
        let url = try suite.write("script.lua", bytes: Array("\u{FEFF}#!/usr/bin/env lua\nerror('here')\n".utf8))
        for _ in 0..<3 {
            let error = try #require(luaError { _ = try run(url, chunkName: "script.lua") })
            #expect(error.message.hasPrefix("script.lua:2: here"), "\(error.message)")
        }
        #expect(LuaChunkCache.holdsBytecode(for: try bytes(url), chunkName: "@script.lua"))
    }

    @Test("a support module required by several files is compiled twice, then loaded from bytecode")
    func supportModulesAreShared() throws {
        let suite = try TemporarySuite()
        let module = try suite.write("support/shared.lua", "return { answer = function() return 42 end }\n")
        let name = "@" + module.path
        for index in 0..<3 {
            let lua = try LuaState.forTests(root: suite.root)
            #expect(try lua.run(source: "return require('shared').answer()", chunkName: "file\(index).lua") == [42])
            #expect(LuaChunkCache.holdsBytecode(for: try bytes(module), chunkName: name) == (index >= 1))
        }
    }

    @Test("scripts still cannot load binary chunks, though the bridge loads its own dumps")
    func scriptsCannotLoadBytecode() throws {
        let suite = try TemporarySuite()
        let url = try suite.write("probe.lua", "return load('\\27Lua') \n")
        for _ in 0..<3 {
            let results = try run(url, chunkName: url.path)
            #expect(results.first == .nil)
            #expect(results.dropFirst().first?.stringValue?.contains("attempt to load a binary chunk") == true)
        }
    }
}
