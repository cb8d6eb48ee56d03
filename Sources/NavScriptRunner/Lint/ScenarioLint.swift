import Foundation
import NavScript
import NavScriptLua
import NavScriptRuntime
import NavigationCore

/// `navscript lint`: the suite's literal names checked against the app's
/// vocabulary without running anything — screen ids, tabs, outputs, launch
/// options, event items, entry points, error kinds and allowed invariants
/// that the app does not have. A misspelt `expect_no_event("presnt login")`
/// passes for ever when it runs; here it is a line and a column, with what
/// was probably meant. Only literals are read (a name built at run time is
/// the run's to check), and a name is only called wrong when the app has
/// no such name, so a clean suite lints clean.
package struct ScenarioLint {
    /// One problem, at the literal that has it.
    package struct Problem: Hashable, Sendable, CustomStringConvertible {
        package var file: String
        package var line: Int
        package var column: Int
        package var kind: Kind
        package var message: String

        /// What kind of name is wrong; each has a luacheck-style code
        /// (`W901`…) so a luacheck problem matcher or an editor's luacheck
        /// integration can tell them apart and filter them.
        package enum Kind: String, Hashable, Sendable, CaseIterable {
            case screen, tab, output, event, entryPoint, errorKind, launchOption, invariant, optionKey
            /// A window function (`open_scene`, `deep_link{ scene = 2 }`) for an app with one window.
            case window
            /// The file compiles but does not load: its top level fails (a duplicate scenario name, a
            /// scenario without its function), and a run loses every scenario in it.
            case load
            /// A link of the app's scheme a typo away from a route: the app rejects it without a word.
            case link
            /// A field of a link's outcome compared with a value it never has (`deep_link(url).status ~= "gatd"`).
            case outcome
            /// The file does not compile: luacheck's own code for a syntax error.
            case syntax

            /// `W901` for a screen id, … — in luacheck's 900 range, which luacheck itself leaves unused;
            /// `E011` for a syntax error, as luacheck says it.
            package var code: String {
                if self == .syntax { return "E011" }
                return "W9" + String(format: "%02d", (Kind.allCases.firstIndex(of: self) ?? 0) + 1)
            }
        }

        /// `file:line:col: message`, what the script wrote spelled where a terminal would not show
        /// it (a control character, a zero-width space in a quoted name).
        package var description: String { "\(file):\(line):\(column): \(VisibleText.of(message))" }

        /// `file:line:col: error: message`: the form compilers print and
        /// gcc-style problem matchers (GitHub, GitLab, editors) parse.
        package var gccLine: String { "\(file):\(line):\(column): error: \(VisibleText.of(message))" }

        /// `file:line:col: (W901) message`: luacheck's `plain` formatter with codes.
        package var luacheckLine: String { "\(file):\(line):\(column): (\(kind.code)) \(VisibleText.of(message))" }
    }

    private let host: any ScenarioHost
    /// The app has one window: the window functions cannot run (lint says so; the editor types still list them).
    private let oneWindow: Bool
    private let vocabulary: AppVocabulary
    private let tabs: [String]
    private let outputs: [String]
    private let launchKeys: [String]
    private let entries: [String]
    /// The literal first segment of every route's patterns (`checkout`, `orders`), sorted: what a link's
    /// first segment is compared with (W912).
    private let routeFirstSegments: [String]
    private static let errorKinds = LinkOutcome.Rejection.allCases.map(\.rawValue)
    private static let statuses = LinkOutcome.Status.allCases.map(\.rawValue)
    private static let invariants = Invariant.allCases.map(\.rawValue)
    /// For each function that takes a table of declared keys (`deep_link`'s
    /// options, `back_swipe{}`, a host verb's own), where and which keys —
    /// from the declarations the runtime checks such a table against.
    private let tableArguments: [String: [(position: Int, type: String, keys: [String])]]
    /// The parameters each output name takes, on any screen that offers it.
    private let outputParameters: [String: [String]]
    /// What was found of each screen label and event item already checked:
    /// a suite repeats the same few in every file, and checking one against
    /// the vocabulary was half of linting a large suite.
    private let answers = Answers()

    private final class Answers {
        var screens: [String: String?] = [:]
        var events: [String: String?] = [:]
        /// A bare state that compiles each file (never runs it): one for the whole lint.
        lazy var compiler: LuaState? = try? LuaState()
    }

    package init(host: any ScenarioHost) {
        self.host = host
        vocabulary = AppVocabulary(host: host)
        tabs = host.engine.manifest.tabs.map(\.rawValue)
        routeFirstSegments = Set(
            host.engine.manifest.destinations.flatMap(\.patterns).compactMap { pattern -> String? in
                if case .literal(let literal)? = pattern.path.first { return literal }
                return nil
            }
        ).sorted()
        outputs = Array(Set(host.screens.flatMap { $0.outputs.map(\.name) })).sorted()
        var outputParameters: [String: [String]] = [:]
        for output in host.screens.flatMap(\.outputs) {
            outputParameters[output.name, default: []] += output.parameters.filter { !(outputParameters[output.name] ?? []).contains($0) }
        }
        self.outputParameters = outputParameters
        launchKeys = host.launchOptions.map(\.name) + ["url", "via"]
        entries = host.entryPoints.map(\.rawValue)
        let definitions = LuaDefinitions(host: host)
        let tables = TableArgumentCheck(declared: definitions.declaredTypes())
        var tableArguments: [String: [(position: Int, type: String, keys: [String])]] = [:]
        for category in ScriptFunction.Category.allCases {
            for function in definitions.library.functions(in: category) where function.name != "launch" {
                let checked = tables.checkedParameters(of: function).compactMap { parameter in
                    tables.fieldNames(of: parameter.type).map { (parameter.position, parameter.type, $0) }
                }
                if !checked.isEmpty { tableArguments[function.name] = checked }
            }
        }
        self.tableArguments = tableArguments
        // Whether the app has windows to open, focus and close: its driver adopts SceneDriving. Asked of
        // a launched app (the driver is the host's choice at launch); a host that cannot launch with
        // defaults is given the benefit of the doubt.
        let launched = try? host.launch(LaunchRequest())
        oneWindow = launched.map { !($0 is any SceneDriving) } ?? false
    }

    /// The problems of one file's source, in source order.
    package func check(source: String, file: String) -> [Problem] {
        let source = Self.asLoaded(source)
        // A file that does not compile is that one problem (its names cannot be read reliably): lint
        // called it clean, and a CI lint step passed a broken file.
        if let syntax = syntaxProblem(source, file: file) { return [syntax] }
        var problems: [Problem] = []
        let report: Report = { literal, kind, message in
            // A literal of megabytes is quoted by its ends, the cut said (as a run's messages are).
            problems.append(
                Problem(
                    file: file, line: literal.line, column: literal.column, kind: kind,
                    message: TextCap.capped(VisibleText.of(message), to: TextCap.message)))
        }
        let tokens = LuaTokens(source)
        for call in LuaCalls(tokens).calls { check(call, report: report) }
        labelComparisons(tokens.tokens, report)
        return problems
    }

    /// `screen() == "place:lisbon"`: `screen()` returns the screen's id without its parameter
    /// (`place`), so a comparison with a label holding one is never equal (`~=`: always) — an
    /// `assert` on it passed whatever was on screen. So is one with an id the app does not have
    /// (`screen() ~= "chekout"`), and with a tab it does not have.
    private func labelComparisons(_ tokens: [LuaTokens.Token], _ report: Report) {
        let observers: Set<String> = ["screen", "stack", "modals", "tab", "snapshot", "deep_link"]
        /// The observer an operand calls, when it is one written out — `screen()`, `(screen())`,
        /// `_G.screen()`, `stack()[2]`, `modals()[1][1]`, `snapshot().tab` — reading `tokens[range]`.
        /// A snapshot's field reads as the observer that gives the same: `.tab` as `tab()`, a stack's or
        /// a modal's entry as `stack()`'s (labels there, so only an unknown id is named). A field of
        /// `deep_link(…)`'s outcome reads as `outcome status` (`precondition`, `destination`, `error`).
        func observer(in range: Range<Int>) -> String? {
            guard let name = called(in: range) else { return nil }
            guard name.observer == "snapshot" || name.observer == "deep_link" else { return name.observer }
            let operand = Array(tokens[range.clamped(to: tokens.indices)])
            // The call: `f(…)`, `f{…}` or `f"…"`; then the parentheses around it, if any (`(deep_link(u)).status`).
            let open = name.offset + 1
            var end: Int
            if open < operand.count, case .string = operand[open].kind {
                end = open + 1
            } else if let after = afterCall(operand, at: open) {
                end = after
            } else {
                return nil
            }
            var wrapping = operand[..<name.offset].reversed().prefix { $0.kind == .symbol("(") }.count
            while wrapping > 0, end < operand.count, operand[end].kind == .symbol(")") {
                end += 1
                wrapping -= 1
            }
            // The field: `.name` or `["name"]`.
            let rest = Array(operand[end...])
            let field: String
            let read: Int
            if rest.count >= 2, rest[0].kind == .symbol("."), case .name(let name) = rest[1].kind {
                (field, read) = (name, 2)
            } else if rest.count >= 3, rest[0].kind == .symbol("["), case .string(let name) = rest[1].kind, rest[2].kind == .symbol("]") {
                (field, read) = (name, 3)
            } else {
                return nil
            }
            if name.observer == "deep_link" {
                return rest.count == read && ["status", "precondition", "destination", "error"].contains(field) ? "outcome \(field)" : nil
            }
            switch field {
            case "tab" where rest.count == read: return "tab"
            case "stacks" where rest.count > read, "modals" where rest.count > read: return "snapshot stack"
            default: return nil
            }
        }
        /// The index after the parenthesis that closes the one at `open` in `operand`, if it is one.
        func afterCall(_ operand: [LuaTokens.Token], at open: Int) -> Int? {
            guard open < operand.count, operand[open].kind == .symbol("(") || operand[open].kind == .symbol("{") else { return nil }
            var depth = 0
            for index in open..<operand.count {
                switch operand[index].kind {
                case .symbol("("), .symbol("["), .symbol("{"): depth += 1
                case .symbol(")"), .symbol("]"), .symbol("}"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default: break
                }
            }
            return nil
        }
        func called(in range: Range<Int>) -> (observer: String, offset: Int)? {
            let operand = Array(tokens[range.clamped(to: tokens.indices)])
            for (offset, token) in operand.enumerated() {
                guard case .name(let name) = token.kind, observers.contains(name), offset + 1 < operand.count else { continue }
                // Called: `f(…)`, or `deep_link"…"` / `deep_link{…}` without parentheses.
                let next = operand[offset + 1].kind
                var isString = false
                if case .string = next { isString = true }
                guard next == .symbol("(") || (name == "deep_link" && (isString || next == .symbol("{"))) else { continue }
                // A method or field of something else (`x.screen()`), unless it is the global table's.
                if offset >= 2, operand[offset - 1].kind == .symbol(".") || operand[offset - 1].kind == .symbol(":"),
                    operand[offset - 2].kind != .name("_G")
                {
                    continue
                }
                if offset == 1, operand[0].kind == .symbol(".") || operand[0].kind == .symbol(":") { continue }
                return (name, offset)
            }
            return nil
        }
        /// Where the operand before `index` begins: back over names, dots and balanced groups.
        func operandStart(before index: Int) -> Int {
            var at = index - 1
            while at >= 0 {
                switch tokens[at].kind {
                case .symbol(")"), .symbol("]"), .symbol("}"):
                    var depth = 0
                    while at >= 0 {
                        if [.symbol(")"), .symbol("]"), .symbol("}")].contains(tokens[at].kind) { depth += 1 }
                        if [.symbol("("), .symbol("["), .symbol("{")].contains(tokens[at].kind) { depth -= 1 }
                        if depth == 0 { break }
                        at -= 1
                    }
                    at -= 1
                case .name, .symbol("."), .symbol(":"): at -= 1
                case .string where at > 0 && Self.isName(tokens[at - 1]): at -= 1  // `deep_link"…"`, a call
                default: return at + 1
                }
            }
            return 0
        }
        /// Where the operand after `index` ends (exclusive): over names, dots and balanced groups.
        func operandEnd(after index: Int) -> Int {
            var at = index + 1
            while at < tokens.count {
                switch tokens[at].kind {
                case .symbol("("), .symbol("["), .symbol("{"):
                    var depth = 0
                    while at < tokens.count {
                        if [.symbol("("), .symbol("["), .symbol("{")].contains(tokens[at].kind) { depth += 1 }
                        if [.symbol(")"), .symbol("]"), .symbol("}")].contains(tokens[at].kind) { depth -= 1 }
                        if depth == 0 { break }
                        at += 1
                    }
                    at += 1
                case .name, .symbol("."), .symbol(":"): at += 1
                case .string where Self.isName(tokens[at - 1]): at += 1  // `deep_link"…"`, a call
                default: return at
                }
            }
            return at
        }
        /// The string literal at `at` (`"x"`, or `("x")` spanning `at`… in the direction `step`) and the
        /// index past it, or nil.
        func literal(at at: Int, step: Int) -> (token: LuaTokens.Token, past: Int)? {
            let (open, close) = step > 0 ? ("(", ")") : (")", "(")
            var depth = 0  // `(("x"))`: parentheses however deep are the same value
            while tokens.indices.contains(at + depth * step), tokens[at + depth * step].kind == .symbol(open) { depth += 1 }
            let inner = at + depth * step
            guard tokens.indices.contains(inner), case .string = tokens[inner].kind else { return nil }
            for level in 1...max(1, depth) where depth > 0 {
                guard tokens.indices.contains(inner + level * step), tokens[inner + level * step].kind == .symbol(close) else { return nil }
            }
            return (tokens[inner], inner + (depth + 1) * step)
        }
        for (index, token) in tokens.enumerated() where token.kind == .symbol("==") || token.kind == .symbol("~=") {
            var pairs: [(observer: String, literal: LuaTokens.Token)] = []
            // The literal must be the whole other operand, not a piece of a concatenation (`"a:" .. x`).
            if let (after, past) = literal(at: index + 1, step: 1), past >= tokens.count || tokens[past].kind != .symbol(".."),
                let name = observer(in: operandStart(before: index)..<index)
            {
                pairs.append((name, after))
            }
            if let (before, past) = literal(at: index - 1, step: -1), past < 0 || tokens[past].kind != .symbol(".."),
                let name = observer(in: (index + 1)..<operandEnd(after: index))
            {
                pairs.append((name, before))
            }
            let always = token.kind == .symbol("==") ? "false" : "true"
            for (name, literal) in pairs {
                guard case .string(let text) = literal.kind else { continue }
                let place = LuaCalls.Literal(value: .string(text), line: literal.line, column: literal.column)
                if name == "tab" {
                    tab(place, report)
                    continue
                }
                if name.hasPrefix("outcome ") {
                    outcomeComparison(String(name.dropFirst("outcome ".count)), place, always: always, report)
                    continue
                }
                if name == "snapshot stack" {
                    // A snapshot's stacks and modals hold labels (`product:p1`): only an id the app lacks is sure.
                    let id = String(text.prefix { $0 != ":" })
                    let never = "no snapshot entry is '\(VisibleText.of(text))' and this comparison is always \(always)"
                    if let message = notAScreen(id, so: never) { report(place, .screen, message) }
                    continue
                }
                // An id the app does not have: the comparison can never hold (`~=`: always does).
                guard let colon = text.firstIndex(of: ":") else {
                    if let message = notAScreen(text, so: "\(name)() is never it and this comparison is always \(always)") {
                        report(place, .screen, message)
                    }
                    continue
                }
                let id = text[..<colon]
                report(
                    place, .screen,
                    "\(name)() returns screen ids without their parameters ('\(id)'), so it is never '\(text)' and this "
                        + "comparison is always \(always); check the label with expect_\(name == "modals" ? "modals" : name == "stack" ? "stack" : "screen")"
                        + ", or compare with '\(id)'")
            }
        }
    }

    /// `source` as Lua reads a file (`luaL_loadfile`, what `run` does): a
    /// UTF-8 byte-order mark and a first line that begins with `#` (`#!`)
    /// skipped — the line kept empty, so lines keep their numbers. Lint
    /// called such a file "does not compile" while `run` loaded it.
    static func asLoaded(_ source: String) -> String {
        var text = Substring(source)
        if text.first == "\u{FEFF}" { text = text.dropFirst() }
        guard text.first == "#" else { return String(text) }
        return String(text.drop { $0 != "\n" && $0 != "\r\n" })
    }

    /// Lua's own error when `source` does not compile, at its line (column 1: Lua gives none).
    private func syntaxProblem(_ source: String, file: String) -> Problem? {
        guard let compiler = answers.compiler else { return nil }
        do {
            _ = try compiler.load(bytes: Array(source.utf8), chunkName: file)
            return nil
        } catch {
            var message = error.message
            var line = 1
            let prefix = file + ":"
            if message.hasPrefix(prefix) {
                let rest = message.dropFirst(prefix.count)
                let digits = rest.prefix { $0.isASCII && $0.isNumber }
                if let number = Int(digits), rest.dropFirst(digits.count).hasPrefix(": ") {
                    line = number
                    message = String(rest.dropFirst(digits.count + 2))
                }
            }
            return Problem(file: file, line: line, column: 1, kind: .syntax, message: "does not compile: " + VisibleText.of(message))
        }
    }

    /// The files of `listing` (a suite's files loaded to list their scenarios) that do not load, each
    /// a problem at the line its error names. `syntax`: files already reported as not compiling.
    package static func loadProblems(_ listing: [(entry: SuiteFile, loadError: String?)], skipping syntax: Set<String>) -> [Problem] {
        listing.compactMap { file in
            guard let error = file.loadError, !syntax.contains(file.entry.path) else { return nil }
            // `path:LINE: message` when the error has a place in the file.
            var line = 1
            var message = error
            let prefix = file.entry.path + ":"
            if error.hasPrefix(prefix) {
                let rest = error.dropFirst(prefix.count)
                let digits = rest.prefix { $0.isNumber }
                if let number = Int(digits), rest.dropFirst(digits.count).hasPrefix(": ") {
                    line = number
                    message = String(rest.dropFirst(digits.count + 2))
                }
            }
            return Problem(
                file: file.entry.path, line: line, column: 1, kind: .load,
                message: "does not load: " + TextCap.capped(VisibleText.of(message), to: TextCap.message)
                    + " (a run loses every scenario in the file)")
        }
    }

    /// The problems of every file, read from disk.
    package func check(_ files: [SuiteFile]) -> [Problem] {
        files.flatMap { file in
            // Lua reads bytes: a file with a Latin-1 comment runs, so it is linted too (an invalid
            // byte reads as U+FFFD; the file was skipped and counted among those with no problem).
            guard let bytes = try? Data(contentsOf: file.url) else { return [Problem]() }
            return check(source: String(decoding: bytes, as: UTF8.self), file: file.path)
        }
    }

    private typealias Report = (LuaCalls.Literal, Problem.Kind, String) -> Void

    private func check(_ call: LuaCalls.Call, report: Report) {
        let args = call.arguments
        func string(_ index: Int) -> LuaCalls.Literal? {
            guard index < args.count, case .string = args[index].value else { return nil }
            return args[index]
        }
        func items(_ index: Int, numbers: Bool = false) -> [LuaCalls.Literal] {
            guard index < args.count, case .table(let items, _) = args[index].value else { return [] }
            return items.filter {
                switch $0.value {
                case .string: !numbers
                case .integer: numbers
                default: false
                }
            }
        }
        func field(_ index: Int, _ name: String) -> LuaCalls.Literal? {
            guard index < args.count, case .table(_, let fields) = args[index].value else { return nil }
            return fields.first { $0.key == name }?.value
        }
        for table in tableArguments[call.name] ?? [] where table.position <= args.count {
            optionKeys(of: args[table.position - 1], among: table.keys, type: table.type, function: call.name, report)
        }
        let sceneOption = call.name == "deep_link" ? field(1, "scene") : nil
        if oneWindow, ["open_scene", "focus_scene", "close_scene"].contains(call.name) || sceneOption != nil {
            let place = sceneOption ?? LuaCalls.Literal(value: .other, line: call.line, column: call.column)
            report(
                place, .window,
                "\(host.name) has one window (its host's driver does not adopt SceneDriving): "
                    + (call.name == "deep_link" ? "deep_link's scene option names a window it cannot have" : "\(call.name) cannot run"))
        }
        // A window past the first of an app with one: `in_scene(2, …)` cannot run, `expect_scenes{ 1, 2 }` never holds.
        if oneWindow {
            let windows = call.name == "in_scene" ? Array(args.prefix(1)) : call.name == "expect_scenes" ? items(0, numbers: true) : []
            let foreground = call.name == "expect_scenes" ? field(0, "foreground").map { [$0] } ?? [] : []
            for window in windows + foreground {
                guard case .integer(let number) = window.value, number != 1 else { continue }
                report(
                    window, .window,
                    "\(host.name) has one window (its host's driver does not adopt SceneDriving): there is no window \(number)"
                        + (call.name == "in_scene" ? ", so in_scene cannot run" : ", so this never holds"))
            }
        }
        switch call.name {
        case "expect_screen", "expect_modal":
            string(0).map { screen($0, report) }
        case "expect_modals":
            items(0).forEach { screen($0, report) }
        case "expect_stack":
            if let tab = string(0) {
                self.tab(tab, report)
                items(1).forEach { screen($0, report) }
            } else {
                items(0).forEach { screen($0, report) }
            }
        case "expect_tab", "select_tab":
            string(0).map { tab($0, report) }
        case "expect_snapshot":
            // Its tab, each stack (by tab) and each modal's screens (lint read none of them).
            field(0, "tab").map { tab($0, report) }
            if case .table(_, let stacks)? = field(0, "stacks")?.value {
                for (key, stack) in stacks {
                    tab(LuaCalls.Literal(value: .string(key), line: stack.keyLine, column: stack.keyColumn), report)
                    if case .table(let screens, _) = stack.value { screens.forEach { screen($0, report) } }
                }
            }
            if case .table(let modals, _)? = field(0, "modals")?.value {
                for modal in modals { if case .table(let screens, _) = modal.value { screens.forEach { screen($0, report) } } }
            }
        case "expect_events":
            items(0).forEach { event($0, report) }
        case "expect_events_since":
            items(1).forEach { event($0, report) }
        case "expect_no_event", "expect_event_count":
            string(0).map { event($0, report) }
        case "tap":
            string(0).map { output($0, report) }
            // tap("note", { idd = "7" }): the parameters every output of that name declares.
            if case .string(let name)? = string(0)?.value, let parameters = outputParameters[name], args.count > 1 {
                optionKeys(of: args[1], among: parameters, type: "output '\(name)'", function: "tap", word: "parameter", report)
            }
        case "deep_link":
            field(1, "via").map { entry($0, report) }
            string(0).map { link($0, report) }
        case "open_scene":
            field(0, "url").map { link($0, report) }
        case "expect_error":
            string(1).map { known($0, among: Self.errorKinds, what: "error kind", kind: .errorKind, report) }
            field(2, "via").map { entry($0, report) }
        case "expect_same_outcome":
            items(1).forEach { entry($0, report) }
        case "launch":
            keys(of: args.first, among: launchKeys, what: "launch option", kind: .launchOption, report)
            field(0, "url").map { link($0, report) }
        case "scenario", "pending", "scenario.each":
            // scenario(name, options, fn), scenario.each(rows, name, options, fn): the options table.
            let options = args.first { if case .table(_, let fields) = $0.value { !fields.isEmpty } else { false } }
            // The options' own keys (`{ tag = "smoke" }` refused the whole file at run time), after the
            // name. (pending's and scenario.each's are checked as their declared table parameters, above.)
            if call.name == "scenario", args.count > 2, case .table = args[1].value {
                optionKeys(
                    of: args[1], among: ScenarioDefinition.optionNames, type: "navscript.ScenarioOptions", function: call.name, report)
            }
            if case .table(_, let fields)? = options?.value {
                for (key, value) in fields {
                    if key == "launch" {
                        keys(of: value, among: launchKeys, what: "launch option", kind: .launchOption, report)
                        if case .table(_, let launch) = value.value, let url = launch.first(where: { $0.key == "url" })?.value {
                            link(url, report)
                        }
                    }
                    if key == "allow" { keys(of: value, among: Self.invariants, what: "invariant", kind: .invariant, report) }
                }
            }
        default:
            break
        }
    }

    private func screen(_ literal: LuaCalls.Literal, _ report: Report) {
        guard case .string(let label) = literal.value else { return }
        let hint = answers.screens[label] ?? vocabulary.typoHint(forScreens: [label])
        answers.screens[label] = hint
        if let hint { report(literal, .screen, hint) }
    }

    /// `'id' is no screen of the app, so …` with the screen meant, or nil when the app has `id`.
    private func notAScreen(_ id: String, so consequence: String) -> String? {
        guard !vocabulary.hasScreen(id) else { return nil }
        let close = NameSuggestion.didYouMean(NameSuggestion.nearest(to: id, among: vocabulary.screenNames))
        return "'\(VisibleText.of(id))' is no screen of the app, so \(consequence)" + (close.map { "; \($0)" } ?? "")
    }

    /// A link of the app's scheme that no route matches while its first segment is one letter or
    /// two from a route's (`shop://chekout`): a typo the router rejects without a word, after which
    /// every check of what the link would have done passes. A link meant to be refused is checked
    /// with expect_error, and one far from every route (`shop://bogus`) is taken as meant.
    private func link(_ literal: LuaCalls.Literal, _ report: Report) {
        guard case .string(let url) = literal.value else { return }
        let engine = host.engine
        let prefix = engine.manifest.scheme + "://"
        guard url.lowercased().hasPrefix(prefix) else { return }
        do {
            _ = try engine.resolve(url: url, entry: .scheme, context: RouteContext())
        } catch {
            guard case .unknownRoute = error else { return }
            let first =
                url.dropFirst(prefix.count).split(whereSeparator: { "/?#".contains($0) }).first.map { String($0).lowercased() } ?? ""
            guard !first.isEmpty, !routeFirstSegments.contains(first),
                let close = NameSuggestion.didYouMean(NameSuggestion.nearest(to: first, among: routeFirstSegments))
            else { return }
            report(
                literal, .link,
                "no route matches '\(VisibleText.of(url))' ('\(VisibleText.of(first))' is no route's first segment; \(close)), so "
                    + "the app rejects it and a check of what it would do holds anyway; a link meant to be refused is "
                    + "checked with expect_error(url, \"unknown_route\")")
        }
    }

    private func tab(_ literal: LuaCalls.Literal, _ report: Report) {
        known(literal, among: tabs, what: "tab", kind: .tab, report)
    }

    private func entry(_ literal: LuaCalls.Literal, _ report: Report) {
        known(literal, among: entries, what: "entry point", kind: .entryPoint, report)
    }

    private func output(_ literal: LuaCalls.Literal, _ report: Report) {
        // Only a host that declares its screens' outputs says which exist.
        guard !outputs.isEmpty else { return }
        known(literal, among: outputs, what: "output", kind: .output, report)
    }

    private func event(_ literal: LuaCalls.Literal, _ report: Report) {
        guard case .string(let item) = literal.value else { return }
        let problem = answers.events[item] ?? vocabulary.problem(with: item)
        answers.events[item] = problem
        if let problem { report(literal, .event, "event '\(item)': \(problem)") }
    }

    private static func isName(_ token: LuaTokens.Token) -> Bool {
        if case .name = token.kind { return true }
        return false
    }

    /// `deep_link(url).status ~= "gatd"`: a field of the outcome compared with a value it never has —
    /// an `assert` of it held whatever the app did with the link.
    private func outcomeComparison(_ field: String, _ place: LuaCalls.Literal, always: String, _ report: Report) {
        guard case .string(let text) = place.value else { return }
        let never = "deep_link(…).\(field) is never '\(VisibleText.of(text))' and this comparison is always \(always)"
        let values: [String]
        switch field {
        case "destination":
            if let message = notAScreen(text, so: never) { report(place, .screen, message) }
            return
        case "status": values = Self.statuses
        case "error": values = Self.errorKinds
        default: values = host.engine.manifest.preconditions.map(\.rawValue).sorted()
        }
        guard !values.contains(text) else { return }
        let suggestion = NameSuggestion.closest(to: text, among: values).map { "did you mean '\($0)'? " } ?? ""
        report(place, .outcome, "\(never); \(suggestion)its values are: " + values.joined(separator: ", "))
    }

    private func known(
        _ literal: LuaCalls.Literal, among names: [String], what: String, kind: Problem.Kind, _ report: Report
    ) {
        guard case .string(let name) = literal.value, !names.contains(name) else { return }
        let suggestion = NameSuggestion.closest(to: name, among: names).map { "did you mean '\($0)'? " } ?? ""
        report(literal, kind, "\(host.name) has no \(what) '\(name)'; \(suggestion)\(what)s are: " + names.joined(separator: ", "))
    }

    /// A table argument's keys against the fields its type declares
    /// (`deep_link(url, { vai = "push" })`).
    private func optionKeys(
        of literal: LuaCalls.Literal, among names: [String], type: String, function: String, word: String? = nil,
        _ report: Report
    ) {
        let word = word ?? (type.hasSuffix("Options") ? "option" : "field")
        unknownKeys(of: literal, among: names, kind: .optionKey, report) { key, suggestion in
            "\(function) has no \(word) '\(key)'; \(suggestion)\(type) has: " + (names.isEmpty ? "none" : names.joined(separator: ", "))
        }
    }

    private func keys(
        of literal: LuaCalls.Literal?, among names: [String], what: String, kind: Problem.Kind, _ report: Report
    ) {
        guard let literal else { return }
        unknownKeys(of: literal, among: names, kind: kind, report) { key, suggestion in
            "\(host.name) has no \(what) '\(key)'; \(suggestion)\(what)s are: " + names.joined(separator: ", ")
        }
    }

    /// Each key of a table literal that `names` lacks, reported at the key
    /// with the closest name as `did you mean '…'? ` (or nothing).
    private func unknownKeys(
        of literal: LuaCalls.Literal, among names: [String], kind: Problem.Kind, _ report: Report,
        message: (_ key: String, _ suggestion: String) -> String
    ) {
        guard case .table(_, let fields) = literal.value else { return }
        for (key, value) in fields where !names.contains(key) {
            let suggestion = NameSuggestion.closest(to: key, among: names).map { "did you mean '\($0)'? " } ?? ""
            report(LuaCalls.Literal(value: .string(key), line: value.keyLine, column: value.keyColumn), kind, message(key, suggestion))
        }
    }
}
