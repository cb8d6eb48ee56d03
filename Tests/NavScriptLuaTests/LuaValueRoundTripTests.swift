import Foundation
import TestSupport
import Testing

@testable import NavScriptLua

@Suite("Lua bridge: value round-trips")
struct LuaValueRoundTripTests {
    @Test("nil and booleans survive Lua → Swift → Lua")
    func nilAndBooleans() throws {
        let lua = try LuaState.forTests()
        lua.registerEcho()
        let results = try lua.run(source: "return echo(nil, true, false)", chunkName: "t.lua")
        #expect(results == [.nil, .boolean(true), .boolean(false)])
        let back = try lua.run(
            source: "local a, b, c = echo(nil, true, false) return a == nil, b == true, c == false, select('#', echo(nil, nil))",
            chunkName: "t.lua")
        #expect(back == [true, true, true, 2])
    }

    @Test("integers stay integers and floats stay floats (3 vs 3.0)")
    func integerVersusFloat() throws {
        let lua = try LuaState.forTests()
        lua.registerEcho()
        let results = try lua.run(source: "return 3, 3.0, -0.0, 2^53, 1/0", chunkName: "t.lua")
        #expect(results[0] == .integer(3))
        #expect(results[1] == .number(3.0))
        #expect(results[0] != results[1])
        #expect(results[2] == .number(-0.0))
        #expect(results[3] == .number(9007199254740992))
        #expect(results[4] == .number(.infinity))

        try lua.setGlobal("i", .integer(3))
        try lua.setGlobal("f", .number(3.0))
        let types = try lua.run(source: "local a, b = echo(i, f) return math.type(a), math.type(b), a == b", chunkName: "t.lua")
        #expect(types == ["integer", "float", true])
    }

    @Test("huge integers are exact in both directions")
    func hugeIntegers() throws {
        let lua = try LuaState.forTests()
        lua.registerEcho()
        let results = try lua.run(source: "return math.maxinteger, math.mininteger, 9007199254740993", chunkName: "t.lua")
        #expect(results == [.integer(.max), .integer(.min), .integer(9_007_199_254_740_993)])
        try lua.setGlobal("big", .integer(Int64.max - 1))
        let check = try lua.run(source: "local b = echo(big) return b == math.maxinteger - 1, math.type(b)", chunkName: "t.lua")
        #expect(check == [true, "integer"])
    }

    @Test(
        "a string's debugDescription is a Lua literal that reads back as the same bytes",
        arguments: [[0x01, 0x32], [0x00, 0x39, 0x39], [0xFF, 0x22, 0x5C, 0x0A, 0x0D, 0x09, 0x7F], Array("héllo \"x\"".utf8)])
    func debugDescriptionReadsBack(bytes: [UInt8]) throws {
        let lua = try LuaState.forTests()
        let original = LuaString(bytes: bytes)
        let results = try lua.run(source: "return " + original.debugDescription, chunkName: "t.lua")
        #expect(results == [.string(original)], "\(original.debugDescription)")
    }

