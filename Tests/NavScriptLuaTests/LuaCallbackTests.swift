import Foundation
import TestSupport
import Testing

@testable import NavScriptLua

@Suite("Lua bridge: Swift callbacks")
struct LuaCallbackTests {
    @Test("an error returned by a Swift callback is caught by pcall, with the caller's position")
    func errorCaughtByPcall() throws {
        let lua = try LuaState.forTests()
        lua.register("fail") { call in .error("boom: \(try call.string(1))") }
        let results = try lua.run(
            source: """
                local ok, err = pcall(function()
                  fail("now")
                end)
                return ok, err, "still running"
                """, chunkName: "cb.lua")
        #expect(results == [false, "cb.lua:2: boom: now", "still running"])
    }

    @Test("argument checks use Lua's standard wording")
    func argumentMessages() throws {
        let lua = try LuaState.forTests()
        lua.register("tap") { call in
            _ = try call.string(1)
            _ = try call.optionalTable(2)
            return .noValues
        }
        lua.register("count") { call in .value(.integer(Int64(try call.integer(1)))) }
        let results = try lua.run(
            source: """
                local _, a = pcall(function() tap() end)
                local _, b = pcall(function() tap(nil) end)
                local _, c = pcall(function() tap("x", 5) end)
                local _, d = pcall(function() count(1.5) end)
                local ok = pcall(tap, 12)
                return a, b, c, d, ok, count(2.0)
                """, chunkName: "args.lua")
        #expect(
            results == [
                "args.lua:1: bad argument #1 to 'tap' (string expected, got no value)",
                "args.lua:2: bad argument #1 to 'tap' (string expected, got nil)",
                "args.lua:3: bad argument #2 to 'tap' (table expected, got number)",
                "args.lua:4: bad argument #1 to 'count' (number has no integer representation)",
                true,  // numbers are accepted where strings are expected, as in luaL_checkstring
                2
            ])
    }

    @Test("an uncaught callback error reaches Swift as a runtime LuaError with position and traceback")
    func uncaughtCallbackError() throws {
        let lua = try LuaState.forTests()
        struct Broken: Error, CustomStringConvertible { var description: String { "the core refused" } }
        lua.register("step") { _ in throw Broken() }
        let error = try #require(
            luaError {
                _ = try lua.run(source: "local function go()\n  step()\nend\ngo()", chunkName: "scenario.lua")
            })
        #expect(error.kind == .runtime)
        #expect(error.message == "scenario.lua:2: the core refused")
        let traceback = try #require(error.traceback)
        #expect(traceback.hasPrefix("stack traceback:"))
        #expect(traceback.contains("in function 'step'"))
        #expect(traceback.contains("scenario.lua:2: in local 'go'"))
        #expect(traceback.contains("scenario.lua:4: in main chunk"))
        #expect(error.description.contains(traceback))
    }

    @Test("a structured (table) error value survives to Lua's pcall and to Swift")
    func structuredError() throws {
        let lua = try LuaState.forTests()
        lua.register("expect_screen") { call in
            let failure: LuaTable = [
                "kind": "expectation", "message": "expected screen 'cart'",
                "expected": "cart", "actual": .string(LuaString(try call.string(1))),
                "line": .integer(Int64(call.callerLocation?.line ?? 0))
            ]
            return .error(.table(failure))
        }
        let inLua = try lua.run(
            source: """
                local ok, e = pcall(expect_screen, "home")
                return type(e), e.kind, e.actual
                """, chunkName: "s.lua")
        #expect(inLua == ["table", "expectation", "home"])

        let error = try #require(
            luaError {
                _ = try lua.run(source: "\n\nexpect_screen('home')", chunkName: "s.lua")
            })
        #expect(error.kind == .runtime)
        #expect(error.message == "expected screen 'cart'")
        #expect(error.value["kind"] == "expectation")
        #expect(error.value["actual"] == "home")
        #expect(error.value["line"] == 3)
        #expect(error.traceback != nil)
    }

    @Test("addPosition: false raises the string unchanged")
    func noPosition() throws {
        let lua = try LuaState.forTests()
        lua.register("raw") { _ in .error("plain message", addPosition: false) }
        let results = try lua.run(source: "return select(2, pcall(function() raw() end))", chunkName: "p.lua")
        #expect(results == ["plain message"])
    }

    @Test("the caller's location stack lists Lua frames innermost first")
    func callerLocations() throws {
        let lua = try LuaState.forTests()
        let suite = try TemporarySuite()
        var seen: [LuaSourceLocation] = []
        lua.register("where") { call in
            seen = call.callerLocations
            return .noValues
        }
        let file = try suite.write(
            "flow.lua",
            """
            local function helper()
              where()
            end
            pcall(function()
              helper()
            end)
            """)
        _ = try lua.runFile(at: file)
        let path = file.path
        #expect(
            seen == [
                LuaSourceLocation(source: path, line: 2),
                LuaSourceLocation(source: path, line: 5),
                LuaSourceLocation(source: path, line: 4)
            ])
        #expect(seen.first?.description == "\(path):2")
    }

    @Test("the caller-line function names the running file's line, through helpers and skipped chunks")
    func callerLine() throws {
        let lua = try LuaState.forTests()
        try lua.setGlobal("line", .function(lua.makeCallerLineFunction(skipping: ["=dsl"])))
        // A DSL chunk (skipped) and a helper chunk (another file) between the call and the file.
        _ = try lua.run(source: "function declare() return line() end", chunkName: "=dsl")
        _ = try lua.run(source: "function helper()\n  return declare()\nend", chunkName: "support/helper.lua")
        let fromFile = try lua.run(source: "local a = 1\nreturn declare(), helper()", chunkName: "suite/a.lua")
        #expect(fromFile == [2, 2], "the file's own line, also when its helper made the call")
        // Called from a chunk the DSL skips only: no line.
        #expect(try lua.run(source: "return line()", chunkName: "=dsl") == [0])
    }

    @Test("a call a callback keeps stays intact after later calls and nested calls")
    func keptCallsKeepTheirArgumentsAndLocations() throws {
        let lua = try LuaState.forTests()
        var kept: [LuaCall] = []
        lua.register("keep") { call in
            kept.append(call)
            return .noValues
        }
        lua.register("nest") { call in
            kept.append(call)
            _ = try call.state.run(source: "keep('inner', 3)", chunkName: "inner.lua")
            return .noValues
        }
        _ = try lua.run(source: "keep('first', 1)\nnest('outer', 2)\nkeep('last', {4})", chunkName: "calls.lua")
        #expect(kept.map(\.arguments) == [["first", 1], ["outer", 2], ["inner", 3], ["last", .table([4])]])
        #expect(kept.map { $0.callerLocation?.description } == ["calls.lua:1", "calls.lua:2", "inner.lua:1", "calls.lua:3"])
    }

    @Test("a callback error inside a nested call back into Lua propagates outward")
    func nestedErrors() throws {
        let lua = try LuaState.forTests()
        lua.register("run_body") { call in
            .values(try call.state.call(try call.function(1)))
        }
        let error = try #require(
            luaError {
                _ = try lua.run(source: "run_body(function()\n  error('inner failure')\nend)", chunkName: "n.lua")
            })
        #expect(error.kind == .runtime)
        #expect(error.message == "n.lua:2: inner failure")
        // And pcall in Lua can still catch it.
        let caught = try lua.run(source: "return pcall(run_body, function() error({code = 7}) end)", chunkName: "n.lua")
        #expect(caught[0] == false)
        #expect(caught[1]["code"] == 7)
    }

    @Test("callbacks work from inside coroutines")
    func coroutines() throws {
        let lua = try LuaState.forTests()
        lua.register("double") { call in .value(.integer(Int64(try call.integer(1) * 2))) }
        lua.register("fail") { _ in .error("from coroutine") }
        let results = try lua.run(
            source: """
                local co = coroutine.wrap(function(x)
                  local y = coroutine.yield(double(x))
                  return double(y)
                end)
                local a = co(5)
                local b = co(7)
                local ok, err = coroutine.resume(coroutine.create(function() fail() end))
                return a, b, ok, err
                """, chunkName: "co.lua")
        #expect(results == [10, 14, false, "co.lua:7: from coroutine"])
    }

    @Test("modules of Swift functions, as a global or through require")
    func modules() throws {
        let lua = try LuaState.forTests()
        let module = lua.makeTable(
            of: [
                "add": { call in .value(.integer(Int64(try call.integer(1) + call.integer(2)))) },
                "name": { _ in .value("app") }
            ], prefix: "app")
        try lua.setGlobal("app", .table(module))
        try lua.setLoadedModule("navscript.app", .table(module))
        let results = try lua.run(
            source: """
                local m = require("navscript.app")
                local _, err = pcall(m.add, "x")
                return app.add(2, 3), m.name(), err
                """, chunkName: "m.lua")
        #expect(results == [5, "app", "bad argument #1 to 'app.add' (number expected, got string)"])
    }

    @Test("a function's captured Swift objects are released when Lua drops the function")
    func callbackContextReleased() throws {
        let lua = try LuaState.forTests()
        let released = Flag()
        do {
            let context = Tracked { released.set() }
            try lua.setGlobal("ctx", .function(lua.makeFunction("ctx") { _ in .value(.string(LuaString(context.name))) }))
        }
        #expect(try lua.run(source: "return ctx()", chunkName: "c.lua") == ["tracked"])
        lua.collectGarbage()
        #expect(!released.value)
        _ = try lua.run(source: "ctx = nil", chunkName: "c.lua")
        lua.collectGarbage()
        #expect(released.count == 1)
    }

    @Test("a registered global's Swift context lives as long as the state, then is released once")
    func registeredContextReleasedWithTheState() throws {
        let released = Flag()
        do {
            let lua = try LuaState.forTests()
            do {
                let context = Tracked { released.set() }
                lua.register("ctx") { _ in .value(.string(LuaString(context.name))) }
            }
            #expect(try lua.run(source: "local f = ctx; ctx = nil; return f()", chunkName: "c.lua") == ["tracked"])
            lua.collectGarbage()
            #expect(!released.value, "still callable through any reference while the state lives")
        }
        #expect(released.count == 1)
    }
}
