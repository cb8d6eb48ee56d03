import Foundation

/// Finds a repeated group that repeats something inside it without a
/// delimiter — `(a+)+`, `(\d+-?)*`, `([a-z]+[a-z]+)+`, `(.*a){12}` — in a
/// param pattern of a route manifest.
///
/// Why: the router matches params with a backtracking engine, and on a long
/// value that almost fits such a pattern it tries exponentially many ways
/// to share the value out between the turns: a 24-character link held the
/// router for more than fifteen minutes. `routes check` says so before
/// rollout. A turn that begins or ends with a character none of its
/// repetitions can match — `(-[a-z]+)*`, `([0-9]+\.)+` — splits the value
/// one way only, and is fine. A repeated group whose alternatives can
/// begin with the same character — `(a|aa)+`, `([A-Z]|A)*`, `(\w|-|a)+`,
/// or one that may match nothing beside another, `(a|a?)+` — shares a value
/// out in as many ways (a Fibonacci number of them for `(a|aa)+`):
/// ``findOverlappingAlternatives(in:)``; `(a|b)+`, `([a-z]|-)+` are fine.
enum NestedRepetition {
    /// One atom of a pattern and how it may repeat.
    private struct Atom {
        /// The atom's text; for a group, what is inside its parentheses.
        var body: ArraySlice<Character>
        var isGroup: Bool
        /// The quantifier as written (empty: none).
        var quantifier: ArraySlice<Character>

        /// A possessive quantifier (`a++`, `(…)*+`, `{2,}+`): what it took is
        /// never given back, so it cannot share a value out in many ways.
        var isPossessive: Bool { quantifier.count >= 2 && quantifier.last == "+" }

        /// An atomic group (`(?>…)`): each turn, once matched, is never tried another way.
        var isAtomic: Bool { isGroup && body.starts(with: ["?", ">"]) }

        /// A `{…}` quantifier's bounds as the router's engine (Swift Regex) reads them: spaces ignored
        /// (`{ 0 , 2 }`), an empty lower bound 0 (`{,n}`), an empty upper one none (`{n,}`); nil for
        /// another quantifier, or bounds that are no numbers.
        var braces: (low: Int, high: Int?, hasComma: Bool)? {
            guard quantifier.first == "{", let close = quantifier.firstIndex(of: "}") else { return nil }
            let inside = quantifier[quantifier.index(after: quantifier.startIndex)..<close].filter { !$0.isWhitespace }
            let bounds = inside.split(separator: ",", omittingEmptySubsequences: false)
            guard let first = bounds.first, let low = first.isEmpty ? 0 : Int(String(first)) else { return nil }
            if bounds.count == 1 { return (low, low, false) }
            guard bounds.count == 2 else { return nil }
            if bounds[1].isEmpty { return (low, nil, true) }
            guard let high = Int(String(bounds[1])) else { return nil }
            return (low, high, true)
        }

        /// `*`, `+`, `{n,}`, `{n,m}` with m > 1 (a lazy `?` after them changes
        /// nothing); not possessive, and not of an atomic group.
        var repeats: Bool {
            guard let first = quantifier.first, !isPossessive, !isAtomic else { return false }
            if first == "*" || first == "+" { return true }
            guard let braces else { return false }
            return braces.high.map { $0 > 1 } ?? true
        }

        /// `*`, `+`, `{n,}`: no upper bound.
        var isUnbounded: Bool {
            guard let first = quantifier.first else { return false }
            if first == "*" || first == "+" { return true }
            return braces.map { $0.hasComma && $0.high == nil } ?? false
        }

        /// How many times it may match at most: nil for `*`, `+`, `{n,}` (no end); 1 without a quantifier or for `?`.
        var upperBound: Int? {
            guard let first = quantifier.first else { return 1 }
            if first == "*" || first == "+" { return nil }
            guard let braces else { return 1 }
            return braces.high
        }

        /// The lower bound of `{n}` or `{n,m}` (0: another quantifier, or none).
        var fixedCount: Int { braces?.low ?? 0 }

        /// `{n}`: exactly n times.
        var isFixedCount: Bool {
            braces.map { !$0.hasComma } == true && !isGroup
        }

        /// `?`, `*`, `{0,…}`, `{,n}`: the pattern may skip it.
        var isOptional: Bool {
            guard let first = quantifier.first else { return false }
            return first == "?" || first == "*" || braces?.low == 0
        }
    }

    /// The first repeated group that can repeat ambiguously, as written with
    /// its quantifier (`(a+)+`), or nil.
    static func find(in pattern: String) -> String? {
        readings(of: pattern).lazy.compactMap { find(in: $0, whole: pattern) }.first
    }

    /// The texts the rules read `pattern` as: as written and ``withoutNoise(_:)`` — or only the
    /// latter when the pattern quotes text (`\Q…\E`), whose characters are literals however they read
    /// as written (`[a-z]+(?:\Q.\E[a-z]+)*` is `[a-z]+(?:\.[a-z]+)*`, not a dot that matches anything).
    private static func readings(of pattern: String) -> [ArraySlice<Character>] {
        let plain = Array(withoutNoise(pattern))[...]
        return pattern.contains("\\Q") ? [plain] : [Array(pattern)[...], plain]
    }

