/// "Did you mean …?" for a global a script used that does not exist.
///
/// Why: a misspelt verb (`expect_stak{…}`, `tapp(…)`) is the commonest
/// mistake in a scenario, and Lua only says `attempt to call a nil value
/// (global 'expect_stak')`. The names that do exist are the file's globals
/// (the language, the host's verbs, the standard library, the file's own),
/// so the closest one is worth naming.
public enum NameSuggestion {
    /// `; did you mean 'expect_stack'?` for a Lua message about calling or
    /// indexing a nil global, when one of `names()` is close to it; nil
    /// otherwise (also when `names` cannot say). `names` is only asked when
    /// the message is about a global.
    package static func hint(forLuaMessage message: String, names: () throws -> [String]) -> String? {
        guard let name = nilGlobal(in: message), let known = try? names(),
            let match = closest(to: name, among: known)
        else { return nil }
        return "; did you mean '\(match)'?"
    }

    /// For a call of a global that does not exist and is close to no name (so no
    /// "did you mean"): the functions this app's host adds, since the usual cause
    /// is a verb of another app (`login{}` copied from another app's suite).
    package static func hostFunctionsHint(forLuaMessage message: String, host: any ScenarioHost) -> String? {
        guard message.contains("attempt to call a nil value"), !message.contains("did you mean"),
            let name = nilGlobal(in: message)
        else { return nil }
        let own = host.functions.map(\.name).sorted()
        return "; '\(name)' is not a function of the language or of \(host.name)"
            + (own.isEmpty ? " (it adds none)" : ", whose own are: " + own.joined(separator: ", "))
            + " (the `types` command lists them all)"
    }

    /// The global a Lua 5.4 message says was nil when called or indexed
    /// (`attempt to call a nil value (global 'tapp')`).
    static func nilGlobal(in message: String) -> String? {
        guard message.contains("attempt to call a nil value") || message.contains("attempt to index a nil value"),
            let start = message.range(of: "(global '")?.upperBound,
            let end = message[start...].range(of: "')")?.lowerBound,
            start < end
        else { return nil }
        return String(message[start..<end])
    }

    /// The candidate closest to `name`: at most two edits away and fewer
    /// edits than half its length (`ta` is not a misspelt `tap`), and
    /// strictly closer than every other candidate (a tie names none).
    public static func closest(to name: String, among candidates: [String]) -> String? {
        let near = nearest(to: name, among: candidates)
        return near.count == 1 ? near[0] : nil
    }

    /// Every candidate as close to `name` as the closest (within the limits of
    /// ``closest(to:among:)``), sorted. Why: a check that calls a name a typo when it is
    /// close to one the app has must not let it pass because two are (`placse` is one
    /// edit from both `place` and `places`).
    public static func nearest(to name: String, among candidates: [String]) -> [String] {
        let length = name.unicodeScalars.count
        let limit = min(2, (length - 1) / 2)
        guard limit > 0 else { return [] }
        var best: [String] = []
        var bestDistance = Int.max
        for candidate in Set(candidates) where candidate != name {
            // The distance is at least the difference in length: a 2 MB name is compared with
            // nothing (it took 37 s against every screen), a close one as before.
            guard abs(candidate.unicodeScalars.count - length) <= limit else { continue }
            let d = distance(name, candidate)
            guard d <= limit, d <= bestDistance else { continue }
            if d < bestDistance { best = [] }
            bestDistance = d
            best.append(candidate)
        }
        return best.sorted()
    }

    /// `did you mean 'place'?`, `did you mean 'place' or 'places'?`; nil for no name.
    public static func didYouMean(_ names: [String]) -> String? {
        guard let last = names.last else { return nil }
        let quoted = names.dropLast().map { "'\($0)'" }
        return "did you mean " + (quoted.isEmpty ? "" : quoted.joined(separator: ", ") + " or ") + "'\(last)'?"
    }

    /// Edits (insert, delete, substitute, swap two neighbours) from `a` to
    /// `b`, by Unicode scalar: the optimal-string-alignment distance.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        // Three rows of the table: two back (for swaps), one back, this one.
        var older = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], older[j - 2] + 1)
                }
            }
            (older, previous, current) = (previous, current, older)
        }
        return previous[b.count]
    }
}
