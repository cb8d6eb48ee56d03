import Foundation
import TestSupport
import Testing

@testable import NavScriptLua

@Suite("Lua bridge: instruction budget and memory cap")
struct LuaLimitTests {
    @Test("while true do end stops with the budget error, and the state is usable after a reset")
    func endlessLoop() throws {
        let lua = try LuaState.forTests(budget: 1_000_000)
        let error = try #require(luaError { _ = try lua.run(source: "local n = 0\nwhile true do n = n + 1 end", chunkName: "loop.lua") })
        #expect(error.kind == .budget)
        #expect(error.message.hasPrefix("loop.lua:2: instruction budget exceeded (1000000 instructions)"))
        // What a script that catches it reads: what happened, not the host's Swift API.
        #expect(error.message.hasSuffix("instructions): the script may loop forever"), "\(error.message)")
        #expect(error.traceback != nil)
        #expect(lua.isInstructionBudgetExhausted)

        // Exhausted budgets stay exhausted until reset…
        #expect(luaError { _ = try lua.run(source: "for i = 1, 10000 do end", chunkName: "after.lua") }?.kind == .budget)
        // …and a reset gives a fresh one.
        lua.resetLimits()
        #expect(try lua.run(source: "local s = 0 for i = 1, 1000 do s = s + i end return s", chunkName: "after.lua") == [500500])
        #expect(lua.instructionsUsed < 1_000_000)
    }

    @Test(
        "the script's own pcall cannot swallow the budget error",
        arguments: [
            "while true do pcall(function() while true do end end) end",
            "while true do local ok, e = pcall(error, 'x') end",
            "while true do xpcall(function() while true do end end, function(e) while true do end end) end",
            "while true do xpcall(error, function(e) while true do end end) end",
            "while true do coroutine.resume(coroutine.create(function() while true do end end)) end",
            "local function f() return pcall(f) end while true do f() end",
            "while true do pcall(pcall, pcall, function() while true do end end) end"
        ])
    func pcallCannotSwallow(_ source: String) throws {
        let lua = try LuaState.forTests(budget: 200_000)
        let error = luaError { _ = try lua.run(source: source, chunkName: "swallow.lua") }
        #expect(error?.kind == .budget)
        #expect(error?.message.contains("instruction budget exceeded (200000 instructions)") == true)
    }

    @Test("a memory error the script's pcall caught is still there to report, once, until a reset")
    func pcallCannotHideTheMemoryLimit() throws {
        let lua = try LuaState.forTests(budget: nil, memory: 4_000_000)
        let results = try lua.run(
            source: """
                local ok, e = pcall(function() local t = {} for i = 1, 1e9 do t[i] = string.rep("x", 1000) .. i end end)
                return ok, e
                """, chunkName: "caught.lua")
        #expect(results == [false, "not enough memory"], "the script saw it and went on")
        let caught = try #require(lua.caughtMemoryError(), "the runner sees it all the same")
        #expect(caught.kind == .memory && caught.message.contains("memory limit exceeded (4000000 bytes)"), "\(caught.message)")
        #expect(caught.message.hasPrefix("caught.lua:1: "), "where the cap refused: \(caught.message)")
        #expect(lua.caughtMemoryError() == nil, "reported once")
        let again = "pcall(function() local t = {} for i = 1, 1e9 do t[i] = {} end end)"
        _ = try lua.run(source: again, chunkName: "again.lua")
        #expect(lua.caughtMemoryError() != nil, "caught again")
        _ = try lua.run(source: again, chunkName: "again.lua")
        lua.resetLimits()
        #expect(lua.caughtMemoryError() == nil, "a reset clears it")
    }

