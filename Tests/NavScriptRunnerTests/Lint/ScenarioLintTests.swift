import NotesApp
import Testing

@testable import NavScriptRunner

/// The lexer reads what lint needs; lint names every literal the app does
/// not have, at its line and column, and nothing the app has.
@Suite("Lint")
struct ScenarioLintTests {
    @Test func theLexerKeepsStringsAndPlacesAndSkipsComments() {
        let source = """
            -- a comment with "a string"
            --[==[ a long
            comment ]==]
            tap('a\\'b') x = [[long
            string]] y = 0x1F + 3.5e-2 .. "\\n"
            """
        let tokens = LuaTokens(source).tokens
        let strings = tokens.compactMap { token -> String? in
            if case .string(let text) = token.kind { return "\(token.line):\(token.column) \(text)" }
            return nil
        }
        #expect(strings == ["4:5 a'b", "4:17 long\nstring", "5:31 \n"])
        #expect(tokens.contains { $0.kind == .symbol("..") })
        #expect(tokens.compactMap { if case .number(let text) = $0.kind { text } else { nil } } == ["0x1F", "3.5e-2"])
    }

    /// Escapes are decoded as Lua decodes them, so a name spelled with them
    /// is the name lint checks (`"h\111me"` is `home`), and a `\z` or an
    /// escaped line break keeps the lines of what follows right.
    /// A first line that begins with `#` (`#!/usr/bin/env …`) and a UTF-8
    /// byte-order mark are skipped as `run` skips them: lint called such a
    /// file "does not compile"; lines keep their numbers.
    @Test(arguments: ["#!/usr/bin/env navscript\n", "\u{FEFF}#!x\r\n", "\u{FEFF}\n"])
    func aShebangLineAndAByteOrderMarkAreSkippedAsRunSkipsThem(start: String) throws {
        let problems = ScenarioLint(host: try NotesHost()).check(source: start + "expect_tab(\"nope\")", file: "s.lua")
        #expect(problems.map(\.kind) == [.tab], "\(problems)")
        #expect(problems.first?.line == 2, "\(problems)")
    }

    /// A literal in parentheses, however deep, is the same value: `expect_tab(("nope"))` hid its typo.
    @Test func aParenthesisedLiteralIsRead() throws {
        let problems = ScenarioLint(host: try NotesHost()).check(
            source: "expect_tab((\"nope\"))\nexpect_tab(((\"nope\")))\nassert(tab() ~= ((\"notez\")))", file: "s.lua")
        #expect(problems.map(\.kind) == [.tab, .tab, .tab] && problems.first?.column == 13, "\(problems.map(\.description))")
    }

    /// A name with a character nothing draws read "no tab 'home'; did you mean 'home'?": every form
    /// a problem is printed in shows it by name, and a control character spelled.
    @Test func aProblemShowsWhatATerminalWouldNot() throws {
        let problems = ScenarioLint(host: try NotesHost()).check(source: "expect_tab(\"home\\u{200B}\\1\")", file: "s.lua")
        let problem = try #require(problems.first)
        for line in [problem.description, problem.gccLine, problem.luacheckLine] {
            #expect(line.contains("'home<U+200B>\\u{1}'"), "\(line)")
        }
    }