    /// Whether any part of `pattern` matches letters caselessly: a flag group that turns `i` on,
    /// wherever `i` stands among its flags (`(?i)`, `(?mi:…)`, `(?^si:…)`), not after a `-`.
    static func isCaseless(_ pattern: String) -> Bool {
        let characters = Array(pattern)
        var index = 0
        while index + 1 < characters.count {
            if characters[index] == "(", characters[index + 1] == "?" {
                var next = index + 2
                while next < characters.count, "imsxwnU^".contains(characters[next]) {
                    if characters[next] == "i" { return true }
                    next += 1
                }
            }
            index += 1
        }
        return false
    }

    /// Two other shapes that share a value out in too many ways: three or
    /// more unbounded repetitions in a row that can match the same characters
    /// (`.*.*.*x`: polynomial, a power per repetition), and a group that may
    /// match nothing repeated a fixed number of times (`(?:a?){30}a{30}`:
    /// exponential). As written, or nil.
    static func findRuns(in pattern: String) -> String? {
        // `(?i)`: letters match either case, so `[a-z]+[A-Z]+` share every letter.
        readings(of: pattern).lazy.compactMap { findRuns(in: $0, caseless: isCaseless(pattern)) }.first
    }

    /// `pattern` without what matches nothing and only spaces it out: a
    /// `(?#…)` comment, an empty `\Q\E`, and under `(?x)` white space and
    /// `#` comments outside classes (`(?x) [a-z]+ [a-z]+ [a-z]+ x` is
    /// `[a-z]+[a-z]+[a-z]+x`). Quoted text (`\Q…\E`) is escaped character
    /// by character.
    static func withoutNoise(_ pattern: String) -> String {
        let extended = pattern.contains("(?x")
        let text = Array(pattern)
        var out = ""
        var index = 0
        var inClass = 0
        while index < text.count {
            let character = text[index]
            if character == "\\", index + 1 < text.count {
                if text[index + 1] == "Q" {
                    // Literal up to \E (or the end).
                    var end = index + 2
                    while end < text.count, !(text[end] == "\\" && end + 1 < text.count && text[end + 1] == "E") {
                        let literal = text[end]
                        out += literal.isLetter || literal.isNumber ? String(literal) : "\\" + String(literal)
                        end += 1
                    }
                    index = min(end + 2, text.count)
                    continue
                }
                out.append(character)
                out.append(text[index + 1])
                index += 2
                continue
            }
            if inClass == 0, character == "(", index + 2 < text.count, text[index + 1] == "?", text[index + 2] == "#" {
                while index < text.count, text[index] != ")" { index += 1 }
                index += 1
                continue
            }
            if character == "[" { inClass += 1 } else if character == "]", inClass > 0 { inClass -= 1 }
            if extended, inClass == 0 {
                if character.isWhitespace {
                    index += 1
                    continue
                }
                if character == "#" {
                    while index < text.count, text[index] != "\n" { index += 1 }
                    continue
                }
            }
            out.append(character)
            index += 1
        }
        return out
    }

    private static func findRuns(in text: ArraySlice<Character>, caseless: Bool) -> String? {
        for alternative in alternatives(text) {
            let parts = inlined(atoms(alternative))
            // Repetitions in a row over shared characters, and the ways they can share a value out: the
            // product of their counts (an unbounded one: without end). Three or more with a million ways or
            // more (`.*.*.*`, `[a-z]{0,99}` five times) can take that many tries on a value that almost fits.
            // From each repetition, the repetitions after it that a value can be shared out with.
            func repeating(_ atom: Atom) -> (repeats: Bool, ways: Double) {
                // An optional group that repeats inside (`(?:[a-z]+)?`) is a repetition that may be absent.
                if atom.isGroup && atom.isOptional && containsRepetition(atom.body) { return (true, .infinity) }
                return atom.repeats ? (true, atom.upperBound.map { Double($0) + 1 } ?? .infinity) : (false, 1)
            }
            for (offset, first) in parts.enumerated() where repeating(first).repeats {
                var last = first
                var count = 1
                var ways = repeating(first).ways
                for atom in parts[(offset + 1)...] where !isZeroWidth(atom) {
                    let (repeats, atomWays) = repeating(atom)
                    if repeats, turnsOverlap(last, atom, caseless: caseless) {
                        last = atom
                        count += 1
                        ways *= atomWays
                        if count >= 3, ways >= 1_000_000 {
                            let start = first.isGroup ? text.index(before: first.body.startIndex) : first.body.startIndex
                            return String(text[balanced(start..<atom.quantifier.endIndex, in: text)])
                        }
                    } else if atom.isOptional || (atom.isGroup && matchesEmpty(atom.body)) || turnsOverlap(last, atom, caseless: caseless) {
                        // What may match nothing between two repetitions (`-?`, `(?:-?)`, a `[0-9]*` on a value of
                        // letters) does not keep them apart: the value is shared out across it as if it were not
                        // there. Nor does a character they can match themselves (`[a-z]+a[a-z]+`, `\w+\w\w+`): it
                        // can be any of theirs, so no delimiter.
                        continue
                    } else {
                        break
                    }
                }
            }
            for atom in parts where atom.isGroup {
                if atom.fixedCount >= 8, matchesEmpty(atom.body) {
                    return String(text[text.index(before: atom.body.startIndex)..<atom.quantifier.endIndex])
                }
                if let inner = findRuns(in: withoutGroupPrefix(atom.body), caseless: caseless) { return inner }
            }
        }
        return nil
    }

