/// The calls of a Lua source whose callee is a plain global name
/// (`expect_stack{ … }`, `tap("x")`, `scenario.each(…)`), with their
/// literal arguments: strings, and table constructors of strings and of
/// `key = value` fields (nested). Anything else is `.other` — lint reads
/// what is written, not what it evaluates to.
struct LuaCalls {
    indirect enum Value {
        case string(String)
        /// A numeral written as a whole number (`2`).
        case integer(Int)
        case table(items: [Literal], fields: [(key: String, value: Literal)])
        case other
    }

    struct Literal {
        var value: Value
        var line: Int
        var column: Int
        /// Where the key of a `key = value` field was written (the value's own place otherwise).
        var keyLine: Int
        var keyColumn: Int

        init(value: Value, line: Int, column: Int, keyLine: Int? = nil, keyColumn: Int? = nil) {
            self.value = value
            self.line = line
            self.column = column
            self.keyLine = keyLine ?? line
            self.keyColumn = keyColumn ?? column
        }
    }

    struct Call {
        var name: String
        var arguments: [Literal]
        /// Where the callee's name is written.
        var line = 0
        var column = 0
    }

    let calls: [Call]

    init(_ source: LuaTokens) {
        let tokens = source.tokens
        let closing = Self.closingBrackets(tokens)
        var calls: [Call] = []
        var index = 0
        while index < tokens.count {
            guard case .name(var name) = tokens[index].kind else {
                index += 1
                continue
            }
            // A field or method of something else (`wander.count(…)`, `s:find(…)`), or a definition, is no call of ours.
            if index > 0, case .symbol(let previous) = tokens[index - 1].kind, previous == "." || previous == ":" {
                index += 1
                continue
            }
            if index > 0, case .name("function") = tokens[index - 1].kind {
                index += 1
                continue
            }
            var next = index + 1
            // `scenario.each(`: the one dotted callee the language has.
            if name == "scenario", next + 1 < tokens.count, case .symbol(".") = tokens[next].kind,
                case .name("each") = tokens[next + 1].kind
            {
                name = "scenario.each"
                next += 2
            }
            guard next < tokens.count else { break }
            var reader = Reader(tokens: tokens, closing: closing, index: next)
            switch tokens[next].kind {
            case .symbol("("):
                reader.index += 1
                var arguments: [Literal] = []
                while reader.index < tokens.count, tokens[reader.index].kind != .symbol(")") {
                    arguments.append(reader.expression())
                    if reader.index < tokens.count, tokens[reader.index].kind == .symbol(",") { reader.index += 1 } else { break }
                }
                calls.append(Call(name: name, arguments: arguments, line: tokens[index].line, column: tokens[index].column))
            case .string, .symbol("{"):
                // `f"x"`, `f{ … }`: the one argument is the literal itself, whatever follows it.
                calls.append(
                    Call(name: name, arguments: [reader.expression(whole: true)], line: tokens[index].line, column: tokens[index].column))
            default:
                break
            }
            index += 1
        }
        self.calls = calls
    }

    /// For each `(`, `{` and `[`, the index of the bracket that closes it (-1:
    /// none, or not an opener). Why: every call's arguments are read, and a
    /// skipped argument scanned to its end, so `f(g(h(…)))` nested 100,000
    /// deep was read in quadratic time; with this, a bracketed group is
    /// stepped over at once.
    private static func closingBrackets(_ tokens: [LuaTokens.Token]) -> [Int] {
        var closing = Array(repeating: -1, count: tokens.count)
        var open: [Int] = []
        for (index, token) in tokens.enumerated() {
            switch token.kind {
            case .symbol("("), .symbol("{"), .symbol("["): open.append(index)
            case .symbol(")"), .symbol("}"), .symbol("]"): if let opener = open.popLast() { closing[opener] = index }
            default: break
            }
        }
        return closing
    }

    /// Reads one expression from `index`: a literal when it is one whole
    /// (a string or a table constructor followed by `,`, `)`, `}` or `;`),
    /// else skipped to the end of the expression as `.other`.
    private struct Reader {
        let tokens: [LuaTokens.Token]
        let closing: [Int]
        var index: Int
        /// How deep in table constructors the reader is: past ``maximumDepth``
        /// a table is skipped, not read (a constructor 100,000 deep would
        /// otherwise recurse as deep; Lua refuses such a file anyway).
        private var depth = 0
        private static let maximumDepth = 100

