/// The common kind of parameter pattern — `p[0-9]{1,8}`, `[a-z][a-z0-9-]*` —
/// matched without `Regex`: a sequence of byte classes, each repeated
/// between a minimum and a maximum number of times.
///
/// Why: `Regex.wholeMatch` was a tenth of every link's resolution (about
/// 2,400 instructions for a 6-character id); this matcher needs a few
/// hundred. It is only used where it gives exactly `Regex`'s answer: for a
/// pattern made of ASCII literals, `\d \w \s` (and their negations),
/// escaped punctuation, bracket classes with ranges, and the quantifiers
/// `? * + {n} {n,} {n,m}` — and for a value of printable ASCII. Anything
/// else (groups, alternation, anchors, `.`, lazy or possessive quantifiers,
/// set operations, other characters) makes `init` return nil, and the
/// caller keeps using `Regex`.
struct SimplePattern: Sendable, Hashable {
    /// A set of ASCII bytes.
    struct ByteSet: Sendable, Hashable {
        var low: UInt64 = 0
        var high: UInt64 = 0

        func contains(_ byte: UInt8) -> Bool {
            byte < 64 ? low & (1 << UInt64(byte)) != 0 : byte < 128 && high & (1 << UInt64(byte - 64)) != 0
        }

        mutating func insert(_ byte: UInt8) {
            if byte < 64 { low |= 1 << UInt64(byte) } else if byte < 128 { high |= 1 << UInt64(byte - 64) }
        }

        mutating func insert(_ range: ClosedRange<UInt8>) {
            for byte in range { insert(byte) }
        }

        mutating func formUnion(_ other: ByteSet) {
            low |= other.low
            high |= other.high
        }

        /// Every ASCII byte not in the set.
        var inverted: ByteSet { ByteSet(low: ~low, high: ~high) }

        static let digits: ByteSet = {
            var set = ByteSet(); set.insert(48...57); return set
        }()
        static let word: ByteSet = {
            var set = digits
            set.insert(65...90)
            set.insert(97...122)
            set.insert(95)
            return set
        }()
        static let space: ByteSet = {
            var set = ByteSet(); set.insert(9...13); set.insert(32); return set
        }()
    }

    struct Atom: Sendable, Hashable {
        var bytes: ByteSet
        var min: Int
        var max: Int
    }

    let atoms: [Atom]

    init?(_ pattern: String) {
        let source = Array(pattern.utf8)
        var atoms: [Atom] = []
        var index = 0
        while index < source.count {
            guard let (set, next) = Self.atom(source, index) else { return nil }
            guard let (min, max, afterQuantifier) = Self.quantifier(source, next) else { return nil }
            atoms.append(Atom(bytes: set, min: min, max: max))
            index = afterQuantifier
        }
        self.atoms = atoms
    }

    /// Whether `value` matches as a whole; nil when the value is outside
    /// what this matcher answers exactly (not printable ASCII, or 64 bytes
    /// and more).
    func wholeMatch(_ value: String) -> Bool? {
        value.withUTF8Bytes { matches($0) }
    }

    private func matches(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        let count = bytes.count
        guard count < 64, bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        // Bit i: the atoms so far can end after i bytes.
        var reachable: UInt64 = 1
        for atom in atoms {
            var next: UInt64 = 0
            for start in 0...count where reachable & (1 << UInt64(start)) != 0 {
                var length = 0
                while true {
                    if length >= atom.min { next |= 1 << UInt64(start + length) }
                    guard length < atom.max, start + length < count,
                        atom.bytes.contains(bytes[bytes.index(bytes.startIndex, offsetBy: start + length)])
                    else { break }
                    length += 1
                }
            }
            if next == 0 { return false }
            reachable = next
        }
        return reachable & (1 << UInt64(count)) != 0
    }

    // MARK: Parsing

    private static let specials = Set("\\[](){}|?*+.^$".utf8)

    /// One atom at `index`: a literal, an escape or a bracket class.
    private static func atom(_ source: [UInt8], _ index: Int) -> (ByteSet, Int)? {
        let byte = source[index]
        if byte == UInt8(ascii: "\\") {
            guard index + 1 < source.count, let set = escape(source[index + 1]) else { return nil }
            return (set, index + 2)
        }
        if byte == UInt8(ascii: "[") { return bracket(source, index + 1) }
        guard byte >= 0x20, byte < 0x7F, !specials.contains(byte) else { return nil }
        var set = ByteSet()
        set.insert(byte)
        return (set, index + 1)
    }