    @Test("a refusal Lua recovers from by collecting garbage is no error at all")
    func aRecoveredRefusalIsNoError() throws {
        let lua = try LuaState.forTests(budget: nil, memory: 2_000_000)
        // Garbage only: when the cap refuses, Lua's emergency collection frees enough and the retry fits.
        let results = try lua.run(
            source: """
                local n = 0
                for i = 1, 100 do local s = string.rep("x", 600000) .. i n = n + #s end
                return n > 0
                """, chunkName: "garbage.lua")
        #expect(results == [true])
        #expect(lua.memoryLimitWasReached, "the cap did refuse (else this tests nothing)")
        #expect(lua.caughtMemoryError() == nil)
    }

    @Test("the budget also stops a loop running inside a Swift callback's call back into Lua")
    func budgetThroughCallbacks() throws {
        let lua = try LuaState.forTests(budget: 200_000)
        lua.register("run_body") { call in .values(try call.state.call(try call.function(1))) }
        let error = luaError {
            _ = try lua.run(source: "while true do pcall(run_body, function() while true do end end) end", chunkName: "cb.lua")
        }
        #expect(error?.kind == .budget)
    }

    /// Work a library function does inside one C call, where the count hook
    /// never fires, is counted too: a backtracking pattern, a huge
    /// `table.move`, a `string.rep` of nothing — each used to run until
    /// `--timeout` (or forever in process), whatever the budget.
    @Test(
        "the budget stops runaway work inside one library call, and a pcall cannot go on after it",
        arguments: [
            ("pcall(string.find, ('a'):rep(30), ('a*'):rep(30) .. 'b') return 'went on'", "a pattern match"),
            ("local s = ('a'):rep(3000) s:gsub('a-a-a-a-b', '') return 'went on'", "a pattern match"),
            ("for x in ('a'):rep(40):gmatch(('a?'):rep(40) .. 'b') do end return 'went on'", "a pattern match"),
            ("return (('a'):rep(30)):match(('a*'):rep(30) .. 'b')", "a pattern match"),
            ("pcall(table.move, {}, 1, 1e12, 2) return 'went on'", "table.move"),
            // A short loop doing big work per instruction or call.
            ("for i = 1, 1e6 do local s = string.rep('x', 1e6) end", "copying large strings or tables over and over"),
            ("local big = ('x'):rep(1e6) for i = 1, 1e6 do local s = big .. 'a' end", "copying large strings or tables over and over"),
            ("local t = {} for i = 1, 1e5 do t[i] = -i end for i = 1, 1e4 do table.sort(t) end", "table.sort"),
            ("local t = {} for i = 1, 1e5 do t[i] = i end for i = 1, 1e6 do table.insert(t, 1, i) end", "shifting a table's elements"),
            ("local s = ('x'):rep(1e6) for i = 1, 1e6 do s:find('y', 1, true) end", "a plain search"),
            ("local s = ('x'):rep(1e6) for i = 1, 1e6 do utf8.len(s) end", "scanning a long string"),
            ("local s = (' '):rep(1e6) .. '1' for i = 1, 1e6 do tonumber(s) end", "scanning a long string"),
            ("local t = {} for i = 1, 1e5 do t[i] = i end for i = 1, 1e6 do local a = table.unpack(t) end", "table.unpack"),
            (
                "local t = {} for i = 1, 1e5 do t[i] = { i } end for i = 1, 1e6 do collectgarbage('collect') end",
                "collectgarbage(\"collect\")"
            )
        ])
    func libraryWorkIsBudgeted(_ source: String, spentBy: String) throws {
        let lua = try LuaState.forTests(budget: 5_000_000)
        let error = try #require(luaError { _ = try lua.run(source: source, chunkName: "work.lua") })
        #expect(error.kind == .budget && error.budgetSpentBy == spentBy, "\(error)")
        #expect(error.message.hasPrefix("work.lua:1: instruction budget exceeded (5000000 instructions), spent by \(spentBy)"), "\(error)")
    }

