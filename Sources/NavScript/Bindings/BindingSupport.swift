import NavigationCore

/// Shared plumbing for the scenario functions: turning Swift outcomes into
/// Lua results, raising failures as structured tables the runner can tell
/// from runtime errors, and converting between Lua values and host types.
enum BindingSupport {
    /// The marker field that makes an error value an expectation failure.
    static let failureMarker = "__navscript_failure"

    /// Registers `body` under `name`; thrown binding errors become Lua
    /// errors (scenario mistakes) or failure tables (expectations).
    static func define(_ state: LuaState, _ session: ScenarioSession, _ name: String,
                       _ body: @escaping (LuaCall, ScenarioSession) throws -> [LuaValue]) {
        state.register(name) { [weak session] call in
            guard let session else { return .error("navscript: \(name) called after its file finished") }
            do {
                return .values(try body(call, session))
            } catch let error as BindingError {
                switch error {
                case .error(let message):
                    return .error(.string(LuaString("\(session.location(of: call)): \(message)")), addPosition: false)
                case .failure(let failure):
                    return .error(.table(failureTable(failure, at: session.location(of: call))), addPosition: false)
                }
            } catch let error as HostError {
                // The app refused a step the scenario asked for: the app is
                // not where the scenario expected it to be.
                let failure = ExpectationFailure("\(name): \(error.message)")
                return .error(.table(failureTable(failure, at: session.location(of: call))), addPosition: false)
            }
        }
    }

    static func failureTable(_ failure: ExpectationFailure, at location: String) -> LuaTable {
        [
            .string(LuaString(failureMarker)): true,
            "message": .string(LuaString("\(location): \(failure.message)")),
            "details": .string(LuaString(failure.details)),
            "location": .string(LuaString(location)),
        ]
    }

    static func list(_ strings: [String]) -> LuaValue {
        .table(LuaTable(array: strings.map { .string(LuaString($0)) }))
    }

    static func string(_ value: String?) -> LuaValue {
        value.map { .string(LuaString($0)) } ?? .nil
    }

    /// A list of strings from a Lua table argument (`{ "home", "product" }`).
    static func strings(_ call: LuaCall, _ position: Int) throws -> [String] {
        let table = try call.table(position)
        var result: [String] = []
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
        case .table(let table):
            var params: [String: String] = [:]
            for (key, value) in table.pairs {
                guard let key = key.stringValue else { throw call.argumentError(position, "param names must be strings") }
                switch value {
                case .string(let text): params[key] = text.string
                case .integer(let number): params[key] = String(number)
                case .number(let number): params[key] = String(number)
                case .boolean(let flag): params[key] = String(flag)
                default: throw call.argumentError(position, "param '\(key)' must be a string or a number, got \(value.typeName)")
                }
            }
            return params
        default:
            throw call.typeError(position, expected: "string or table")
        }
    }

    /// An entry point name (`"scheme"`, `"universal"`, …).
    static func entryPoint(_ name: String, call: LuaCall, position: Int) throws -> EntryPoint {
        guard let entry = EntryPoint(rawValue: name) else {
            throw call.argumentError(position, "unknown entry point '\(name)'; expected one of: "
                + EntryPoint.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return entry
    }

    /// A link as `deep_link` accepts it: a URL string, or a table (a push
    /// payload, or an activity when it has `activity_type`).
    static func linkInput(_ value: LuaValue, call: LuaCall, position: Int) throws -> (EntryInput, defaultEntry: EntryPoint) {
        if case .string = value {} else if case .table = value {} else {
            throw call.typeError(position, expected: "string or table")
        }
        return try linkInput(value) { call.argumentError(position, $0) }
    }

    /// A URL string, or a table: an activity when it has `activity_type`
    /// (default entry `spotlight`), else a push payload (default `push`).
    static func linkInput(_ value: LuaValue, invalid: (String) -> Error) throws -> (EntryInput, defaultEntry: EntryPoint) {
        switch value {
        case .string(let url): return (.url(url.string), .scheme)
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

    static func outcomeTable(_ outcome: LinkOutcome) -> LuaValue {
        var table: LuaTable = ["status": .string(LuaString(outcome.status))]
        if let destination = outcome.destination { table["destination"] = .string(LuaString(destination)) }
        if let precondition = outcome.precondition { table["precondition"] = .string(LuaString(precondition)) }
        if let error = outcome.error { table["error"] = .string(LuaString(error)) }
        if let message = outcome.message { table["message"] = .string(LuaString(message)) }
        return .table(table)
    }
}