    @Test func theLexerDecodesEveryLuaEscape() {
        let source = #"""
            a("\104ome", "hom\x65", "\u{68}ome", "\u{E9}\u{1F642}\u{7FFFFFFF}", "h\111\109e", "\a\b\f\n\r\t\v\\\"\'")
            b("x\z
                  y", "one\
            two") c("\0651")
            d("after")
            """#
        let strings = LuaTokens(source).tokens.compactMap { token -> String? in
            guard case .string(let text) = token.kind else { return nil }
            let shown = text.unicodeScalars.map { $0.value < 0x20 ? "^\($0.value)" : String($0) }.joined()
            return "\(token.line) \(shown)"
        }
        #expect(
            strings == [
                "1 home", "1 home", "1 home", "1 é🙂\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}", "1 home",
                "1 ^7^8^12^10^13^9^11\\\"'", "2 xy", "3 one^10two", "4 A1", "5 after"
            ], "\(strings)")
    }

    /// A long string skips the line break after its opening as Lua does,
    /// `\r\n` and `\n\r` included, and reads every break in it as `\n`;
    /// a control character in a literal is spelled out in the message.
    @Test func longStringsReadTheirLineBreaksAsLuaDoes() throws {
        let tokens = LuaTokens("a([[\r\nhome]], [[\n\rhome]], [[\rhome]], [[x\r\ny]])\nb").tokens
        let strings = tokens.compactMap { token -> String? in
            if case .string(let text) = token.kind { return text }
            return nil
        }
        #expect(strings == ["home", "home", "home", "x\ny"], "\(strings)")
        #expect(tokens.last.map { $0.line } == 6, "five line breaks before b: \(tokens.last.map { $0.line } ?? 0)")
        let problems = ScenarioLint(host: try NotesHost()).check(source: "expect_tab(\"\\27[31mx\")", file: "s.lua")
        #expect(problems.first?.message.hasPrefix("NotesApp has no tab '\\u{1B}[31mx'") == true, "\(problems)")
    }

    /// Nesting 100,000 deep is read in one pass and without recursing as
    /// deep: a call's nested arguments are stepped over, a table past a
    /// hundred levels is left unread (Lua refuses such a file anyway).
    @Test func deepNestingIsReadWithoutRecursingAsDeep() {
        let nested = "expect_tab(" + String(repeating: "f(", count: 100_000) + "1" + String(repeating: ")", count: 100_001)
        let calls = LuaCalls(LuaTokens(nested)).calls
        #expect(calls.count == 100_001 && calls.first?.name == "expect_tab")
        if case .other = calls.first?.arguments.first?.value {
        } else {
            Issue.record("a computed argument is not a literal")
        }
        let table = LuaCalls(LuaTokens("expect_stack" + String(repeating: "{", count: 100_000) + String(repeating: "}", count: 100_000)))
            .calls
        #expect(table.count == 1 && table.first?.name == "expect_stack")
    }

    /// Columns count characters, not bytes: a line with "é" or an emoji
    /// before a literal still points at the literal.
    @Test func columnsCountCharactersAfterNonASCIIText() {
        let tokens = LuaTokens("print(\"héllo 🙂\") tap('x') --[[ é ]] y = 'ü\\n'\nz = « ").tokens
        let places = tokens.map { token -> String in
            switch token.kind {
            case .string(let text): "\(token.line):\(token.column) \(text)"
            case .name(let name): "\(token.line):\(token.column) \(name)"
            case .symbol(let symbol): "\(token.line):\(token.column) \(symbol)"
            case .number: "\(token.line):\(token.column) #"
            }
        }
        #expect(
            places == [
                "1:1 print", "1:6 (", "1:7 héllo 🙂", "1:16 )", "1:18 tap", "1:21 (", "1:22 x", "1:25 )", "1:37 y", "1:39 =",
                "1:41 ü\n", "2:1 z", "2:3 =", "2:5 «"
            ], "\(places)")
    }

    @Test func callsKeepTheirLiteralArgumentsAndSkipWhatIsComputed() {
        let calls = LuaCalls(
            LuaTokens(
                """
                expect_stack{ "a", f(x), "b" }
                tap("x", { id = "7" }) local t = helper.tap("no")
                launch{ signed_in = true, nested = { deep = "v" } }
                scenario.each({ { 1 } }, "n", { launch = { k = 1 } }, function() end)
                expect_screen(name .. "x")
                function expect_tab(x) end
                """)
        ).calls
        let stack = calls.first { $0.name == "expect_stack" }
        guard case .table(let items, _)? = stack?.arguments.first?.value else {
            Issue.record("expect_stack's table")
            return
        }
        #expect(items.count == 3)
        #expect(!calls.contains { $0.name == "tap" && $0.arguments.count == 1 }, "helper.tap is a field's call, not the language's")
        #expect(!calls.contains { $0.name == "expect_tab" }, "a definition is no call")
        let screen = calls.first { $0.name == "expect_screen" }
        if case .other? = screen?.arguments.first?.value {} else { Issue.record("a computed argument is .other") }
        #expect(calls.contains { $0.name == "scenario.each" && $0.arguments.count == 4 })
    }

    @Test func everyLiteralTheAppDoesNotHaveIsAProblemAtItsPlace() throws {
        let lint = ScenarioLint(host: try NotesHost())
        let problems = lint.check(
            source: """
                scenario("x", { launch = { signed_inn = true }, allow = { leak = "why" } }, function()
                  expect_tab("note")
                  tap("acount")
                  expect_no_event("presnt sign_in")
                  deep_link("notes://note/1", { via = "widgte" })
                  expect_error("notes://x", "malformd")
                  expect_screen("setings")
                  expect_tab("notes")
                  expect_stack{ "notes", "note:1" }
                end)
                """, file: "s.lua")
        #expect(
            problems.map { "\($0.line):\($0.column)" } == ["1:28", "1:59", "2:14", "3:7", "4:19", "5:39", "6:29", "7:17"],
            "\(problems.map(\.description).joined(separator: "\n"))")
        #expect(problems[0].description.hasPrefix("s.lua:1:28: NotesApp has no launch option 'signed_inn'; did you mean 'signed_in'?"))
        // Each kind of name its own luacheck-style code.
        #expect(
            problems.map(\.kind) == [.launchOption, .invariant, .tab, .output, .event, .entryPoint, .errorKind, .screen],
            "\(problems.map(\.kind))")
        #expect(problems.map(\.kind.code) == ["W907", "W908", "W902", "W903", "W904", "W905", "W906", "W901"])
        #expect(problems[2].gccLine.hasPrefix("s.lua:2:14: error: NotesApp has no tab 'note'"))
        #expect(problems[2].luacheckLine.hasPrefix("s.lua:2:14: (W902) NotesApp has no tab 'note'"))
        #expect(problems[2].message.contains("did you mean 'notes'?"))
        #expect(problems[3].message.contains("did you mean 'account'?"))
    }

    /// The window functions, for an app with one window (its driver does not adopt SceneDriving):
    /// the editor types list them and lint said "no problem", yet every run refused them.
    @Test func windowFunctionsAreRefusedForAnAppWithOneWindow() throws {
        let source = """
            scenario("x", function()
              open_scene{}
              deep_link("notes://note/7", { scene = 2 })
              expect_scenes{ 1, foreground = 1 }
              in_scene(1, function() end)
              in_scene(2, function() end)
              expect_scenes{ 1, 2 }
              in_scene(0, function() end)
              expect_scenes{ 1, foreground = 2 }
            end)
            """
        let problems = ScenarioLint(host: try NotesHost()).check(source: source, file: "s.lua")
        #expect(
            problems.map { "\($0.line):\($0.column)" } == ["2:3", "3:41", "6:12", "7:21", "8:12", "9:34"], "\(problems.map(\.description))")
        #expect(problems[2].message.hasSuffix("there is no window 2, so in_scene cannot run"))
        #expect(problems[3].message.hasSuffix("there is no window 2, so this never holds"))
        #expect(problems.allSatisfy { $0.kind == .window && $0.kind.code == "W910" })
        #expect(problems.first?.message == "NotesApp has one window (its host's driver does not adopt SceneDriving): open_scene cannot run")
    }

    /// `expect_snapshot`'s tab, stacks (by tab) and modals' screens: lint read none of them, and a
    /// misspelt tab key or screen in it said "no problem".
    @Test func aSnapshotsNamesAreChecked() throws {
        let source = #"expect_snapshot{ tab = "note", stacks = { notez = { "notes", "nte:7" } }, modals = { { "setings" } } }"#
        let problems = ScenarioLint(host: try NotesHost()).check(source: source, file: "s.lua")
        #expect(problems.map(\.kind) == [.tab, .tab, .screen, .screen], "\(problems.map(\.description))")
        #expect(problems.map(\.column) == [24, 43, 62, 88], "\(problems.map(\.description))")
    }

    /// A screen label whose parameter the destination's spec refuses is never on screen: an
    /// `expect_stack` with it can only fail, a listed one says why.
    @Test func aLabelTheSpecRefusesIsNamed() throws {
        let problems = ScenarioLint(host: try NotesHost()).check(source: #"expect_stack{ "notes", "note:abc" }"#, file: "s.lua")
        #expect(problems.map(\.message) == ["'note:abc' is never shown: 'note' id abc does not match [0-9]{1,6}"], "\(problems)")
    }

    /// `screen()` returns the id without its parameter: comparing it with a label that has one is
    /// never equal, and an `assert` on it passed whatever was on screen.
    @Test func aScreenComparedWithALabelIsNamed() throws {
        let source = """
            assert(screen() ~= "note:7")
            assert("note:7" == screen())
            assert(screen() == "note")
            assert(x.screen() == "note:7")
            assert((screen()) ~= "note:7")
            assert(_G.screen() ~= "note:7")
            assert(stack()[2] ~= "note:7")
            assert(modals()[1][1] == "note:7")
            assert(tab() ~= ("notez"))
            assert(screen() == "note:" .. id)
            assert(screen() ~= "zzz")
            assert(stack()[1] == "notse")
            assert(snapshot().tab ~= "setings")
            assert(snapshot().stacks.notes[2] ~= "nte:7")
            assert(snapshot().stacks.notes[2] ~= "note:7" and snapshot().tab == "notes" and snapshot().root ~= "x")
            """
        let problems = ScenarioLint(host: try NotesHost()).check(source: source, file: "s.lua")
        #expect(problems.map(\.line) == [1, 2, 5, 6, 7, 8, 9, 11, 12, 13, 14], "\(problems.map(\.description))")
        // A snapshot's fields as the observers that give the same: its tab, a label of a stack.
        #expect(
            problems[9].kind == .tab && problems[10].message.hasPrefix("'nte' is no screen of the app"), "\(problems.map(\.description))")
        // An id the app does not have: the comparison never holds either (`~=`: always does).
        #expect(
            problems[7].message == "'zzz' is no screen of the app, so screen() is never it and this comparison is always true",
            "\(problems[7].message)")
        #expect(problems[8].message.hasSuffix("always false; did you mean 'note' or 'notes'?"), "\(problems[8].message)")
        #expect(problems[6].kind == .tab, "\(problems.map(\.description))")
        #expect(
            problems.first?.message.hasPrefix(
                "screen() returns screen ids without their parameters ('note'), so it is never 'note:7' and this comparison is always true"
            ) == true)
    }

    /// A field of `deep_link(…)`'s outcome compared with a value it never has: `status ~= "gatd"`
    /// held whatever the app did with the link. Its values are the statuses, the error kinds, the
    /// app's preconditions and screens; a value it has, a computed one or another field is left alone.
    /// Read however the field and the call are written: `["status"]`, `(deep_link(u)).status`,
    /// `deep_link"u".status`, `deep_link{…}.status`.
    @Test func anOutcomeComparedWithAValueItNeverHasIsNamed() throws {
        let source = #"""
            assert(deep_link("notes://account").status ~= "gatd")
            assert(deep_link("notes://account").precondition ~= "auht")
            assert(deep_link("notes://nowhere").error ~= "unknown_rout")
            assert(deep_link("notes://note/7").destination ~= "nte")
            assert("gated" == deep_link(url, { via = "scheme" }).status)
            assert(deep_link("notes://account").status == "gated" and deep_link(x).error == "malformed")
            assert(deep_link(u).message ~= "gatd" and deep_link(u).status ~= s and o.status ~= "gatd")
            assert(deep_link("notes://account")["status"] ~= "gatd")
            assert((deep_link("notes://account")).status ~= "gatd")
            assert(deep_link"notes://account".status ~= "gatd")
            assert("gatd" ~= deep_link("notes://account")['status'])
            assert(deep_link{ route = "account" }.status ~= "gatd")
            assert(deep_link("notes://account").status ~= ("gatd"))
            assert(("gatd") ~= deep_link("notes://account").status)
            """#
        let problems = ScenarioLint(host: try NotesHost()).check(source: source, file: "s.lua")
        #expect(problems.map(\.line) == [1, 2, 3, 4, 8, 9, 10, 11, 12, 13, 14], "\(problems.map(\.description))")
        #expect(
            problems.map(\.kind) == [.outcome, .outcome, .outcome, .screen] + Array(repeating: .outcome, count: 7),
            "\(problems.map(\.description))")
        #expect(
            problems.first?.message
                == "deep_link(…).status is never 'gatd' and this comparison is always true; did you mean 'gated'? its values are: "
                + "proceed, gated, error, queued, stashed", "\(problems.map(\.description))")
        #expect(problems.first?.luacheckLine.contains("(W913)") == true, "\(problems.map(\.luacheckLine))")
    }

    /// A link a typo away from a route (`notes://setings`) is rejected by the app without a word,
    /// and every check of what it would have done passed: named, with the route meant. A link far
    /// from every route, another scheme's, or one that resolves is left alone.
    @Test func aLinkATypoAwayFromARouteIsNamed() throws {
        let source = """
            scenario("s", function()
              deep_link("notes://setings")
              launch{ url = "notes://acount" }
              deep_link("notes://nte/7")
              deep_link("notes://bogus-link-xyz")
              deep_link("notes://note/7")
              deep_link("https://notes.example.org/whatever")
            end)
            scenario("t", { launch = { url = "notes://nots" } }, function() end)
            """
        let problems = ScenarioLint(host: try NotesHost()).check(source: source, file: "s.lua")
        #expect(problems.map(\.line) == [2, 3, 4, 9], "\(problems.map(\.description))")
        #expect(problems.allSatisfy { $0.kind == .link && $0.kind.code == "W912" })
        #expect(
            problems.first?.message.hasPrefix(
                "no route matches 'notes://setings' ('setings' is no route's first segment; did you mean 'settings'?)") == true,
            "\(problems.first?.message ?? "")")
    }

    /// A scenario's own options (`{ tag = "smoke" }`): the run refuses the whole file, and lint
    /// said "no problem".
    @Test func aScenariosOptionKeysAreChecked() throws {
        let lint = ScenarioLint(host: try NotesHost())
        let problems = lint.check(
            source: """
                scenario("x", { tag = "smoke" }, function() end)
                pending("y", { tgas = {} }, function() end)
                scenario("z", { tags = { "a" }, allow = { leaks = "why" } }, function() end)
                scenario.each({ { a = 1 } }, "row $a", { tags = {} }, function(row) end)
                """, file: "s.lua")
        #expect(problems.map { "\($0.line):\($0.column)" } == ["1:17", "2:16"], "\(problems.map(\.description))")
        #expect(problems.first?.message.hasPrefix("scenario has no option 'tag'; did you mean 'tags'?") == true)
        #expect(problems.allSatisfy { $0.kind == .optionKey })
    }

    @Test func aTableArgumentsKeysAreCheckedAgainstItsDeclaredFields() throws {
        let lint = ScenarioLint(host: try NotesHost())
        let problems = lint.check(
            source: """
                scenario("x", function()
                  deep_link("notes://settings", { vai = "universal", settle = false })
                  back_swipe{ cancle = true }
                  expect_error("notes://x", "unknown_route", { via = "scheme" })
                  back_swipe{ cancel = true, animated = false }
                  tap("note", { idd = "7" })
                  tap("note", { id = "7" })
                end)
                """, file: "s.lua")
        #expect(problems.map { "\($0.line):\($0.column)" } == ["2:35", "3:15", "6:17"], "\(problems.map(\.description))")
        #expect(problems.allSatisfy { $0.kind == .optionKey && $0.kind.code == "W909" })
        #expect(problems.first?.message.hasPrefix("deep_link has no option 'vai'; did you mean 'via'?") == true)
        #expect(problems[1].message.contains("navscript.BackSwipeOptions has: cancel, animated"))
        #expect(problems[2].message == "tap has no parameter 'idd'; did you mean 'id'? output 'note' has: id")
    }

    @Test func aCleanSuiteIsClean() throws {
        let lint = ScenarioLint(host: try NotesHost())
        let problems = lint.check(
            source: """
                scenario("ok", { launch = { signed_in = true }, allow = { leaks = "known" } }, function()
                  tap("note", "1")
                  expect_stack{ "notes", "note:1" }
                  expect_events{ "push note:1" }
                  deep_link("notes://settings", { via = "universal" })
                  expect_error("notes://nowhere", "unknown_route")
                end)
                """, file: "ok.lua")
        #expect(problems.isEmpty, "\(problems.map(\.description))")
    }
}
