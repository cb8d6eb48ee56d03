import Testing

@testable import NavScriptRunner
@testable import NavScriptRuntime

/// A param pattern that repeats a repeating group can hang the router on
/// a long link; `routes check` names the group.
@Suite("Nested repetition in param patterns")
struct NestedRepetitionTests {
    @Test(arguments: [
        ("(a+)+b", "(a+)+"), ("(a*)*", "(a*)*"), ("x(\\d+-?)*y", "(\\d+-?)*"), ("(a{2,})+", "(a{2,})+"),
        ("([a-z]+)+$", "([a-z]+)+"), ("((a+)b?)+", "((a+)b?)+"), ("(a+){2,5}", "(a+){2,5}"), ("(?:a|b+)+", "(?:a|b+)+"),
        ("(a{1,3})+", "(a{1,3})+"), ("x((a+)+)y", "(a+)+"), ("(?<n>\\w+\\s*)+", "(?<n>\\w+\\s*)+"),
        ("([a-z]+[a-z]+)+b", "([a-z]+[a-z]+)+"), ("(.*a){12}b", "(.*a){12}"),
        ("(a+a)+", "(a+a)+"), ("([^/]+x)+", "([^/]+x)+"),
        // A grapheme (`\X`) matches the delimiter too.
        ("(?:\\X*,){11}P", "(?:\\X*,){11}"),
        // A letter written as an escape is one character: `(\x61+)+` is `(a+)+`.
        ("(\\x61+)+", "(\\x61+)+"), ("(\\u0061+)+", "(\\u0061+)+"),
        // Python's named groups and the flag reset (`(?^:…)`), which the router's engine reads too.
        ("(?P<x>a+)+", "(?P<x>a+)+"), ("(?^:a+)+", "(?^:a+)+"), ("(?^i:a+)+", "(?^i:a+)+"), ("(?:a{\t1,})+", "(?:a{\t1,})+"),
        // A turn's end the repetition matches caselessly is no delimiter.
        ("(?i)([a-z]+A)+", "([a-z]+A)+"), ("(?i)([a-z]+\u{212A})+", "([a-z]+\u{212A})+"),
        // An empty quote is nothing.
        ("\\Q\\E(a+)+", "(a+)+"),
        // A letter spelled in octal is that letter: the turn's end is no delimiter.
        ("(?:[a-z]+\\0141)+", "(?:[a-z]+\\0141)+"), ("(?i)(?:[A-Z]+\\0141)+", "(?:[A-Z]+\\0141)+"),
        ("(?:[a-z]+\\o{141})+", "(?:[a-z]+\\o{141})+")
    ])
    func aRepeatedGroupThatRepeatsIsFound(pattern: String, group: String) {
        #expect(NestedRepetition.find(in: pattern) == group)
    }

