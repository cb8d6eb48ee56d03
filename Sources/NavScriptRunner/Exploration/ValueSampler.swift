import NavScript
import NavScriptRuntime
import NavigationCore

/// Values for a route parameter, drawn from its spec: valid ones (from
/// the spec's pattern), boundary ones (shortest and longest allowed) and
/// invalid ones (what the spec must refuse). The pattern language covered
/// is what manifests use — literals, character classes, `.`, groups,
/// alternation (`a|b`, each branch drawn in turn, so a few draws cover a
/// branch a changed spec added) and the quantifiers `? * + {m} {m,n}`;
/// anything else falls back to plain letters and digits, filtered by the spec.
struct ValueSampler {
    var generator: SeededGenerator
    /// Each pattern parsed once (nil: outside the subset): an explorer
    /// draws values for the same few patterns thousands of times a second.
    private var parsed: [String: [Node]?] = [:]
    /// Which branch each alternation (by where it starts in its pattern) draws next: round
    /// robin, not random — six draws of `p[0-9]{1,8}|admin` must reach `admin`.
    private var branchTurns: [Int: Int] = [:]
    /// Which member each class (by where it starts in its pattern) gives next when covering.
    private var memberTurns: [Int: Int] = [:]

    init(seed: UInt64) {
        generator = SeededGenerator(seed: seed)
    }

    /// A value the destination's spec accepts, or nil when none was found.
    mutating func valid(_ spec: ParamSpec, accepts: (String) -> Bool) -> String? {
        for _ in 0..<8 {
            let candidate: String
            if spec.kind == .integer {
                candidate = String(Int.random(in: 1...999, using: &generator))
            } else if let pattern = spec.pattern, let sampled = sample(pattern) {
                candidate = sampled
            } else {
                candidate = randomWord(
                    length: Int.random(
                        in: max(1, spec.minLength ?? 1)...max(1, min(spec.maxLength ?? 8, 8)),
                        using: &generator))
            }
            if accepts(candidate) { return candidate }
        }
        return nil
    }

    /// The shortest and the longest accepted value, where the spec bounds
    /// the length and a valid value can be stretched or cut to it.
    mutating func boundary(_ spec: ParamSpec, from valid: String, accepts: (String) -> Bool) -> [String] {
        var values: [String] = []
        if let max = spec.maxLength, let last = valid.last {
            let long = String(valid.prefix(max)) + String(repeating: last, count: Swift.max(0, max - valid.count))
            if accepts(long) { values.append(long) }
        }
        if let min = spec.minLength {
            let short = String(valid.prefix(min))
            if accepts(short) { values.append(short) }
        }
        return values
    }

    /// Values that together take every member of each class in the spec's pattern and each
    /// repetition at its least and its most count (at most `limit`), those the spec accepts. Why:
    /// `routes diff` compares a narrowed pattern by the values the old one took, and a few random
    /// draws of `[a-z][a-z0-9-]*` never held a dash, so dropping it from the class passed unseen.
    mutating func covering(_ spec: ParamSpec, limit: Int = 64, accepts: (String) -> Bool) -> [String] {
        guard spec.kind != .integer, let pattern = spec.pattern, let nodes = nodes(of: pattern) else { return [] }
        let widest = nodes.map(\.widestClass).max() ?? 1
        var values: [String] = []
        memberTurns = [:]
        for turn in 0..<min(limit, max(2 * widest, 3)) {
            var out = ""
            for node in nodes { cover(node, turn: turn, into: &out) }
            if accepts(out) { values.append(out) }
        }
        return values
    }