    /// Whether a turn of one repetition could be taken by the other, read by
    /// what their turns can begin with: a value is shared out between
    /// `[a-z]+` and `(?:[a-z]+)?` in many ways, but not between
    /// `[a-z0-9]+`, `(?:-[a-z0-9]+)*` and `(?:\.[a-z]+)?` (each turn begins
    /// with a delimiter the repetition before cannot match: one way only).
    private static func turnsOverlap(_ one: Atom, _ other: Atom, caseless: Bool) -> Bool {
        func firsts(_ atom: Atom) -> [Atom] {
            guard atom.isGroup else { return [atom] }
            return alternatives(withoutGroupPrefix(atom.body)).flatMap { leadingAtoms(of: atoms($0), depth: 0).atoms }
        }
        let theirs = firsts(other)
        return firsts(one).contains { mine in theirs.contains { overlaps(mine, $0, caseless: caseless) } }
    }

    /// `range` widened to whole groups: a run found inside groups that were
    /// read as their contents (`(?:[a-z]+)(?:[a-z]+)…`) is echoed with
    /// their parentheses, as written.
    private static func balanced(_ range: Range<Int>, in text: ArraySlice<Character>) -> Range<Int> {
        var depth = 0
        var lowest = 0
        for character in text[range] {
            if character == "(" {
                depth += 1
            } else if character == ")" {
                depth -= 1
                lowest = min(lowest, depth)
            }
        }
        var (low, high) = (range.lowerBound, range.upperBound)
        var openings = -lowest
        var closings = depth - lowest
        while openings > 0, low > text.startIndex {
            low -= 1
            if text[low] == "(" { openings -= 1 } else if text[low] == ")" { openings += 1 }
        }
        while closings > 0, high < text.endIndex {
            if text[high] == ")" { closings -= 1 } else if text[high] == "(" { closings += 1 }
            high += 1
        }
        return low..<high
    }

    /// `atoms` with each group that is not repeated and has one alternative
    /// replaced by its own atoms (`(?:[a-z]+)` reads as `[a-z]+`), and flag
    /// settings (`(?i)`) left out: neither changes what repeats next to what.
    private static func inlined(_ atoms: [Atom]) -> [Atom] {
        atoms.flatMap { atom -> [Atom] in
            guard atom.isGroup, atom.quantifier.isEmpty else { return [atom] }
            if atom.body.first == "?", atom.body.dropFirst().allSatisfy({ "imsxwn-".contains($0) }) { return [] }
            let content = withoutGroupPrefix(atom.body)
            let choices = alternatives(content)
            guard choices.count == 1, let only = choices.first else { return [atom] }
            return inlined(Self.atoms(only))
        }
    }

    /// The fixed words an alternative matches — literal characters, and groups without a quantifier
    /// whose alternatives are fixed words in turn (`sh(?:oes|irts)`: `shoes`, `shirts`) — or nil for
    /// anything else, or more than `limit` words.
    private static func fixedWords(_ text: ArraySlice<Character>, limit: Int) -> [String]? {
        var words = [""]
        for atom in atoms(text) {
            guard atom.quantifier.isEmpty, !isZeroWidth(atom), !atom.isAtomic else { return nil }
            if atom.isGroup {
                // A plain, named or flag-scoped group; a lookaround or a conditional is no fixed word.
                if atom.body.first == "?", !"<':P^imsxwn-".contains(atom.body.dropFirst().first ?? "=") { return nil }
                var inner: [String] = []
                for choice in alternatives(withoutGroupPrefix(atom.body)) {
                    guard let spelled = fixedWords(choice, limit: limit) else { return nil }
                    inner += spelled
                }
                guard words.count * inner.count <= limit else { return nil }
                words = words.flatMap { word in inner.map { word + $0 } }
            } else {
                guard let literal = literalCharacter(atom.body) else { return nil }
                words = words.map { $0 + String(literal) }
            }
        }
        return words.count <= limit ? words : nil
    }

    /// Whether a group's content can match the empty string (in some alternative, every atom is optional).
    private static func matchesEmpty(_ content: ArraySlice<Character>) -> Bool {
        alternatives(withoutGroupPrefix(content)).contains { alternative in
            atoms(alternative).allSatisfy { $0.isOptional || ($0.isGroup && matchesEmpty($0.body)) }
        }
    }

