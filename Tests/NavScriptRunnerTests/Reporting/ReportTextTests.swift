import Foundation
import Testing

@testable import NavScriptRunner

/// What the reports do to terminal escapes in a scenario's text: complete
/// sequences go, and a stray introducer goes alone — it never takes the
/// rest of a message with it (it did, in the console, JUnit and HTML).
@Suite("report text: escape sequences")
struct ReportTextTests {
    @Test(arguments: [
        ("red \u{1B}[31mtext\u{1B}[0m end", "red text end"),
        ("a \u{1B}]8;;https://x\u{7}link\u{1B}]8;;\u{7} b", "a link b"),
        ("a \u{1B}]8;;https://x\u{1B}\\link b", "a link b"),
        ("\u{1B}[2K line", " line"),
        // Unterminated: the introducer goes, the text stays.
        ("before \u{1B}P after the DCS", "before  after the DCS"),
        ("before \u{1B}_ after the APC", "before  after the APC"),
        ("before \u{1B}] after the OSC", "before  after the OSC"),
        ("before \u{1B}X after the SOS", "before  after the SOS"),
        ("before \u{1B}[123456789", "before 123456789"),
        ("osc \u{1B}]0;title\nnext line", "osc 0;title\nnext line"),
        // A C1 control is a character of the text, spelled: read as a sequence, `\u{9B}Vok` lost its V.
        ("c1 \u{9D} kept", "c1 \\u{9D} kept"), ("code=\u{9B}Vok", "code=\\u{9B}Vok"),
        // A control that begins no sequence is spelled, not dropped: `"p1004\0"` read as `p1004`.
        ("p1004\u{0}", "p1004\\u{0}"), ("a\u{8}\u{8}b\u{7F}", "a\\u{8}\\u{8}b\\u{7F}"), ("x\u{85}y", "x\\u{85}y"),
        ("\u{FFFE}", "<U+FFFE>"),
        // An ESC before text no terminal reads as a sequence: spelled, the text kept (`\27p1004` lost its p).
        ("id \u{1B}p1004", "id \\u{1B}p1004"), ("end \u{1B}", "end \\u{1B}"), ("reset \u{1B}c done", "reset  done")
    ])
    func escapes(_ text: String, _ cleaned: String) {
        #expect(ReportText.clean(text) == cleaned)
    }

    @Test func aControlStringLongerThanTheLimitIsNotOne() {
        let long = String(repeating: "x", count: ReportText.controlStringLimit + 10)
        #expect(ReportText.clean("\u{1B}]" + long + "\u{7}") == long + "\\u{7}")
    }

    /// A right-to-left override in a message would make the console and the
    /// HTML report display the rest of its line reversed: both show it by
    /// name; JSON and JUnit keep the character.
    @Test func bidiControlsAreShownByNameInTheConsoleAndHTML() {
        let message = "expected \u{202E}emoH\u{202C} and \u{2066}x\u{2069}"
        let shown = "expected <U+202E>emoH<U+202C> and <U+2066>x<U+2069>"
        #expect(ReportText.cleanForTerminal(message) == shown)
        let shownInHTML = shown.replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
        #expect(HTMLReport.text(message) == shownInHTML)
        #expect(HTMLReport.attribute(message) == shownInHTML)
        #expect(ReportText.clean(message) == message)
        #expect(ReportText.xmlText(message) == message)
        #expect(ReportText.cleanForTerminal("plain \u{200F} mark") == "plain \u{200F} mark")
    }

    /// A character nothing draws in a quoted name made "no screen 'cart'; did you mean 'cart'?":
    /// the console and HTML show it by name; the joiners and selectors emoji are built of stay.
    @Test func charactersNothingDrawsAreShownByNameInTheConsoleAndHTML() {
        #expect(ReportText.cleanForTerminal("no screen 'cart\u{200B}'") == "no screen 'cart<U+200B>'")
        #expect(HTMLReport.text("soft\u{AD}hyphen \u{2060}") == "soft&lt;U+AD&gt;hyphen &lt;U+2060&gt;")
        let emoji = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467} \u{2764}\u{FE0F}"
        #expect(ReportText.cleanForTerminal(emoji) == emoji)
        #expect(ReportText.xmlText("cart\u{200B}") == "cart\u{200B}", "JUnit keeps it")
        // A space other than U+0020 reads as one: "expected 'home '" beside an actual 'home'.
        #expect(ReportText.cleanForTerminal("'home\u{A0}' '\u{2007}' '\u{3000}' 'a b'") == "'home<U+A0>' '<U+2007>' '<U+3000>' 'a b'")
    }

    /// A listing spells a name's controls as a regular expression would, and its written
    /// backslashes too: a tab and a backslash followed by `t` listed the same (`a\tb`), and the
    /// name copied into `--filter` selected the other scenario.
    @Test func aListedNameTellsAControlFromAWrittenBackslash() {
        #expect(ReportText.escapingControls("a\tb") == #"a\tb"#)
        #expect(ReportText.escapingControls(#"a\tb"#) == #"a\\tb"#)
        #expect(ReportText.escapingControls("x\u{1b}y") == #"x\x{1b}y"#)
    }
}