    /// Values near `values` that a changed pattern may treat otherwise than the old one, beyond
    /// what sampling reaches: each value's prefixes (`a-` of `a-b`: a trailing delimiter) and each with
    /// one character doubled (`a--b`), in capitals (a `(?i)` added), the words the patterns spell
    /// (`admin` of `(?!admin)…`) alone and followed by a letter, and letters and digits beyond ASCII
    /// (`\w` takes `é`, `[A-Za-z]` does not; `\d` takes `٣`). At most `limit`, each once.
    static func nearby(_ values: [String], patterns: [String], limit: Int = 2_000) -> [String] {
        var out: [String] = []
        var seen = Set(values)
        func add(_ value: String) {
            guard out.count < limit, !value.isEmpty, seen.insert(value).inserted else { return }
            out.append(value)
        }
        for value in values.prefix(200) {
            let characters = Array(value)
            for end in 1..<max(1, characters.count) { add(String(characters[..<end])) }
            for index in characters.indices { add(String(characters[...index]) + String(characters[index...])) }
            add(value.uppercased())
            add(value.prefix(1).uppercased() + value.dropFirst())
            add(value + "é")
            // Digits of other scripts (`\d` takes `٣`, `[0-9]` does not): Arabic-Indic and fullwidth.
            for zero in [0x660, 0xFF10] as [UInt32] {
                let other = String(
                    String.UnicodeScalarView(
                        value.unicodeScalars.map { scalar in
                            ("0"..."9").contains(scalar) ? Unicode.Scalar(zero + scalar.value - 0x30) ?? scalar : scalar
                        }))
                if other != value { add(other) }
            }
        }
        // The words the patterns spell (`admin` in `(?!admin)…`, `31415` in `p(?!31415)…`), alone and
        // spliced after each start of a value: a word a lookahead excludes usually follows a prefix.
        var words: [String] = []
        for pattern in patterns {
            for word in pattern.split(whereSeparator: { !$0.isLetter && !$0.isNumber }) where word.count >= 2 {
                words.append(String(word))
                add(String(word))
                add(String(word) + "x")
            }
        }
        for word in ["é", "café", "ß", "日本", "Ωmega"] { add(word) }
        for value in values.prefix(50) {
            let characters = Array(value)
            for word in words.prefix(20) {
                for end in 1..<max(1, min(characters.count, 8)) { add(String(characters[..<end]) + word) }
            }
        }
        return out
    }

    /// Values the spec must refuse: punctuation, an overlong one, a wrong kind.
    func invalid(_ spec: ParamSpec) -> [String] {
        var values = ["!bad", "x y"]
        if let max = spec.maxLength { values.append(String(repeating: "9", count: max + 1)) }
        if spec.kind == .integer { values.append("abc") }
        return values
    }

