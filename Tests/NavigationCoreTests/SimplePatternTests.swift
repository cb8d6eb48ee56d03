import Testing

@testable import NavigationCore

/// The Regex-free matcher must give exactly `Regex.wholeMatch`'s answer
/// wherever it answers at all.
@Suite("SimplePattern")
struct SimplePatternTests {
    static let patterns = [
        "[A-Z0-9]+", "[a-z][a-z0-9-]*", "p[0-9]{1,8}", "[0-9]{1,6}", "[a-z][a-z0-9-]{1,23}",
        "a?b*c+", "\\d{2,}x", "[^a-c]{2}", "\\w+-\\W", "[-a]", "[a-]", "x{0}y", "a{3,5}", "\\s?\\S+",
        "[\\d_]+", "\\.\\-\\+", "[A-Za-z]{2}[0-9]{0,3}", "", "ab", "[^\\w]*", "a{2}b{1,}"
    ]
    static let unsupported = [
        "(a|b)", "a|b", "a+?", "a*+", ".", "^a", "a$", "[a-z&&[^b]]", "[[:alpha:]]", "\\bx",
        "a{2", "é", "[\\d-z]", "[z-a]", "a{3,1}"
    ]

    /// Every string of up to `length` characters over `alphabet`.
    static func strings(_ alphabet: [Character], upTo length: Int) -> [String] {
        var all = [""]
        var layer = [""]
        for _ in 0..<length {
            layer = layer.flatMap { prefix in alphabet.map { prefix + String($0) } }
            all += layer
        }
        return all
    }

    @Test(arguments: patterns)
    func givesRegexsAnswer(pattern: String) throws {
        let simple = try #require(SimplePattern(pattern), "\(pattern) is of the supported kind")
        let regex = try Regex(pattern)
        let values =
            Self.strings(["a", "b", "c", "x", "y", "p", "A", "Z", "0", "9", "-", "_", " ", "."], upTo: 3)
            + ["p12345678", "p123456789", "abc-def-1", "Aa", "aaaaa", "aaaaaa", "1234567", "bbbbcc"]
        for value in values {
            let expected = (try? regex.wholeMatch(in: value)) != nil
            #expect(simple.wholeMatch(value) == expected, "\(pattern) on \"\(value)\"")
        }
    }

    @Test(arguments: unsupported)
    func leavesOtherPatternsToRegex(pattern: String) {
        #expect(SimplePattern(pattern) == nil, "\(pattern)")
    }

    @Test func leavesOtherValuesToRegex() throws {
        let simple = try #require(SimplePattern("[a-z]+"))
        #expect(simple.wholeMatch("abc") == true)
        #expect(simple.wholeMatch("é") == nil, "not ASCII")
        #expect(simple.wholeMatch("a\tb") == nil, "a control character")
        #expect(simple.wholeMatch(String(repeating: "a", count: 64)) == nil, "64 bytes and more")
        let param = try CompiledParam(ParamSpec("id", pattern: "[a-z]+"))
        #expect(param.problem(with: String(repeating: "a", count: 70)) == nil, "Regex answers the long ones")
        #expect(param.problem(with: "é") == "does not match [a-z]+")
    }

    /// Length limits count characters as `String.count` does, CR LF and all.
    @Test func lengthLimitsCountCharactersAsStringDoes() throws {
        for value in ["", "a", "abc", "a\r\nb", "\r\n\r\n", "\r\r\n", "\n\r", "e\u{301}", "caf\u{E9}", "\u{1F1EB}\u{1F1F7}x"] {
            #expect(CompiledParam.characterCount(value) == value.count, "\(value.debugDescription)")
        }
        let param = try CompiledParam(ParamSpec("code", minLength: 2, maxLength: 3))
        #expect(param.problem(with: "a\r\n") == nil, "two characters")
        #expect(param.problem(with: "a") == "shorter than 2 characters")
        #expect(param.problem(with: "e\u{301}e\u{301}") == nil, "two characters in four scalars")
        #expect(param.problem(with: "abcd") == "longer than 3 characters")
    }
}
