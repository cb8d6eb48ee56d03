import Foundation
import TestSupport
import Testing

@testable import NavScriptLua

/// A scenario's `--timeout` reaches into Lua: code that runs past it is
/// stopped at its line by the hook — whatever the instruction budget, and
/// whatever a `pcall` or a coroutine does with the error — so a hang in a
/// scenario's own loop is named where it is, in process too.
@Suite("Lua bridge: time limit")
struct LuaTimeLimitTests {
    @Test("a loop past the time limit stops at its line, not at the budget")
    func loopStopsAtItsLine() throws {
        let lua = try LuaState.forTests(budget: nil)
        lua.resetLimits(timeout: 0.2)
        let error = try #require(luaError { _ = try lua.run(source: "local n = 0\nwhile true do n = n + 1 end", chunkName: "loop.lua") })
        #expect(error.kind == .timeout)
        #expect(
            error.message == "loop.lua:2: timeout: ran longer than 0.2s (--timeout) in its own Lua code",
            "\(error.message)")
    }

    @Test(
        "a pcall or a coroutine cannot keep the scenario going past it",
        arguments: [
            "pcall(function() while true do end end) return 1",
            "coroutine.resume(coroutine.create(function() while true do end end)) return 1",
            "while true do pcall(function() while true do end end) end"
        ])
    func caughtStillStops(_ source: String) throws {
        let lua = try LuaState.forTests(budget: nil)
        lua.resetLimits(timeout: 0.1)
        let outcome = Result { try lua.run(source: source, chunkName: "caught.lua") }
        // Either it raised again at the next instruction, or the script returned and the caller asks.
        let error: LuaError? =
            switch outcome {
            case .failure(let error): error as? LuaError
            case .success: lua.caughtTimeout()
            }
        #expect(error?.kind == .timeout, "\(String(describing: error))")
        #expect(lua.caughtLimitError()?.kind == .timeout)
    }

    @Test("a reset without a time limit clears it, and one with a fresh limit starts again")
    func resetClears() throws {
        let lua = try LuaState.forTests(budget: nil)
        lua.resetLimits(timeout: 0.05)
        _ = luaError { _ = try lua.run(source: "while true do end", chunkName: "a.lua") }
        #expect(lua.caughtTimeout() != nil)
        lua.resetLimits()
        #expect(lua.caughtTimeout() == nil)
        usleep(100_000)
        #expect(try lua.run(source: "local s = 0 for i = 1, 100000 do s = s + i end return s", chunkName: "b.lua") == [5_000_050_000])
        lua.resetLimits(timeout: 30)
        lua.clearTimeLimit()
        #expect(try lua.run(source: "return 1", chunkName: "c.lua") == [1])
    }
}
