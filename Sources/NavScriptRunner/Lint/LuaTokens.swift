/// Lua 5.4 source as tokens with their line and column — enough of the
/// lexer to read a scenario's literal arguments without running it: names,
/// strings (short, with their escapes, and long brackets), numbers and
/// punctuation; comments and whitespace skipped. A malformed file stops the
/// list early (the run reports the syntax error; lint has nothing to add).
struct LuaTokens {
    enum Kind: Equatable {
        case name(String)
        case string(String)
        /// A numeral as written (`2`, `0x1F`, `3.5e-2`).
        case number(String)
        case symbol(String)
    }

    struct Token {
        let kind: Kind
        let line: Int
        /// 1-based, in characters of the line.
        let column: Int
    }

    let tokens: [Token]

    /// Reads the source's UTF-8 bytes: token text is decoded from slices of
    /// them. (Scalars appended one by one were two thirds of a lint.)
    init(_ source: String) {
        var tokens: [Token] = []
        // Lines as Lua counts them (a bare `\r` ends one too): places must be the ones `list` and a run give.
        let bytes = LuaLines.unifyingBreaks(Array(source.utf8))
        var index = 0
        var line = 1
        var lineStart = 0
        // Columns count characters: the continuation bytes of the line so far
        // are counted once, from the last token on.
        var countedLineStart = 0
        var countedTo = 0
        var continuations = 0
        func column() -> Int {
            if countedLineStart != lineStart {
                countedLineStart = lineStart
                countedTo = lineStart
                continuations = 0
            }
            while countedTo < index {
                if bytes[countedTo] & 0xC0 == 0x80 { continuations += 1 }
                countedTo += 1
            }
            return index - lineStart - continuations + 1
        }
        func peek(_ offset: Int = 0) -> UInt8? {
            index + offset < bytes.count ? bytes[index + offset] : nil
        }
        func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        /// `[[`, `[==[`: the level of a long bracket opening at `index`, or nil.
        func longBracketLevel(at start: Int) -> Int? {
            guard start < bytes.count, bytes[start] == UInt8(ascii: "[") else { return nil }
            var level = 0
            var at = start + 1
            while at < bytes.count, bytes[at] == UInt8(ascii: "=") {
                level += 1
                at += 1
            }
            return at < bytes.count && bytes[at] == UInt8(ascii: "[") ? level : nil
        }
        /// Consumes a long bracket body from after its opening; returns its text.
        func longBracket(level: Int) -> String? {
            // A line break right after the opening is skipped, as Lua does: `\n`, `\r`, `\r\n` or `\n\r`.
            if let first = peek(), first == UInt8(ascii: "\r") || first == UInt8(ascii: "\n") {
                index += 1
                if let second = peek(), second != first, second == UInt8(ascii: "\r") || second == UInt8(ascii: "\n") {
                    index += 1
                }
                line += 1
                lineStart = index
            }
            let start = index
            while let c = peek() {
                if c == UInt8(ascii: "]") {
                    var at = index + 1
                    var count = 0
                    while at < bytes.count, bytes[at] == UInt8(ascii: "=") {
                        count += 1
                        at += 1
                    }
                    if count == level, at < bytes.count, bytes[at] == UInt8(ascii: "]") {
                        defer { index = at + 1 }
                        let body = text(start..<index)
                        // Lua reads every line break in the body as `\n`.
                        guard body.utf8.contains(UInt8(ascii: "\r")) else { return body }
                        return body.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n\r", with: "\n")
                            .replacingOccurrences(of: "\r", with: "\n")
                    }
                }
                if c == UInt8(ascii: "\n") {
                    line += 1
                    lineStart = index + 1
                }
                index += 1
            }
            return nil
        }
        scan: while let c = peek() {
            switch c {
            case UInt8(ascii: "\n"):
                line += 1
                index += 1
                lineStart = index
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), 0x0B, 0x0C:
                index += 1
            case UInt8(ascii: "-") where peek(1) == UInt8(ascii: "-"):
                index += 2
                if let level = longBracketLevel(at: index) {
                    index += level + 2
                    guard longBracket(level: level) != nil else { break scan }
                } else {
                    while let d = peek(), d != UInt8(ascii: "\n") { index += 1 }
                }
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                let column = column()
                let startLine = line
                index += 1
                // The bytes between escapes are copied in runs; escapes are decoded as Lua 5.4 does, so a
                // name spelled with them (`"h\111me"`) is read as the name the script means.
                var unescaped: [UInt8] = []
                var runStart = index
                var closed = false
                while let d = peek() {
                    if d == c {
                        closed = true
                        break
                    }
                    if d == UInt8(ascii: "\n") { break }
                    if d == UInt8(ascii: "\\") {
                        unescaped += bytes[runStart..<index]
                        index += 1
                        guard let e = peek() else { break }
                        index += 1
                        switch e {
                        case UInt8(ascii: "a"): unescaped.append(0x07)
                        case UInt8(ascii: "b"): unescaped.append(0x08)
                        case UInt8(ascii: "f"): unescaped.append(0x0C)
                        case UInt8(ascii: "n"): unescaped.append(UInt8(ascii: "\n"))
                        case UInt8(ascii: "r"): unescaped.append(UInt8(ascii: "\r"))
                        case UInt8(ascii: "t"): unescaped.append(UInt8(ascii: "\t"))
                        case UInt8(ascii: "v"): unescaped.append(0x0B)
                        case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                            unescaped.append(UInt8(ascii: "\n"))
                            // `\r\n` and `\n\r` are one line break.
                            if let pair = peek(), pair != e, pair == UInt8(ascii: "\n") || pair == UInt8(ascii: "\r") { index += 1 }
                            line += 1
                            lineStart = index
                        case UInt8(ascii: "x"):
                            var value: UInt8 = 0
                            for _ in 0..<2 {
                                guard let digit = peek().flatMap(Self.hexValue) else { break }
                                value = value &* 16 &+ digit
                                index += 1
                            }
                            unescaped.append(value)
                        case UInt8(ascii: "z"):
                            while let w = peek(), w == UInt8(ascii: " ") || (9...13).contains(w) {
                                index += 1
                                if w == UInt8(ascii: "\n") {
                                    line += 1
                                    lineStart = index
                                }
                            }
                        case UInt8(ascii: "u") where peek() == UInt8(ascii: "{"):
                            index += 1
                            var scalar: UInt32 = 0
                            while let digit = peek().flatMap(Self.hexValue), scalar < 0x800_0000 {
                                scalar = scalar &* 16 &+ UInt32(digit)
                                index += 1
                            }
                            if peek() == UInt8(ascii: "}") { index += 1 }
                            unescaped += Self.utf8(scalar)
                        case UInt8(ascii: "0")...UInt8(ascii: "9"):
                            var value = Int(e - UInt8(ascii: "0"))
                            for _ in 0..<2 {
                                guard let digit = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { break }
                                value = value * 10 + Int(digit - UInt8(ascii: "0"))
                                index += 1
                            }
                            unescaped.append(UInt8(truncatingIfNeeded: value))
                        default: unescaped.append(e)  // \\ and quotes (anything else Lua refuses while loading)
                        }
                        runStart = index
                        continue
                    }
                    index += 1
                }
                guard closed else { break scan }
                let value: String
                if unescaped.isEmpty {
                    value = text(runStart..<index)
                } else {
                    unescaped += bytes[runStart..<index]
                    value = String(decoding: unescaped, as: UTF8.self)
                }
                index += 1
                tokens.append(Token(kind: .string(value), line: startLine, column: column))
            case UInt8(ascii: "[") where longBracketLevel(at: index) != nil:
                let column = column()
                let level = longBracketLevel(at: index)!
                let startLine = line
                index += level + 2
                guard let text = longBracket(level: level) else { break scan }
                tokens.append(Token(kind: .string(text), line: startLine, column: column))
            default:
                let column = column()
                if c == UInt8(ascii: "_") || Self.isLetter(c) {
                    let start = index
                    while let d = peek(), d == UInt8(ascii: "_") || Self.isLetter(d) || Self.isDigit(d) { index += 1 }
                    tokens.append(Token(kind: .name(text(start..<index)), line: line, column: column))
                } else if Self.isDigit(c) || (c == UInt8(ascii: ".") && peek(1).map(Self.isDigit) == true) {
                    let start = index
                    while let d = peek(), Self.isLetter(d) || Self.isDigit(d) || d == UInt8(ascii: ".") {
                        // An exponent's sign belongs to the number.
                        if d | 0x20 == UInt8(ascii: "e") || d | 0x20 == UInt8(ascii: "p"), let s = peek(1),
                            s == UInt8(ascii: "+") || s == UInt8(ascii: "-")
                        {
                            index += 1
                        }
                        index += 1
                    }
                    tokens.append(Token(kind: .number(text(start..<index)), line: line, column: column))
                } else {
                    let pair = peek(1).flatMap { Self.pair(c, $0) }
                    // A character outside ASCII is one symbol, all of its bytes.
                    var end = index + 1
                    if pair == nil && c >= 0xC0 { while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 } }
                    tokens.append(Token(kind: .symbol(pair ?? text(index..<end)), line: line, column: column))
                    index = pair == nil ? end : index + 2
                }
            }
        }
        self.tokens = tokens
    }

    /// The value of a hexadecimal digit, or nil.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// `\u{…}` as Lua writes it: UTF-8 extended to 31 bits (up to six bytes).
    static func utf8(_ scalar: UInt32) -> [UInt8] {
        if scalar < 0x80 { return [UInt8(scalar)] }
        var continuation: [UInt8] = []
        var rest = scalar
        var firstByteRoom: UInt32 = 0x3F  // the bits the first byte has room for, shrinking as bytes are added
        repeat {
            continuation.insert(UInt8(0x80 | (rest & 0x3F)), at: 0)
            rest >>= 6
            firstByteRoom >>= 1
        } while rest > firstByteRoom
        let lead = UInt8(truncatingIfNeeded: ~firstByteRoom << 1) | UInt8(truncatingIfNeeded: rest)
        return [lead] + continuation
    }

    /// An ASCII letter: what Lua's lexer takes in a name (in the C locale).
    /// Compared by value — a Unicode property lookup per character was a
    /// third of linting a large suite.
    private static func isLetter(_ c: UInt8) -> Bool {
        let folded = c | 0x20
        return folded >= 0x61 && folded <= 0x7A
    }

    /// The two-character symbol `first` and `second` make, if they make one.
    private static func pair(_ first: UInt8, _ second: UInt8) -> String? {
        switch (Unicode.Scalar(first), Unicode.Scalar(second)) {
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

    private static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
}
