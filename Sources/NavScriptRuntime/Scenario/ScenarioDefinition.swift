import NavScript

/// One declared scenario, as the prelude collected it from a file.
package struct ScenarioDefinition {
    package var name: String
    var groups: [String]
    var file: String
    var line: Int
    package var tags: [String]
    var launch: LuaTable?
    /// Invariants the scenario allows, with its reasons (`allow = { leaks = "why" }`).
    var allow: [(Invariant, String)]
    var body: LuaFunction?
    /// The data row of a `scenario.each` scenario, passed to its body.
    var row: LuaValue
    var isPending: Bool
    var before: [LuaFunction]
    var after: [LuaFunction]

    /// What the scenario declares beside its listing — its launch options
    /// and what it allows — as text that reads the same for the same
    /// declaration in any process (tables print their keys sorted).
    package var declaration: String {
        "launch " + (launch?.description ?? "{}") + "; allow "
            + allow.map { "\($0.0.rawValue)=\($0.1)" }.sorted().joined(separator: ",")
    }

    /// ``declaration`` with the hooks the scenario runs under, each by where it is written
    /// (`before a.lua:3; after a.lua:7`): a reload that registers another `after_each` (one
    /// drawn from the clock) declares the scenario otherwise, and the rest of a file resumed
    /// after a crash must not run without the hook it first had.
    package func declaration(in state: LuaState) -> String {
        func places(_ hooks: [LuaFunction]) -> String {
            hooks.map { state.definitionPlace(of: $0, withDigest: true) ?? "?" }.joined(separator: ",")
        }
        return declaration + "; before " + places(before) + "; after " + places(after)
            + (row.isNil ? "" : "; row " + Self.rowText(row, in: state))
    }

    private static func rowText(_ row: LuaValue, in state: LuaState) -> String {
        var budget = 100_000
        return stable(row, in: state, budget: &budget)
    }

    /// A row as text that reads the same for the same data in any process: a function by where it
    /// is written and its bytecode's digest (its address differs per process), a userdata by its
    /// kind, tables by their sorted keys — as deep as they go (the copy into Swift has no cycles),
    /// up to `budget` entries in all.
    private static func stable(_ value: LuaValue, in state: LuaState, budget: inout Int) -> String {
        switch value {
        case .table(let table):
            var parts: [String] = []
            for pair in table.pairs {
                budget -= 1
                guard budget > 0 else {
                    parts.append("…")
                    break
                }
                parts.append(stable(pair.key, in: state, budget: &budget) + "=" + stable(pair.value, in: state, budget: &budget))
            }
            return "{" + parts.joined(separator: ",") + "}"
        case .function(let function): return "function " + (state.definitionPlace(of: function, withDigest: true) ?? "")
        case .hostObject, .other: return value.typeName
        default: return value.description
        }
    }

    /// The most code points (Unicode scalars) a scenario's full name may have.
    static let longestName = 1_000

    /// Whether `name` starts or ends with a blank (any Unicode white space).
    static func blankEnded(_ name: String) -> Bool {
        startsBlank(name[...]) || endsBlank(name[...])
    }

    /// Whether `text` begins (ends) with a blank or something not drawn,
    /// read by code point: a variation selector after the last letter is
    /// part of its character, yet nothing a report shows.
    static func startsBlank(_ text: Substring) -> Bool { text.unicodeScalars.first.map(readsBlank) ?? false }
    static func endsBlank(_ text: Substring) -> Bool { text.unicodeScalars.last.map(readsBlank) ?? false }

    private static func readsBlank(_ scalar: Unicode.Scalar) -> Bool {
        // ASCII: only its white space (tab to carriage return, space) reads blank. Every name is
        // checked, most are ASCII, and looking properties up was a thirtieth of a scenario that only launches.
        if scalar.isASCII { return (0x09...0x0D).contains(scalar.value) || scalar.value == 0x20 }
        return scalar.properties.isWhitespace || isUndrawn(scalar) || drawnBlank.contains(scalar)
    }

    /// Whether a report shows `character` as a blank or as nothing: white
    /// space, a filler letter drawn empty (Hangul fillers, the blank Braille
    /// pattern), or only characters that are not drawn at all.
    static func readsBlank(_ character: Character) -> Bool {
        character.isWhitespace || character.unicodeScalars.allSatisfy(readsBlank)
    }

    /// Letters drawn as an empty space, though not white space.
    private static let drawnBlank: Set<Unicode.Scalar> = ["\u{115F}", "\u{1160}", "\u{3164}", "\u{FFA0}", "\u{2800}"]

    /// Not drawn at all: format characters (a zero-width space, a bidi
    /// mark) and every default-ignorable one (a variation selector, a
    /// grapheme joiner).
    private static func isUndrawn(_ scalar: Unicode.Scalar) -> Bool {
        !drawnBlank.contains(scalar)
            && (scalar.properties.generalCategory == .format || scalar.properties.isDefaultIgnorableCodePoint)
    }

    /// How a report shows `name`: letters compared as Swift compares them
    /// (`"é"` and `"e\u{301}"` are one), what is not drawn (a zero-width
    /// space, a variation selector) left out, a filler drawn blank and any
    /// run of white space (a line break, a tab, a no-break or em space, two
    /// spaces) read as one space. Two names with one key read as one.
    static func readingKey(_ name: String) -> String {
        // Most names are ASCII with single spaces: they end here, read once, byte by byte.
        var plain = true
        var previous: UInt8 = 0
        for byte in name.utf8 {
            if byte >= 0x80 || (0x09...0x0D).contains(byte) || (byte == 0x20 && previous == 0x20) {
                plain = false
                break
            }
            previous = byte
        }
        guard !plain else { return name }
        var key = String.UnicodeScalarView()
        var afterBlank = false
        for scalar in name.unicodeScalars where !isUndrawn(scalar) {
            let white = scalar.isASCII ? (0x09...0x0D).contains(scalar.value) || scalar == " " : scalar.properties.isWhitespace
            if white || drawnBlank.contains(scalar) {
                if !afterBlank { key.append(" ") }
                afterBlank = true
            } else {
                key.append(scalar)
                afterBlank = false
            }
        }
        return String(key)
    }

    /// Reads one record of the prelude's `collect()` result:
    /// `{ name, line, fn, opts, pending, groups, before, after [, row] }`
    /// with `false` for what the declaration does not have. Positional, so
    /// a file's declarations cross into Swift without a field name each.
    init(_ record: LuaTable, file: String) throws(ScenarioLoadError) {
        let fields = record.array
        func field(_ position: Int) -> LuaValue {
            position <= fields.count ? fields[position - 1] : .nil
        }
        func table(_ position: Int) -> LuaTable? { field(position).tableValue }
        guard case .string(let name) = field(1) else { throw ScenarioLoadError("a declaration has no name") }
        self.name = name.string
        self.file = file
        self.line = field(2).intValue ?? 0
        if case .function(let body) = field(3) { self.body = body } else { self.body = nil }
        let opts = table(4) ?? LuaTable()
        isPending = field(5).isTruthy
        groups = table(6)?.array.compactMap { $0.stringValue } ?? []
        before = table(7)?.array.compactMap { if case .function(let f) = $0 { f } else { nil } } ?? []
        after = table(8)?.array.compactMap { if case .function(let f) = $0 { f } else { nil } } ?? []
        row = field(9)
        // A blank name cannot be told apart in a report nor selected with --filter. Only a name
        // that ends in a blank can be one (the full name is the groups', a space, then its own).
        // (scenario.each checks its generated names itself.)
        // A name is a report's heading and what --filter and a replay select: one line to read.
        // Counted in code points, not characters: one letter with five million combining marks is one
        // character, and its 10 MB name made a JUnit report that libxml2-based readers refuse.
        if self.name.utf8.count > Self.longestName, self.name.unicodeScalars.count > Self.longestName {
            throw ScenarioLoadError(
                "\(file):\(self.line): the scenario's name is \(self.name.unicodeScalars.count) code points long (with its "
                    + "groups'); names "
                    + "are headings and what --filter selects: keep it under \(Self.longestName) and put the detail in the body")
        }
        // Nor can names that differ only in blanks around them ("a" and "a "), its own or its groups'
        // (describe, scenario.each's filled in): refused too.
        let ownStart = groups.isEmpty ? 0 : groups.reduce(0) { $0 + $1.count + 1 }
        let own = self.name.dropFirst(ownStart)
        let startsBlank = Self.startsBlank(self.name[...]) || Self.startsBlank(own)
        if own.isEmpty || Self.endsBlank(own) || startsBlank || groups.contains(where: Self.blankEnded) {
            let own = String(own)
            let call = isPending ? "pending(name)" : fields.count < 9 ? "scenario(name, [options,] fn)" : "scenario.each"
            if own.allSatisfy(Self.readsBlank), fields.count < 9 {
                throw ScenarioLoadError(
                    "\(file):\(self.line): \(call): the name is \(own.isEmpty ? "empty" : "only blanks"); give it a name that "
                        + "says what it checks, as reports and --filter show it")
            }
            let part =
                groups.first(where: Self.blankEnded).map { "the group \(LuaSource.string($0))" }
                ?? "the name \(LuaSource.string(own))"
            throw ScenarioLoadError(
                "\(file):\(self.line): \(call): \(part) starts or ends with blanks, which reports do not show (it would look "
                    + "the same without them); trim it")
        }
        // Where a mistake is reported; spelled only for one (every declaration passes here).
        let declaredName = self.name, declaredLine = self.line
        func place() -> String { "\(file):\(declaredLine): scenario \"\(declaredName)\"" }
        func tagsAre() -> String { place() + ": tags must be a string or a list of strings" }
        switch opts[OptionKey.tags] {
        case .nil: tags = []
        case .string(let tag): tags = [tag.string]
        case .table(let list):
            tags = try list.pairs.map { key, value throws(ScenarioLoadError) in
                guard case .integer = key, let tag = value.stringValue else {
                    throw ScenarioLoadError(
                        "\(tagsAre()); got "
                            + (key.typeName == "number" ? "a \(value.typeName)" : "the field \(key.stringValue ?? key.description) = …"))
                }
                return tag
            }
        default: throw ScenarioLoadError(tagsAre())
        }
        // `--tags a,b` means a or b: a tag with a comma (or blank) could never be selected.
        // A character nothing draws (`smoke\u{200B}`) made a tag no `--tags smoke` selects, and the scenario
        // was left out of the run without a word.
        if let bad = tags.first(where: {
            $0.isEmpty || $0.contains(",") || $0.contains(where: \.isWhitespace) || $0.unicodeScalars.contains(where: Self.isUndrawn)
                || $0.unicodeScalars.contains { $0.properties.generalCategory == .control }
        }) {
            throw ScenarioLoadError(
                "\(place()): tag \"\(Expectation.spelled(bad))\" cannot be selected: "
                    + "--tags separates tags with commas, so a tag must be one word without commas, spaces or characters "
                    + "nothing draws")
        }
        switch opts[OptionKey.launch] {
        case .nil: launch = nil
        case .table(let launch): self.launch = launch
        default: throw ScenarioLoadError("\(place()): launch must be a table of launch options")
        }
        allow = try Self.allowances(opts[OptionKey.allow], at: place())
        if !opts.isEmpty { try Self.checkOptionNames(opts, at: place()) }
    }

    /// The options a declaration may carry, by name: those the editor types declare.
    package static let optionNames: [String] = {
        guard case .fields(let fields) = LuaDefinitions.scenarioOptions.shape else { return [] }
        return fields.map(\.name)
    }()

    /// An option the runner does not know was a typo (`tagz = {…}`) that
    /// left the scenario untagged, unlaunched or strict without a word.
    private static func checkOptionNames(_ opts: LuaTable, at place: String) throws(ScenarioLoadError) {
        for (key, _) in opts.pairs {
            guard let name = key.stringValue else {
                throw ScenarioLoadError(
                    "\(place): options are name = value pairs (\(optionNames.joined(separator: ", "))); "
                        + "got a list entry. Did you mean scenario(name, { tags = { … } }, fn)?")
            }
            guard !optionNames.contains(name) else { continue }
            let hint = NameSuggestion.closest(to: name, among: optionNames).map { "did you mean '\($0)'? " } ?? ""
            throw ScenarioLoadError(
                "\(place): unknown option '\(name)'; \(hint)the options are: "
                    + optionNames.joined(separator: ", "))
        }
    }

    /// The options a declaration may carry, built once (a `String`
    /// subscript builds its key for every lookup).
    private enum OptionKey {
        nonisolated(unsafe) static let tags: LuaValue = "tags"
        nonisolated(unsafe) static let launch: LuaValue = "launch"
        nonisolated(unsafe) static let allow: LuaValue = "allow"
    }
}