    /// What a Swift function does for its call — copying its arguments (a
    /// long string passed again and again, a table sharing one), or work it
    /// says it did — counts against the budget once it has returned: a loop
    /// of a few instructions whose calls each copy megabytes is stopped.
    @Test("a Swift function's work for its call counts against the budget")
    func swiftWorkIsCharged() throws {
        let lua = try LuaState.forTests(budget: 2_000_000, memory: 64 * 1024 * 1024)
        lua.register("sink") { _ in .noValues }
        lua.register("scan") { call in
            call.state.charge(work: 100_000)
            return .noValues
        }
        for source in [
            "local s = ('x'):rep(1e6) for i = 1, 1000 do sink(s, s, s) end",
            "local s = ('x'):rep(1e6) local t = {} for i = 1, 50 do t[i] = s end for i = 1, 1000 do sink(t) end",
            "for i = 1, 1000 do scan() end"
        ] {
            lua.resetLimits()
            let error = luaError { _ = try lua.run(source: source, chunkName: "work.lua") }
            #expect(error?.kind == .budget, "\(source): \(String(describing: error))")
            #expect(error?.budgetSpentBy == "navscript's own functions (copying their arguments, reading the app's events)")
        }
        // A few small calls cost next to nothing.
        lua.resetLimits()
        #expect(try lua.run(source: "for i = 1, 1000 do sink('a', { 1, 2, 3 }) end return 1", chunkName: "small.lua") == [1])
        #expect(lua.instructionsUsed < 100_000)
    }

    /// A plain search is linear in both lengths: a needle that nearly
    /// matches everywhere took 18 s inside one call (Lua's memchr-then-memcmp
    /// loop is quadratic), which the budget, charged by the subject, could not stop.
    @Test("a plain search for a near-miss needle gives Lua's results (in linear time: 18 s before)")
    func plainSearchIsLinear() throws {
        let lua = try LuaState.forTests(budget: 1_000_000, memory: 64 * 1024 * 1024)
        let results = try lua.run(
            source: """
                local s = ("a"):rep(1600000)
                local miss = s:find(("a"):rep(800000) .. "b", 1, true)
                local hit = (s .. "b"):find(("a"):rep(800000) .. "b", 1, true)
                local nospecials = (s .. "b"):find(("a"):rep(1000) .. "b")
                return tostring(miss), hit, nospecials, ("abcabc"):find("ca", 1, true), ("abc"):find("", 2, true)
                """, chunkName: "find.lua")
        #expect(results == ["nil", 800_001, 1_599_001, 3, 2, 1])
    }

