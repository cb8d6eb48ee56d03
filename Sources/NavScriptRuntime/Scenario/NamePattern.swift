/// A regular expression over scenario names (`--filter`), matched in time
/// linear in the name: a compiled program run as a Thompson simulation,
/// every alternative advanced together, never backtracking.
///
/// Why not `Regex`: Swift's engine backtracks, so a pattern such as
/// `(a*)*b` against a long name runs for hours, and nothing can interrupt
/// it — a filter typed once could hang a run, in process for good. This
/// one supports what selecting names needs: literals, `.`, classes
/// (`[a-z]`, `[^ ]`, `\d \w \s` and their negations), groups (`(…)`,
/// `(?:…)`, `(?<name>…)`), alternation, the quantifiers `* + ? {n} {n,}
/// {n,m} {,m}` (lazy and possessive forms match the same names), and the
/// anchors `^ $ \b \B`. What needs backtracking (back-references,
/// lookaround, atomic groups) is refused with a message saying so.
/// Like `Regex`, it matches characters (grapheme clusters), anywhere in
/// the name unless anchored.
public struct NamePattern: Sendable {
    /// The pattern as written.
    public let source: String
    private let program: [Instruction]

    /// The largest program a pattern may compile to (`a{1000}{1000}` would
    /// otherwise be a million instructions).
    static let maximumSize = 20_000

    /// Throws ``Problem`` for a pattern it cannot read or does not support.
    public init(_ source: String) throws(Problem) {
        self.source = source
        var parser = Parser(Array(source))
        let tree = try parser.parse()
        var program: [Instruction] = []
        try Self.compile(tree, into: &program)
        program.append(.match)
        self.program = program
    }

    /// Why a pattern was refused, with where in it.
    public struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// Whether the pattern matches anywhere in `name`.
    public func matches(_ name: String) -> Bool {
        let characters = Array(name)
        var current = ThreadList(size: program.count)
        var next = ThreadList(size: program.count)
        for position in 0...characters.count {
            // An unanchored search: a new thread starts at every position.
            if add(0, at: position, in: characters, to: &current) { return true }
            guard position < characters.count else { break }
            let character = characters[position]
            next.clear()
            for pc in current.members {
                let advances: Bool
                switch program[pc] {
                case .character(let expected): advances = character == expected
                case .any: advances = true
                case .set(let set): advances = set.contains(character)
                default: advances = false
                }
                if advances, add(pc + 1, at: position + 1, in: characters, to: &next) { return true }
            }
            swap(&current, &next)
        }
        return false
    }

    /// Adds the thread at `pc` and everything reachable from it without
    /// reading a character; true once one of them is the match.
    private func add(_ pc: Int, at position: Int, in characters: [Character], to list: inout ThreadList) -> Bool {
        var pending = [pc]
        while let pc = pending.popLast() {
            guard list.insert(pc) else { continue }
            switch program[pc] {
            case .match: return true
            case .jump(let target): pending.append(target)
            case .split(let first, let second):
                pending.append(second)
                pending.append(first)
            case .start: if position == 0 { pending.append(pc + 1) }
            case .end: if position == characters.count { pending.append(pc + 1) }
            case .wordBoundary(let wanted):
                let before = position > 0 && CharacterClass.isWord(characters[position - 1])
                let after = position < characters.count && CharacterClass.isWord(characters[position])
                if (before != after) == wanted { pending.append(pc + 1) }
            case .character, .any, .set: break
            }
        }
        return false
    }

    // MARK: - The program

    private enum Instruction: Sendable {
        case character(Character)
        case any
        case set(CharacterClass)
        case split(Int, Int)
        case jump(Int)
        case start
        case end
        case wordBoundary(Bool)
        case match
    }

    /// A set of program counters in insertion order, cleared in O(1) (a sparse set).
    private struct ThreadList {
        private var dense: [Int]
        private var sparse: [Int]
        private(set) var count = 0

        init(size: Int) {
            dense = Array(repeating: 0, count: size)
            sparse = Array(repeating: 0, count: size)
        }

        mutating func insert(_ pc: Int) -> Bool {
            let slot = sparse[pc]
            if slot < count && dense[slot] == pc { return false }
            sparse[pc] = count
            dense[count] = pc
            count += 1
            return true
        }

