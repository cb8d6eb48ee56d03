import Testing

@testable import NavScriptRuntime

/// Names a report shows alike are one name: what is not drawn (format and
/// default-ignorable characters) is left out, fillers drawn blank read as
/// a space, and a name that begins or ends with any of them is refused as
/// blank-ended.
@Suite("Scenario names as a report shows them")
struct NameReadingTests {
    @Test(arguments: [
        "\u{200B}", "\u{00AD}", "\u{FEFF}", "\u{202E}", "\u{E0041}", "\u{034F}", "\u{FE0F}", "\u{180E}", "\u{1D173}"
    ])
    func anUndrawnCharacterIsLeftOut(invisible: String) {
        #expect(ScenarioDefinition.readingKey("a" + invisible) == "a")
        #expect(ScenarioDefinition.readingKey("a" + invisible + "b") == "ab")
        #expect(ScenarioDefinition.blankEnded("a" + invisible))
        #expect(ScenarioDefinition.blankEnded(invisible + "a"))
    }

    @Test(arguments: ["\u{3164}", "\u{115F}", "\u{FFA0}", "\u{2800}", "\u{1160}"])
    func aFillerDrawnBlankReadsAsASpace(filler: String) {
        #expect(ScenarioDefinition.readingKey("a" + filler + "b") == "a b")
        #expect(ScenarioDefinition.blankEnded("a" + filler))
        #expect(ScenarioDefinition.readsBlank(Character(filler)))
    }

    @Test func whatIsDrawnIsKept() {
        #expect(ScenarioDefinition.readingKey("caf\u{E9}") == ScenarioDefinition.readingKey("cafe\u{301}"))
        #expect(ScenarioDefinition.readingKey("a b") == "a b")
        #expect(ScenarioDefinition.readingKey("ünïcödé ✓") == "ünïcödé ✓")
        #expect(!ScenarioDefinition.blankEnded("a\u{301}"))
        #expect(!ScenarioDefinition.blankEnded("opens ✓"))
        #expect(!ScenarioDefinition.readsBlank("a"))
    }
}
