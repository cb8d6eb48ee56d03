import NotesApp
import TestSupport
import Testing

@testable import NavScriptRunner
@testable import NavScriptRuntime

/// Lua's recursion limits say "stack overflow" or "C stack overflow" and
/// nothing more; the scenario's error says what usually causes each and
/// what to do, at the line, whether it happens while a scenario runs or
/// while the file loads.
@Suite("Recursion messages")
struct RecursionMessageTests {
    private func messages(_ source: String) throws -> [String] {
        try runSource(source, file: "deep.lua").results.map(\.message)
    }

    @Test func aMetamethodThatReadsItsOwnTableIsExplained() throws {
        let found = try messages(
            """
            scenario("index", function()
              launch{}
              local t = setmetatable({}, { __index = function(t, k) return t[k] end })
              local x = t.x
            end)
            scenario("gsub", function()
              launch{}
              local function f(s) return (s:gsub(".", f)) end
              f("abc")
            end)
            """)
        #expect(found.count == 2)
        #expect(found.first?.contains("deep.lua:3: C stack overflow (calls nested about 200 deep") == true, "\(found)")
        #expect(found.first?.contains("use rawget") == true, "\(found)")
        #expect(found.last?.contains("deep.lua:8: C stack overflow (") == true, "\(found)")
    }

    @Test func aFunctionThatCallsItselfWithoutEndIsExplained() throws {
        let found = try messages(
            """
            scenario("deep", function()
              launch{}
              local function f(n) return 1 + f(n + 1) end
              f(1)
            end)
            """)
        #expect(found.count == 1)
        #expect(
            found.first?.hasSuffix(
                "deep.lua:3: stack overflow (a function calls itself without end: give the recursion a case that "
                    + "returns without calling again)") == true, "\(found)")
    }

    @Test func theSameWhileTheFileLoads() throws {
        let found = try messages(
            """
            local t = setmetatable({}, { __index = function(t, k) return t[k] end })
            local x = t.x
            scenario("never", function() launch{} end)
            """)
        #expect(found.first?.contains("deep.lua:1: C stack overflow (calls nested about 200 deep") == true, "\(found)")
    }
}
