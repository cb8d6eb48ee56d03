import Testing

@testable import NavScript
@testable import NavScriptLua
@testable import NavScriptRuntime

/// Table arguments against their declared types: unknown keys refused,
/// field values checked where every member of the field's union is
/// understood, nothing checked where it is not.
@Suite("Table argument check")
struct TableArgumentCheckTests {
    static var check: TableArgumentCheck {
        TableArgumentCheck(declared: [
            .literals("app.Tab", "", [("home", ""), ("orders", "")]),
            .fields(
                "app.Options", "",
                [
                    .init("tags", "string|string[]"), .init("tab", "app.Tab"), .init("count", "integer"),
                    .init("mode", "\"a\"|\"b\""), .init("shape", "app.Shape|string"), .init("map", "table<string, string>|boolean")
                ]),
            .fields("app.Payload", "", [.init("route", "string"), .init("[string]", "string")])
        ])
    }

    static func one(_ key: String, _ value: LuaValue) -> LuaTable {
        let pair: [(LuaValue, LuaValue)] = [(.string(LuaString(key)), value)]
        return LuaTable(dictionaryLiteral: pair[0])
    }

    static var cases: [(table: LuaTable, problem: String?)] {
        [
            (one("tags", "x"), nil),
            (one("tags", .table(["a", "b"])), nil),
            (one("tags", 3), "option 'tags' must be a string or table (string|string[]), got number"),
            (one("tab", "orders"), nil),
            (one("tab", true), "option 'tab' must be a string (app.Tab), got boolean"),
            (one("count", 2.5), nil),
            (one("mode", 1), "option 'mode' must be a string (\"a\"|\"b\"), got number"),
            (one("shape", 1), nil),  // app.Shape is not declared: the field is not checked
            (one("map", false), nil),
            (one("map", "x"), "option 'map' must be a boolean or table (table<string, string>|boolean), got string"),
            // tab and tags tie: no guess
            (one("tabs", "home"), "unknown option 'tabs'; app.Options has: tags, tab, count, mode, shape, map"),
            (one("cont", 1), "unknown option 'cont'; did you mean 'count'? app.Options has: tags, tab, count, mode, shape, map")
        ]
    }

    @Test func options() {
        for (table, problem) in Self.cases {
            #expect(Self.check.problem(with: table, as: "app.Options") == problem, "\(table)")
        }
    }

    @Test func aTypeWithOpenKeysOrUndeclaredIsNotChecked() {
        #expect(Self.check.problem(with: Self.one("anything", "x"), as: "app.Payload") == nil)
        #expect(Self.check.problem(with: Self.one("anything", "x"), as: "app.Unknown") == nil)
    }
}