        mutating func clear() { count = 0 }

        var members: ArraySlice<Int> { dense[..<count] }
    }

    private static func compile(_ node: Node, into program: inout [Instruction]) throws(Problem) {
        guard program.count < maximumSize else {
            throw Problem(message: "it is too large (more than \(maximumSize) steps once its repetitions are spelled out)")
        }
        switch node {
        case .empty: break
        case .character(let character): program.append(.character(character))
        case .any: program.append(.any)
        case .set(let set): program.append(.set(set))
        case .start: program.append(.start)
        case .end: program.append(.end)
        case .wordBoundary(let wanted): program.append(.wordBoundary(wanted))
        case .sequence(let nodes):
            // Literal characters in a row are one text, read again as characters: `\r` then `\n`
            // (`\x{d}\x{a}`), or a letter then a combining mark written as escapes, is one character
            // of the name, which two single characters never matched — a name holding a CR LF pair
            // could not be selected, not even by the replay command its report printed.
            var run = ""
            func flush() {
                for character in run { program.append(.character(character)) }
                run = ""
            }
            for node in nodes {
                if case .character(let character) = node {
                    run.append(character)
                    continue
                }
                flush()
                try compile(node, into: &program)
            }
            flush()
        case .alternatives(let nodes):
            // split L1, next; L1: a; jump end; next: split L2, … ; last: z
            var jumps: [Int] = []
            for (index, node) in nodes.enumerated() {
                if index < nodes.count - 1 {
                    let split = program.count
                    program.append(.split(split + 1, -1))
                    try compile(node, into: &program)
                    jumps.append(program.count)
                    program.append(.jump(-1))
                    program[split] = .split(split + 1, program.count)
                } else {
                    try compile(node, into: &program)
                }
            }
            for jump in jumps { program[jump] = .jump(program.count) }
        case .repetition(let node, let minimum, let maximum):
            for _ in 0..<minimum { try compile(node, into: &program) }
            if let maximum {
                // Each optional copy: split body, end-of-all.
                var splits: [Int] = []
                for _ in minimum..<maximum {
                    splits.append(program.count)
                    program.append(.split(program.count + 1, -1))
                    try compile(node, into: &program)
                }
                for split in splits { program[split] = .split(split + 1, program.count) }
            } else {
                // loop: split body, out; body; jump loop
                let loop = program.count
                program.append(.split(loop + 1, -1))
                try compile(node, into: &program)
                program.append(.jump(loop))
                program[loop] = .split(loop + 1, program.count)
            }
        }
    }
}

// MARK: - Parsing

extension NamePattern {
    fileprivate indirect enum Node {
        case empty
        case character(Character)
        case any
        case set(CharacterClass)
        case start
        case end
        case wordBoundary(Bool)
        case sequence([Node])
        case alternatives([Node])
        case repetition(Node, minimum: Int, maximum: Int?)
    }

    /// A set of characters: listed ones, ranges and classes, maybe negated.
    fileprivate struct CharacterClass: Sendable {
        enum Item: Sendable {
            case character(Character)
            case range(Character, Character)
            case digit(Bool)
            case word(Bool)
            case space(Bool)
        }
        var items: [Item]
        var negated = false

        func contains(_ character: Character) -> Bool {
            let found = items.contains { item in
                switch item {
                case .character(let listed): character == listed
                case .range(let low, let high): low <= character && character <= high
                case .digit(let wanted): character.isNumber == wanted
                case .word(let wanted): Self.isWord(character) == wanted
                case .space(let wanted): character.isWhitespace == wanted
                }
            }
            return found != negated
        }

        static func isWord(_ character: Character) -> Bool {
            character.isLetter || character.isNumber || character == "_"
        }
    }