        init(tokens: [LuaTokens.Token], closing: [Int], index: Int) {
            self.tokens = tokens
            self.closing = closing
            self.index = index
        }

        /// `whole`: the literal is the whole argument (a call without parentheses).
        mutating func expression(whole: Bool = false) -> Literal {
            guard index < tokens.count else { return Literal(value: .other, line: 0, column: 0) }
            let start = tokens[index]
            depth += 1
            defer { depth -= 1 }
            if depth > Self.maximumDepth {
                skipToEnd()
                return Literal(value: .other, line: start.line, column: start.column)
            }
            var literal: Literal?
            switch start.kind {
            case .string(let text):
                index += 1
                literal = Literal(value: .string(text), line: start.line, column: start.column)
            case .number(let text):
                index += 1
                literal = Int(text).map { Literal(value: .integer($0), line: start.line, column: start.column) }
            case .symbol("{"):
                index += 1
                literal = table(start)
            case .symbol("("):
                // `("home")`, `(("home"))`: a literal in parentheses is the same value (some style guides ask for them).
                var depth = 0
                while index + depth < tokens.count, tokens[index + depth].kind == .symbol("(") { depth += 1 }
                if index + 2 * depth < tokens.count, case .string(let text) = tokens[index + depth].kind,
                    (1...depth).allSatisfy({ tokens[index + depth + $0].kind == .symbol(")") })
                {
                    literal = Literal(value: .string(text), line: tokens[index + depth].line, column: tokens[index + depth].column)
                    index += 2 * depth + 1
                }
            default:
                break
            }
            if let literal, whole || index >= tokens.count || isEnd(tokens[index].kind) { return literal }
            skipToEnd()
            return Literal(value: .other, line: start.line, column: start.column)
        }

        private func isEnd(_ kind: LuaTokens.Kind) -> Bool {
            kind == .symbol(",") || kind == .symbol(")") || kind == .symbol("}") || kind == .symbol(";")
        }

        /// Skips the rest of an expression: to a `,`, `)`, `}` or `;` at depth 0.
        private mutating func skipToEnd() {
            var depth = 0
            while index < tokens.count {
                let kind = tokens[index].kind
                if depth == 0, isEnd(kind) { return }
                switch kind {
                case .symbol("("), .symbol("{"), .symbol("["):
                    // A closed group is stepped over whole; an unclosed one is counted as before.
                    if closing[index] > index {
                        index = closing[index] + 1
                        continue
                    }
                    depth += 1
                case .symbol(")"), .symbol("}"), .symbol("]"): depth -= 1
                case .name("function"), .name("do"), .name("then"): depth += 1
                case .name("end"): depth -= 1
                default: break
                }
                index += 1
            }
        }

        /// A table constructor after its `{`, to its `}`.
        private mutating func table(_ open: LuaTokens.Token) -> Literal {
            var items: [Literal] = []
            var fields: [(key: String, value: Literal)] = []
            while index < tokens.count, tokens[index].kind != .symbol("}") {
                if case .name(let key) = tokens[index].kind, index + 1 < tokens.count, tokens[index + 1].kind == .symbol("=") {
                    let keyToken = tokens[index]
                    index += 2
                    var value = expression()
                    value.keyLine = keyToken.line
                    value.keyColumn = keyToken.column
                    fields.append((key, value))
                } else if tokens[index].kind == .symbol("[") {
                    // `[expr] = value`: not a name lint can read — kept as something unread, so
                    // the table is not taken for one without it.
                    let field = tokens[index]
                    skipToEnd()
                    items.append(Literal(value: .other, line: field.line, column: field.column))
                } else {
                    items.append(expression())
                }
                if index < tokens.count, tokens[index].kind == .symbol(",") || tokens[index].kind == .symbol(";") {
                    index += 1
                } else if index < tokens.count, tokens[index].kind != .symbol("}") {
                    skipToEnd()
                    if index < tokens.count, tokens[index].kind != .symbol("}") { index += 1 }
                }
            }
            if index < tokens.count { index += 1 }  // the `}`
            return Literal(value: .table(items: items, fields: fields), line: open.line, column: open.column)
        }
    }
}
