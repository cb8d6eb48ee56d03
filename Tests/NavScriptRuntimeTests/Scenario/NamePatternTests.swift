import Testing

@testable import NavScriptRuntime

/// `--filter`'s patterns: the names `Regex` would select, in time linear
/// in the name, and a clear refusal of what would need backtracking.
@Suite("NamePattern")
struct NamePatternTests {
    static let names = [
        "", "a", "ab", "abc", "aaa", "checkout address step", "checkout payment step", "orders list", "orders detail",
        "checkout-free top level", "cart: empty → home", "sign in (two-factor)", "x.y", "a|b", "tab 3 of 10", "ÉCLAIR é",
        "under_score name", "line\nbreak", "[tagged] one", "{braces} 2", "caf\u{E9}", "emoji 🙂 ok", "three\r\nfake",
        "cafe\u{301}"
    ]

    static let patterns = [
        "a", "^a$", "^$", "b", "abc|ab", "^(a|ab)c$", "a*", "^a+$", "^a{2}$", "^a{2,}$", "^a{1,2}$", "a{0}b",
        "^checkout ", "step$", "orders (list|detail)$", "^(?:orders|cart)", "(?<what>checkout) (address|payment)",
        ".", "^.$", "x\\.y", "a\\|b", "\\(two-factor\\)", "\\d+", "\\D", "^\\w+$", "\\W", "\\s", "\\S+$", "\\bstep\\b",
        "\\Bdress", "[a-c]+", "^[^ ]+$", "\\[tagged\\]", "[\\d]", "[\\w-]+free", "[é]", "É", "🙂", "→",
        "a*?b", "a++b", "a?+", "(a|b)*c", "((a))", "a|", "|a", "()", "{braces}", "\\{braces\\}", "line\\nbreak",
        "^(a*)*$", "(a|a)*b", "[-a]", "[a-]", "caf\\x{e9}", "caf\\xe9", "^a{,2}$", "o{,3}", "a{,}",
        "x{,0}y", "three\\x{d}\\x{a}fake", "^(three\\r\\nfake)$", "\\r", "cafe\\x{301}", "cafe"
    ]

    /// Every pattern selects exactly the names Swift's `Regex` selects.
    @Test func selectsWhatRegexSelects() throws {
        for pattern in Self.patterns {
            let ours = try NamePattern(pattern)
            let regex = try Regex(pattern)
            for name in Self.names {
                let expected = (try? regex.firstMatch(in: name)) != nil
                #expect(ours.matches(name) == expected, "pattern \(pattern) on name \(name.debugDescription)")
            }
        }
    }

    /// Patterns that make a backtracking engine run for hours end at once:
    /// the simulation reads each character of the name once.
    @Test func catastrophicPatternsEndQuickly() throws {
        let long = String(repeating: "a", count: 5_000)
        #expect(try NamePattern("(a*)*b").matches(long) == false)
        #expect(try NamePattern("(a|a)*b").matches(long) == false)
        #expect(try NamePattern(String(repeating: "a*", count: 40) + "b").matches(long) == false)
        #expect(try NamePattern("^(a+)+$").matches(long) == true)
        #expect(try NamePattern("(x+x+)+y").matches(String(repeating: "x", count: 3_000)) == false)
    }

    @Test func whatNeedsBacktrackingIsRefusedWithTheReason() {
        for (pattern, words) in [
            ("(a)\\1", "back-reference"), ("a(?=b)", "lookaround"), ("a(?!b)", "lookaround"), ("(?<=a)b", "lookaround"),
            ("(?>a)", "atomic group"), ("(?i)a", "group option"), ("[[:alpha:]]", "POSIX class")
        ] {
            #expect(throws: NamePattern.Problem.self, "\(pattern)") { try NamePattern(pattern) }
            let message = (try? NamePattern(pattern)) == nil ? Self.message(pattern) : ""
            #expect(message.contains(words) && message.contains("without backtracking"), "\(pattern): \(message)")
        }
    }

    @Test func malformedPatternsSayWhatAndWhere() {
        #expect(Self.message("(unclosed") == "the group opened here is not closed with ')' (at character 1)")
        #expect(Self.message("a)") == "a ')' closes no group (at character 2)")
        #expect(Self.message("[abc") == "the '[' here is not closed with ']' (at character 1)")
        #expect(Self.message("*a").hasPrefix("'*' repeats nothing"))
        #expect(Self.message("a{3,1}").hasPrefix("{3,1} repeats at most fewer times than at least"))
        #expect(Self.message("[z-a]").hasPrefix("the range z-a is backwards"))
        #expect(Self.message("ab\\").hasPrefix("the pattern ends with a lone '\\'"))
        #expect(Self.message("\\q").hasPrefix("the escape '\\q' is not supported"))
        #expect(Self.message("a{1001}").hasPrefix("a repetition count above 1000"))
        #expect(Self.message("(a{1000}){1000}").hasPrefix("it is too large"))
        // The parser recurses per group: 40,000 nested ones overflowed the stack.
        let deep = String(repeating: "(", count: 40_000) + "a" + String(repeating: ")", count: 40_000)
        #expect(Self.message(deep) == "groups are nested deeper than 200 (at character 201)")
        let fine = String(repeating: "(", count: 200) + "a" + String(repeating: ")", count: 200)
        #expect(Self.message(fine) == "(accepted)", "200 levels are read")
    }

    static func message(_ pattern: String) -> String {
        do {
            _ = try NamePattern(pattern)
            return "(accepted)"
        } catch {
            return error.message
        }
    }
}