    @Test("strings keep embedded zeros and invalid UTF-8")
    func rawStrings() throws {
        let lua = try LuaState.forTests()
        lua.registerEcho()
        let fromLua = try lua.run(source: #"return "a\0b", "\255\254x", "héllo""#, chunkName: "t.lua")
        #expect(fromLua[0].luaStringValue?.bytes == [0x61, 0x00, 0x62])
        #expect(fromLua[1].luaStringValue?.bytes == [0xFF, 0xFE, 0x78])
        #expect(fromLua[1].luaStringValue?.validUTF8 == nil)
        #expect(fromLua[1].stringValue == "\u{FFFD}\u{FFFD}x")
        #expect(fromLua[2].stringValue == "héllo")

        let raw = LuaString(bytes: [0x00, 0xC3, 0x28, 0x00, 0xFF])
        try lua.setGlobal("raw", .string(raw))
        let check = try lua.run(source: #"local s = echo(raw) return #s, s == "\0\195\40\0\255", s"#, chunkName: "t.lua")
        #expect(check[0] == 5)
        #expect(check[1] == true)
        #expect(check[2] == .string(raw))
    }

    @Test("nested and mixed tables convert to array and hash parts")
    func nestedAndMixedTables() throws {
        let lua = try LuaState.forTests()
        let results = try lua.run(
            source: """
                return { 1, "two", { 3, { 4 } }, x = { y = "z" }, [10] = true, [2.5] = "f", [-1] = 0 },
                       { 1, nil, 3 }, {}
                """, chunkName: "t.lua")
        let table = try #require(results[0].tableValue)
        #expect(table.array == [1, "two", [3, [4]]])
        #expect(table["x"]["y"] == "z")
        #expect(table[10] == true)
        #expect(table[.number(2.5)] == "f")
        #expect(table[-1] == 0)
        #expect(table.hash.count == 4)

        let holes = try #require(results[1].tableValue)
        #expect(holes.array == [1])
        #expect(holes[3] == 3)
        #expect(results[2] == .table(LuaTable()))
    }

    @Test("Swift tables reach Lua with the same shape, keys normalised like Lua")
    func swiftTablesToLua() throws {
        let lua = try LuaState.forTests()
        var table: LuaTable = ["a", "b"]
        table["name"] = "x"
        table[.number(3.0)] = "c"  // integral float key → integer 3, extends the array part
        table["nested"] = ["deep": [1, 2, 3]]
        #expect(table.array == ["a", "b", "c"])
        try lua.setGlobal("t", .table(table))
        let results = try lua.run(
            source: """
                return #t, t[3], math.type(next({[3.0] = 1})), t.name, #t.nested.deep, t.nested.deep[3]
                """, chunkName: "t.lua")
        #expect(results == [3, "c", "integer", "x", 3, 3])
        #expect(try lua.global("t") == .table(table))
    }

    @Test("LuaTable keeps Lua semantics for holes and nil assignment")
    func tableSemantics() {
        var table: LuaTable = [1, 2, 3, 4]
        table[2] = .nil
        #expect(table.array == [1])
        #expect(table[3] == 3 && table[4] == 4)
        table[2] = 2
        #expect(table.array == [1, 2, 3, 4])
        #expect(table.hash.isEmpty)
        table[.nil] = 1
        table[.number(.nan)] = 1
        #expect(table.count == 4 && table.hash.isEmpty)
        #expect(LuaTable(array: [1, .nil, 3]) == LuaTable(hash: [1: 1, 3: 3]))
        #expect(LuaValue.table(table).description == "{1, 2, 3, 4}")
    }

    @Test(
        "a hash part of a few keys or of many behaves the same: lookups, removal, order-free equality, round trip",
        arguments: [3, 8, 9, 40])
    func fewOrManyNamedKeys(count: Int) throws {
        var forward = LuaTable(), backward = LuaTable()
        for index in 0..<count { forward["k\(index)"] = .integer(Int64(index)) }
        for index in (0..<count).reversed() { backward["k\(index)"] = .integer(Int64(index)) }
        #expect(forward == backward, "equality does not depend on insertion order")
        #expect(forward.hashValue == backward.hashValue)
        #expect(forward.hash.count == count && forward["k\(count - 1)"] == .integer(Int64(count - 1)))
        forward["k0"] = .nil
        #expect(forward["k0"] == .nil && forward.hash.count == count - 1 && forward != backward)
        forward["k0"] = 0
        #expect(forward == backward)
        let lua = try LuaState.forTests()
        try lua.setGlobal("t", .table(forward))
        #expect(try lua.global("t") == .table(backward), "pushed and read back with every key")
        #expect(
            try lua.run(source: "local n = 0 for _ in pairs(t) do n = n + 1 end return n", chunkName: "n.lua")
                == [.integer(Int64(count))])
    }

    @Test("a cyclic table is refused with a clear conversion error")
    func cyclicTable() throws {
        let lua = try LuaState.forTests()
        let error = luaError { _ = try lua.run(source: "local t = {} t.self = t return t", chunkName: "t.lua") }
        #expect(error?.kind == .conversion)
        #expect(error?.message.contains("cyclic") == true)
        // A shared (non-cyclic) subtable is fine.
        let shared = try lua.run(source: "local s = {1} return {s, s}", chunkName: "t.lua")
        #expect(shared == [[[1], [1]]])
    }

    /// A sub-table shared at every level is copied once per appearance:
    /// forty levels of `{ a = t, b = t }` are 2⁴⁰ copies, work the
    /// instruction budget does not see. The copy stops at a bound, quickly,
    /// and an error value that large is named rather than rendered.
    @Test func sharedSubTablesAreCopiedWithinABound() throws {
        let lua = try LuaState.forTests()
        let dag = "local t = { 'x' } for i = 1, 40 do t = { a = t, b = t } end "
        let error = luaError { _ = try lua.run(source: dag + "return t", chunkName: "t.lua") }
        #expect(error?.kind == .conversion)
        #expect(error?.message.contains("table of more than 100000 values or 64 MiB of text, counting a shared") == true)
        let raised = luaError { _ = try lua.run(source: dag + "error(t)", chunkName: "t.lua") }
        let words = "the script raised a value that cannot be shown: a table of more than"
        #expect(raised?.message.contains(words) == true, "\(raised?.message ?? "")")
        // Distinct tables are copied however many; one string in many slots counts each time.
        let many = try lua.run(source: "local t = {} for i = 1, 150000 do t[i] = { i } end return t", chunkName: "t.lua")
        #expect(many.first?.tableValue?.array.count == 150_000)
        let text = luaError {
            _ = try lua.run(source: "local s = ('x'):rep(1 << 20) local t = {} for i = 1, 300 do t[i] = s end return t", chunkName: "t.lua")
        }
        #expect(text?.message.contains("or 64 MiB of text") == true, "\(text?.message ?? "")")
        // Below the bound, shared sub-tables are copied as before.
        let small = try lua.run(source: "local t = { 'x' } for i = 1, 10 do t = { a = t, b = t } end return t", chunkName: "t.lua")
        #expect(small.first?.tableValue?["a"].tableValue?["b"].tableValue != nil)
    }

    @Test("cycles are found at any depth, past the levels kept on the stack", arguments: [3, 15, 16, 17, 40])
    func deepCycles(depth: Int) throws {
        let lua = try LuaState.forTests()
        // A chain `depth` tables deep whose innermost table points back at level `depth / 2 + 1`.
        let cyclic = luaError {
            _ = try lua.run(
                source: """
                    local root = {} local t, mid = root, nil
                    for i = 2, \(depth) do local n = {} t[1] = n t = n if i == \(depth / 2 + 1) then mid = n end end
                    t.back = mid or root
                    return root
                    """, chunkName: "t.lua")
        }
        #expect(cyclic?.kind == .conversion && cyclic?.message.contains("cyclic") == true, "depth \(depth)")
        // The same chain without the back edge, and a table met again after leaving it, read fine.
        let chain = try lua.run(
            source: """
                local root = {} local t = root for i = 2, \(depth) do local n = {} t[1] = n t = n end
                local s = {} return { root, s, { s } }
                """, chunkName: "t.lua")
        var levels = 0
        var value = chain.first?.tableValue?[1] ?? .nil
        while case .table(let table) = value { levels += 1; value = table[1] }
        #expect(levels == depth)
    }

    @Test("too deep nesting is refused in both directions")
    func tooDeep() throws {
        let lua = try LuaState.forTests()
        let error = luaError {
            _ = try lua.run(source: "local t = {} for i = 1, 500 do t = {t} end return t", chunkName: "t.lua")
        }
        #expect(error?.kind == .conversion)
        #expect(error?.message.contains("deeper") == true)

        var deep = LuaValue.table(LuaTable())
        for _ in 0..<500 { deep = .table(LuaTable(array: [deep])) }
        let setError = luaError { try lua.setGlobal("deep", deep) }
        #expect(setError?.kind == .conversion)
        #expect(try lua.run(source: "return 1 + 1", chunkName: "t.lua") == [2])
    }

    @Test("functions pass from Lua to Swift and are called back")
    func functionsRoundTrip() throws {
        let lua = try LuaState.forTests()
        let results = try lua.run(source: "return function(a, b) return a + b, a .. b end", chunkName: "t.lua")
        let add = try #require(results.first?.functionValue)
        #expect(try lua.call(add, [1, 2]) == [3, "12"])

        // A callback receiving a function and calling it back, nested.
        lua.register("apply") { call in
            let function = try call.function(1)
            return .values(try call.state.call(function, Array(call.arguments.dropFirst())))
        }
        let applied = try lua.run(source: "return apply(function(x) return x * 10 end, 4)", chunkName: "t.lua")
        #expect(applied == [40])

        // A Lua function handed back to Lua is the same function.
        try lua.setGlobal("f", .function(add))
        #expect(try lua.run(source: "return f(20, 22)", chunkName: "t.lua") == [42, "2022"])
        let same = try lua.run(source: "return f", chunkName: "t.lua")
        #expect(same == [.function(add)])
    }

    @Test("a LuaFunction releases its registry reference on deinit")
    func functionReferenceReleased() throws {
        let lua = try LuaState.forTests()
        let released = Flag()
        try lua.setGlobal("host", .hostObject(Tracked { released.set() }))
        var function: LuaFunction? = try lua.run(
            source: "local h = host host = nil return function() return h end", chunkName: "t.lua"
        ).first?.functionValue
        lua.collectGarbage()
        #expect(!released.value, "the function still references the host object")
        #expect(try lua.call(try #require(function)).first?.hostObjectValue != nil)
        function = nil
        lua.collectGarbage()
        #expect(released.value, "the registry ref was released, so the closure and its host object were collected")
    }

    @Test("coroutines and other values keep their identity across the bridge")
    func otherValues() throws {
        let lua = try LuaState.forTests()
        lua.registerEcho()
        let results = try lua.run(
            source: "local co = coroutine.create(function() end) return co, echo(co) == co, io.stdout", chunkName: "t.lua")
        #expect(results[0].typeName == "thread")
        #expect(results[1] == true)
        #expect(results[2].typeName == "userdata")
        try lua.setGlobal("co", results[0])
        #expect(try lua.run(source: "return coroutine.status(co)", chunkName: "t.lua") == ["suspended"])
    }
}
