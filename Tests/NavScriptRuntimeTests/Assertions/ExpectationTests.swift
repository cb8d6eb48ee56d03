import Foundation
import Testing

@testable import NavScript
@testable import NavScriptLua
@testable import NavScriptRuntime

@Suite("Expectation")
struct ExpectationTests {
    /// Events after a mark are numbered as the whole log numbers them (they were numbered from
    /// #1, while every other message numbers the log).
    /// What no report can show is spelled out in a failure: an ESC (reports strip it), a NUL, a
    /// zero-width space — the message read "is 'product:p1', expected 'product:p1'".
    @Test func hiddenCharactersInValuesAreSpelledOut() throws {
        let escape = try #require(Expectation.equal("the screen", expected: "product:p1\u{1B}[0m", actual: "product:p1"))
        #expect(escape.message == "the screen is 'product:p1', expected 'product:p1\\u{1B}[0m'", "\(escape.message)")
        let invisible = try #require(Expectation.equal("the screen", expected: "product:p1\u{200B}", actual: "product:p1"))
        #expect(invisible.message.hasSuffix("expected 'product:p1<U+200B>'"), "\(invisible.message)")
        #expect(Expectation.render(["a\u{0}b"]) == #"{ "a\u{0}b" }"#)
        #expect(Expectation.spelled("plain é") == "plain é")
        #expect(Expectation.spelled("home\u{A0}") == "home<U+A0>", "a no-break space reads as a space")
    }

    @Test func eventsAfterAMarkKeepTheirNumbersInTheLog() throws {
        let failure = try #require(Expectation.events(["push a", "release b"], actual: ["push a", "pop a"], firstNumber: 20))
        #expect(failure.details.contains("✓ push a    (event #20)"), "\(failure.details)")
        #expect(failure.details.contains("#21 pop a"), "\(failure.details)")
        let whole = try #require(Expectation.events(["x"], actual: ["push a"]))
        #expect(whole.details.contains("#1 push a"), "\(whole.details)")
    }

    @Test func stackMatchesIdsAndLabels() {
        #expect(Expectation.stack(["home", "product"], actual: ["home", "product:p1004"], tab: "home") == nil)
        #expect(Expectation.stack(["home", "product:p1004"], actual: ["home", "product:p1004"], tab: "home") == nil)
    }

    @Test func stackMismatchShowsASideBySideDiff() throws {
        let failure = try #require(Expectation.stack(["home", "cart"], actual: ["home"], tab: "home"))
        #expect(failure.message == #"stack of tab 'home' is { "home" }, expected { "home", "cart" }"#)
        #expect(failure.details.contains("✗ cart"))
        #expect(!failure.details.contains("✗ home"))
    }

    @Test func stackWithOtherParamsFails() {
        #expect(Expectation.stack(["product:p1"], actual: ["product:p2"], tab: "home") != nil)
        #expect(Expectation.stack(["prod"], actual: ["product:p2"], tab: "home") != nil)
    }

    @Test func eventsAreAnOrderedSubsequenceMatchedByLeadingWords() {
        let events = ["deliver scheme shop://cart", "gate auth cart", "session-commit", "resume cart"]
        #expect(Expectation.events(["gate auth", "session-commit", "resume cart"], actual: events) == nil)
        #expect(Expectation.events(["gate"], actual: events) == nil)
        #expect(Expectation.events(["gat"], actual: events) != nil, "a leading word must match whole words")
    }

    @Test func outOfOrderEventsAreReportedAsHappeningEarlier() throws {
        let events = ["resume cart", "session-commit"]
        let failure = try #require(Expectation.events(["session-commit", "resume cart"], actual: events))
        #expect(failure.message == "event 'resume cart' not found after 'session-commit'")
        #expect(failure.details.contains("did happen, but earlier (event #1)"))
        #expect(failure.details.contains("(none)"))
    }

    @Test func aBareLastWordMatchesALabelledOne() {
        let events = ["push product:p1004", "pop-to home", "release product:p1004 view-model"]
        #expect(Expectation.events(["push product"], actual: events) == nil)
        #expect(Expectation.events(["push product:p1004"], actual: events) == nil)
        #expect(Expectation.events(["push product:p1"], actual: events) != nil, "a labelled word must match whole")
        #expect(Expectation.events(["pop"], actual: events) != nil, "pop is not pop-to")
        #expect(Expectation.events(["release product"], actual: events) == nil)
    }

