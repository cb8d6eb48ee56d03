/// Finds a repeated group whose every turn can be a repetition alone —
/// `(a+)+`, `(\d+-?)*`, `(a{2,})+`, `(x|y+)+` — in a param pattern of a
/// route manifest.
///
/// Why: the router matches params with a backtracking engine, and on a long
/// value that almost fits such a pattern it tries exponentially many ways
/// to share the value out between the turns: a 24-character link held the
/// router for more than fifteen minutes. `routes check` says so before
/// rollout. A turn that must begin or end with something the repetition
/// cannot match — `(-[a-z]+)*`, `(a+b)+` — splits the value one way only,
/// and is fine. (Alternatives that overlap, `(a|aa)+`, backtrack too; they
/// are not found here.)
enum NestedRepetition {
    /// One atom of a pattern and how it may repeat.
    private struct Atom {
        /// The atom's text; for a group, what is inside its parentheses.
        var body: ArraySlice<Character>
        var isGroup: Bool
        /// The quantifier as written (empty: none).
        var quantifier: ArraySlice<Character>

        /// `*`, `+`, `{n,}`, `{n,m}` with m > 1 (a lazy `?` after them changes nothing).
        var repeats: Bool {
            guard let first = quantifier.first else { return false }
            if first == "*" || first == "+" { return true }
            guard first == "{", let close = quantifier.firstIndex(of: "}") else { return false }
            let bounds = String(quantifier[quantifier.index(after: quantifier.startIndex)..<close])
                .split(separator: ",", omittingEmptySubsequences: false)
            guard let low = bounds.first.flatMap({ Int($0) }) else { return false }
            if bounds.count == 1 { return low > 1 }
            return bounds.count == 2 && (bounds[1].isEmpty || (Int(bounds[1]) ?? 0) > 1)
        }

        /// `?`, `*`, `{0,…}`: the pattern may skip it.
        var isOptional: Bool {
            guard let first = quantifier.first else { return false }
            return first == "?" || first == "*" || (first == "{" && quantifier.dropFirst().first == "0")
        }
    }

    /// The first repeated group that can repeat ambiguously, as written with
    /// its quantifier (`(a+)+`), or nil.
    static func find(in pattern: String) -> String? {
        find(in: Array(pattern)[...], whole: pattern)
    }

    private static func find(in text: ArraySlice<Character>, whole: String) -> String? {
        for alternative in alternatives(text) {
            for atom in atoms(alternative) where atom.isGroup {
                if atom.repeats && turnCanBeARepetition(atom.body) {
                    // From the opening parenthesis to the quantifier's end.
                    let start = text.index(before: atom.body.startIndex)
                    return String(text[start..<atom.quantifier.endIndex])
                }
                if let inner = find(in: atom.body, whole: whole) { return inner }
            }
        }
        return nil
    }

    /// Whether a group's content, in some alternative, is a repetition
    /// followed only by what may be skipped: a turn can end anywhere in it.
    private static func turnCanBeARepetition(_ content: ArraySlice<Character>) -> Bool {
        alternatives(withoutGroupPrefix(content)).contains { alternative in
            let parts = atoms(alternative)
            guard let first = parts.first, parts.dropFirst().allSatisfy(\.isOptional) else { return false }
            return first.repeats || (first.isGroup && first.quantifier.isEmpty && turnCanBeARepetition(first.body))
        }
    }

    /// A group's content without `?:`, `?<name>` or `?'name'`.
    private static func withoutGroupPrefix(_ content: ArraySlice<Character>) -> ArraySlice<Character> {
        guard content.first == "?" else { return content }
        let rest = content.dropFirst()
        if rest.first == ":" { return rest.dropFirst() }
        if let opening = rest.first, opening == "<" || opening == "'",
            let close = rest.dropFirst().firstIndex(of: opening == "<" ? ">" : "'")
        {
            return rest[(close + 1)...]
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

    /// The index after the character class opening at `start` (a `]` first in it is literal).
    private static func classEnd(_ text: ArraySlice<Character>, from start: Int) -> Int {
        var end = start + 1
        if end < text.endIndex, text[end] == "^" { end += 1 }
        if end < text.endIndex, text[end] == "]" { end += 1 }
        while end < text.endIndex, text[end] != "]" { end += text[end] == "\\" ? 2 : 1 }
        return min(end + 1, text.endIndex)
    }
}
