/// Lua 5.4 source as tokens with their line and column — enough of the
/// lexer to read a scenario's literal arguments without running it: names,
/// strings (short, with their escapes, and long brackets), numbers and
/// punctuation; comments and whitespace skipped. A malformed file stops the
/// list early (the run reports the syntax error; lint has nothing to add).
struct LuaTokens {
    enum Kind: Equatable {
        case name(String)
        case string(String)
        case number
        case symbol(String)
    }

    struct Token {
        let kind: Kind
        let line: Int
        /// 1-based, in characters of the line.
        let column: Int
    }

    let tokens: [Token]

    init(_ source: String) {
        var tokens: [Token] = []
        let chars = Array(source.unicodeScalars)
        var index = 0
        var line = 1
        var lineStart = 0
        func peek(_ offset: Int = 0) -> Unicode.Scalar? {
            index + offset < chars.count ? chars[index + offset] : nil
        }
        /// `[[`, `[==[`: the level of a long bracket opening at `index`, or nil.
        func longBracketLevel(at start: Int) -> Int? {
            guard start < chars.count, chars[start] == "[" else { return nil }
            var level = 0
            var at = start + 1
            while at < chars.count, chars[at] == "=" {
                level += 1
                at += 1
            }
            return at < chars.count && chars[at] == "[" ? level : nil
        }
        /// Consumes a long bracket body from after its opening; returns its text.
        func longBracket(level: Int) -> String? {
            var text = String.UnicodeScalarView()
            // A newline right after the opening is skipped, as Lua does.
            if peek() == "\r" || peek() == "\n" {
                if peek() == "\n" { line += 1 }
                index += 1
                lineStart = index
            }
            while let c = peek() {
                if c == "]" {
                    var at = index + 1
                    var count = 0
                    while at < chars.count, chars[at] == "=" {
                        count += 1
                        at += 1
                    }
                    if count == level, at < chars.count, chars[at] == "]" {
                        index = at + 1
                        return String(text)
                    }
                }
                if c == "\n" {
                    line += 1
                    lineStart = index + 1
                }
                text.append(c)
                index += 1
            }
            return nil
        }
        scan: while let c = peek() {
            let column = index - lineStart + 1
            switch c {
            case "\n":
                line += 1
                index += 1
                lineStart = index
            case " ", "\t", "\r", "\u{0B}", "\u{0C}":
                index += 1
            case "-" where peek(1) == "-":
                index += 2
                if let level = longBracketLevel(at: index) {
                    index += level + 2
                    guard longBracket(level: level) != nil else { break scan }
                } else {
                    while let d = peek(), d != "\n" { index += 1 }
                }
            case "\"", "'":
                index += 1
                var text = String.UnicodeScalarView()
                var closed = false
                while let d = peek() {
                    if d == c {
                        index += 1
                        closed = true
                        break
                    }
                    if d == "\n" { break }
                    if d == "\\" {
                        index += 1
                        guard let e = peek() else { break }
                        switch e {
                        case "n": text.append("\n")
                        case "t": text.append("\t")
                        case "\\", "\"", "'": text.append(e)
                        case "\n":
                            text.append("\n")
                            line += 1
                            lineStart = index + 1
                        default: text.append(e)  // \x, \u, \z, digits: kept roughly (lint reads names)
                        }
                        index += 1
                        continue
                    }
                    text.append(d)
                    index += 1
                }
                guard closed else { break scan }
                tokens.append(Token(kind: .string(String(text)), line: line, column: column))
            case "[" where longBracketLevel(at: index) != nil:
                let level = longBracketLevel(at: index)!
                let startLine = line
                index += level + 2
                guard let text = longBracket(level: level) else { break scan }
                tokens.append(Token(kind: .string(text), line: startLine, column: column))
            default:
                if c == "_" || Self.isLetter(c) {
                    var name = String.UnicodeScalarView()
                    while let d = peek(), d == "_" || Self.isLetter(d) || Self.isDigit(d) {
                        name.append(d)
                        index += 1
                    }
                    tokens.append(Token(kind: .name(String(name)), line: line, column: column))
                } else if Self.isDigit(c) || (c == "." && peek(1).map(Self.isDigit) == true) {
                    while let d = peek(), Self.isLetter(d) || Self.isDigit(d) || d == "." {
                        // An exponent's sign belongs to the number.
                        if d == "e" || d == "E" || d == "p" || d == "P", let s = peek(1), s == "+" || s == "-" { index += 1 }
                        index += 1
                    }
                    tokens.append(Token(kind: .number, line: line, column: column))
                } else {
                    let pair = peek(1).flatMap { Self.pair(c, $0) }
                    index += pair == nil ? 1 : 2
                    tokens.append(Token(kind: .symbol(pair ?? String(c)), line: line, column: column))
                }
            }
        }
        self.tokens = tokens
    }

    /// An ASCII letter: what Lua's lexer takes in a name (in the C locale).
    /// Compared by value — a Unicode property lookup per character was a
    /// third of linting a large suite.
    private static func isLetter(_ c: Unicode.Scalar) -> Bool {
        let folded = c.value | 0x20
        return folded >= 0x61 && folded <= 0x7A
    }

    /// The two-character symbol `first` and `second` make, if they make one.
    private static func pair(_ first: Unicode.Scalar, _ second: Unicode.Scalar) -> String? {
        switch (first, second) {
        case ("=", "="): "=="
        case ("~", "="): "~="
        case ("<", "="): "<="
        case (">", "="): ">="
        case (".", "."): ".."
        case (":", ":"): "::"
        case ("/", "/"): "//"
        case ("<", "<"): "<<"
        case (">", ">"): ">>"
        default: nil
        }
    }

    private static func isDigit(_ c: Unicode.Scalar) -> Bool { c.value >= 0x30 && c.value <= 0x39 }
}
