import NavScript

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
package struct TableArgumentCheck {
    /// A declared field and the Lua types its value may have (nil: not checked).
    private struct Field {
        let name: String
        let type: String
        let allowed: Set<String>?
    }

    /// Declared fields by table type, for the types whose keys are fixed;
    /// read once, so a call pays for a lookup per key.
    private let fields: [String: [Field]]

    /// `declared`: every type the language and the host declare. Types
    /// with a wildcard field (`[string]`: a push payload's own keys) and
    /// `navscript.LaunchOptions` (`launch` checks its options itself,
    /// against the host's, with their kinds) are not checked here.
    package init(declared: [ScriptType]) {
        var tables: [String: [ScriptType.Field]] = [:]
        var literalTypes: Set<String> = []
        for type in declared {
            switch type.shape {
            case .fields(let list) where type.name != "navscript.LaunchOptions" && !list.contains(where: { $0.name.hasPrefix("[") }):
                tables[type.name] = list
            case .literals:
                literalTypes.insert(type.name)
            default:
                break
            }
        }
        fields = tables.mapValues { list in
            list.map { Field(name: $0.name, type: $0.type, allowed: Self.luaTypes(of: $0.type, tables: tables, literals: literalTypes)) }
        }
    }

    /// The positions (1-based) and types of `function`'s parameters this
    /// check covers; empty for most functions, which then pay nothing.
    package func checkedParameters(of function: ScriptFunction) -> [(position: Int, type: String)] {
        function.parameters.enumerated().compactMap { index, parameter in
            fields[parameter.type] == nil ? nil : (index + 1, parameter.type)
        }
    }

    /// The field names `type` declares, when this check covers it.
    package func fieldNames(of type: String) -> [String]? {
        fields[type]?.map(\.name)
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
            if let expected = field.allowed, !expected.contains(value.typeName) {
                return "\(word) '\(name)' must be a \(expected.sorted().joined(separator: " or ")) (\(field.type)), got \(value.typeName)"
            }
        }
        return nil
    }

    /// The Lua types a declared field type allows, when every member of
    /// its union is understood (`string|string[]`: a string or a table);
    /// nil (no check) otherwise.
    private static func luaTypes(
        of declared: String, tables: [String: [ScriptType.Field]],
        literals: Set<String>
    ) -> Set<String>? {
        var allowed: Set<String> = []
        for part in LuaTypeText.topLevelParts(of: declared[...], separatedBy: "|") {
            let member = String(part)
            switch member {
            case "boolean": allowed.insert("boolean")
            case "string": allowed.insert("string")
            case "number", "integer": allowed.insert("number")
            case _ where member.hasSuffix("[]") || member.hasPrefix("table<") || tables[member] != nil: allowed.insert("table")
            case _ where member.hasPrefix("\"") || literals.contains(member): allowed.insert("string")
            default: return nil
            }
        }
        return allowed
    }
}
