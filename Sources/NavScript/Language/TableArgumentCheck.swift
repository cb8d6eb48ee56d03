/// Checks a table a script passes to a function against the table type the
/// function declares for it (`back_swipe{ cancle = true }` against
/// `navscript.BackSwipeOptions`): every key must be a declared field, and a
/// field declared as a boolean, a string (or one of the app's names), a
/// number or a table must hold one.
///
/// Why: a misspelt option was read as absent — `login{ cancell = true }`
/// signed in, `expect_snapshot{ tabs = "orders" }` compared nothing — so
/// the scenario tested the opposite of what it said and passed. The fields
/// come from the declarations the editor types are written from (the
/// language's own and the host's `types`), so what the editor offers and
/// what the runtime accepts are one list.
struct TableArgumentCheck {
    /// Declared fields by table type, for the types whose keys are fixed.
    private let fields: [String: [ScriptType.Field]]
    /// The names of the types that are sets of literal strings (`navscript.Tab`).
    private let literalTypes: Set<String>

    /// `declared`: every type the language and the host declare. Types
    /// with a wildcard field (`[string]`: a push payload's own keys) and
    /// `navscript.LaunchOptions` (`launch` checks its options itself,
    /// against the host's, with their kinds) are not checked here.
    init(declared: [ScriptType]) {
        var fields: [String: [ScriptType.Field]] = [:]
        var literalTypes: Set<String> = []
        for type in declared {
            switch type.shape {
            case .fields(let list) where type.name != "navscript.LaunchOptions" && !list.contains(where: { $0.name.hasPrefix("[") }):
                fields[type.name] = list
            case .literals:
                literalTypes.insert(type.name)
            default:
                break
            }
        }
        self.fields = fields
        self.literalTypes = literalTypes
    }

    /// The positions (1-based) and types of `function`'s parameters this
    /// check covers; empty for most functions, which then pay nothing.
    func checkedParameters(of function: ScriptFunction) -> [(position: Int, type: String)] {
        function.parameters.enumerated().compactMap { index, parameter in
            fields[parameter.type] == nil ? nil : (index + 1, parameter.type)
        }
    }

    /// Why `table`, passed as a `type`, is not one: nil when it is.
    func problem(with table: LuaTable, as type: String) -> String? {
        guard let declared = fields[type] else { return nil }
        for (key, value) in table.pairs {
            guard let name = key.stringValue else {
                return "\(type) takes name = value fields (\(declared.map(\.name).joined(separator: ", "))), "
                    + "not a list entry"
            }
            let word = type.hasSuffix("Options") ? "option" : "field"
            guard let field = declared.first(where: { $0.name == name }) else {
                let hint = NameSuggestion.closest(to: name, among: declared.map(\.name)).map { "did you mean '\($0)'? " } ?? ""
                return "unknown \(word) '\(name)'; \(hint)\(type) has: \(declared.map(\.name).joined(separator: ", "))"
            }
            if let expected = luaType(of: field.type), value.typeName != expected {
                return "\(word) '\(name)' must be a \(expected) (\(field.type)), got \(value.typeName)"
            }
        }
        return nil
    }

    /// The Lua type a declared field type stands for, when it is one.
    private func luaType(of declared: String) -> String? {
        switch declared {
        case "boolean": return "boolean"
        case "string": return "string"
        case "number", "integer": return "number"
        default:
            if declared.hasSuffix("[]") || declared.hasPrefix("table<") || fields[declared] != nil { return "table" }
            if literalTypes.contains(declared) { return "string" }
            let members = declared.split(separator: "|")
            if members.allSatisfy({ $0.hasPrefix("\"") || literalTypes.contains(String($0)) }) { return "string" }
            return nil
        }
    }
}