    /// Alternatives that can begin with the same character, or one that may
    /// match nothing, repeated: `(A|AA)*` on forty A's and a `!` held the
    /// router past a 15 s timeout, and `routes check` said "no problem".
    @Test(arguments: [
        ("(A|A)*", "(A|A)*"), ("(A|AA)*B?", "(A|AA)*"), ("(?:A|AA)+", "(?:A|AA)+"), ("(A|AB|B)*C", "(A|AB|B)*"),
        ("([A-Z]|A)*", "([A-Z]|A)*"), ("(AB|A|B)*", "(AB|A|B)*"), ("(A|A?)+", "(A|A?)+"), ("(\\w|A)+", "(\\w|A)+"),
        ("x(?:(?:ab|cd)|a)+y", "(?:(?:ab|cd)|a)+"), ("(-?a|a)+", "(-?a|a)+"), ("(?i)(a|A)+", "(a|A)+"),
        ("(?:(b|c)|(a|a))x", nil), ("((a|a)x)+", "((a|a)x)+"), ("(b+|b)+", "(b+|b)+"),
        // However spelled: a scoped flag, an escape for the letter, free spacing, quoted text.
        ("(?i:[a-z]|X)+", "(?i:[a-z]|X)+"), ("(a|\\u0061)+", "(a|\\u0061)+"), ("([a]|\\x61)+", "([a]|\\x61)+"),
        ("(a|(?i:A))+", "(a|(?i:A))+"), ("(?x)(a | a)+", "(a|a)+"), ("(a|\\Qa\\E)+", "(a|a)+"),
        // What matches no character does not set alternatives apart: a lookahead, a word boundary.
        ("(?:(?!b)a|a)+", "(?:(?!b)a|a)+"), ("(?:\\Ba|a)+", "(?:\\Ba|a)+"),
        // Whole alternatives that match one same character: a grapheme class, a letter composed and not.
        ("(?:\\X|a)+z", "(?:\\X|a)+"), ("(?:[é]|e\\u0301)+z", "(?:[é]|e\\u0301)+"), ("(?:[a-z]{2,3})+", nil),
        // An atomic group or a possessive quantifier never tries a turn another way.
        ("(?>a|aa)+", nil), ("(?:a|aa)++", nil), ("(?i:[a-z]|-)+", nil), ("(\\x61|b)+", nil),
        // A turn whose optional tail can go on with what a turn begins with: `aa` is one turn or two
        // (`(a[ab]?)+` held the router 13 s on 21 characters; `(\d\d?)+` 12 s), or a turn of nothing.
        ("(a[ab]?)+", "(a[ab]?)+"), ("(\\d\\d?)+x", "(\\d\\d?)+"), ("(a?b?)+", "(a?b?)+"), ("(ab?a?)+", "(ab?a?)+"),
        ("(a(b|a)?)+", "(a(b|a)?)+"), ("([a-z]-?[a-z]?)+", "([a-z]-?[a-z]?)+"), ("(a(?:b)?a?)+", "(a(?:b)?a?)+"),
        ("(a{,2})+", "(a{,2})+"),
        // Alternatives sharing only a character outside the usual probes (private use).
        ("(?:\\x{E000}|[\\x{E000}-\\x{E001}])+", "(?:\\x{E000}|[\\x{E000}-\\x{E001}])+"), ("(a{ 0 , 2 })+", "(a{ 0 , 2 })+"),
        ("(ab?)+", nil),
        // Python's named groups and the flag reset, which the router's engine reads too.
        ("(?P<x>a|aa)+", "(?P<x>a|aa)+"), ("(?^:a|aa)+", "(?^:a|aa)+"),
        // Caseless wherever `i` stands among a group's flags.
        ("(?mi:a|A)+", "(?mi:a|A)+"), ("(?^si:a|A)+", "(?^si:a|A)+"), ("(?m-i:a|A)+", nil),
        // Fixed words none of which begins another split a value one way only (a list of language codes).
        ("(?:en|es|fr)(?:,(?:en|es|fr))*", nil), ("(?:-(?:red|rose|blue))*", nil), ("(?:ab|ac)+", nil),
        ("(?:ab|abc)+", "(?:ab|abc)+"), ("(?:en|EN)+", nil), ("(?i)(?:en|EN)+", "(?:en|EN)+"), ("(a\\.?)+", nil), ("(-?a)+", nil),
        ("(?:[a-z]+\\.)*[a-z]+", nil), ("(a(?:-b)?)+", nil),
        // The same words written grouped, or factored as generators emit them.
        ("[a-z]+(?:,(?:(?:shoes|shirts)|(?:socks|skirts)))*", nil), ("[a-z]+(?:,(?:shoes|shirts|(?:socks|skirts)))*", nil),
        ("[a-z]+(?:,(?:sh(?:oes|irts)|s(?:ocks|kirts)))*", nil), ("(?:-(?:(?:ab|ac)|(?:ad|ae)))+", nil),
        ("(?:a(?:b|bc))+", "(?:a(?:b|bc))+"), ("(?:(?:ab)|ab)+", "(?:(?:ab)|ab)+"), ("(?:(?=a)ab|ac)+", "(?:(?=a)ab|ac)+"),
        // Quoted text is literal to every rule; an empty quote is nothing.
        ("(\\Q-\\E[a-z]+)+", nil), ("\\Q\\E(a|aa)+", "(a|aa)+")
    ])
    func repeatedAlternativesThatOverlapAreFound(pattern: String, group: String?) {
        #expect(NestedRepetition.findOverlappingAlternatives(in: pattern) == group, "\(pattern)")
    }

    /// Literal characters and plain classes are compared by the code points they take, however
    /// many the pattern spells: past 2,048 spelled characters, `\x{E000}` and `[\x{E000}-\x{E001}]`
    /// overlapped unseen (a generated list of icons), and a link hung the router.
    @Test(arguments: [0, 300, 2047, 3000])
    func alternativesSpelledByCodeAreComparedExactlyHoweverMany(count: Int) {
        let others = (0..<count).map { "\\x{" + String(0xE100 + $0, radix: 16) + "}" }
        let overlapping = "(?:" + (others + ["\\x{E000}", "[\\x{E000}-\\x{E001}]"]).joined(separator: "|") + ")+"
        #expect(NestedRepetition.findOverlappingAlternatives(in: overlapping) != nil, "\(count)")
        let apart = "(?:" + (others + ["\\x{E000}", "[\\x{E001}-\\x{E002}]", "\\0101"]).joined(separator: "|") + ")+"
        #expect(NestedRepetition.findOverlappingAlternatives(in: apart) == nil, "\(count)")
        let classes = "(?:" + (others + ["[\\x{E000}-\\x{E00F}]", "[\\x{E00F}-\\x{E010}]"]).joined(separator: "|") + ")+"
        #expect(NestedRepetition.findOverlappingAlternatives(in: classes) != nil, "\(count)")
    }