    fileprivate struct Parser {
        let characters: [Character]
        var position = 0
        /// Groups open around `position`: the parser recurses per group, and 40,000 nested
        /// ones overflowed the stack (a crash, where every other limit is a usage error).
        var depth = 0
        static let deepestGroups = 200

        init(_ characters: [Character]) { self.characters = characters }

        mutating func parse() throws(Problem) -> Node {
            let node = try alternatives()
            if position < characters.count {
                // Only an unmatched `)` stops the top level early.
                throw problem("a ')' closes no group")
            }
            return node
        }

        private func problem(_ what: String, at place: Int? = nil) -> Problem {
            Problem(message: "\(what) (at character \((place ?? position) + 1))")
        }

        private var atEnd: Bool { position >= characters.count }
        private func peek(_ offset: Int = 0) -> Character? {
            position + offset < characters.count ? characters[position + offset] : nil
        }

        private mutating func alternatives() throws(Problem) -> Node {
            var options = [try sequence()]
            while peek() == "|" {
                position += 1
                options.append(try sequence())
            }
            return options.count == 1 ? options[0] : .alternatives(options)
        }

        private mutating func sequence() throws(Problem) -> Node {
            var items: [Node] = []
            while let c = peek(), c != "|", c != ")" {
                let start = position
                var atom = try self.atom()
                while let (minimum, maximum) = try quantifier() {
                    if case .start = atom { throw problem("'^' cannot be repeated", at: start) }
                    atom = .repetition(atom, minimum: minimum, maximum: maximum)
                }
                items.append(atom)
            }
            return items.count == 1 ? items[0] : .sequence(items)
        }

        /// `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, `{,m}`, each maybe followed by `?` or `+`.
        private mutating func quantifier() throws(Problem) -> (Int, Int?)? {
            let start = position
            var bounds: (Int, Int?)
            switch peek() {
            case "*": bounds = (0, nil)
            case "+": bounds = (1, nil)
            case "?": bounds = (0, 1)
            case "{":
                guard let counted = try counted() else { return nil }
                bounds = counted
                position -= 1  // `counted` stopped after `}`; the shared step below moves past it again
            default: return nil
            }
            position += 1
            if peek() == "?" || peek() == "+" { position += 1 }  // lazy, possessive: the same names match
            if let maximum = bounds.1, maximum < bounds.0 {
                throw problem("{\(bounds.0),\(maximum)} repeats at most fewer times than at least", at: start)
            }
            return bounds
        }

        /// `{n}`, `{n,}`, `{n,m}` and `{,m}` (as `Regex` reads it: 0 to m) from `{`; nil (a
        /// literal `{`) when it is none of them.
        private mutating func counted() throws(Problem) -> (Int, Int?)? {
            let start = position
            var at = position + 1
            func number() -> Int? {
                var value: Int?
                while at < characters.count, let digit = characters[at].wholeNumberValue, characters[at].isASCII {
                    value = min((value ?? 0) * 10 + digit, 1_000_000)
                    at += 1
                }
                return value
            }
            let written = number()
            let minimum = written ?? 0
            var maximum: Int? = minimum
            if at < characters.count, characters[at] == "," {
                at += 1
                maximum = number()
                if written == nil && maximum == nil { return nil }  // `{,}` is literal
            } else if written == nil {
                return nil
            }
            guard at < characters.count, characters[at] == "}" else { return nil }
            if minimum > 1000 || (maximum ?? 0) > 1000 {
                throw problem("a repetition count above 1000 is not supported", at: start)
            }
            position = at + 1
            return (minimum, maximum)
        }

        private mutating func atom() throws(Problem) -> Node {
            let start = position
            let c = characters[position]
            position += 1
            switch c {
            case ".": return .any
            case "^": return .start
            case "$": return .end
            case "*", "+", "?":
                throw problem("'\(c)' repeats nothing: put what it repeats before it, or write \\\(c) for the character", at: start)
            case "[": return .set(try set())
            case "\\": return try escape(inSet: false).node
            case "(":
                if peek() == "?" {
                    position += 1
                    switch peek() {
                    case ":": position += 1
                    case "<" where peek(1) != "=" && peek(1) != "!", "P" where peek(1) == "<":
                        // A named group: only its name is skipped.
                        while let n = peek(), n != ">" { position += 1 }
                        guard !atEnd else { throw problem("a group name is not closed with '>'", at: start) }
                        position += 1
                    case "=", "!", "<": throw unsupported("lookaround", at: start)
                    case ">": throw unsupported("an atomic group", at: start)
                    default: throw unsupported("the group option '(?\(peek().map(String.init) ?? "")'", at: start)
                    }
                }
                guard depth < Self.deepestGroups else {
                    throw problem("groups are nested deeper than \(Self.deepestGroups)", at: start)
                }
                depth += 1
                defer { depth -= 1 }
                let inner = try alternatives()
                guard peek() == ")" else { throw problem("the group opened here is not closed with ')'", at: start) }
                position += 1
                return inner
            case "{":
                return .character(c)  // not a repetition count: a literal brace, as `Regex` reads it
            default:
                return .character(c)
            }
        }

        private func unsupported(_ what: String, at place: Int) -> Problem {
            problem(
                "\(what) is not supported: --filter matches names without backtracking, so no pattern can hang a run; "
                    + "select with alternatives and anchors instead, or with --tags", at: place)
        }

        /// After `\`: a class, an anchor or an escaped character.
        private mutating func escape(inSet: Bool) throws(Problem) -> (node: Node, item: CharacterClass.Item?) {
            guard let c = peek() else { throw problem("the pattern ends with a lone '\\'", at: position - 1) }
            let start = position - 1
            position += 1
            switch c {
            case "d", "D": return (.set(CharacterClass(items: [.digit(c == "d")])), .digit(c == "d"))
            case "w", "W": return (.set(CharacterClass(items: [.word(c == "w")])), .word(c == "w"))
            case "s", "S": return (.set(CharacterClass(items: [.space(c == "s")])), .space(c == "s"))
            case "b" where !inSet, "B" where !inSet: return (.wordBoundary(c == "b"), nil)
            case "x":
                // \x{1F600} or \xHH: a character by its code point (how a replay spells a control character).
                let braced = peek() == "{"
                if braced { position += 1 }
                var value: UInt32 = 0
                var digits = 0
                while let h = peek(), let digit = h.hexDigitValue, braced ? digits < 8 : digits < 2 {
                    value = value * 16 + UInt32(digit)
                    digits += 1
                    position += 1
                }
                if braced {
                    guard peek() == "}" else { throw problem("\\x{ is not closed with '}'", at: start) }
                    position += 1
                }
                guard digits > 0, let scalar = Unicode.Scalar(value) else {
                    throw problem("\\x needs a code point in hexadecimal (\\x41 or \\x{1F600})", at: start)
                }
                let character = Character(scalar)
                return (.character(character), .character(character))
            case "n": return (.character("\n"), .character("\n"))
            case "t": return (.character("\t"), .character("\t"))
            case "r": return (.character("\r"), .character("\r"))
            case "f": return (.character("\u{0C}"), .character("\u{0C}"))
            case "v": return (.character("\u{0B}"), .character("\u{0B}"))
            case "1"..."9": throw unsupported("a back-reference (\\\(c))", at: start)
            default:
                if c.isLetter || c.isNumber { throw problem("the escape '\\\(c)' is not supported", at: start) }
                return (.character(c), .character(c))
            }
        }

        /// After `[`: the set up to its `]`.
        private mutating func set() throws(Problem) -> CharacterClass {
            let start = position - 1
            var set = CharacterClass(items: [])
            if peek() == "^" {
                set.negated = true
                position += 1
            }
            var first = true
            while let c = peek(), c != "]" || first {
                first = false
                position += 1
                var item: CharacterClass.Item
                if c == "\\" {
                    guard let escaped = try escape(inSet: true).item else { throw problem("'\\b' inside [...]", at: position - 2) }
                    item = escaped
                } else if c == "[" && peek() == ":" {
                    throw unsupported("a POSIX class ([:name:])", at: position - 1)
                } else {
                    item = .character(c)
                }
                if case .character(let low) = item, peek() == "-", let high = peek(1), high != "]" {
                    position += 2
                    var upper = high
                    if high == "\\" {
                        guard case .character(let escaped)? = try escape(inSet: true).item else {
                            throw problem("a range cannot end with a class", at: position - 2)
                        }
                        upper = escaped
                    }
                    guard low <= upper else { throw problem("the range \(low)-\(upper) is backwards", at: position - 3) }
                    item = .range(low, upper)
                }
                set.items.append(item)
            }
            guard !atEnd else { throw problem("the '[' here is not closed with ']'", at: start) }
            position += 1
            return set
        }
    }
}