    /// Whether two repeating atoms can match a character in common, tried
    /// on ``probes`` (groups: assumed). Each is read by what it matches, not
    /// by how it is spelled: `\p{L}+\p{Ll}+\p{L}+x` and `[a-z]+[a-y]+[b-z]+x`
    /// passed as three different repetitions, and a long link hung the router.
    private static func overlaps(_ one: Atom, _ other: Atom, caseless: Bool = false) -> Bool {
        if one.isGroup || other.isGroup || one.body == other.body { return true }
        let first = test(one, caseless: caseless), second = test(other, caseless: caseless)
        let literals = [one, other].compactMap { literalCharacter($0.body) }
        return (literals + probes + spelled(in: [one, other])).contains { first($0) && second($0) }
    }

    /// The characters the atoms spell out — written as themselves beyond ASCII, or as escapes
    /// (`\x{E000}`, `\u00e9`, `\x41`) — tried besides ``probes``: two atoms that share only a
    /// private-use character (`\x{E000}` and `[\x{E000}-\x{E001}]`) overlapped unseen.
    private static func spelled(in atoms: [Atom]) -> [Character] {
        var found: [Character] = []
        for atom in atoms {
            let body = atom.body
            var index = body.startIndex
            while index < body.endIndex {
                if let escaped = escapedCharacter(body[index...]) {
                    found.append(escaped.character)
                    index = escaped.end
                    continue
                }
                if body[index] == "\\" {
                    index = min(index + 2, body.endIndex)
                    continue
                }
                if !body[index].isASCII { found.append(body[index]) }
                index += 1
            }
        }
        return found
    }

    /// The code points an atom matches, as ranges, when it is a literal character or a class of
    /// literal characters and ranges (`[a-z0-9_]`, `[\x{E000}-\x{E0FF}]`); nil for anything else (a
    /// negated or nested class, `\d`, `\p{L}`, `.`). Such atoms are compared exactly, whatever
    /// characters they spell: past 2,048 spelled characters, two that shared only a private-use
    /// character overlapped unseen.
    private static func codeRanges(_ atom: Atom) -> [ClosedRange<UInt32>]? {
        guard !atom.isGroup else { return nil }
        if let literal = literalCharacter(atom.body) {
            guard literal.unicodeScalars.count == 1, let scalar = literal.unicodeScalars.first else { return nil }
            return [scalar.value...scalar.value]
        }
        let body = atom.body
        guard body.count >= 3, body.first == "[", body.last == "]" else { return nil }
        let inner = body.dropFirst().dropLast()
        guard inner.first != "^", !inner.contains("[") else { return nil }
        // One member at `index`: its code point and the index after it; nil for a class escape.
        func member(at index: Int) -> (value: UInt32, end: Int)? {
            if let escaped = escapedCharacter(inner[index...]) {
                guard escaped.character.unicodeScalars.count == 1 else { return nil }
                return (escaped.character.unicodeScalars.first!.value, escaped.end)
            }
            if inner[index] == "\\" {
                guard index + 1 < inner.endIndex else { return nil }
                let escaped = inner[index + 1]
                guard !escaped.isLetter, !escaped.isNumber, escaped.unicodeScalars.count == 1 else { return nil }
                return (escaped.unicodeScalars.first!.value, index + 2)
            }
            guard inner[index].unicodeScalars.count == 1 else { return nil }
            return (inner[index].unicodeScalars.first!.value, index + 1)
        }
        var ranges: [ClosedRange<UInt32>] = []
        var index = inner.startIndex
        while index < inner.endIndex {
            // Set operations (`&&`, `--`, `~~`) read otherwise: not a plain class.
            if index + 1 < inner.endIndex, ["&&", "--", "~~"].contains(String(inner[index...(index + 1)])) { return nil }
            guard let low = member(at: index) else { return nil }
            index = low.end
            if index + 1 < inner.endIndex, inner[index] == "-" {
                guard let high = member(at: index + 1), low.value <= high.value else { return nil }
                ranges.append(low.value...high.value)
                index = high.end
            } else {
                ranges.append(low.value...low.value)
            }
        }
        return ranges.isEmpty ? nil : ranges
    }

