import Foundation
import TestSupport
import Testing

@testable import NavScriptLua

/// The process's cache of compiled chunks: a file compiled a second time is
/// kept as bytecode, later loads use it, and nothing a script can observe
/// changes (messages, line numbers, edits to the file).
@Suite("Lua bridge: chunk cache")
struct LuaChunkCacheTests {
    /// Loads `path` in a fresh state and runs it, as a runner does for each
    /// file; says whether the chunk came from bytecode.
    private func load(_ path: String, chunkName: String, memory: Int? = 16 * 1024 * 1024) throws
        -> (results: [LuaValue], fromBytecode: Bool)
    {
        let lua = try LuaState.forTests(memory: memory)
        let before = lua.chunksLoadedFromBytecode
        let function = try lua.loadFile(atPath: path, chunkName: chunkName)
        let fromBytecode = lua.chunksLoadedFromBytecode > before
        return (try lua.call(function), fromBytecode)
    }

    private func run(_ url: URL, chunkName: String) throws -> [LuaValue] {
        try load(url.path, chunkName: chunkName).results
    }

    private func bytes(_ url: URL) throws -> [UInt8] { Array(try Data(contentsOf: url)) }

    @Test("a file is kept as bytecode once it was compiled twice, and then loaded from it")
    func keptAfterTheSecondCompile() throws {
        let suite = try TemporarySuite()
        let url = try suite.write("twice.lua", "local t = { 1, 2, 3 }\nreturn #t * 2, 'text'\n")
        let name = "@" + url.path
        #expect(!LuaChunkCache.holdsBytecode(for: try bytes(url), chunkName: name))
        let first = try load(url.path, chunkName: url.path)
        #expect(first.results == [6, "text"] && !first.fromBytecode)
        #expect(!LuaChunkCache.holdsBytecode(for: try bytes(url), chunkName: name), "a file run once is not dumped")
        let second = try load(url.path, chunkName: url.path)
        #expect(second.results == [6, "text"] && !second.fromBytecode)
        #expect(LuaChunkCache.holdsBytecode(for: try bytes(url), chunkName: name))
        #expect(
            !LuaChunkCache.holdsBytecode(for: try bytes(url), chunkName: name, asFile: false),
            "a source loaded as text is another chunk than the file")
        for _ in 0..<2 {
            let later = try load(url.path, chunkName: url.path)
            #expect(later.results == [6, "text"] && later.fromBytecode)
        }
    }

    @Test("a file edited since is compiled again: the cache is keyed by the exact bytes, not the name or length")
    func editedFileIsCompiledAgain() throws {
        let suite = try TemporarySuite()
        let url = try suite.write("edited.lua", "return 'one'\n")
        for _ in 0..<3 { #expect(try run(url, chunkName: url.path) == ["one"]) }
        try suite.write("edited.lua", "return 'two'\n")  // the same length
        let edited = try load(url.path, chunkName: url.path)
        #expect(edited.results == ["two"] && !edited.fromBytecode)
    }

    @Test("the same bytes under another name are another chunk: messages name the file loaded")
    func keyedByName() throws {
        let suite = try TemporarySuite()
        let a = try suite.write("a.lua", "error('x')\n")
        let b = try suite.write("b.lua", "error('x')\n")
        for _ in 0..<3 { _ = luaError { _ = try run(a, chunkName: "a.lua") } }
        #expect(LuaChunkCache.holdsBytecode(for: try bytes(a), chunkName: "@a.lua"))
        let error = try #require(luaError { _ = try run(b, chunkName: "b.lua") })
        #expect(error.message.hasPrefix("b.lua:1: x"), "\(error.message)")
    }

    @Test("an error from bytecode reads as from text: the same message, line and traceback")
    func errorsAreTheSame() throws {
        let suite = try TemporarySuite()
        let url = try suite.write(
            "fails.lua",
            """
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
        let onlyComment = try suite.write("comment.lua", "#!/usr/bin/env lua")
        let empty = try suite.write("empty.lua", "")
        for _ in 0..<3 {
            #expect(try run(onlyComment, chunkName: "comment.lua").isEmpty)
            #expect(try run(empty, chunkName: "empty.lua").isEmpty)
        }
    }

    @Test("a file larger than the read buffer is read whole, and its last line keeps its number")
    func largeFile() throws {
        let suite = try TemporarySuite()
        let filler = (1...400).map { "V\($0) = \($0) -- a filler line, long enough that 400 of them pass 16 KB: \($0)" }.joined(
            separator: "\n")
        let url = try suite.write("large.lua", filler + "\nerror('last line')\n")
        #expect(try bytes(url).count > 16 * 1024)
        for _ in 0..<3 {
            let error = try #require(luaError { _ = try run(url, chunkName: "large.lua") })
            #expect(error.message.hasPrefix("large.lua:401: last line"), "\(error.message)")
        }
    }

    @Test("a file larger than the state's memory limit is refused before it is read whole; a folder cannot be read")
    func unreadableFiles() throws {
        let suite = try TemporarySuite()
        let url = try suite.write("huge.lua", "return '" + String(repeating: "x", count: 300_000) + "'\n")
        // The bound is the limit itself, to the byte (not the buffer's next size up).
        let error = try #require(luaError { _ = try load(url.path, chunkName: "huge.lua", memory: 256 * 1024 + 1) })
        #expect(
            error.message.contains("cannot read huge.lua (larger than 262145 bytes, the state's memory limit)"),
            "\(error.message)")
        let exact = try suite.write("exact.lua", String(repeating: "-", count: 299_998) + "\n\n")
        let fits = luaError { _ = try load(exact.path, chunkName: "exact.lua", memory: 300_000) }
        #expect(fits?.message.contains("cannot read") != true, "a file of exactly the limit is read: \(fits?.message ?? "")")
        let over = try #require(luaError { _ = try load(exact.path, chunkName: "exact.lua", memory: 299_999) })
        #expect(over.message.contains("cannot read exact.lua (larger than 299999 bytes"), "\(over.message)")
        #expect(try load(url.path, chunkName: "huge.lua", memory: nil).results.first?.stringValue?.count == 300_000)
        let folder = try #require(luaError { _ = try load(suite.root.path, chunkName: "folder.lua") })
        #expect(folder.message.contains("cannot read folder.lua (Is a directory)"), "\(folder.message)")
    }

    /// Reading a freshly checked-out file would otherwise write its inode
    /// (relatime updates an access time older than the modification time):
    /// a metadata write per scenario file per run, which showed in the cost
    /// of a file's first run.
    #if os(Linux)
        @Test("loading a file leaves its access time alone")
        func readingLeavesTheAccessTime() throws {
            let suite = try TemporarySuite()
            let url = try suite.write("old.lua", "return 1\n")
            let now = Int(Date().timeIntervalSince1970)
            var times = [timespec(tv_sec: 1_000_000, tv_nsec: 0), timespec(tv_sec: now, tv_nsec: 0)]
            #expect(utimensat(AT_FDCWD, url.path, &times, 0) == 0)
            #expect(try run(url, chunkName: "old.lua") == [1])
            var info = stat()
            #expect(stat(url.path, &info) == 0)
            #expect(info.st_atim.tv_sec == 1_000_000, "the access time was \(info.st_atim.tv_sec)")
        }
    #endif

    @Test("a support module required by several files is compiled twice, then loaded from bytecode")
    func supportModulesAreShared() throws {
        let suite = try TemporarySuite()
        let module = try suite.write("support/shared.lua", "return { answer = function() return 42 end }\n")
        let name = "@" + module.path
        for index in 0..<4 {
            let lua = try LuaState.forTests(root: suite.root)
            let before = lua.chunksLoadedFromBytecode
            #expect(try lua.run(source: "return require('shared').answer()", chunkName: "file\(index).lua") == [42])
            #expect(LuaChunkCache.holdsBytecode(for: try bytes(module), chunkName: name) == (index >= 1))
            #expect((lua.chunksLoadedFromBytecode > before) == (index >= 2))
        }
    }

    @Test("scripts still cannot load binary chunks: not by load, nor a file through require or loadfile")
    func scriptsCannotLoadBytecode() throws {
        let suite = try TemporarySuite()
        try suite.write("support/binary.lua", bytes: Array("\u{1B}Lua".utf8) + [0x54, 0x00])
        try suite.write("lib/binary.lua", bytes: Array("\u{1B}Lua".utf8) + [0x54, 0x00])
        for _ in 0..<3 {
            let lua = try LuaState.forTests(root: suite.root)
            let results = try lua.run(
                source: """
                    local a, loadMessage = load('\\27Lua')
                    local ok, requireMessage = pcall(require, 'binary')
                    local f, loadfileMessage = loadfile('lib/binary.lua')
                    return a, loadMessage, ok, requireMessage, f, loadfileMessage
                    """, chunkName: "probe.lua")
            #expect(results[0] == .nil && results[1].stringValue?.contains("attempt to load a binary chunk") == true)
            #expect(
                results[2] == false && results[3].stringValue?.contains("attempt to load a binary chunk") == true,
                "\(results[3])")
            #expect(
                results[4] == .nil && results[5].stringValue?.contains("attempt to load a binary chunk") == true,
                "\(results[5])")
        }
    }

    @Test("states on several threads load the same file at once")
    func concurrentLoads() async throws {
        let suite = try TemporarySuite()
        let url = try suite.write("shared.lua", "local n = 0\nfor i = 1, 100 do n = n + i end\nreturn n\n")
        let path = url.path
        let sums = try await withThrowingTaskGroup(of: [Int64?].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var sums: [Int64?] = []
                    for _ in 0..<20 {
                        let lua = try LuaState.forTests()
                        sums.append(try lua.call(try lua.loadFile(atPath: path, chunkName: path)).first?.int64Value)
                    }
                    return sums
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(sums.count == 160 && sums.allSatisfy { $0 == 5050 })
        #expect(LuaChunkCache.holdsBytecode(for: try bytes(url), chunkName: "@" + path))
    }
}
