import Foundation
import TestSupport
import Testing

@testable import NavScriptLua

@Suite("Lua bridge: errors")
struct LuaErrorTests {
    @Test("runtime errors carry chunkname:line and a full traceback")
    func runtimeError() throws {
        let lua = try LuaState.forTests()
        let error = try #require(
            luaError {
                _ = try lua.run(source: "local x = 1\nlocal function f()\n  return nil + x\nend\nf()", chunkName: "scenarios/cart.lua")
            })
        #expect(error.kind == .runtime)
        #expect(error.message == "scenarios/cart.lua:3: attempt to perform arithmetic on a nil value")
        let traceback = try #require(error.traceback)
        #expect(traceback.hasPrefix("stack traceback:"))
        #expect(traceback.contains("scenarios/cart.lua:3: in local 'f'"))
        #expect(traceback.contains("scenarios/cart.lua:5: in main chunk"))
        #expect(error.value == .string(LuaString(error.message)))
    }

    @Test("syntax errors are .syntax with position, from load and run")
    func syntaxError() throws {
        let lua = try LuaState.forTests()
        let error = try #require(luaError { _ = try lua.load(source: "local x = = 1", chunkName: "bad.lua") })
        #expect(error.kind == .syntax)
        #expect(error.message == "bad.lua:1: unexpected symbol near '='")
        #expect(error.traceback == nil)
        let fromRun = luaError { _ = try lua.run(source: "\n\nif then", chunkName: "=(inline)") }
        #expect(fromRun?.kind == .syntax)
        #expect(fromRun?.message.hasPrefix("(inline):3:") == true)
    }

    /// A host raises its own objects and tells them by identity; scripts
    /// read them through the host's describe and field functions.
    @Test("a host object raised as an error keeps its identity and reads as the host says")
    func hostObjectErrors() throws {
        final class Raised: CustomStringConvertible {
            var description: String { "raised by the host" }
        }
        let lua = try LuaState.forTests()
        let raised = Raised()
        lua.register("raise") { _ in .error(.hostObject(raised), addPosition: false) }
        lua.readHostObjects(
            describe: { "described: \(type(of: $0))" },
            field: { object, key in key == "kind" && object is Raised ? .string("raised") : .nil })
        let error = try #require(luaError { _ = try lua.run(source: "raise()", chunkName: "r.lua") })
        #expect(error.errorObject == ObjectIdentifier(raised))
        #expect(error.message == "raised by the host", "the object's own words, not its placeholder")
        let read = try lua.run(
            source: "local ok, e = pcall(raise) return ok, type(e), tostring(e), e.kind, e.other",
            chunkName: "read.lua")
        #expect(read == [.boolean(false), .string("userdata"), .string("described: Raised"), .string("raised"), .nil])
        let plain = try #require(luaError { _ = try lua.run(source: "error({ message = 'x' })", chunkName: "t.lua") })
        #expect(plain.errorObject == nil, "only a host object has an identity to tell")
    }

    @Test("error(value) with non-string values")
    func nonStringErrors() throws {
        let lua = try LuaState.forTests()
        let table = luaError { _ = try lua.run(source: "error({code = 42})", chunkName: "e.lua") }
        #expect(table?.message == "e.lua:1: (error object is a table: {code = 42})", "its place and contents, not only its type")
        #expect(table?.value["code"] == 42)
        // Its own __tostring is what its author wrote for it; the value stays the table.
        let described = luaError {
            _ = try lua.run(
                source: "error(setmetatable({code = 7}, {__tostring = function(t) return 'custom ' .. t.code end}))",
                chunkName: "e.lua")
        }
        #expect(described?.message == "custom 7")
        #expect(described?.value["code"] == 7)
        let failing = luaError {
            _ = try lua.run(source: "error(setmetatable({code = 8}, {__tostring = function() error('no') end}))", chunkName: "e.lua")
        }
        #expect(failing?.message == "e.lua:1: (error object is a table: {code = 8})", "a __tostring that fails leaves the contents")
        let none = luaError { _ = try lua.run(source: "local function f()\n  error(nil)\nend\nf()", chunkName: "e.lua") }
        #expect(none?.message == "e.lua:2: (error object is a nil value)", "placed at the script's frame, not error's own")
        let withFunction = luaError { _ = try lua.run(source: "error({f = print, message = 'm'})", chunkName: "e.lua") }
        #expect(withFunction?.message == "m")
        #expect(withFunction?.value["f"] == "<function>", "error values are data only")
        let number = luaError { _ = try lua.run(source: "error(7)", chunkName: "e.lua") }
        #expect(number?.message == "7")
        let level0 = luaError { _ = try lua.run(source: "error('no position', 0)", chunkName: "e.lua") }
        #expect(level0?.message == "no position")
    }

    @Test("a traceback's first frame of the script")
    func firstScriptPlace() {
        #expect(
            LuaState.firstScriptPlace(in: "stack traceback:\n\t[C]: in global 'error'\n\tsuite/a b.lua:12: in function <suite/a b.lua:10>")
                == "suite/a b.lua:12")
        #expect(LuaState.firstScriptPlace(in: "stack traceback:\n\t[C]: in ?") == nil)
    }

    @Test("runFile names the chunk after the path and refuses missing files with .file")
    func fileErrors() throws {
        let lua = try LuaState.forTests()
        let suite = try TemporarySuite()
        let file = try suite.write("a.lua", "#!/usr/bin/env lua\nlocal t = {}\nreturn t.x.y")
        let error = luaError { _ = try lua.runFile(at: file, chunkName: "suite/a.lua") }
        #expect(error?.kind == .runtime)
        #expect(error?.message == "suite/a.lua:3: attempt to index a nil value (field 'x')", "line 3: the #! line is skipped but counted")
        // By default the chunk is named after the path (Lua shortens long names with "...").
        let byPath = luaError { _ = try lua.runFile(at: file) }
        #expect(byPath?.message.hasSuffix("/a.lua:3: attempt to index a nil value (field 'x')") == true)
        let missing = luaError { _ = try lua.runFile(at: suite.root.appendingPathComponent("nope.lua")) }
        #expect(missing?.kind == .file)
        #expect(missing?.message.contains("nope.lua") == true)
    }

    @Test("runFile reads a file as luaL_loadfile does: a BOM and a first '#' line are skipped, long files whole")
    func fileReading() throws {
        let lua = try LuaState.forTests()
        let suite = try TemporarySuite()
        func run(_ name: String, _ bytes: [UInt8]) throws -> [LuaValue] {
            let url = suite.root.appendingPathComponent(name)
            try Data(bytes).write(to: url)
            return try lua.runFile(at: url, chunkName: name)
        }
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        #expect(try run("bom.lua", bom + Array("return 'after a BOM'".utf8)) == ["after a BOM"])
        let hashAfterBOM = luaError { _ = try run("bomhash.lua", bom + Array("#!/usr/bin/env lua\nerror('here')".utf8)) }
        #expect(hashAfterBOM?.message == "bomhash.lua:2: here", "the '#' line after a BOM is skipped but counted")
        #expect(try run("empty.lua", []) == [])
        #expect(try run("onlybom.lua", bom) == [])
        #expect(try run("hashonly.lua", Array("# nothing else".utf8)) == [])
        // Not a BOM: a file starting with byte 0xEF is handed to Lua whole (and refused as text).
        let notBOM = luaError { _ = try run("ef.lua", [0xEF, 0x41, 0x42]) }
        #expect(notBOM?.kind == .syntax)
        // Longer than one read (4 KiB): every byte reaches the parser, lines counted across reads.
        let filler = String(repeating: "local x = 1 -- padding padding padding padding\n", count: 200)
        let long = luaError { _ = try run("long.lua", Array((filler + "error('line 201')").utf8)) }
        #expect(long?.message == "long.lua:201: line 201")
        // A directory opens but cannot be read.
        let directory = luaError { _ = try lua.runFile(at: suite.root, chunkName: "dir") }
        #expect(directory?.kind == .file)
        #expect(directory?.message.hasPrefix("cannot read dir") == true, "\(directory?.message ?? "")")
    }

    @Test("stack overflow is a runtime error and the state stays usable")
    func stackOverflow() throws {
        let lua = try LuaState.forTests(budget: nil, memory: nil)
        let error = luaError { _ = try lua.run(source: "local function f() return 1 + f() end return f()", chunkName: "so.lua") }
        #expect(error?.kind == .runtime)
        #expect(error?.message.contains("stack overflow") == true)
        #expect(try lua.run(source: "return 'ok'", chunkName: "so.lua") == ["ok"])
    }

    @Test("an error is a copy: it outlives its state")
    func errorOutlivesState() throws {
        var lua: LuaState? = try LuaState.forTests()
        let error = luaError { _ = try lua?.run(source: "error({detail = 'kept'})", chunkName: "x.lua") }
        lua = nil
        #expect(error?.value["detail"] == "kept")
    }

    @Test("globals are read and written raw, bypassing _G metamethods")
    func globals() throws {
        let lua = try LuaState.forTests()
        _ = try lua.run(
            source: "setmetatable(_G, { __index = function() error('strict') end, __newindex = function() error('strict') end })",
            chunkName: "g.lua")
        #expect(try lua.global("missing") == .nil)
        try lua.setGlobal("answer", 42)
        #expect(try lua.global("answer") == 42)
        #expect(try lua.run(source: "return answer", chunkName: "g.lua") == [42])
    }
}