    @Test("counted library functions still do what Lua's do, and cost what they did")
    func libraryFunctionsKeepTheirMeaning() throws {
        let lua = try LuaState.forTests(budget: 1_000_000)
        let results = try lua.run(
            source: """
                local r = {}
                r[#r + 1] = table.concat({ string.find("hello world", "o w") }, ",")
                r[#r + 1] = table.concat({ string.find("a.b", ".", 1, true) }, ",")
                r[#r + 1] = table.concat({ ("key = value"):match("^(%w+)%s*=%s*(%w+)$") }, ",")
                r[#r + 1] = table.concat({ ("hello"):find("()ll()") }, ",")
                r[#r + 1] = ("THE (quick) fox"):find("%f[%a]%a+", 5) .. ""
                r[#r + 1] = ("x(a(b)c)y"):match("%b()")
                r[#r + 1] = select(1, ("hello world"):gsub("o", { o = "0" }))
                r[#r + 1] = select(1, ("abc"):gsub("%w", "%0%0"))
                r[#r + 1] = select(1, ("abc"):gsub("", "-"))
                r[#r + 1] = select(1, ("hello"):gsub("l+", function(s) return #s end))
                local words = {} for w in ("one two  three"):gmatch("%a+") do words[#words + 1] = w end
                r[#r + 1] = table.concat(words, "|")
                local pairs_ = {} for k, v in ("a=1, b=2"):gmatch("(%w+)=(%w+)") do pairs_[#pairs_ + 1] = k .. v end
                r[#r + 1] = table.concat(pairs_, "|")
                r[#r + 1] = string.rep("ab", 3, ",") .. "|" .. string.rep("", 1e15, "") .. "|" .. string.rep("x", 0)
                r[#r + 1] = table.concat(table.move({ 1, 2, 3 }, 1, 3, 2), ",")
                r[#r + 1] = tostring(pcall(string.rep))
                r[#r + 1] = tostring(select(2, pcall(string.find, "x", "(")))
                local long, sum = ("x"):rep(3000), 0
                for i = 1, #long do sum = sum + long:byte(i) end   -- a byte at a time: not a long slice each
                r[#r + 1] = tostring(sum == 120 * 3000 and utf8.codepoint(("é"):rep(2000), 3) == 233)
                return table.concat(r, "\\n")
                """, chunkName: "meaning.lua")
        #expect(
            results == [
                .string(
                    LuaString(
                        """
                        5,7
                        2,2
                        key,value
                        3,4,3,5
                        6
                        (a(b)c)
                        hell0 w0rld
                        aabbcc
                        -a-b-c-
                        he2o
                        one|two|three
                        a1|b2
                        ab,ab,ab||
                        1,1,2,3
                        false
                        unfinished capture
                        true
                        """))
            ])
        // Ordinary matching costs next to nothing of the budget.
        #expect(lua.instructionsUsed < 25_000, "\(lua.instructionsUsed)")  // the 3,000-byte walk is ~15,000
    }

    @Test("an interruption requested from another thread ends a loop no budget limits, and pcall cannot keep it")
    func interruptionEndsWhatRuns() throws {
        let interruption = LuaInterruption()
        let lua = try LuaState(options: .init(instructionBudget: nil, memoryLimit: nil, interruption: interruption))
        Thread {
            usleep(100_000)
            interruption.request("interrupted (SIGTERM)")
        }.start()
        let error = luaError { _ = try lua.run(source: "while true do pcall(function() while true do end end) end", chunkName: "loop.lua") }
        #expect(error?.kind == .interrupted, "\(String(describing: error))")
        #expect(error?.message.hasPrefix("loop.lua:1: interrupted") == true, "\(String(describing: error))")
        #expect(interruption.reason == "interrupted (SIGTERM)")
        // Caught and returned from before another instruction could raise it: still there for the caller.
        lua.resetLimits()
        _ = try? lua.run(source: "return pcall(function() while true do end end)", chunkName: "caught.lua")
        #expect(lua.caughtInterruption()?.kind == .interrupted)
    }

    @Test("no budget means no limit")
    func unlimitedBudget() throws {
        let lua = try LuaState.forTests(budget: nil)
        let results = try lua.run(source: "local s = 0 for i = 1, 3000000 do s = s + 1 end return s", chunkName: "long.lua")
        #expect(results == [3_000_000])
        let limited = try LuaState.forTests(budget: 1_000_000)
        #expect(
            luaError { _ = try limited.run(source: "local s = 0 for i = 1, 3000000 do s = s + 1 end return s", chunkName: "long.lua") }?
                .kind == .budget)
    }

    @Test("a table-growing loop stops with the memory error and the state stays usable")
    func tableGrowingLoop() throws {
        let limit = 8 * 1024 * 1024
        let lua = try LuaState.forTests(budget: nil, memory: limit)
        let error = try #require(
            luaError {
                _ = try lua.run(
                    source: "local t = {} local i = 0 while true do i = i + 1 t[i] = { i, tostring(i) } end", chunkName: "grow.lua")
            })
        #expect(error.kind == .memory)
        // No message handler runs for a memory error; the line is noted when the cap refuses.
        let at = LuaState.memoryErrorsNameTheirLine ? "grow.lua:1: " : ""
        #expect(error.message.hasPrefix(at + "memory limit exceeded (\(limit) bytes)"), "\(error.message)")
        #expect(error.message.hasSuffix("bytes): the script may grow without bound"), "\(error.message)")
        if LuaState.memoryErrorsNameTheirLine {
            #expect(error.traceback == "stack traceback:\n\tgrow.lua:1: in main chunk", "\(error.traceback ?? "none")")
        }
        #expect(try lua.run(source: "local t = {} for i = 1, 100 do t[i] = i end return #t", chunkName: "after.lua") == [100])
        lua.collectGarbage()
        #expect(lua.memoryInUse < limit / 2)
    }

    /// A budget that runs out inside a coroutine is raised there, where
    /// `coroutine.resume` returns it as a value; the script goes on. The
    /// bridge keeps it: asked after the call, it is the error, with where
    /// the budget ran out.
    @Test func aBudgetSpentInACoroutineIsKeptForTheCaller() throws {
        let lua = try LuaState.forTests(budget: 1_000_000)
        #expect(lua.caughtBudgetError() == nil)
        let results = try lua.run(
            source: "local ok = coroutine.resume(coroutine.create(function()\n while true do end\nend))\nreturn ok",
            chunkName: "co.lua")
        #expect(results == [false], "the coroutine's error came back as a value")
        let caught = try #require(lua.caughtBudgetError())
        #expect(caught.kind == .budget)
        #expect(caught.message.hasPrefix("co.lua:2: instruction budget exceeded (1000000 instructions)"), "\(caught.message)")
        lua.resetLimits()
        #expect(lua.caughtBudgetError() == nil, "until the limits are reset")
    }

    /// Lua up to 5.4.4 lets the allocator look at the stack, so the bridge
    /// names the line and frames a refusal happened in; later releases do
    /// not (``LuaState/memoryErrorsNameTheirLine``), and the message then
    /// starts with what happened, without a traceback. Either way is checked.
    @Test("a memory error names the Lua line and frames it happened in, even inside a C function")
    func memoryErrorPosition() throws {
        let named = LuaState.memoryErrorsNameTheirLine
        func at(_ place: String) -> String { named ? place + ": " : "" }
        let lua = try LuaState.forTests(budget: nil, memory: 4 * 1024 * 1024)
        let source = """
            local function grow(t)
              for i = 1, 1e8 do t[i] = { i } end
            end
            local function blow() return string.rep("ab", 1 << 26) end
            local which = ...
            if which == "grow" then grow({}) else blow() end
            """
        let grown = try #require(
            luaError {
                _ = try lua.run(
                    source: source.replacingOccurrences(of: "...", with: "'grow'"),
                    chunkName: "where.lua")
            })
        #expect(grown.kind == .memory)
        #expect(grown.message.hasPrefix(at("where.lua:2") + "memory limit exceeded"), "\(grown.message)")
        #expect(
            grown.traceback == (named ? "stack traceback:\n\twhere.lua:2: in function <where.lua:1>\n\twhere.lua:6: in main chunk" : nil),
            "\(grown.traceback ?? "none")")
        // The refusal inside string.rep (a C function) is placed at the Lua line that called it.
        let blown = try #require(
            luaError {
                _ = try lua.run(
                    source: source.replacingOccurrences(of: "...", with: "'blow'"),
                    chunkName: "where.lua")
            })
        #expect(blown.kind == .memory)
        #expect(blown.message.hasPrefix(at("where.lua:4") + "memory limit exceeded"), "\(blown.message)")
        // A refusal the script recovered from (its pcall caught it) is not where a later one is reported.
        let recovered = try #require(
            luaError {
                _ = try lua.run(
                    source: """
                        pcall(string.rep, "x", 1 << 30)
                        local t = {}
                        while true do t[#t + 1] = { 1 } end
                        """, chunkName: "recovered.lua")
            })
        #expect(recovered.message.hasPrefix(at("recovered.lua:3") + "memory limit exceeded"), "\(recovered.message)")
        // A later error in the same state does not keep the old position.
        lua.collectGarbage()
        lua.collectGarbage()
        let again = try #require(
            luaError {
                _ = try lua.run(
                    source: "local t = {}\n\nfor i = 1, 1e8 do t[i] = {} end",
                    chunkName: "again.lua")
            })
        #expect(again.message.hasPrefix(at("again.lua:3") + "memory limit exceeded"), "\(again.message)")
    }

    @Test("memory errors are caught by pcall like Lua's own, and string.rep bombs stop too")
    func memoryVariants() throws {
        let lua = try LuaState.forTests(budget: nil, memory: 4 * 1024 * 1024)
        let caught = try lua.run(source: "return pcall(string.rep, 'x', 1 << 30)", chunkName: "rep.lua")
        #expect(caught == [false, "not enough memory"])
        // A block larger than the whole cap can never fit: kept for the caller whatever caught it.
        #expect(lua.caughtMemoryError()?.kind == .memory)
        #expect(lua.caughtMemoryError() == nil, "reported once")
        let error = luaError { _ = try lua.run(source: "local s = string.rep('ab', 1 << 28)", chunkName: "rep.lua") }
        #expect(error?.kind == .memory)
        #expect(try lua.run(source: "return 'fine'", chunkName: "rep.lua") == ["fine"])
        // Within the cap, but not beside what the script already holds: lauxlib's buffer raises at
        // the first refusal (no retry), a pcall catches it, and the next growth fits — still the
        // limit hit, not an allocation recovered from.
        let held = try lua.run(
            source: "held = string.rep('h', 1200 * 1024) return pcall(string.rep, 'x', 3 * 1024 * 1024)",
            chunkName: "held.lua")
        #expect(held == [false, "not enough memory"])
        #expect(lua.caughtMemoryError()?.kind == .memory, "refused once and caught, yet the limit was hit")
        _ = try lua.run(source: "held = nil collectgarbage()", chunkName: "held.lua")
        lua.resetLimits()
        // A refusal Lua recovers from (its retry after collecting the garbage fits) is no error.
        let recovered = try lua.run(
            source: "local t = {} for i = 1, 40 do t[i] = string.rep('g', 64 * 1024) .. i t[i] = nil end "
                + "local s = {} for i = 1, 30000 do s[i] = {} end return #s",
            chunkName: "recovered.lua")
        #expect(recovered == [30_000])
        #expect(lua.caughtMemoryError() == nil, "garbage the collector could free is not the limit")
    }

    @Test("the cap never refuses while Swift pushes values: big Swift results still arrive")
    func capOffForSwift() throws {
        let lua = try LuaState.forTests(budget: nil, memory: 2 * 1024 * 1024)
        let big = LuaTable(array: (0..<100_000).map { .string(LuaString("item \($0)")) })
        lua.register("big") { _ in .value(.table(big)) }
        // Swift pushes ~5 MB (more than the cap) without error; Lua code then cannot allocate more.
        let count = try lua.run(source: "local t = big() return #t", chunkName: "big.lua")
        #expect(count == [100_000])
        try lua.setGlobal("kept", .table(big))
        #expect(lua.memoryInUse > 2 * 1024 * 1024)
        let error = luaError { _ = try lua.run(source: "local t = {} for i = 1, 1e6 do t[i] = {} end", chunkName: "big.lua") }
        #expect(error?.kind == .memory)
        try lua.setGlobal("kept", .nil)
        lua.collectGarbage()
        #expect(try lua.run(source: "return #big()", chunkName: "big.lua") == [100_000])
    }

    @Test("a memory limit too small to start the sandbox fails creation cleanly")
    func tooSmallToStart() {
        let counter = LuaStateCounter()
        let error = luaError { _ = try LuaState.forTests(memory: 1024, counter: counter) }
        #expect(error?.kind == .memory)
        #expect(counter.createdStates == 1)
        #expect(counter.openStates == 0, "a failed init still closes its state")
        #expect(counter.bytesUnreleasedAtClose == 0)
    }
}