    @Test(arguments: [
        "[0-9]{1,6}", "(ab)+", "(a+)?", "(a+){1}", "(a+){1,1}", "\\(a+\\)+", "[(]a+[)]+", "[]a+]+", "(a+)b+",
        "[a-z]+(-[a-z]+)*x", "", "((", "a)+", "(a{1})+", "(\\++)x", "([0-9]+\\.)+[0-9]+", "(/[^/]+)*", "(\\d+,)*\\d+",
        "([a-z0-9]+_)+[a-z]+", "(-\\w+)*", "(a+b)+", "((a+)b)+", "(?>[a-z]+-?)+", "(?:[a-z]+-?)++", "(a++)+",
        // A turn that begins with a class its repetitions cannot match is delimited as a literal is.
        "[a-z0-9]+(?:[-_][a-z0-9]+)*", "(?:[.][a-z]+)*", "(?:[A-Z][a-z]+)*",
        // A turn of one fixed width splits a value one way only.
        "(?:[a-f0-9]{2})+", "(?:\\d{4})*", "(?:[0-9]{3})+", "(?:[a-z]{2}|[0-9])+",
        // A delimited turn that holds a group: the group's atoms cannot match the delimiter.
        "[a-z]+(?:_[a-z]+)*(?:\\.[a-z]+(?:_[a-z]+)*)*", "(?:[a-z]+|\\d+)(?:-(?:[a-z]+|\\d+))*",
        // Quoted text is literal, whatever it would mean as pattern syntax.
        "[a-z]+(?:\\Q.\\E[a-z]+)*", "(\\Q-\\E[a-z]+)+", "(?:\\Q-\\E[a-z]+)*", "x\\Q(a+)+\\E", "\\Q(x*)*\\E[0-9]+"
    ])
    func aPatternWithoutOneIsNot(pattern: String) {
        #expect(NestedRepetition.find(in: pattern) == nil, "\(pattern)")
        for fine in ["(a|b)+", "([a-z]|-)+", "(?:[0-9]|[a-f])+x", "(ab|cd)*", "(A|B)?", "(A|AA)", "(a|b|c)*d", pattern] {
            #expect(NestedRepetition.findOverlappingAlternatives(in: fine) == nil, "\(fine)")
        }
    }

