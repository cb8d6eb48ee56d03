import NavScript
import NavigationCore

/// Shared plumbing for the scenario functions: converting between Lua
/// values and host types.
enum BindingSupport {
    static func list(_ strings: [String]) -> LuaValue {
        .table(LuaTable(array: strings.map { .string(LuaString($0)) }))
    }

    static func string(_ value: String?) -> LuaValue {
        value.map { .string(LuaString($0)) } ?? .nil
    }

    /// A list of strings from a Lua table argument (`{ "home", "product" }`).
    /// A screen as a check names it, `id` or `id:primary-param`: an empty
    /// id or parameter names no screen, so the check could only fail —
    /// a wrong argument, said as one.
    static func screenEntry(_ call: LuaCall, _ position: Int) throws -> String {
        let entry = try call.string(position)
        if let problem = screenProblem(entry) { throw call.argumentError(position, problem) }
        return entry
    }

    /// ``strings(_:_:)`` of screens, each a name that names one.
    static func screenEntries(_ call: LuaCall, _ position: Int) throws -> [String] {
        let entries = try strings(call, position)
        for (index, entry) in entries.enumerated() {
            if let problem = screenProblem(entry) { throw call.argumentError(position, "item \(index + 1): \(problem)") }
        }
        return entries
    }

    /// Why `entry` names no screen (an empty id or parameter), if it does not.
    static func screenProblem(_ entry: String) -> String? {
        if entry.isEmpty { return "an empty name is no screen; give \"id\" or \"id:param\"" }
        if let colon = entry.firstIndex(of: ":"), colon == entry.startIndex || entry.index(after: colon) == entry.endIndex {
            return "'\(entry)' has an empty \(colon == entry.startIndex ? "id" : "parameter"); give \"id\" or \"id:param\""
        }
        return nil
    }

    static func strings(_ call: LuaCall, _ position: Int) throws -> [String] {
        let table = try call.table(position)
        // A named key or an item after a hole would be dropped without a word: a typo'd list
        // (`{ first = "launch" }`, `{ "a", nil, "c" }`) checked less than it says.
        if !table.fields.isEmpty, let (key, _) = table.pairs.dropFirst(table.array.count).first {
            if case .integer(let index) = key, index > Int64(table.array.count) {
                throw call.argumentError(
                    position,
                    "must be a list of strings without holes: item \(table.array.count + 1) "
                        + "is nil but item \(index) is not; remove the nil (or the hole's comma)")
            }
            throw call.argumentError(
                position,
                "must be a list of strings ({ \"a\", \"b\" }), but it has the key "
                    + "\(key.description); list the items without keys")
        }
        var result: [String] = []
        result.reserveCapacity(table.array.count)
        for (index, value) in table.array.enumerated() {
            guard let text = value.stringValue else {
                throw call.argumentError(position, "item \(index + 1) must be a string, got \(value.typeName)")
            }
            result.append(text)
        }
        return result
    }

    /// Tap arguments: an id string, or a table of params.
    static func params(_ value: LuaValue, call: LuaCall, position: Int) throws -> [String: String] {
        switch value {
        case .nil: return [:]
        case .string(let id): return ["id": id.string]
        case .integer(let id): return ["id": String(id)]
        case .number(let id):
            return ["id": try whole(id, "an id", call: call, position: position)]
        case .table(let table):
            var params: [String: String] = [:]
            for (key, value) in table.pairs {
                guard let key = key.stringValue else { throw call.argumentError(position, "param names must be strings") }
                switch value {
                case .string(let text): params[key] = text.string
                case .integer(let number): params[key] = String(number)
                // 42.0 is 42, as in the short form (it was sent as "42.0"); 7.5 is a value of its own.
                case .number(let number): params[key] = Int64(exactly: number).map(String.init) ?? String(number)
                case .boolean(let flag): params[key] = String(flag)
                default: throw call.argumentError(position, "param '\(key)' must be a string or a number, got \(value.typeName)")
                }
            }
            return params
        default:
            throw call.typeError(position, expected: "string or table")
        }
    }

    /// An id given as a number, as its text: 7.0 is 7 (as `math.tointeger` reads it); 7.5, nan or
    /// inf name no screen.
    private static func whole(_ number: Double, _ what: String, call: LuaCall, position: Int) throws -> String {
        guard number.isFinite, number == number.rounded(), let whole = Int64(exactly: number) else {
            throw call.argumentError(
                position, "\(what) given as a number must be a whole number, got \(number.isNaN ? "nan" : String(number))")
        }
        return String(whole)
    }