    /// Whether ranges from two different leads overlap: sorted by their start, each is compared
    /// with the farthest end another lead's reached before it — kept as the two farthest ends of
    /// two different leads (linear after the sort).
    private static func rangesOverlap(_ ranges: [(range: ClosedRange<UInt32>, lead: Int)]) -> Bool {
        var first: (end: UInt32, lead: Int)?
        var second: (end: UInt32, lead: Int)?  // of a lead other than `first`'s
        for (range, lead) in ranges.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            let otherEnd = first.map { $0.lead != lead ? $0.end : second?.end } ?? nil
            if let otherEnd, range.lowerBound <= otherEnd { return true }
            let end = range.upperBound
            if let top = first, top.lead == lead {
                first = (max(top.end, end), lead)
            } else if first == nil || end > first!.end {
                second = first
                first = (end, lead)
            } else if second == nil || second!.lead == lead || end > second!.end {
                second = (max(second?.lead == lead ? second!.end : 0, end), lead)
            }
        }
        return false
    }

    /// The characters two repetitions are tried against: ASCII's printable
    /// ones and tab, and letters, digits and symbols of other scripts.
    /// Characters of more than one code point, for whole alternatives: a letter with its accent composed and not.
    private static let wholeProbes: [Character] = ["\u{E9}", "e\u{301}", "\u{C5}", "A\u{30A}", "\u{1F1EB}\u{1F1F7}"]

    private static let probes: [Character] =
        (32...126).map { Character(Unicode.Scalar(UInt8($0))) } + Array("\téßÅЖж漢ー١٣ａ€²½")

    private static func find(in text: ArraySlice<Character>, whole: String) -> String? {
        let caseless = isCaseless(whole)
        return firstRepeatedGroup(in: text) { repeatsUndelimited($0, caseless: caseless) }
    }

    /// The first repeated group whose alternatives can begin with the same
    /// character (`(a|aa)+`, `([A-Z]|A)*`) or of which one may match nothing
    /// beside another (`(a|a?)+`), as written with its quantifier, or nil.
    static func findOverlappingAlternatives(in pattern: String) -> String? {
        let caseless = isCaseless(pattern)
        return readings(of: pattern).lazy.compactMap { text in
            firstRepeatedGroup(in: text) { overlapsSomewhere($0, caseless: caseless) }
        }.first
    }

    /// Whether a group's content, or a group inside it, has alternatives that
    /// overlap: `((a|a)x)+` takes one of two ways at every turn.
    private static func overlapsSomewhere(_ content: ArraySlice<Character>, caseless: Bool) -> Bool {
        if alternativesOverlap(content, caseless: caseless) || turnsRunTogether(content, caseless: caseless) { return true }
        return alternatives(withoutGroupPrefix(content)).contains { alternative in
            atoms(alternative).contains { $0.isGroup && overlapsSomewhere($0.body, caseless: caseless) }
        }
    }

    /// The first group, outermost first, that repeats and whose content is
    /// `bad` — from its opening parenthesis to its quantifier's end.
    private static func firstRepeatedGroup(
        in text: ArraySlice<Character>, where bad: (ArraySlice<Character>) -> Bool
    ) -> String? {
        for alternative in alternatives(text) {
            for atom in atoms(alternative) where atom.isGroup {
                if atom.repeats && bad(atom.body) {
                    let start = text.index(before: atom.body.startIndex)
                    return String(text[start..<atom.quantifier.endIndex])
                }
                if let inner = firstRepeatedGroup(in: atom.body, where: bad) { return inner }
            }
        }
        return nil
    }

    /// Whether a group's content, in some alternative, repeats something
    /// (an atom, or a group that does) and has no delimiter: a required
    /// character at its start or end that none of its repetitions can match.
    private static func repeatsUndelimited(_ content: ArraySlice<Character>, caseless: Bool) -> Bool {
        alternatives(withoutGroupPrefix(content)).contains { alternative in
            let parts = atoms(alternative)
            // A fixed count (`[a-f0-9]{2}`) is a turn of one width, one way to split a value: not a repetition here.
            let repeating = parts.filter { ($0.repeats && !$0.isFixedCount) || ($0.isGroup && containsRepetition($0.body)) }
            guard !repeating.isEmpty else { return false }
            let ends = [parts.first, parts.last].compactMap { $0 }.filter { $0.quantifier.isEmpty && !$0.isGroup }
            // A literal or a class (`-`, `[-_]`, `[.]`, `[A-Z]` before `[a-z]+`) none of the repetitions can match.
            let delimited = ends.contains { end in
                if let literal = literalCharacter(end.body) {
                    return !repeating.contains { canContain($0, literal, depth: 0, caseless: caseless) }
                }
                return !repeating.contains { containsOverlap($0, end, depth: 0, caseless: caseless) }
            }
            return !delimited
        }
    }

    /// Whether two alternatives of a group's content can begin with the same
    /// character, or one may match nothing (then any other overlaps it).
    private static func alternativesOverlap(_ content: ArraySlice<Character>, caseless: Bool) -> Bool {
        let choices = alternatives(withoutGroupPrefix(content))
        guard choices.count > 1 else { return false }
        // Fixed words none of which begins another (`en|es|fr`, `jan|jun|jul`): a value splits into them
        // one way only, however many share a first letter (a prefix-free set is uniquely decodable).
        // Written flat or grouped — by category, or factored as generators emit them (`sh(?:oes|irts)`).
        var words: [String]? = []
        for choice in choices {
            guard let spelled = fixedWords(choice, limit: 10_000 - (words?.count ?? 0)) else {
                words = nil
                break
            }
            words? += spelled.map { caseless ? $0.lowercased() : $0 }
        }
        if let words {
            // Sorted, a word that begins another comes right before one it begins (linear after the sort:
            // an allow-list of thousands of codes is checked at once). The same word twice begins itself.
            let fixed = words.sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }
            let prefixFree = zip(fixed, fixed.dropFirst()).allSatisfy { !$1.unicodeScalars.starts(with: $0.unicodeScalars) }
            if prefixFree { return false }
        }
        let leads = choices.map { leadingAtoms(of: atoms($0), depth: 0) }
        if leads.contains(where: { $0.mayBeEmpty }) { return true }
        // Two whole alternatives that match one same character, as the router's engine reads them: `\X|a`,
        // `[é]|e\u0301` (one character under canonical equivalence).
        let whole = choices.compactMap { try? Regex<AnyRegexOutput>("(?:" + String($0) + ")").ignoresCase(caseless) }
        if whole.count == choices.count {
            for probe in probes + wholeProbes {
                let text = String(probe)
                if whole.filter({ (try? $0.wholeMatch(in: text)) != nil }).count > 1 { return true }
            }
        }
        return leadsOverlap(leads.map(\.atoms), caseless: caseless)
    }

    /// Whether two of `leads` (each the atoms one alternative can begin with) can begin with the same
    /// character — as ``overlaps(_:_:caseless:)`` judges a pair, each atom read once rather than once
    /// per pair: a generated alternation of thousands held `routes check` for minutes.
    private static func leadsOverlap(_ leads: [[Atom]], caseless: Bool) -> Bool {
        // A group (not opened) is assumed to match anything; two identical atoms overlap.
        if leads.filter({ $0.contains(where: \.isGroup) }).count >= 1 && leads.count > 1 { return true }
        var probesSeen: [Int: Int] = [:]  // probe → the first lead matching it
        // Literal characters and plain classes, compared exactly by the code points they take
        // (under `(?i)` letters match in both cases: left to the probes).
        if !caseless {
            var ranges: [(range: ClosedRange<UInt32>, lead: Int)] = []
            for (index, lead) in leads.enumerated() {
                for atom in lead { if let own = codeRanges(atom) { ranges += own.map { ($0, index) } } }
            }
            if rangesOverlap(ranges) { return true }
        }
        // The characters the alternatives spell out, tried too (only when few: a generated alternation of
        // thousands of literal characters is judged by the literals and ranges themselves).
        let spelledOut = spelled(in: leads.flatMap { $0 })
        let extra = spelledOut.count <= 2048 ? spelledOut : []
        var literalsSeen: [Character: Int] = [:]  // a literal atom's character → its lead
        var bodiesSeen: [String: Int] = [:]
        var classes: [(lead: Int, test: (Character) -> Bool)] = []
        for (index, lead) in leads.enumerated() {
            for atom in lead {
                let body = String(atom.body)
                if let other = bodiesSeen[body], other != index { return true }
                bodiesSeen[body] = index
                let test = test(atom, caseless: caseless)
                for (probe, character) in (probes + extra).enumerated() where test(character) {
                    if let other = probesSeen[probe], other != index { return true }
                    probesSeen[probe] = index
                }
                if let literal = literalCharacter(atom.body) {
                    let key = caseless ? Character(String(literal).lowercased()) : literal
                    if let other = literalsSeen[key], other != index { return true }
                    literalsSeen[key] = index
                } else {
                    classes.append((index, test))
                }
            }
        }
        // A class against the literal characters of the other alternatives (`[a-z]|q`).
        for (lead, test) in classes {
            for (literal, other) in literalsSeen where other != lead && test(literal) { return true }
        }
        return false
    }

    /// Whether a turn can end where its optional tail could go on with what
    /// a turn begins with — `(a[ab]?)+`, `(\d\d?)+`, `(ab?a?)+`: `aa` is one
    /// turn or two, so a value splits a Fibonacci number of ways, as for
    /// `(a|aa)+` — or may match nothing at all (`(a?b?)+`). `(ab?)+`,
    /// `(a\.?)+`, `(-?a)+` end one way only and are fine.
    private static func turnsRunTogether(_ content: ArraySlice<Character>, caseless: Bool) -> Bool {
        let choices = alternatives(withoutGroupPrefix(content))
        let firsts = choices.flatMap { leadingAtoms(of: atoms($0), depth: 0).atoms }
        for choice in choices {
            let parts = atoms(choice).filter { !isZeroWidth($0) }
            guard !parts.isEmpty else { continue }
            let optional = { (atom: Atom) in atom.isOptional || (atom.isGroup && matchesEmpty(atom.body)) }
            guard let lastRequired = parts.lastIndex(where: { !optional($0) }) else { return true }  // a turn of nothing
            let tail = Array(parts[(lastRequired + 1)...])
            guard !tail.isEmpty else { continue }
            let goingOn = leadingAtoms(of: tail, depth: 0).atoms
            if goingOn.contains(where: { one in firsts.contains { overlaps(one, $0, caseless: caseless) } }) { return true }
        }
        return false
    }

    /// What matches no character: an anchor, a word boundary, a lookaround.
    private static func isZeroWidth(_ atom: Atom) -> Bool {
        if !atom.isGroup, atom.body.count == 1, atom.body.first == "^" || atom.body.first == "$" { return true }
        if !atom.isGroup, atom.body.count == 2, atom.body.first == "\\", let kind = atom.body.last, "bBAzZG".contains(kind) { return true }
        return atom.isGroup && ["?=", "?!", "?<=", "?<!", "?#"].contains(where: { atom.body.starts(with: $0) })
    }

    /// The atoms an alternative's match can begin with — each one up to the
    /// first that must match, groups opened into theirs — and whether it
    /// may match nothing at all. A group too deep to open stands for itself
    /// (``overlaps(_:_:caseless:)`` assumes a group matches anything).
    private static func leadingAtoms(of parts: [Atom], depth: Int) -> (atoms: [Atom], mayBeEmpty: Bool) {
        var leading: [Atom] = []
        for atom in parts {
            // What matches no character: an anchor, a word boundary, a lookaround — the match begins after it.
            if isZeroWidth(atom) { continue }
            var optional = atom.isOptional
            if atom.isGroup, depth < 8 {
                for choice in alternatives(withoutGroupPrefix(atom.body)) {
                    let inner = leadingAtoms(of: atoms(choice), depth: depth + 1)
                    leading += inner.atoms
                    if inner.mayBeEmpty { optional = true }
                }
            } else {
                leading.append(atom)
            }
            if !optional { return (leading, false) }
        }
        return (leading, true)
    }

    /// Whether anything in `content` repeats.
    private static func containsRepetition(_ content: ArraySlice<Character>) -> Bool {
        alternatives(withoutGroupPrefix(content)).contains { alternative in
            atoms(alternative).contains { ($0.repeats && !$0.isFixedCount) || ($0.isGroup && containsRepetition($0.body)) }
        }
    }

    /// The one character an atom stands for (`-`, `\.`), or nil (a class, `.`, `\d`).
    private static func literalCharacter(_ body: ArraySlice<Character>) -> Character? {
        if body.count == 1, let only = body.first, !".^$".contains(only) { return only }
        // An escaped letter is a class or an escape (`\d`, `\X`, `\R`, `\h`), not that letter; punctuation is itself.
        if body.count == 2, body.first == "\\", let escaped = body.last, !escaped.isLetter, !escaped.isNumber {
            return escaped
        }
        return escapedCharacter(body).flatMap { $0.end == body.endIndex ? $0.character : nil }
    }

    /// The character an escape at `text`'s start spells by its code — `\x61`, `\x{E000}`, `\u0061`,
    /// `\U00000061`, `\0141` (octal), `\o{141}` — and the index after it; nil for anything else.
    /// Read as written, `\0141` was a NUL and three digits, and `[a-z]+\0141` looked delimited.
    private static func escapedCharacter(_ text: ArraySlice<Character>) -> (character: Character, end: Int)? {
        guard text.count >= 2, text.first == "\\" else { return nil }
        let kind = text[text.startIndex + 1]
        var index = text.startIndex + 2
        var digits = ""
        var radix = 16
        if (kind == "x" || kind == "o") && index < text.endIndex && text[index] == "{" {
            guard let close = text[index...].firstIndex(of: "}") else { return nil }
            digits = String(text[(index + 1)..<close])
            radix = kind == "o" ? 8 : 16
            index = close + 1
        } else if let count = ["x": 2, "u": 4, "U": 8][kind] {
            let hex = text[index...].prefix(count).prefix { $0.isHexDigit }
            guard hex.count == count || (kind == "x" && !hex.isEmpty) else { return nil }
            digits = String(hex)
            index += hex.count
        } else if kind == "0" {
            let octal = text[index...].prefix(3).prefix { ("0"..."7").contains($0) }
            digits = "0" + String(octal)
            radix = 8
            index += octal.count
        } else {
            return nil
        }
        guard let value = UInt32(digits.filter { !$0.isWhitespace }, radix: radix), let scalar = Unicode.Scalar(value) else { return nil }
        return (Character(scalar), index)
    }

    /// Whether a repeating atom could match `character` anywhere in what it matches — a group by
    /// the atoms inside it (`(?:_[a-z]+)*` never matches `.`), up to a depth, then assumed so.
    private static func canContain(_ atom: Atom, _ character: Character, depth: Int, caseless: Bool) -> Bool {
        guard atom.isGroup else { return test(atom, caseless: caseless)(character) }
        guard depth < 8 else { return true }
        return alternatives(withoutGroupPrefix(atom.body)).contains { choice in
            atoms(choice).contains { !isZeroWidth($0) && canContain($0, character, depth: depth + 1, caseless: caseless) }
        }
    }

    /// Whether a repeating atom, anywhere in what it matches, shares a character with `end` (a class).
    private static func containsOverlap(_ atom: Atom, _ end: Atom, depth: Int, caseless: Bool) -> Bool {
        guard atom.isGroup else { return overlaps(end, atom, caseless: caseless) }
        guard depth < 8 else { return true }
        return alternatives(withoutGroupPrefix(atom.body)).contains { choice in
            atoms(choice).contains { !isZeroWidth($0) && containsOverlap($0, end, depth: depth + 1, caseless: caseless) }
        }
    }

    /// Whether `atom` matches one character, as ICU reads it (a group, or
    /// an atom ICU cannot read alone: assumed to match anything).
    private static func test(_ atom: Atom, caseless: Bool = false) -> (Character) -> Bool {
        if atom.isGroup { return { _ in true } }
        if !caseless, let literal = literalCharacter(atom.body) { return { $0 == literal } }
        guard
            let regex = try? NSRegularExpression(
                pattern: "^(?:" + String(atom.body) + ")$", options: caseless ? [.caseInsensitive] : [])
        else { return { _ in true } }
        return { character in
            let text = String(character)
            return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        }
    }

    /// A group's content without `?:`, `?<name>` or `?'name'`.
    private static func withoutGroupPrefix(_ content: ArraySlice<Character>) -> ArraySlice<Character> {
        guard content.first == "?" else { return content }
        let rest = content.dropFirst()
        if rest.first == ":" { return rest.dropFirst() }
        // Flags scoped to the group, `(?i:…)`, `(?x-i:…)`, `(?^:…)`, `(?^i:…)`: the content after the colon.
        let flags = rest.prefix { "imsxwn-^".contains($0) }
        if !flags.isEmpty, rest.dropFirst(flags.count).first == ":" { return rest.dropFirst(flags.count + 1) }
        // Named: `(?<name>…)`, `(?'name'…)`, and Python's `(?P<name>…)`, which the router's engine reads too.
        let named = rest.first == "P" && rest.dropFirst().first == "<" ? rest.dropFirst() : rest
        if let opening = named.first, opening == "<" || opening == "'",
            let close = named.dropFirst().firstIndex(of: opening == "<" ? ">" : "'")
        {
            return named[(close + 1)...]
        }
        return rest.dropFirst()
    }

    /// The top-level alternatives of `text` (split at `|` outside groups and classes).
    private static func alternatives(_ text: ArraySlice<Character>) -> [ArraySlice<Character>] {
        var parts: [ArraySlice<Character>] = []
        var start = text.startIndex
        var index = text.startIndex
        var depth = 0
        while index < text.endIndex {
            switch text[index] {
            case "\\": index = text.index(index, offsetBy: 2, limitedBy: text.endIndex) ?? text.endIndex
            case "[": index = classEnd(text, from: index)
            case "(": depth += 1; index += 1
            case ")": depth -= 1; index += 1
            case "|" where depth == 0:
                parts.append(text[start..<index])
                index += 1
                start = index
            default: index += 1
            }
        }
        parts.append(text[start..<text.endIndex])
        return parts
    }

    /// The atoms of one alternative, each with its quantifier.
    private static func atoms(_ text: ArraySlice<Character>) -> [Atom] {
        var atoms: [Atom] = []
        var index = text.startIndex
        while index < text.endIndex {
            let start = index
            var isGroup = false
            var body: ArraySlice<Character>
            switch text[index] {
            case "\\":
                index = text.index(index, offsetBy: 2, limitedBy: text.endIndex) ?? text.endIndex
                // `\p{L}`, `\P{Ll}`, `\x{263A}`, `\N{…}`: the braces are the escape's, not a quantifier;
                // `\pL`: so is the letter; `\x61`, `\u0061`, `\U00000061`: so are the hex digits.
                if let escaped = escapedCharacter(text[start...]) {
                    index = escaped.end  // `\x61`, `\0141`, `\o{141}`: the digits are the escape's
                } else if index < text.endIndex, text[index] == "{", "pPxNo".contains(text[index - 1]),
                    let close = text[index...].firstIndex(of: "}")
                {
                    index = close + 1
                } else if index < text.endIndex, "pP".contains(text[index - 1]) {
                    index += 1
                }
                body = text[start..<index]
            case "[":
                index = classEnd(text, from: index)
                body = text[start..<index]
            case "(":
                var depth = 0
                var end = index
                while end < text.endIndex {
                    switch text[end] {
                    case "\\": end += 1
                    case "[": end = classEnd(text, from: end) - 1
                    case "(": depth += 1
                    case ")": depth -= 1
                    default: break
                    }
                    end += 1
                    if depth == 0 { break }
                }
                // Unbalanced (an invalid pattern, refused by the regex check): read as text.
                guard depth == 0 else { return atoms }
                isGroup = true
                body = text[(start + 1)..<(end - 1)]
                index = end
            default:
                index += 1
                body = text[start..<index]
            }
            let quantifierStart = index
            if index < text.endIndex {
                switch text[index] {
                case "*", "+", "?": index += 1
                case "{": if let close = text[index...].firstIndex(of: "}") { index = close + 1 }
                default: break
                }
                if index > quantifierStart, index < text.endIndex, text[index] == "?" || text[index] == "+" { index += 1 }
            }
            atoms.append(Atom(body: body, isGroup: isGroup, quantifier: text[quantifierStart..<index]))
        }
        return atoms
    }

    /// The index after the character class opening at `start` (a `]` first
    /// in it is literal; a class inside it, `[[:alpha:]]`, `[[a-z]&&[^q]]`, is its own).
    private static func classEnd(_ text: ArraySlice<Character>, from start: Int) -> Int {
        var end = start + 1
        if end < text.endIndex, text[end] == "^" { end += 1 }
        if end < text.endIndex, text[end] == "]" { end += 1 }
        var depth = 1
        while end < text.endIndex {
            switch text[end] {
            case "\\":
                end += 2
                continue
            case "[": depth += 1
            case "]":
                depth -= 1
                if depth == 0 { return end + 1 }
            default: break
            }
            end += 1
        }
        return text.endIndex
    }
}