    /// Repetitions in a row that can match the same characters, and a group
    /// that may match nothing repeated a fixed number of times, share a value
    /// out in very many ways too (`.*.*.*x` and `(?:a?){30}a{30}` held the
    /// router on a 32-character link).
    @Test(arguments: [
        (".*.*.*.*x", ".*.*.*"), ("(?:a?){30}a{30}", "(?:a?){30}"), ("[a-z]+\\w*[a-z0-9]+", "[a-z]+\\w*[a-z0-9]+"),
        ("x(a*a*a*)y", "a*a*a*"), ("(b?|c){8}", "(b?|c){8}"),
        ("[a-z]{0,99}[a-z]{0,99}[a-z]{0,99}[a-z]{0,99}x", "[a-z]{0,99}[a-z]{0,99}[a-z]{0,99}"),
        // Overlapping sets spelled differently are read by what they match.
        ("\\p{L}+\\p{Ll}+\\p{L}+x", "\\p{L}+\\p{Ll}+\\p{L}+"), ("[a-z]+[a-y]+[b-z]+x", "[a-z]+[a-y]+[b-z]+"),
        ("[[:alpha:]]+[[:alpha:]]+[[:alpha:]]+x", "[[:alpha:]]+[[:alpha:]]+[[:alpha:]]+"),
        ("[a-z]+\\p{Ll}+[a-z]+x", "[a-z]+\\p{Ll}+[a-z]+"), ("\\pL+\\w+[ж-я]+x", "\\pL+\\w+[ж-я]+"),
        // Groups read as their contents, what may match nothing between them passed over, letter case ignored under (?i).
        ("(?:[a-z]+)(?:[a-z]+)(?:[a-z]+)x", "(?:[a-z]+)(?:[a-z]+)(?:[a-z]+)"),
        ("[a-z]+(?:-?)[a-z]+(?:-?)[a-z]+x", "[a-z]+(?:-?)[a-z]+(?:-?)[a-z]+"),
        ("(?i)[a-z]+[A-Z]+[a-z]+x", "[a-z]+[A-Z]+[a-z]+"), ("x(?<n>[0-9]+)-?[0-9]+[0-9]+y", "(?<n>[0-9]+)-?[0-9]+[0-9]+"),
        // A repetition that may be absent counts; spacing, comments and empty quotes change nothing.
        ("[a-z]+(?:[a-z]+)?[a-z]+x", "[a-z]+(?:[a-z]+)?[a-z]+"), ("(?x) [a-z]+ [a-z]+ [a-z]+ x", "[a-z]+[a-z]+[a-z]+"),
        ("(?:\\x61?){30}", "(?:\\x61?){30}"),
        ("[a-z]+(?#comment)[a-z]+[a-z]+x", "[a-z]+(?#comment)[a-z]+[a-z]+"), ("[a-z]+\\Q\\E[a-z]+[a-z]+x", "[a-z]+[a-z]+[a-z]+"),
        // A repetition of other characters that may match nothing between them does not keep them apart
        // (n^5 on letters: 24 s on 120 characters), and one run found after another that broke.
        ("[a-z]+[0-9]*[a-z]+[0-9]*[a-z]+!", "[a-z]+[0-9]*[a-z]+[0-9]*[a-z]+"),
        ("[a-z]+(?:[0-9]*)[a-z]+(?:[0-9]*)[a-z]+!", "[a-z]+(?:[0-9]*)[a-z]+(?:[0-9]*)[a-z]+"),
        ("[a-z]+[0-9]*[0-9]+[0-9]+x", "[0-9]*[0-9]+[0-9]+"),
        // `{,n}` is `{0,n}` to the router's engine.
        ("[a-z]{,900}[a-z]{,900}[a-z]{,900}", "[a-z]{,900}[a-z]{,900}[a-z]{,900}"),
        // A character between them that they can match themselves is no delimiter (cubic: 11 s on 1,000 characters).
        ("[a-z]+a[a-z]+a[a-z]+-", "[a-z]+a[a-z]+a[a-z]+"), ("\\w+\\w\\w+\\w\\w+", "\\w+\\w\\w+\\w\\w+"),
        ("[a-z]+.[a-z]+.[a-z]+", "[a-z]+.[a-z]+.[a-z]+"), ("[a-z]+(?:a|b)[a-z]+(?:a|b)[a-z]+", "[a-z]+(?:a|b)[a-z]+(?:a|b)[a-z]+")
    ])
    func aRunOfRepetitionsIsFound(pattern: String, run: String) {
        #expect(NestedRepetition.findRuns(in: pattern) == run)
    }

    @Test(arguments: [
        ".*x", "a*b*c*", "[0-9]+-[0-9]+-[0-9]+", "(a?){3}", "(ab){10}", "[a-z]+[0-9]+[a-z]+", "a{30}", "[a-z]{1,3}[a-z]{1,3}[a-z]{1,3}",
        "\\p{L}+\\p{Nd}+\\p{L}+", "[[:alpha:]]+[[:digit:]]+[[:alpha:]]+", "\\x{41}+\\x{42}+\\x{41}+",
        "[a-z]+-[a-z]+-[a-z]+x", "(?:[a-z]+)-(?:[a-z]+)-(?:[a-z]+)", "[a-z]+[A-Z]+[a-z]+x", "(?i:ab)[0-9]+[a-z]+[0-9]+",
        "[a-z]+\\Q-\\E[a-z]+\\Q-\\E[a-z]+x", "(?x) [a-z]+ - [a-z]+ - [a-z]+", "a*+a*+a*+x",
        // Repetitions whose turns begin with a delimiter the one before cannot match: one way to split.
        "[a-z]+@[a-z]+\\.[a-z]+", "\\w+@\\w+\\.\\w+", "[a-z0-9]+(?:-[a-z0-9]+)*(?:\\.[a-z]+)?", "[a-z]+(?:-[a-z]+)*(?:-\\d+)?",
        "[0-9]+(?:\\.[0-9]+){0,2}(?:-[a-z0-9.]+)?", "\\Q.*\\E\\Q.*\\E\\Q.*\\Ex"
    ])
    func aPatternWithoutARunIsNot(pattern: String) {
        #expect(NestedRepetition.findRuns(in: pattern) == nil, "\(pattern)")
    }

    /// An invalid pattern of 400 KB is echoed by its ends in the check's one-line message.
    @Test func aHugeInvalidPatternIsEchoedByItsEnds() {
        let pattern = String(repeating: "(", count: 200_000) + "a"
        #expect(TextCap.echoed(pattern) == String(repeating: "(", count: 100) + "…" + String(repeating: "(", count: 59) + "a")
        #expect(TextCap.echoed("[0-9]{1,6}") == "[0-9]{1,6}")
    }
}