    mutating func randomWord(length: Int) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        return String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
    }

    // MARK: - A small regular-expression sampler

    private indirect enum Node {
        case literal(Character)
        case set(at: Int, [Character])
        case group([Node])
        case choice(at: Int, [[Node]])
        case repeated(Node, min: Int, max: Int)

        /// The most members of one class in it: how many values cover them all.
        var widestClass: Int {
            switch self {
            case .literal: 1
            case .set(_, let members): members.count
            case .group(let nodes): nodes.map(\.widestClass).max() ?? 1
            case .choice(_, let branches): max(branches.count, branches.joined().map(\.widestClass).max() ?? 1)
            case .repeated(let inner, _, _): inner.widestClass
            }
        }
    }

    /// A string matching `pattern`, or nil for syntax outside the subset.
    mutating func sample(_ pattern: String) -> String? {
        guard let nodes = nodes(of: pattern) else { return nil }
        var out = ""
        for node in nodes { emit(node, into: &out) }
        return out
    }

    /// `pattern` parsed, once.
    private mutating func nodes(of pattern: String) -> [Node]? {
        if let known = parsed[pattern] { return known }
        let nodes = Self.parse(pattern)
        parsed[pattern] = .some(nodes)
        return nodes
    }

    private static func parse(_ pattern: String) -> [Node]? {
        var characters = Array(pattern)
        if characters.first == "^" { characters.removeFirst() }
        if characters.last == "$" { characters.removeLast() }
        var index = 0
        guard let node = parseAlternatives(characters, &index), index == characters.count else { return nil }
        return [node]
    }

    /// Sequences separated by `|`, up to the end or the group's `)`.
    private static func parseAlternatives(_ c: [Character], _ i: inout Int) -> Node? {
        let start = i
        var branches: [[Node]] = []
        while true {
            guard let branch = parseSequence(c, &i) else { return nil }
            branches.append(branch)
            guard i < c.count, c[i] == "|" else { break }
            i += 1
        }
        return branches.count == 1 ? .group(branches[0]) : .choice(at: start, branches)
    }

    private static func parseSequence(_ c: [Character], _ i: inout Int) -> [Node]? {
        var nodes: [Node] = []
        while i < c.count, c[i] != ")", c[i] != "|" {
            guard var node = parseAtom(c, &i) else { return nil }
            if i < c.count {
                switch c[i] {
                case "?": node = .repeated(node, min: 0, max: 1); i += 1
                case "*": node = .repeated(node, min: 0, max: 3); i += 1
                case "+": node = .repeated(node, min: 1, max: 4); i += 1
                case "{":
                    guard let close = c[i...].firstIndex(of: "}") else { return nil }
                    let parts = String(c[(i + 1)..<close]).split(separator: ",", omittingEmptySubsequences: false)
                    guard let low = Int(parts[0]) else { return nil }
                    let high = parts.count > 1 ? (Int(parts[1]) ?? low + 3) : low
                    node = .repeated(node, min: low, max: Swift.max(low, high))
                    i = close + 1
                default: break
                }
            }
            nodes.append(node)
        }
        return nodes
    }

    private static func parseAtom(_ c: [Character], _ i: inout Int) -> Node? {
        let character = c[i]
        switch character {
        case "[":
            let start = i
            guard let close = c[(i + 1)...].firstIndex(of: "]") else { return nil }
            var members: [Character] = []
            var j = i + 1
            if c[j] == "^" { return nil }
            while j < close {
                if j + 2 < close, c[j + 1] == "-", let low = c[j].asciiValue, let high = c[j + 2].asciiValue, low <= high {
                    members += (low...high).map { Character(Unicode.Scalar($0)) }
                    j += 3
                } else if c[j] == "\\", j + 1 < close {
                    members.append(c[j + 1])
                    j += 2
                } else {
                    members.append(c[j])
                    j += 1
                }
            }
            i = close + 1
            return members.isEmpty ? nil : .set(at: start, members)
        case "(":
            i += 1
            if i + 1 < c.count, c[i] == "?", c[i + 1] == ":" { i += 2 }
            guard let inner = parseAlternatives(c, &i), i < c.count, c[i] == ")" else { return nil }
            i += 1
            return inner
        case "\\":
            guard i + 1 < c.count else { return nil }
            let escaped = c[i + 1]
            i += 2
            switch escaped {
            case "d": return .set(at: i - 2, Array("0123456789"))
            case "w": return .set(at: i - 2, Array("abcdefghijklmnopqrstuvwxyz0123456789_"))
            case "x", "u", "U":
                // `\x61`, `\u0061`, `\U00000061`, `\x{61}`: one character by its code (`a`, not `x61`).
                let braced = escaped == "x" && i < c.count && c[i] == "{"
                let digits: [Character]
                if braced {
                    guard let close = c[i...].firstIndex(of: "}") else { return nil }
                    digits = Array(c[(i + 1)..<close])
                    i = close + 1
                } else {
                    let count = ["x": 2, "u": 4, "U": 8][escaped] ?? 2
                    guard i + count <= c.count else { return nil }
                    digits = Array(c[i..<(i + count)])
                    i += count
                }
                guard let code = UInt32(String(digits), radix: 16), let scalar = Unicode.Scalar(code) else { return nil }
                return .literal(Character(scalar))
            case "p", "P", "N", "Q", "E", "b", "B", "A", "z", "Z", "s", "S", "D", "W":
                return nil  // outside the subset: plain letters and digits, filtered by the spec
            default: return .literal(escaped)
            }
        case ".":
            i += 1
            return .set(at: i - 1, Array("abcdefghijklmnopqrstuvwxyz0123456789"))
        case "*", "+", "?", "{":
            return nil
        default:
            i += 1
            return .literal(character)
        }
    }

    private mutating func emit(_ node: Node, into out: inout String) {
        switch node {
        case .literal(let character): out.append(character)
        case .set(_, let members): out.append(members.randomElement(using: &generator)!)
        case .group(let nodes): for inner in nodes { emit(inner, into: &out) }
        case .choice(let start, let branches):
            let turn = branchTurns[start, default: 0]
            branchTurns[start] = turn + 1
            let branch = branches[turn % branches.count]
            for inner in branch { emit(inner, into: &out) }
        case .repeated(let inner, let low, let high):
            let count = Int.random(in: low...Swift.min(high, low + 6), using: &generator)
            for _ in 0..<count { emit(inner, into: &out) }
        }
    }

    /// One covering value's part for `node`: each class's next member, each branch in turn, and
    /// repetitions at their least count, their most, or between, by `turn`.
    private mutating func cover(_ node: Node, turn: Int, into out: inout String) {
        switch node {
        case .literal(let character): out.append(character)
        case .set(let start, let members):
            let next = memberTurns[start, default: 0]
            memberTurns[start] = next + 1
            out.append(members[next % members.count])
        case .group(let nodes): for inner in nodes { cover(inner, turn: turn, into: &out) }
        case .choice(let start, let branches):
            let next = branchTurns[start, default: 0]
            branchTurns[start] = next + 1
            for inner in branches[next % branches.count] { cover(inner, turn: turn, into: &out) }
        case .repeated(let inner, let low, let high):
            let most = Swift.min(high, low + 6)
            let count = [most, low, (low + most + 1) / 2][turn % 3]
            for _ in 0..<count { cover(inner, turn: turn, into: &out) }
        }
    }
}
