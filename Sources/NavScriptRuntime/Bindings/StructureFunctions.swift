import NavScript

/// The structural functions: `scenario`, `scenario.each`, `describe`,
/// `before_each`, `after_each`, `pending`, `assert` (implemented in the Lua
/// prelude, ``ScenarioPrelude``) and `print` (a Swift binding that keeps
/// output with the scenario that printed it).
enum StructureFunctions {
    static var functions: [ScriptFunction] {
        [
            ScriptFunction(
                "scenario", .structure,
                overloads: ["fun(name: string, fn: fun())", "fun(name: string, options: navscript.ScenarioOptions, fn: fun())"],
                documentation: """
                    Declares a scenario: `scenario(name, fn)` or `scenario(name, options, fn)`. The body runs \
                    later, once, against a fresh app, after the enclosing `before_each` hooks and before the \
                    `after_each` hooks; with `options.launch` the app is cold-started with those options first \
                    (a bad launch option is then an error of the scenario). The full name (enclosing \
                    `describe` names and `name`, space-separated) must be unique within the file, and not \
                    blank, or the file fails to load.
                    """,
                example: """
                    scenario("the account is gated when signed out", { tags = { "gate" } }, function()
                      expect_no_modal()
                    end)
                    """,
                body: .preludeTable),
            ScriptFunction(
                "scenario.each", .structure,
                parameters: [
                    ScriptParameter("rows", "Row[]"), ScriptParameter("name", "string"),
                    ScriptParameter("options", "navscript.ScenarioOptions", optional: true), ScriptParameter("fn", "fun(row: Row)")
                ],
                overloads: ["fun(rows: table[], name: string, fn: fun(row: any))"], generic: "Row",
                documentation: """
                    Declares one scenario per row of `rows` (data-driven): the body receives the row. Each \
                    scenario is named from `name`, where `$key` (or `${key}`, when letters follow) is replaced \
                    by `row[key]`, `${1}` by `row[1]` (rows given as lists; `$10` stays as written), `$#` by the row \
                    number and `$$` by a \
                    dollar sign; a name without placeholders gets ` [n]` appended. A placeholder whose key a row \
                    lacks is an error (a typo such as `$tba`, or a missing column). The generated names must be \
                    unique within the file. `rows` must be a \
                    list with at least one row and no holes: an empty one, or one with a nil in it, is an error, \
                    not rows silently left out.
                    """,
                example: """
                    scenario.each({ { tab = "home" }, { tab = "profile" } }, "$tab starts at its root", function(row)
                      select_tab(row.tab)
                      expect_tab(row.tab)
                    end)
                    """,
                body: .prelude),
            ScriptFunction(
                "describe", .structure,
                parameters: [ScriptParameter("name", "string"), ScriptParameter("fn", "fun()")],
                documentation: """
                    Groups scenarios: runs `fn` at once (while the file loads) so that the scenarios and hooks \
                    declared inside are prefixed with `name` and get the group's hooks. Groups nest. Do not \
                    drive the app in `fn` itself — verbs are only available inside scenarios and hooks.
                    """,
                example: "describe(\"signed out\", function() scenario(\"starts at home\", function() end) end)",
                body: .prelude),
            ScriptFunction(
                "in_scene", .driving, parameters: [ScriptParameter("scene", "integer"), ScriptParameter("fn", "fun()")],
                documentation: """
                    Runs `fn` with its verbs, observers and expectations acting on window `scene` instead of the \
                    one in front; the window acted on before is restored after `fn`, also when it fails. Acting on \
                    a window does not bring it to the front (that is `focus_scene`). Scene 1 of an app with one \
                    window is that window. The event log is the app's, every window's events in one: once the \
                    app has had several windows, the event checks (`expect_events`, `expect_no_event`, …) and \
                    `events()` are refused inside `fn` — check the window's state there, and the app's events \
                    outside it.
                    """,
                example: "in_scene(2, function() expect_stack{ \"home\" } end)",
                body: .prelude),
            ScriptFunction(
                "before_each", .structure, parameters: [ScriptParameter("fn", "fun()")],
                documentation: """
                    Registers a hook that runs before every scenario of the enclosing `describe` (or of the \
                    file), outermost hooks first, after the scenario's `launch` options were applied. If a hook \
                    fails or errors, the scenario body is skipped (the `after_each` hooks still run).
                    """,
                example: "before_each(function() launch{} end)",
                body: .prelude),
            ScriptFunction(
                "after_each", .structure, parameters: [ScriptParameter("fn", "fun()")],
                documentation: """
                    Registers a hook that runs after every scenario of the enclosing `describe` (or of the \
                    file), innermost hooks first — also after a failure or an error, so it suits clean-up \
                    checks such as `expect_no_leaks()`. It is skipped only when the instruction budget is \
                    exhausted.
                    """,
                example: "after_each(function() expect_no_leaks() end)",
                body: .prelude),
            ScriptFunction(
                "pending", .structure,
                parameters: [
                    ScriptParameter("name", "string"),
                    ScriptParameter("options", "navscript.ScenarioOptions", optional: true),
                    ScriptParameter("fn", "fun()", optional: true)
                ],
                documentation: """
                    Declares a scenario that is not written yet: reported as skipped ("pending"), never run. \
                    Its full name counts for uniqueness. Options and a `fn` may follow, as in `scenario` (busted \
                    allows the `fn` too): a scenario is parked by renaming `scenario` to `pending`; its tags \
                    still select it, its `fn` is not run.
                    """,
                example: "pending(\"restoring a draft in progress\")",
                body: .prelude),
            ScriptFunction(
                "assert", .structure,
                parameters: [
                    ScriptParameter("value", "T"), ScriptParameter("message", "any", optional: true),
                    ScriptParameter("...", "any")
                ],
                returns: [ScriptReturn("T"), ScriptReturn("any ...")], generic: "T",
                documentation: """
                    Checks a condition. Unlike standard Lua, a false `value` is a scenario *failure* (an \
                    expectation, reported with the scenario's `file:line` and `message`, default "assertion \
                    failed!"), not an error; use `error(...)` to raise an error. Returns all its arguments \
                    when `value` is truthy.
                    """,
                example: "assert(#stack() == 2, \"expected two screens\")",
                body: .prelude),
            ScriptFunction(
                "print", .structure, parameters: [ScriptParameter("...", "any")],
                documentation: """
                    Prints its arguments (tab-separated, converted like `tostring`, but a table shows its \
                    contents — `{"home", tab = "orders"}` — unless it (or a table in it) has a metatable, or it contains itself) \
                    into the running scenario's report instead of the terminal: the JUnit `system-out` of \
                    every scenario, and the console report's block of a failed or errored scenario. \
                    `io.write` writes there too. Output printed while the file loads belongs to the file's \
                    first scenario.
                    """,
                example: "print(table.concat(events(), \"\\n\"))",
                body: .binding { call, context in
                    context.writeOutput(call.arguments.map(ScenarioFile.text).joined(separator: "\t") + "\n")
                    return []
                })
        ]
    }
}