    /// `\d \D \w \W \s \S`, or an escaped ASCII punctuation mark.
    private static func escape(_ byte: UInt8) -> ByteSet? {
        switch byte {
        case UInt8(ascii: "d"): return .digits
        case UInt8(ascii: "D"): return ByteSet.digits.inverted
        case UInt8(ascii: "w"): return .word
        case UInt8(ascii: "W"): return ByteSet.word.inverted
        case UInt8(ascii: "s"): return .space
        case UInt8(ascii: "S"): return ByteSet.space.inverted
        default:
            let isPunctuation =
                (0x21...0x2F).contains(byte) || (0x3A...0x40).contains(byte)
                || (0x5B...0x60).contains(byte) || (0x7B...0x7E).contains(byte)
            guard isPunctuation else { return nil }
            var set = ByteSet()
            set.insert(byte)
            return set
        }
    }

    /// A bracket class from just after `[`: items, ranges, escapes; `^`
    /// first negates. Nested classes and set operations are refused.
    private static func bracket(_ source: [UInt8], _ start: Int) -> (ByteSet, Int)? {
        var index = start
        var negated = false
        if index < source.count, source[index] == UInt8(ascii: "^") {
            negated = true
            index += 1
        }
        var set = ByteSet()
        var first = true
        while index < source.count {
            let byte = source[index]
            if byte == UInt8(ascii: "]") && !first {
                return (negated ? set.inverted : set, index + 1)
            }
            first = false
            if byte == UInt8(ascii: "[") { return nil }
            // `&&`, `--`, `~~`: set operations, not literals.
            if index + 1 < source.count, source[index + 1] == byte,
                byte == UInt8(ascii: "&") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "~")
            {
                return nil
            }
            guard let (low, afterLow) = classMember(source, index) else { return nil }
            if case .byte(let lowByte) = low, afterLow + 1 < source.count, source[afterLow] == UInt8(ascii: "-"),
                source[afterLow + 1] != UInt8(ascii: "]")
            {
                guard let (high, afterHigh) = classMember(source, afterLow + 1), case .byte(let highByte) = high,
                    lowByte <= highByte
                else { return nil }
                set.insert(lowByte...highByte)
                index = afterHigh
                continue
            }
            switch low {
            case .byte(let single): set.insert(single)
            case .set(let members):
                // `[\d-z]`: a range from a class is not something to guess about.
                if afterLow + 1 < source.count, source[afterLow] == UInt8(ascii: "-"),
                    source[afterLow + 1] != UInt8(ascii: "]")
                {
                    return nil
                }
                set.formUnion(members)
            }
            index = afterLow
        }
        return nil
    }

    private enum ClassMember {
        case byte(UInt8)
        case set(ByteSet)
    }

    private static func classMember(_ source: [UInt8], _ index: Int) -> (ClassMember, Int)? {
        let byte = source[index]
        if byte == UInt8(ascii: "\\") {
            guard index + 1 < source.count, let set = escape(source[index + 1]) else { return nil }
            let escaped = source[index + 1]
            let isClassEscape = "dDwWsS".utf8.contains(escaped)
            return (isClassEscape ? .set(set) : .byte(escaped), index + 2)
        }
        guard byte >= 0x20, byte < 0x7F else { return nil }
        return (.byte(byte), index + 1)
    }

    /// `? * + {n} {n,} {n,m}` after an atom (none: exactly once). A lazy or
    /// possessive marker after it, or a malformed brace, is refused.
    private static func quantifier(_ source: [UInt8], _ index: Int) -> (Int, Int, Int)? {
        guard index < source.count else { return (1, 1, index) }
        let unbounded = Int.max
        let result: (Int, Int, Int)
        switch source[index] {
        case UInt8(ascii: "?"): result = (0, 1, index + 1)
        case UInt8(ascii: "*"): result = (0, unbounded, index + 1)
        case UInt8(ascii: "+"): result = (1, unbounded, index + 1)
        case UInt8(ascii: "{"):
            guard let close = source[index...].firstIndex(of: UInt8(ascii: "}")) else { return nil }
            let body = source[(index + 1)..<close]
            let parts = body.split(separator: UInt8(ascii: ","), maxSplits: 1, omittingEmptySubsequences: false)
            func number(_ digits: ArraySlice<UInt8>) -> Int? {
                guard !digits.isEmpty, digits.count <= 4, digits.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
                return digits.reduce(0) { $0 * 10 + Int($1 - 48) }
            }
            guard let min = number(parts[0]) else { return nil }
            if parts.count == 1 {
                result = (min, min, close + 1)
            } else if parts[1].isEmpty {
                result = (min, unbounded, close + 1)
            } else {
                guard let max = number(parts[1]), max >= min else { return nil }
                result = (min, max, close + 1)
            }
        default:
            return (1, 1, index)
        }
        if result.2 < source.count, [UInt8(ascii: "?"), UInt8(ascii: "+")].contains(source[result.2]) { return nil }
        return result
    }
}
