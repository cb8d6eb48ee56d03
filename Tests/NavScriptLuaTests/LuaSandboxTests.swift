import Foundation
import TestSupport
import Testing

@testable import NavScriptLua

@Suite("Lua bridge: sandbox")
struct LuaSandboxTests {
    @Test(
        "dangerous functions are really absent",
        arguments: [
            "os.execute", "os.exit", "os.remove", "os.rename", "os.tmpname", "os.getenv", "os.setlocale",
            "io.popen", "io.tmpfile", "io.input", "io.output", "io.lines", "io.read", "io.close", "io.stdin",
            "string.dump", "package.loadlib", "package.searchpath", "debug", "require('debug')",
            "package.searchers[3]", "package.searchers[4]", "('').dump"
        ])
    func removed(_ expression: String) throws {
        let lua = try LuaState.forTests()
        let results = try lua.run(
            source: "local ok, v = pcall(function() return \(expression) end) return ok and v == nil or not ok",
            chunkName: "sandbox.lua")
        #expect(results == [true], "\(expression) must not be reachable")
    }

    @Test("the safe libraries and the kept functions are present")
    func kept() throws {
        let lua = try LuaState.forTests()
        let results = try lua.run(
            source: """
                return type(os.clock), type(os.time), type(os.date), type(os.difftime),
                       type(io.open), type(io.write), type(string.format), type(table.concat),
                       type(math.floor), type(utf8.char), type(coroutine.wrap), type(collectgarbage),
                       type(require), type(print)
                """, chunkName: "kept.lua")
        #expect(results == Array(repeating: "function", count: 14))
    }