    /// An entry point name (`"scheme"`, `"universal"`, …) of one of the host's doors.
    static func entryPoint(_ name: String, call: LuaCall, position: Int, host: any ScenarioHost) throws -> EntryPoint {
        guard let entry = EntryPoint(rawValue: name), host.entryPoints.contains(entry) else {
            throw call.argumentError(
                position,
                "unknown entry point '\(name)'; \(host.name)'s entry points are: "
                    + host.entryPoints.map(\.rawValue).joined(separator: ", "))
        }
        return entry
    }

    /// A link as `deep_link` accepts it: a URL string, or a table (a push
    /// payload, or an activity when it has `activity_type`).
    static func linkInput(_ value: LuaValue, call: LuaCall, position: Int) throws -> (EntryInput, defaultEntry: EntryPoint) {
        if case .string = value {
        } else if case .table = value {
        } else {
            throw call.typeError(position, expected: "string or table")
        }
        return try linkInput(value) { call.argumentError(position, $0) }
    }

    /// A URL string (default entry `scheme`; `universal` for an `http(s)` link,
    /// which the scheme door refuses whatever it is, so a check of its
    /// refusal passed for a link the app takes), or a table: an activity
    /// when it has `activity_type` (default entry `spotlight`), else a push
    /// payload (default `push`).
    static func linkInput(_ value: LuaValue, invalid: (String) -> Error) throws -> (EntryInput, defaultEntry: EntryPoint) {
        switch value {
        case .string(let url): return (.url(url.string), isWebLink(url.string) ? .universal : .scheme)
        case .table(let table):
            var fields: [String: String] = [:]
            for (key, value) in table.pairs {
                guard let key = key.stringValue, let text = value.stringValue ?? value.intValue.map(String.init) else {
                    throw invalid("link table keys and values must be strings or integers")
                }
                fields[key] = text
            }
            if let type = fields.removeValue(forKey: "activity_type") {
                return (.activity(type: type, userInfo: fields), .spotlight)
            }
            return (.payload(fields), .push)
        default:
            throw invalid("a link is a URL string or a table, got \(value.typeName)")
        }
    }

    /// Whether `url` starts with `http://` or `https://` (any letter case): a web link.
    static func isWebLink(_ url: String) -> Bool {
        let bytes = url.utf8.prefix(8).map { $0 | 0x20 }  // lower-case letters; ':' and '/' unchanged
        return bytes.starts(with: Array("https://".utf8)) || bytes.starts(with: Array("http://".utf8))
    }

    /// An outcome as a message shows it, in the fields a scenario reads:
    /// `{ status=gated, destination=cart, precondition=auth }`.
    static func describe(_ outcome: LinkOutcome) -> String {
        var parts = ["status=\(outcome.status)"]
        if let destination = outcome.destination { parts.append("destination=\(destination)") }
        if let precondition = outcome.precondition { parts.append("precondition=\(precondition)") }
        if let error = outcome.error { parts.append("error=\(error.rawValue)") }
        return "{ " + parts.joined(separator: ", ") + " }"
    }

    static func outcomeTable(_ outcome: LinkOutcome) -> LuaValue {
        var table = LuaTable(reservingCapacity: 3)
        table[OutcomeKey.status] = .string(LuaString(outcome.status.rawValue))
        if let destination = outcome.destination { table[OutcomeKey.destination] = .string(LuaString(destination.rawValue)) }
        if let precondition = outcome.precondition { table[OutcomeKey.precondition] = .string(LuaString(precondition.rawValue)) }
        if let error = outcome.error { table[OutcomeKey.error] = .string(LuaString(error.rawValue)) }
        if let message = outcome.message { table[OutcomeKey.message] = .string(LuaString(message)) }
        return .table(table)
    }

    /// An outcome's field names, built once (every `deep_link` returns one).
    private enum OutcomeKey {
        nonisolated(unsafe) static let status: LuaValue = "status"
        nonisolated(unsafe) static let destination: LuaValue = "destination"
        nonisolated(unsafe) static let precondition: LuaValue = "precondition"
        nonisolated(unsafe) static let error: LuaValue = "error"
        nonisolated(unsafe) static let message: LuaValue = "message"
    }
}