    /// A bare word before others matches a labelled one too: `resolve order gated auth` could
    /// never match `resolve order:42 gated auth`, so `expect_no_event` with it passed for ever.
    @Test func aBareWordMatchesALabelledOneWhereverItStands() {
        let events = ["resolve order:42 gated auth", "execute product:p1004 external", "dealloc product:p1 view-model"]
        for item in ["resolve order gated auth", "execute product external", "dealloc product view-model", "resolve order gated"] {
            #expect(Expectation.events([item], actual: events) == nil, "\(item)")
        }
        for item in ["resolve order:4 gated", "resolve ord gated", "resolve order gated payment", "execute product:p1004:x external"] {
            #expect(Expectation.events([item], actual: events) != nil, "\(item)")
        }
        #expect(Expectation.eventMatches("push café gone", "push café:1 gone"), "by Character too")
    }

    @Test func eventItemsMatchAsStringsDoOutsideASCII() {
        // The byte fast path must agree with String comparison at a non-ASCII boundary.
        let decomposed = "push caf\u{65}\u{301} now"  // "café" with a combining accent
        #expect(Expectation.eventMatches("push café", decomposed), "canonically equivalent prefixes match")
        #expect(!Expectation.eventMatches("push cafe", decomposed), "e is not é, even when é is e + accent")
        #expect(Expectation.eventMatches("push résumé", "push résumé:7 x"))
        #expect(!Expectation.eventMatches("push résumé:7", "push résumé:71"))
        #expect(Expectation.eventMatches("gate", "gate"))
        #expect(!Expectation.eventMatches("gate auth cart", "gate auth"))
        #expect(!Expectation.eventMatches("", "gate"), "an empty item matches no event but an empty one")
    }