extension ScenarioDefinition {
    /// `allow = { "leaks" }` or `allow = { leaks = "the cache is meant to live" }`.
    /// `place` is only spelled out for a message: it is built for every declaration otherwise.
    static func allowances(_ value: LuaValue, at place: @autoclosure () -> String) throws(ScenarioLoadError) -> [(Invariant, String)] {
        guard case .table(let table) = value else {
            if value.isNil { return [] }
            throw ScenarioLoadError("\(place()): allow must be a list of invariant names or a table of name = reason")
        }
        var result: [(Invariant, String)] = []
        func invariant(_ name: String) throws(ScenarioLoadError) -> Invariant {
            guard let invariant = Invariant(rawValue: name) else {
                throw ScenarioLoadError(
                    "\(place()): allow: unknown invariant '\(name)'; the invariants are: "
                        + Invariant.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return invariant
        }
        for (key, reason) in table.pairs {
            if case .integer = key, let name = reason.stringValue {
                result.append((try invariant(name), "allowed by the scenario"))
            } else if let name = key.stringValue, let text = reason.stringValue {
                guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
                    throw ScenarioLoadError("\(place()): allow: '\(name)' needs a reason (\(name) = \"why this scenario may violate it\")")
                }
                result.append((try invariant(name), text))
            } else {
                throw ScenarioLoadError("\(place()): allow must be a list of invariant names or a table of name = reason")
            }
        }
        return result.sorted { $0.0.rawValue < $1.0.rawValue }
    }
}

/// A file could not be turned into scenarios (syntax error, a runtime error
/// at load time, a duplicate name): reported as an errored test case for
/// that file while the other files still run.
package struct ScenarioLoadError: Error, CustomStringConvertible {
    package var description: String
    package var details: String
    package var kind: ScenarioOutcome.ErrorKind
    /// What the file printed before it failed to load.
    package var output = ""

    init(_ description: String, details: String = "", kind: ScenarioOutcome.ErrorKind = .loadError, output: String = "") {
        self.description = description
        self.details = details
        self.kind = kind
        self.output = output
    }
}
