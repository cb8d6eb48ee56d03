import Testing

@testable import NavScript
@testable import NavScriptLua
@testable import NavScriptRunner
@testable import NavScriptRuntime

/// `--color` and the environment's colour conventions.
@Suite("Reporting: colour choice")
struct ColorChoiceTests {
    func use(_ choice: ConsoleReport.ColorChoice, _ environment: [String: String], tty: Bool) -> Bool {
        ConsoleReport.shouldUseColor(choice, environment: environment, isTTY: tty)
    }

    @Test func colourFollowsTheChoiceAndTheEnvironment() {
        #expect(use(.always, [:], tty: false) && !use(.never, [:], tty: true))
        #expect(use(.always, ["NO_COLOR": "1"], tty: false), "an explicit choice wins")
        #expect(use(.auto, [:], tty: true) && !use(.auto, [:], tty: false))
        #expect(!use(.auto, ["NO_COLOR": "1"], tty: true))
        #expect(use(.auto, ["FORCE_COLOR": "1"], tty: false) && !use(.auto, ["FORCE_COLOR": "0"], tty: false))
        #expect(use(.auto, ["CLICOLOR_FORCE": "1"], tty: false) && !use(.auto, ["CLICOLOR_FORCE": "0"], tty: false))
        #expect(!use(.auto, ["NO_COLOR": "1", "FORCE_COLOR": "1"], tty: false), "NO_COLOR wins")
        #expect(!use(.auto, ["TERM": "dumb"], tty: true))
    }
}
