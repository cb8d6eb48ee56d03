/// One declared scenario, as the prelude collected it from a file.
struct ScenarioDefinition {
    var name: String
    var groups: [String]
    var file: String
    var line: Int
    var tags: [String]
    var launch: LuaTable?
    /// Invariants the scenario allows, with its reasons (`allow = { leaks = "why" }`).
    var allow: [(Invariant, String)]
    var body: LuaFunction?
    /// The data row of a `scenario.each` scenario, passed to its body.
    var row: LuaValue
    var isPending: Bool
    var before: [LuaFunction]
    var after: [LuaFunction]

    /// The fields of a declaration, built once (a `String` subscript builds
    /// its key for every lookup; files declare hundreds of scenarios).
    private enum Key {
        nonisolated(unsafe) static let name: LuaValue = "name"
        nonisolated(unsafe) static let groups: LuaValue = "groups"
        nonisolated(unsafe) static let line: LuaValue = "line"
        nonisolated(unsafe) static let opts: LuaValue = "opts"
        nonisolated(unsafe) static let tags: LuaValue = "tags"
        nonisolated(unsafe) static let launch: LuaValue = "launch"
        nonisolated(unsafe) static let allow: LuaValue = "allow"
        nonisolated(unsafe) static let fn: LuaValue = "fn"
        nonisolated(unsafe) static let row: LuaValue = "row"
        nonisolated(unsafe) static let pending: LuaValue = "pending"
        nonisolated(unsafe) static let before: LuaValue = "before"
        nonisolated(unsafe) static let after: LuaValue = "after"
    }

    /// Reads one entry of the prelude's `collect()` result.
    init(_ table: LuaTable, file: String) throws(ScenarioLoadError) {
        guard case .string(let name) = table[Key.name] else { throw ScenarioLoadError("a declaration has no name") }
        self.name = name.string
        self.groups = table[Key.groups].tableValue?.array.compactMap { $0.stringValue } ?? []
        self.file = file
        self.line = table[Key.line].intValue ?? 0
        let opts = table[Key.opts].tableValue ?? LuaTable()
        switch opts[Key.tags] {
        case .nil: tags = []
        case .string(let tag): tags = [tag.string]
        case .table(let list): tags = list.array.compactMap { $0.stringValue }
        default: throw ScenarioLoadError("\(file):\(line): scenario \"\(self.name)\": tags must be a string or a list of strings")
        }
        switch opts[Key.launch] {
        case .nil: launch = nil
        case .table(let launch): self.launch = launch
        default: throw ScenarioLoadError("\(file):\(line): scenario \"\(self.name)\": launch must be a table of launch options")
        }
        allow = try Self.allowances(opts[Key.allow], at: "\(file):\(line): scenario \"\(self.name)\"")
        if case .function(let body) = table[Key.fn] { self.body = body } else { self.body = nil }
        row = table[Key.row]
        isPending = table[Key.pending].isTruthy
        before = table[Key.before].tableValue?.array.compactMap { if case .function(let f) = $0 { f } else { nil } } ?? []
        after = table[Key.after].tableValue?.array.compactMap { if case .function(let f) = $0 { f } else { nil } } ?? []
    }
}

extension ScenarioDefinition {
    /// `allow = { "leaks" }` or `allow = { leaks = "the cache is meant to live" }`.
    static func allowances(_ value: LuaValue, at place: String) throws(ScenarioLoadError) -> [(Invariant, String)] {
        guard case .table(let table) = value else {
            if value.isNil { return [] }
            throw ScenarioLoadError("\(place): allow must be a list of invariant names or a table of name = reason")
        }
        var result: [(Invariant, String)] = []
        func invariant(_ name: String) throws(ScenarioLoadError) -> Invariant {
            guard let invariant = Invariant(rawValue: name) else {
                throw ScenarioLoadError("\(place): allow: unknown invariant '\(name)'; the invariants are: "
                    + Invariant.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return invariant
        }
        for (key, reason) in table.pairs {
            if case .integer = key, let name = reason.stringValue {
                result.append((try invariant(name), "allowed by the scenario"))
            } else if let name = key.stringValue, let text = reason.stringValue {
                result.append((try invariant(name), text))
            } else {
                throw ScenarioLoadError("\(place): allow must be a list of invariant names or a table of name = reason")
            }
        }
        return result.sorted { $0.0.rawValue < $1.0.rawValue }
    }
}

/// A file could not be turned into scenarios (syntax error, a runtime error
/// at load time, a duplicate name): reported as an errored test case for
/// that file while the other files still run.
struct ScenarioLoadError: Error, CustomStringConvertible {
    var description: String
    var details: String
    var kind: ScenarioOutcome.ErrorKind

    init(_ description: String, details: String = "", kind: ScenarioOutcome.ErrorKind = .loadError) {
        self.description = description
        self.details = details
        self.kind = kind
    }
}
