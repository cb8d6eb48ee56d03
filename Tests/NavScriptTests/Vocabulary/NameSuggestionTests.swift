import Testing

@testable import NavScript
@testable import NavScriptLua

/// The "did you mean" of a misspelt global: which messages get one, and
/// which name it is.
@Suite("NameSuggestion")
struct NameSuggestionTests {
    @Test(arguments: [
        ("", "", 0), ("tap", "tap", 0), ("", "tap", 3), ("tap", "", 3),
        ("tapp", "tap", 1), ("tp", "tap", 1), ("tep", "tap", 1),
        ("expect_stakc", "expect_stack", 1),  // two neighbours swapped: one edit
        ("expcet_stack", "expect_stack", 1),
        ("expect_stak", "expect_stack", 1),
        ("kitten", "sitting", 3),
        ("é", "e", 1)  // by scalar, not by byte
    ])
    func distanceCountsInsertsDeletesSubstitutionsAndSwaps(_ a: String, _ b: String, _ edits: Int) {
        #expect(NameSuggestion.distance(a, b) == edits)
        #expect(NameSuggestion.distance(b, a) == edits)
    }

    @Test func theClosestNameWithinTwoEditsAndUnderHalfTheLength() {
        let names = ["tap", "back", "login", "logout", "expect_stack", "expect_screen", "scenario", "select_tab"]
        #expect(NameSuggestion.closest(to: "tapp", among: names) == "tap")
        #expect(NameSuggestion.closest(to: "expect_stak", among: names) == "expect_stack")
        #expect(NameSuggestion.closest(to: "scenarioo", among: names) == "scenario")
        #expect(NameSuggestion.closest(to: "logn", among: names) == "login")
        // Too far, too short to guess, or the name itself.
        #expect(NameSuggestion.closest(to: "deep_lnk_everything", among: names) == nil)
        #expect(NameSuggestion.closest(to: "ta", among: names) == nil)
        #expect(NameSuggestion.closest(to: "tap", among: ["tap"]) == nil)
        // The closer of two near names; two equally close: naming one would be a guess.
        #expect(NameSuggestion.closest(to: "logut", among: ["login", "logout"]) == "logout")
        #expect(NameSuggestion.closest(to: "bakc", among: ["back", "bake"]) == nil)
    }

    @Test func onlyMessagesAboutANilGlobalGetAHint() {
        let names = { ["tap", "string", "expect_stack"] }
        #expect(
            NameSuggestion.hint(forLuaMessage: "a.lua:3: attempt to call a nil value (global 'tapp')", names: names)
                == "; did you mean 'tap'?")
        #expect(
            NameSuggestion.hint(forLuaMessage: "a.lua:3: attempt to index a nil value (global 'strng')", names: names)
                == "; did you mean 'string'?")
        #expect(NameSuggestion.hint(forLuaMessage: "a.lua:3: attempt to call a nil value (global 'zzzzzz')", names: names) == nil)
        #expect(NameSuggestion.hint(forLuaMessage: "a.lua:3: attempt to call a nil value (field 'tapp')", names: names) == nil)
        #expect(NameSuggestion.hint(forLuaMessage: "a.lua:3: attempt to call a string value (global 'tapp')", names: names) == nil)
        #expect(NameSuggestion.hint(forLuaMessage: "a.lua:3: attempt to call a nil value (local 'tapp')", names: names) == nil)
        var asked = false
        _ = NameSuggestion.hint(forLuaMessage: "a.lua:3: boom") {
            asked = true; return []
        }
        #expect(!asked, "the state is only asked for its globals when the message is about one")
    }
}