    @Test("binary chunks cannot be loaded, whatever mode the script asks for")
    func noBinaryChunks() throws {
        let lua = try LuaState.forTests()
        let suite = try TemporarySuite()
        try suite.write("compiled.lua", bytes: Array("\u{1B}Lua".utf8) + [0x54, 0x00, 0x19, 0x93, 0x0D, 0x0A, 0x1A, 0x0A])
        let lua2 = try LuaState.forTests(root: suite.root)
        let results = try lua.run(
            source: #"""
                local binary = "\27Lua\84\0\25\147\r\n\26\n"
                local f1, e1 = load(binary)
                local f2, e2 = load(binary, "x", "b")
                local f3, e3 = load(binary, "x", "bt", {})
                local ok = load("return 1", "x", "b")
                return f1 == nil and f2 == nil and f3 == nil, e1, e2, ok and ok()
                """#, chunkName: "bin.lua")
        #expect(results[0] == true)
        #expect(results[1].stringValue?.contains("attempt to load a binary chunk (mode is 't')") == true)
        #expect(results[2].stringValue?.contains("attempt to load a binary chunk (mode is 't')") == true)
        #expect(results[3] == 1, "text chunks still load even when the script asks for mode 'b'")
        let fromFile = try lua2.run(source: "return loadfile('compiled.lua', 'b')", chunkName: "bin.lua")
        #expect(fromFile[0] == .nil)
        #expect(fromFile[1].stringValue?.contains("binary chunk") == true)
    }

    @Test("load keeps the env argument semantics")
    func loadEnv() throws {
        let lua = try LuaState.forTests()
        let results = try lua.run(
            source: """
                local f = load("return x", "c", "t", { x = 5 })
                local g = load("return type(print)")
                return f(), g()
                """, chunkName: "env.lua")
        #expect(results == [5, "function"])
    }

    @Test("io.open reads inside the root and refuses writes and outside paths")
    func ioOpen() throws {
        let suite = try TemporarySuite()
        try suite.write("data/fixture.txt", "hello fixture")
        let outside = try TemporarySuite()
        try outside.write("secret.txt", "secret")
        try FileManager.default.createSymbolicLink(
            at: suite.root.appendingPathComponent("link.txt"),
            withDestinationURL: outside.root.appendingPathComponent("secret.txt"))
        let lua = try LuaState.forTests(root: suite.root)
        let results = try lua.run(
            source: """
                local f = assert(io.open("data/fixture.txt"))
                local text = f:read("a") f:close()
                local w, werr = io.open("data/fixture.txt", "w")
                local a = io.open("data/new.txt", "a+")
                local o, oerr = io.open("\(outside.root.path)/secret.txt")
                local l, lerr = io.open("link.txt")
                local d, derr = io.open("../\(outside.root.lastPathComponent)/secret.txt")
                local r, rerr = io.open(".")
                return text, w == nil and a == nil and o == nil and l == nil and d == nil and r == nil, werr, oerr, lerr, rerr
                """, chunkName: "io.lua")
        #expect(results[0] == "hello fixture")
        #expect(results[1] == true)
        #expect(results[2].stringValue?.contains("read-only") == true)
        #expect(results[3].stringValue?.contains("outside the sandbox") == true)
        #expect(results[4].stringValue?.contains("outside the sandbox") == true, "symlinks are resolved before the check")
        #expect(results[5].stringValue?.hasSuffix(": it is the suite's folder, not a file") == true, "\(results[5])")
        #expect(try String(contentsOf: suite.root.appendingPathComponent("data/fixture.txt"), encoding: .utf8) == "hello fixture")
        #expect(!FileManager.default.fileExists(atPath: suite.root.appendingPathComponent("data/new.txt").path))
    }

    /// A worker that runs out of descriptors cannot report its own crash:
    /// the files a script holds open at once are bounded, with a message
    /// that says to close them; closed and forgotten handles do not count.
    @Test("io.open keeps at most 256 files open at once")
    func openFilesAreBounded() throws {
        let suite = try TemporarySuite()
        try suite.write("data.txt", "x")
        let lua = try LuaState.forTests(root: suite.root)
        let results = try lua.run(
            source: """
                local held = {}
                for i = 1, 256 do held[i] = assert(io.open("data.txt")) end
                local refused, problem = io.open("data.txt")
                held[1]:close()
                local after_close = io.open("data.txt")
                held = nil
                local forgotten = 0
                for i = 1, 600 do local f = io.open("data.txt") if f then forgotten = forgotten + 1 end end
                return refused == nil, problem, after_close ~= nil, forgotten
                """, chunkName: "files.lua")
        #expect(results[0] == true)
        #expect(
            results[1].stringValue
                == "data.txt: too many files open at once (256, the sandbox's limit): close each file once it is read (file:close())")
        #expect(results[2] == true, "a closed file makes room")
        #expect(results[3] == 600, "handles no longer referenced are collected when the limit is met")
    }

    @Test("dofile and loadfile work only inside the root")
    func dofileConfined() throws {
        let suite = try TemporarySuite()
        try suite.write("lib/helper.lua", "return 40 + 2")
        let outside = try TemporarySuite()
        try outside.write("evil.lua", "return 'escaped'")
        let lua = try LuaState.forTests(root: suite.root)
        #expect(try lua.run(source: "return dofile('lib/helper.lua')", chunkName: "d.lua") == [42])
        let error = luaError { _ = try lua.run(source: "local v = dofile('\(outside.root.path)/evil.lua')", chunkName: "d.lua") }
        #expect(error?.kind == .runtime)
        #expect(error?.message.hasPrefix("d.lua:1: cannot open") == true)
        #expect(error?.message.contains("outside the sandbox") == true)
        let loaded = try lua.run(source: "return loadfile('/etc/hostname')", chunkName: "d.lua")
        #expect(loaded[0] == .nil)

        let rootless = try LuaState.forTests()
        let noRoot = luaError { _ = try rootless.run(source: "return dofile('lib/helper.lua')", chunkName: "d.lua") }
        #expect(noRoot?.message.contains("needs a sandbox root") == true)
    }

    @Test("require resolves support modules, caches them, names chunks after the path")
    func requireSupport() throws {
        let suite = try TemporarySuite()
        try suite.write(
            "support/helpers.lua",
            """
            local M = { loads = (LOADS or 0) + 1 }
            LOADS = M.loads
            function M.fail() error("helper failed") end
            return M
            """)
        try suite.write("support/flows/init.lua", "return { name = 'flows' }")
        let lua = try LuaState.forTests(root: suite.root)
        let results = try lua.run(
            source: """
                local h = require("helpers")
                local again = require("helpers")
                local _, err = pcall(h.fail)
                return h == again, LOADS, require("flows").name, err
                """, chunkName: "r.lua")
        #expect(results[0] == true)
        #expect(results[1] == 1)
        #expect(results[2] == "flows")
        // Chunks are named "@<root>/support/helpers.lua" (Lua shortens long names with "...").
        #expect(results[3].stringValue?.hasSuffix("/support/helpers.lua:3: helper failed") == true)
    }

    @Test("require fails clearly for modules outside support/")
    func requireOutside() throws {
        let suite = try TemporarySuite()
        try suite.write("secret.lua", "return 'top-level module'")
        let outside = try TemporarySuite()
        try outside.write("evil.lua", "return 'escaped'")
        try FileManager.default.createSymbolicLink(
            at: suite.root.appendingPathComponent("support/evil.lua"),
            withDestinationURL: outside.root.appendingPathComponent("evil.lua"))
        let lua = try LuaState.forTests(root: suite.root)
        let error = try #require(luaError { _ = try lua.run(source: "return require('secret')", chunkName: "r.lua") })
        #expect(error.kind == .runtime)
        #expect(error.message.hasPrefix("r.lua:1: module 'secret' not found:"))
        #expect(error.message.contains("support/secret.lua"))
        #expect(error.message.contains("support/secret/init.lua"))
        #expect(error.message.contains("require resolves modules only in"))
        let escaped = luaError { _ = try lua.run(source: "return require('evil')", chunkName: "r.lua") }
        #expect(escaped?.message.contains("outside the sandbox") == true)
        // The path given is under support/: the message says where the link leads.
        let resolved = try #require(realpath(outside.root.appendingPathComponent("evil.lua").path, nil))
        defer { free(resolved) }
        let target = String(cString: resolved)  // as C resolves it (Foundation's spelling can differ on macOS)
        #expect(
            escaped?.message.contains("support/evil.lua: it leads to \(target), outside the sandbox") == true,
            "\(escaped?.message ?? "")")
        let dotted = luaError { _ = try lua.run(source: "return require('..secret')", chunkName: "r.lua") }
        #expect(dotted?.message.contains("not found") == true)
        // A path out of support/ is said to be one, not read as a name of many slashes.
        let climbing = luaError { _ = try lua.run(source: "return require('../../etc/passwd')", chunkName: "r.lua") }
        #expect(climbing?.message.contains("module names cannot contain '..' or start with '/'") == true, "\(climbing?.message ?? "")")
        #expect(climbing?.message.contains("//") == false, "\(climbing?.message ?? "")")
    }

    @Test("finalizers cannot be installed by scripts")
    func noScriptFinalizers() throws {
        let lua = try LuaState.forTests()
        let error = luaError {
            _ = try lua.run(source: "setmetatable({}, { __gc = function() while true do end end })", chunkName: "gc.lua")
        }
        #expect(error?.message == "gc.lua:1: setmetatable: __gc metamethods are not allowed in the navscript sandbox")
        #expect(try lua.run(source: "return getmetatable(setmetatable({}, { __index = { a = 1 } })).__index.a", chunkName: "gc.lua") == [1])
    }

    @Test("a missing sandbox root is reported at creation")
    func missingRoot() {
        let error = luaError {
            _ = try LuaState.forTests(root: URL(fileURLWithPath: "/nonexistent/navscript-suite"))
        }
        #expect(error?.kind == .file)
        #expect(error?.message.contains("/nonexistent/navscript-suite") == true)
    }
}