    /// The byte path gives the answer of the Character comparison
    /// (word by word) on every pair of a small alphabet,
    /// canonical equivalents included (a Kelvin sign is a K).
    @Test func eventMatchingByBytesAgreesWithCharacters() {
        func reference(_ item: String, _ event: String) -> Bool {
            let wanted = item.split(separator: " ", omittingEmptySubsequences: false)
            let words = event.split(separator: " ", omittingEmptySubsequences: false)
            guard wanted.count <= words.count else { return false }
            return zip(wanted, words).allSatisfy { want, have in
                want == have || (!want.contains(":") && have.hasPrefix(want) && have.dropFirst(want.count).first == ":")
            }
        }
        let pieces = ["gate", " ", "auth", ":", "7", "K", "\u{212A}", "e", "\u{301}", "é", "x"]
        var strings = [""]
        for _ in 0..<3 {
            strings = strings + strings.flatMap { prefix in pieces.map { prefix + $0 } }.filter { $0.count <= 3 || $0.utf8.count <= 12 }
        }
        strings = Array(Set(strings)).sorted()
        for item in strings.prefix(400) {
            for event in strings.prefix(400) {
                #expect(
                    Expectation.eventMatches(item, event) == reference(item, event), "\(item.debugDescription) in \(event.debugDescription)"
                )
            }
        }
        #expect(Expectation.eventMatches("gate K", "gate \u{212A} x"), "a Kelvin sign is canonically a K")
    }

    @Test func eventCountsAndAbsencesCountSinceAMark() throws {
        let events = ["session-commit", "push cart", "session-commit"]
        #expect(Expectation.eventCount("session-commit", expected: 2, actual: events) == nil)
        #expect(Expectation.eventCount("session-commit", expected: 1, actual: events, since: 1) == nil)
        let failure = try #require(Expectation.eventCount("session-commit", expected: 1, actual: events))
        #expect(failure.message == "expected 1 event 'session-commit', found 2")
        #expect(failure.details == "  #1 session-commit\n  #3 session-commit")
        #expect(Expectation.eventCount("present", expected: 0, actual: events) == nil)
        #expect(Expectation.eventCount("push", expected: 0, actual: events)?.message == "expected no event 'push', found 1")
    }

    @Test func modalsCompareTheWholeChain() throws {
        #expect(Expectation.modals([], actual: []) == nil)
        #expect(Expectation.modals(["settings", "privacy"], actual: [["settings", "privacy"]]) == nil)
        #expect(Expectation.modals(["cart", "login"], actual: [["cart"], ["login"]]) == nil)
        let failure = try #require(Expectation.modals(["login"], actual: [["login"], ["login"]]))
        #expect(failure.message == #"the modal chain is { "login", "login" }, expected { "login" }"#)
        #expect(Expectation.modals(["settings"], actual: [])?.details == "no modal is presented")
    }

    @Test func snapshotsCompareOnlyTheGivenParts() throws {
        let actual = ["tab": ["home"], "stacks.home": ["home", "product:p1"], "modals": [String]()]
        #expect(Expectation.snapshot(["tab": ["home"]], actual: actual) == nil)
        #expect(Expectation.snapshot(["stacks.home": ["home", "product"], "modals": []], actual: actual) == nil)
        let failure = try #require(Expectation.snapshot(["tab": ["orders"], "modals": ["login"]], actual: actual))
        #expect(failure.message == "the navigation state differs in modals, tab")
    }

    @Test func coordinatorsCompareAsMultisets() throws {
        #expect(
            Expectation.coordinators(["app", "app/b"], actual: ["app", "app/b", "app/b"]) != nil,
            "a coordinator alive twice is a mismatch")
        #expect(Expectation.coordinators(["app/b", "app/b"], actual: ["app/b"]) != nil)
    }

    @Test func coordinatorsCompareAsSets() throws {
        #expect(Expectation.coordinators(["app/b", "app"], actual: ["app", "app/b"]) == nil)
        let failure = try #require(Expectation.coordinators(["app", "app/x"], actual: ["app", "app/y"]))
        #expect(failure.details.contains(#"missing (expected alive): { "app/x" }"#))
        #expect(failure.details.contains(#"unexpected (still alive): { "app/y" }"#))
    }

    @Test func leaksAreListed() throws {
        #expect(Expectation.noLeaks([]) == nil)
        let failure = try #require(Expectation.noLeaks(["a", "b"]))
        #expect(failure.message == "2 objects leaked")
        #expect(failure.details == "  leaked: a\n  leaked: b")
    }

    @Test func equalTreatsNothingAsAMismatch() {
        #expect(Expectation.equal("the screen", expected: "home", actual: nil)?.message == "the screen is nothing, expected 'home'")
        #expect(Expectation.equal("the screen", expected: "order", actual: "order:42") == nil)
    }

    @Test func sameOutcomeDiffsEveryDifferingEntryAgainstTheFirst() throws {
        #expect(Expectation.sameOutcome(url: "u", observations: [("scheme", ["a"], nil), ("push", ["a"], nil)]) == nil)
        let failure = try #require(
            Expectation.sameOutcome(
                url: "shop://p/1",
                observations: [
                    ("scheme", ["status=proceed", "tab home"], nil), ("push", ["status=error", "tab home"], "malformed"),
                    ("widget", ["status=proceed", "tab home"], nil)
                ]))
        #expect(failure.message == "shop://p/1 does not give the same outcome through scheme and push")
        #expect(failure.details.contains("  - scheme: status=proceed\n  + push: status=error"))
        #expect(!failure.details.contains("widget"))
    }

    /// A link every entry point rejects agrees only in being refused (a typo in a table of links
    /// compared no route and passed): a failure, unless `rejected` says the refusal is the point.
    @Test func aLinkEveryEntryPointRejectsIsNoSameOutcome() throws {
        let refused: [(entry: String, observation: [String], rejection: String?)] = [
            ("scheme", ["outcome error unknown_route"], "unknown_route"), ("push", ["outcome error unknown_route"], "unknown_route")
        ]
        let failure = try #require(Expectation.sameOutcome(url: "shop://prodcut/1", observations: refused))
        #expect(
            failure.message
                == "every entry point rejected shop://prodcut/1 (unknown_route): the outcomes agree only in refusing it, so no route was compared"
        )
        #expect(failure.details.contains("{ rejected = true }"))
        #expect(Expectation.sameOutcome(url: "shop://prodcut/1", observations: refused, refusal: .required) == nil)
        #expect(Expectation.sameOutcome(url: "shop://prodcut/1", observations: refused, refusal: .allowed) == nil)
        let routed: [(entry: String, observation: [String], rejection: String?)] = [
            ("scheme", ["outcome proceed"], nil), ("push", ["outcome proceed"], nil)
        ]
        #expect(Expectation.sameOutcome(url: "shop://product/1", observations: routed) == nil)
        #expect(Expectation.sameOutcome(url: "shop://product/1", observations: routed, refusal: .allowed) == nil)
        let taken = try #require(Expectation.sameOutcome(url: "shop://product/1", observations: routed, refusal: .required))
        #expect(taken.message == "shop://product/1 was to be rejected through every entry point ({ rejected = true }), but scheme took it")
    }
}
