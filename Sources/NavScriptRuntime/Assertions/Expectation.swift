import NavScript

/// A failed expectation: one line for the summary, and the explanation
/// (expected vs actual, a diff) a QA engineer needs to act on it.
package struct ExpectationFailure: Error, Hashable, Sendable, CustomStringConvertible {
    package var message: String
    package var details: String
    /// The invariant that does not hold, when the failure is an invariant's
    /// (read by exploration, which tells a broken invariant from a step the
    /// app refused without reading the message).
    package var invariant: Invariant?

    package init(_ message: String, details: String = "", invariant: Invariant? = nil) {
        self.message = message
        self.details = details
        self.invariant = invariant
    }

    package var description: String { details.isEmpty ? message : message + "\n" + details }
}

/// The pure checks behind the `expect_*` functions: data in, a failure
/// with a readable diff out. Kept free of Lua so every branch is unit-tested.
package enum Expectation {
    /// `expect_stack`: entries are `id` (any parameters) or `id:primary`.
    package static func stack(_ expected: [String], actual: [String], tab: String) -> ExpectationFailure? {
        let matches =
            expected.count == actual.count
            && zip(expected, actual).allSatisfy { entryMatches($0, $1) }
        guard !matches else { return nil }
        return ExpectationFailure(
            "stack of tab '\(tab)' is \(render(actual)), expected \(render(expected))",
            details: sideBySide(expected: expected, actual: actual))
    }

    /// Whether a scenario's stack entry matches a screen label.
    static func entryMatches(_ entry: String, _ label: String) -> Bool {
        entry == label || (!entry.contains(":") && label.hasPrefix(entry + ":"))
    }

    /// `expect_events`: an ordered subsequence, each item matching an event
    /// exactly or as its leading words.
    /// `firstNumber`: the number of `actual[0]` in the app's whole log (events after a mark are
    /// numbered as the log numbers them, as every other message does).
    package static func events(_ expected: [String], actual: [String], firstNumber: Int = 1) -> ExpectationFailure? {
        // The usual case, every item found: no list of matches is kept (it is
        // only for the message, and rebuilt by the same search when one fails).
        var position = 0
        for item in expected {
            guard let index = firstEvent(matching: item, in: actual, from: position) else {
                return eventsFailure(expected, actual: actual, offset: firstNumber - 1)
            }
            position = index + 1
        }
        return nil
    }

    /// Why `expect_events` failed: what matched, where, what did not.
    private static func eventsFailure(_ expected: [String], actual: [String], offset: Int) -> ExpectationFailure {
        var position = 0
        var matched: [(String, Int)] = []
        for item in expected {
            guard let index = firstEvent(matching: item, in: actual, from: position) else {
                let anywhere = actual.firstIndex { eventMatches(item, $0) }
                var details = "expected, in this order:\n"
                for (done, at) in matched { details += "  ✓ \(done)    (event #\(offset + at + 1))\n" }
                details += "  ✗ \(item)\n"
                for rest in expected.dropFirst(matched.count + 1) { details += "    \(rest)\n" }
                if let anywhere {
                    details += "'\(item)' did happen, but earlier (event #\(offset + anywhere + 1)), before '\(matched.last?.0 ?? "")'\n"
                }
                details += matched.isEmpty ? "the events:\n" : "events after the last match:\n"
                let tail = actual[position...]
                let numbered = tail.enumerated().map { "  #\(offset + position + $0.offset + 1) \($0.element)" }
                details += tail.isEmpty ? "  (none)\n" : numbered.joined(separator: "\n") + "\n"
                return ExpectationFailure(
                    "event '\(item)' not found" + (matched.isEmpty ? "" : " after '\(matched.last!.0)'"),
                    details: details)
            }
            matched.append((item, index))
            position = index + 1
        }
        preconditionFailure("eventsFailure called for events that match")
    }

    /// An item matches an event exactly, or as its leading words; a word
    /// without parameters (`item`) matches a labelled one (`item:7`)
    /// wherever it stands, as stack entries do: `push item` matches
    /// `push item:7`, and `resolve order gated auth` matches
    /// `resolve order:42 gated auth` (only a last word did, so that item
    /// could never match and `expect_no_event` passed for ever).
    static func eventMatches(_ item: String, _ event: String) -> Bool {
        var text = item
        return text.withUTF8 { eventMatches(item, bytes: $0, event) }
    }

    /// ``eventMatches(_:_:)`` with the item's UTF-8 at hand: a scan of the
    /// log takes the item's bytes once, not once per event.
    private static func eventMatches(_ item: String, bytes itemBytes: UnsafeBufferPointer<UInt8>, _ event: String) -> Bool {
        if let answer = asciiEventMatch(itemBytes, event) { return answer }
        // By Character, word by word: canonically equivalent spellings match.
        let wanted = item.split(separator: " ", omittingEmptySubsequences: false)
        let words = event.split(separator: " ", omittingEmptySubsequences: false)
        guard wanted.count <= words.count else { return false }
        return zip(wanted, words).allSatisfy { want, have in
            want == have || (!want.contains(":") && have.hasPrefix(want) && have.dropFirst(want.count).first == ":")
        }
    }

    /// The first event at or after `start` that `item` matches.
    private static func firstEvent(matching item: String, in events: [String], from start: Int) -> Int? {
        guard start < events.count else { return nil }
        var text = item
        return text.withUTF8 { bytes in events[start...].firstIndex { eventMatches(item, bytes: bytes, $0) } }
    }

    /// ``eventMatches(_:_:)`` by bytes while the item and the event are
    /// ASCII where compared (every real event), nil when only Characters can
    /// decide. Why: comparing by Character cost more than the rest of
    /// `expect_events`.
    private static func asciiEventMatch(_ itemBytes: UnsafeBufferPointer<UInt8>, _ event: String) -> Bool? {
        // `withUTF8` always has the bytes (a native string keeps them in place).
        var eventText = event
        return eventText.withUTF8 { eventBytes -> Bool? in
            let space = UInt8(ascii: " "), colon = UInt8(ascii: ":")
            var (index, position) = (0, 0)
            var wordHasColon = false  // the item's word under way holds a `:` (a label with its parameter)
            while index < itemBytes.count {
                let wanted = itemBytes[index]
                guard position < eventBytes.count else { return wanted < 0x80 ? false : nil }
                let byte = eventBytes[position]
                if wanted >= 0x80 || byte >= 0x80 { return nil }
                if wanted == byte {
                    if wanted == colon { wordHasColon = true } else if wanted == space { wordHasColon = false }
                    index += 1
                    position += 1
                    continue
                }
                // The item's word ended where the event's goes on with a parameter: skip the parameter.
                guard wanted == space, byte == colon, !wordHasColon else { return false }
                while position < eventBytes.count, eventBytes[position] != space {
                    if eventBytes[position] >= 0x80 { return nil }
                    position += 1
                }
            }
            guard position < eventBytes.count else { return true }
            let next = eventBytes[position]
            // A non-ASCII scalar next is never a space or a colon (and a
            // combining one would change the item's last Character).
            guard next < 0x80 else { return false }
            // Nor is the next Character this byte when a combining scalar follows it.
            if position + 1 < eventBytes.count && eventBytes[position + 1] >= 0x80 { return nil }
            return next == space || (next == colon && !wordHasColon)
        }
    }

    /// `expect_coordinators`: exactly these are alive, as a multiset (order
    /// does not matter; a coordinator alive twice is a mismatch).
    /// `once`, `twice`, `3 times`.
    private static func times(_ count: Int) -> String { count == 1 ? "once" : count == 2 ? "twice" : "\(count) times" }

    package static func coordinators(_ expected: [String], actual: [String]) -> ExpectationFailure? {
        var unexpected = actual
        var missing: [String] = []
        for path in expected {
            if let index = unexpected.firstIndex(of: path) { unexpected.remove(at: index) } else { missing.append(path) }
        }
        guard !missing.isEmpty || !unexpected.isEmpty else { return nil }
        var details = "alive: \(render(actual))\n"
        if !missing.isEmpty { details += "missing (expected alive): \(render(missing))\n" }
        // A path listed more often than it is alive: say so, or "missing" reads as "not alive".
        for path in Set(missing).sorted() where actual.contains(path) {
            let listed = expected.count { $0 == path }, alive = actual.count { $0 == path }
            details += "  \(render([path])) is alive \(times(alive)), listed \(times(listed))\n"
        }
        if !unexpected.isEmpty { details += "unexpected (still alive): \(render(unexpected))\n" }
        return ExpectationFailure("live coordinators differ from \(render(expected))", details: details)
    }

    /// `expect_event_count` / `expect_no_event`: how many events match `item`
    /// (exactly or as leading words).
    package static func eventCount(_ item: String, expected: Int, actual events: [String], since mark: Int = 0)
        -> ExpectationFailure?
    {
        let considered = Array(events.dropFirst(mark))
        let matching = considered.enumerated().filter { eventMatches(item, $0.element) }
        guard matching.count != expected else { return nil }
        let what = expected == 0 ? "no event '\(item)'" : "\(expected) event\(expected == 1 ? "" : "s") '\(item)'"
        return ExpectationFailure(
            "expected \(what), found \(matching.count)",
            details: matching.isEmpty ? "" : matching.map { "  #\(mark + $0.offset + 1) \($0.element)" }.joined(separator: "\n"))
    }

    /// `expect_modals`: exactly these modal screens, outermost modal first
    /// (each modal's own stack bottom to top, as `modals()` lists them).
    package static func modals(_ expected: [String], actual: [[String]]) -> ExpectationFailure? {
        let screens = actual.flatMap { $0 }
        let matches = expected.count == screens.count && zip(expected, screens).allSatisfy { entryMatches($0, $1) }
        guard !matches else { return nil }
        return ExpectationFailure(
            "the modal chain is \(render(screens)), expected \(render(expected))",
            details: actual.isEmpty
                ? "no modal is presented"
                : "modal stacks, outermost first:\n"
                    + actual.map { "  " + render($0) }.joined(separator: "\n"))
    }

    /// `expect_snapshot`: each given part of the navigation state equals the
    /// actual one; parts left out are not compared.
    package static func snapshot(_ expected: [String: [String]], actual: [String: [String]]) -> ExpectationFailure? {
        var lines: [String] = []
        for key in expected.keys.sorted() {
            let want = expected[key] ?? []
            let have = actual[key] ?? []
            let same = want.count == have.count && zip(want, have).allSatisfy { entryMatches($0, $1) }
            if !same { lines.append("\(key): \(render(have)), expected \(render(want))") }
        }
        guard !lines.isEmpty else { return nil }
        return ExpectationFailure(
            "the navigation state differs in "
                + lines.map { String($0.prefix { $0 != ":" }) }
                .joined(separator: ", "), details: lines.map { "  " + $0 }.joined(separator: "\n"))
    }

    /// `expect_no_leaks`: everything that left the navigation was released.
    package static func noLeaks(_ leaks: [String]) -> ExpectationFailure? {
        guard !leaks.isEmpty else { return nil }
        return ExpectationFailure(
            "\(leaks.count) object\(leaks.count == 1 ? "" : "s") leaked",
            details: leaks.map { "  leaked: \($0)" }.joined(separator: "\n"))
    }

    /// Compares one value (`expect_screen`, `expect_tab`, `expect_modal`).
    package static func equal(_ what: String, expected: String, actual: String?) -> ExpectationFailure? {
        guard let actual, entryMatches(expected, actual) else {
            return ExpectationFailure(
                "\(what) is \(actual.map { "'\(spelled($0))'" } ?? "nothing"), expected '\(spelled(expected))'")
        }
        return nil
    }

    /// `expect_same_outcome`: every entry point's observation must equal the first's.
    /// What `expect_same_outcome` expects of a link every entry point could refuse (its `rejected` option).
    package enum Refusal: Sendable {
        /// A link every entry point rejects fails: the outcomes agreed only in refusing it (a typo
        /// in a table of links, `shop://prodcut/1`, compared no route and passed).
        case fails
        /// Every entry point must reject the link (`rejected = true`).
        case required
        /// The entry points need only agree, refusing or not (`rejected = "allowed"`: a hostile
        /// link, or a table that mixes both).
        case allowed
    }

    /// `expect_same_outcome`: each entry point's observation against the first's. `rejection`: the
    /// kind of error the entry point's outcome was (nil: the link was routed); `refusal`: what a
    /// link every entry point rejects means.
    package static func sameOutcome(
        url: String, observations: [(entry: String, observation: [String], rejection: String?)], refusal: Refusal = .fails
    ) -> ExpectationFailure? {
        guard let reference = observations.first else { return nil }
        let differing = observations.dropFirst().filter { $0.observation != reference.observation }
        guard !differing.isEmpty else {
            if refusal == .required, let routed = observations.first(where: { $0.rejection == nil }) {
                return ExpectationFailure(
                    "\(url) was to be rejected through every entry point ({ rejected = true }), but \(routed.entry) took it",
                    details: routed.observation.map { "    \($0)" }.joined(separator: "\n"))
            }
            if refusal == .fails, let kind = reference.rejection, observations.allSatisfy({ $0.rejection != nil }) {
                return ExpectationFailure(
                    "every entry point rejected \(url) (\(kind)): the outcomes agree only in refusing it, so no route "
                        + "was compared",
                    details: "to fix: correct the link if it should open a screen, or say that its refusal is what is "
                        + "checked: expect_same_outcome(url, entries, { rejected = true }) (or { rejected = \"allowed\" } "
                        + "when the entry points need only agree)")
            }
            return nil
        }
        var details = ""
        for other in differing {
            details += "\(reference.entry) vs \(other.entry):\n"
            let count = max(reference.observation.count, other.observation.count)
            for index in 0..<count {
                let left = index < reference.observation.count ? reference.observation[index] : "(none)"
                let right = index < other.observation.count ? other.observation[index] : "(none)"
                details += left == right ? "    \(left)\n" : "  - \(reference.entry): \(left)\n  + \(other.entry): \(right)\n"
            }
        }
        return ExpectationFailure(
            "\(url) does not give the same outcome through "
                + ([reference.entry] + differing.map(\.entry)).joined(separator: " and "),
            details: details)
    }

    /// `{ "home", "product:p1004" }`, as a scenario would write it.
    package static func render(_ list: [String]) -> String {
        "{ " + list.map { "\"\(spelled($0))\"" }.joined(separator: ", ") + " }"
    }

    /// `value` with what no report can show spelled out — control characters (`\u{1B}`: reports
    /// strip them, and an ESC sequence ate the rest), characters nothing draws (`<U+200B>`) and spaces
    /// other than U+0020 (`<U+A0>`) —
    /// so a failure never reads "expected 'product:p1'" beside an actual 'product:p1'.
    package static func spelled(_ value: String) -> String {
        guard value.unicodeScalars.contains(where: { isHidden($0) }) else { return value }
        return value.unicodeScalars.map { scalar in
            guard isHidden(scalar) else { return String(scalar) }
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return scalar.properties.generalCategory == .control ? "\\u{\(hex)}" : "<U+\(hex)>"
        }.joined()
    }

    /// A control, a character nothing draws, or a space other than U+0020 (a no-break space reads as one).
    private static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control || scalar.properties.isDefaultIgnorableCodePoint
            || (scalar != " " && scalar.properties.generalCategory == .spaceSeparator)
    }

    static func sideBySide(expected: [String], actual: [String]) -> String {
        let expected = expected.map(spelled), actual = actual.map(spelled)
        let width = max(8, expected.map(\.count).max() ?? 0)
        var lines = ["  " + "expected".padding(toLength: width, withPad: " ", startingAt: 0) + "  actual"]
        for index in 0..<max(expected.count, actual.count) {
            let left = index < expected.count ? expected[index] : "-"
            let right = index < actual.count ? actual[index] : "-"
            let same = index < expected.count && index < actual.count && entryMatches(left, right)
            lines.append((same ? "  " : "✗ ") + left.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + right)
        }
        return lines.joined(separator: "\n")
    }
}
