import Testing

@testable import NavScriptLua

/// The one-allocation string builders the timeline and locations use.
@Suite("Bridge: string building")
struct StringConcatenationTests {
    @Test(arguments: [0, 7, 10, 99, 100, 12_345, -3])
    func sourceAndLineReadAsLuaSpellsThem(line: Int) {
        #expect(String(source: "suite/a.lua", line: line) == "suite/a.lua:\(line)")
        #expect(String(source: "café/ü.lua", line: line) == "café/ü.lua:\(line)", "non-ASCII paths")
        #expect(String(source: "", line: line) == ":\(line)")
    }

    @Test func partsAreJoinedInOrder() {
        #expect(
            String(concatenating: "a.lua:3", "  ", "tap(\"x\")", "  → ", "home", " [tab ", "main", "]")
                == "a.lua:3  tap(\"x\")  → home [tab main]")
        #expect(String(concatenating: "", "", "") == "")
        #expect(String(concatenating: "x", "", "y") == "xy")
        let long = String(repeating: "é→", count: 3_000)  // past any stack buffer: the heap path
        #expect(String(concatenating: long, "|", long) == long + "|" + long)
        #expect(String(concatenating: "é", "→").count == 2, "characters, not bytes")
    }
}
