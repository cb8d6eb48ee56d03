import Foundation
import NavigationCore
import NotesApp
import Testing

@testable import NavScript
@testable import NavScriptLua
@testable import NavScriptRunner
@testable import NavScriptRuntime

/// `routes check`: one fixture manifest per problem kind, each reported
/// with its JSON path and destination at the line and column of the value
/// that is wrong — and a clean one reported clean.
@Suite("Manifest check")
struct ManifestCheckTests {
    /// A clean manifest; each case below breaks it in one way.
    static let base = """
        {
          "scheme": "myapp",
          "universal_hosts": ["myapp.example.com"],
          "tabs": ["home", "account"],
          "preconditions": ["auth"],
          "destinations": [
            { "id": "home", "tab": "home", "flow": "home", "patterns": ["home"] },
            { "id": "item", "parent": "home", "flow": "home",
              "params": [{ "name": "id", "pattern": "[0-9]{1,6}" }], "patterns": ["item/:id", "i/:id"] },
            { "id": "account", "tab": "account", "flow": "account", "preconditions": ["auth"], "patterns": ["account"] }
          ]
        }
        """

    func problems(_ text: String) throws -> [ManifestProblem] {
        try ManifestCheck().check(text)
    }

    func replacing(_ old: String, with new: String) -> String {
        if !Self.base.contains(old) { Issue.record("fixture edit does not apply: \(old)") }
        return Self.base.replacingOccurrences(of: old, with: new)
    }

    @Test func theCleanManifestHasNoProblem() throws {
        #expect(try problems(Self.base).isEmpty)
    }

    /// The router checks a value's length before its pattern: a pattern that could backtrack
    /// without end on a long value cannot on a value of at most 16 characters (2^16 tries at
    /// worst), so a short `max_length` makes it safe — it was refused all the same.
    @Test(arguments: [
        ("([0-9]+)+x", 16, false), ("([0-9]+)+x", 17, true), ("(a|aa)+", 8, false), (".*.*.*x", 12, false), ("(a|aa)+", nil, true)
    ])
    func aShortMaximumLengthBoundsTheBacktracking(pattern: String, maxLength: Int?, refused: Bool) throws {
        let spec = #""pattern": "\#(pattern)""# + (maxLength.map { #", "max_length": \#($0)"# } ?? "")
        let found = try problems(replacing(#""pattern": "[0-9]{1,6}""#, with: spec))
        #expect(!found.isEmpty == refused, "\(found)")
    }

    /// A literal segment the facing parameter's spec refuses (`latest` for an id of digits) keeps two
    /// patterns apart, as the router does: "a link can match both" was said of links none can.
    @Test func aLiteralTheFacingParameterRefusesIsNoOverlap() throws {
        #expect(try problems(replacing(#""patterns": ["account"]"#, with: #""patterns": ["item/latest"]"#)).isEmpty)
        #expect(try problems(replacing(#""patterns": ["account"]"#, with: #""patterns": ["item/1234567"]"#)).isEmpty, "longer than 6")
        #expect(try problems(replacing(#""patterns": ["account"]"#, with: #""patterns": ["item/42"]"#)).count == 1)
    }

    /// A manifest's names are printed spelled: a newline in a tab name split the message and forged a
    /// `file:line:col: warning:` line that CI reads as an annotation; a zero-width space hid itself.
    @Test func aManifestsNamesArePrintedSpelled() throws {
        let found = try problems(
            replacing(#"{ "id": "account", "tab": "account""#, with: #"{ "id": "account", "tab": "acc\nount\u200b""#))
        let line = try #require(found.first).reported(in: "m.json")
        #expect(!line.contains("\n") && line.contains(#"acc\u{A}ount<U+200B>"#), "\(line)")
    }

    /// A tab the app's tab bar does not have: a new name is a warning (a rollout may add one with the
    /// app version that shows it); one that reads as a tab the app has — a no-break space, a Cyrillic
    /// letter — is an error, spelled: every link on it landed where the app shows nothing.
    @Test func aTabTheAppDoesNotHaveIsNamed() throws {
        var host = NotesVariantHost(try NotesHost())
        host.engine = try RoutingEngine(manifest: RouteManifest.load(json: Data(Self.base.utf8)))
        let check = ManifestCheck(host: host)
        func problems(_ tab: String) throws -> [ManifestProblem] {
            try check.check(
                Self.base.replacingOccurrences(of: #""tabs": ["home", "account"]"#, with: #""tabs": ["home", "account", "\#(tab)"]"#))
        }
        #expect(try check.check(Self.base).filter { $0.path.hasPrefix("$.tabs") }.isEmpty)
        let new = try problems("shop").filter { $0.path.hasPrefix("$.tabs") }
        #expect(new.count == 1 && new[0].isWarning && new[0].message.contains("the app has no tab \"shop\""), "\(new)")
        for lookAlike in ["home\\u00a0", "hom\\u0435"] {
            let found = try problems(lookAlike).filter { $0.path.hasPrefix("$.tabs") }
            #expect(found.count == 1 && !found[0].isWarning && found[0].message.contains("it reads as \"home\""), "\(found)")
        }
    }

    @Test func syntaxErrorsHaveALineAndAColumn() {
        let broken = Self.base.replacingOccurrences(of: "\"account\"] }", with: "\"account\"], }")
        #expect(throws: JSONText.SyntaxError.self) { try problems(broken) }
        do {
            _ = try ManifestCheck().check("{\n  \"scheme\": \"x\",\n  \"tabs\": [1,]\n}")
            Issue.record("a trailing comma was accepted")
        } catch {
            #expect(error.line == 3 && error.column == 14 && error.reason.contains("trailing comma"), "\(error)")
        }
    }

    /// A file nested thousands of levels deep is refused with its place,
    /// not recursed into until the stack overflows.
    @Test func aDocumentNestedTooDeepIsRefusedNotRecursed() {
        let deep = "{\"scheme\":\n" + String(repeating: "[", count: 30_000) + String(repeating: "]", count: 30_000) + "}"
        do {
            _ = try ManifestCheck().check(deep)
            Issue.record("a 30,000-deep document was accepted")
        } catch {
            #expect(error.line == 2 && error.reason.contains("nested more than 100 levels deep"), "\(error)")
        }
        // As deep as the limit is still read.
        let limit = "{\"scheme\":" + String(repeating: "[", count: 99) + String(repeating: "]", count: 99) + "}"
        #expect((try? ManifestCheck().check(limit)) != nil)
    }

    /// Only patterns that could match one link are compared: the check is
    /// not quadratic in destinations (20,000 took minutes), and no pair
    /// that can overlap is left out.
    @Test func onlyPatternsThatCouldMatchOneLinkAreCompared() {
        let patterns = ["a/:id", "a/:x", "b/:id", ":any/x", "a/b/c", "a/:id?q=:q", ":p/:q"].map { RoutePattern($0) }
        let pairs = ManifestCheck.candidatePairs(patterns).map { "\($0.0)-\($0.1)" }
        #expect(pairs == ["0-1", "0-3", "0-6", "1-3", "1-6", "2-3", "2-6", "3-6"], "\(pairs)")
    }

    /// A manifest on one line has every problem on line 1: they are listed
    /// in manifest order ([9] before [10]), not as the paths sort as text.
    @Test func problemsOnOneLineAreInManifestOrder() throws {
        let destinations = (0..<12).map { #"{ "id": "d\#($0)", "tab": "nowhere", "flow": "f", "patterns": ["d\#($0)"] }"# }
        let text =
            #"{ "scheme": "x", "universal_hosts": [], "tabs": ["home"], "preconditions": [], "destinations": ["#
            + destinations.joined(separator: ", ") + "] }"
        let paths = try problems(text).map(\.path)
        #expect(paths.count == 12 && paths == (0..<12).map { "$.destinations[\($0)].tab" }, "\(paths)")
    }

    /// Where `marker` points in `text`: `marker` is a snippet that occurs
    /// once in `text` with a `^` before the character meant. Columns count
    /// Unicode scalars, as the check's do.
    static func position(of marker: String, in text: String) -> (line: Int, column: Int)? {
        guard let caret = marker.firstIndex(of: "^") else { return nil }
        let snippet = marker.replacingOccurrences(of: "^", with: "")
        let ranges = text.ranges(of: snippet)
        guard ranges.count == 1 else { return nil }
        let target = text.index(ranges[0].lowerBound, offsetBy: marker.distance(from: marker.startIndex, to: caret))
        let before = text[..<target].unicodeScalars
        let line = before.filter { $0 == "\n" }.count + 1
        let column = before.count - (before.lastIndex(of: "\n").map { before.distance(from: before.startIndex, to: $0) + 1 } ?? 0) + 1
        return (line, column)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var old: String
        var new: String
        var path: String
        var destination: String?
        var message: String
        /// The value (or key, or object lacking a key) the problem is at: a
        /// snippet of the edited manifest, once in it, with `^` before it.
        var at: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "unknown key", old: #""flow": "home", "patterns": ["home"]"#, new: #""flow": "home", "colour": 1, "patterns": ["home"]"#,
            path: "$.destinations[0].colour", destination: "home", message: "unknown key \"colour\"", at: #"^"colour": 1"#),
        Case(
            name: "wrong type", old: #""tabs": ["home", "account"]"#, new: #""tabs": "home""#,
            path: "$.tabs", destination: nil, message: "expected an array of strings, got a string", at: #""tabs": ^"home""#),
        Case(
            name: "missing required key", old: #"{ "id": "home", "tab": "home", "flow": "home", "patterns": ["home"] }"#,
            new: #"{ "id": "home", "tab": "home", "patterns": ["home"] }"#,
            path: "$.destinations[0]", destination: "home", message: "the required key \"flow\" is missing",
            at: #"^{ "id": "home", "tab": "home", "patterns""#),
        Case(
            name: "unknown tab", old: #""tab": "account", "flow""#, new: #""tab": "acount", "flow""#,
            path: "$.destinations[2].tab", destination: "account", message: "unknown tab \"acount\"", at: #""tab": ^"acount""#),
        Case(
            name: "unknown parent", old: #""parent": "home""#, new: #""parent": "hom""#,
            path: "$.destinations[1].parent", destination: "item", message: "unknown parent \"hom\"", at: #""parent": ^"hom""#),
        Case(
            name: "unknown precondition", old: #""preconditions": ["auth"], "patterns""#, new: #""preconditions": ["vip"], "patterns""#,
            path: "$.destinations[2].preconditions[0]", destination: "account", message: "unknown precondition \"vip\"", at: #"[^"vip"]"#),
        Case(
            name: "ancestry cycle", old: #"{ "id": "home", "tab": "home", "flow": "home", "patterns": ["home"] }"#,
            new: #"{ "id": "home", "parent": "item", "flow": "home", "patterns": ["home"] }"#,
            path: "$.destinations[0].parent", destination: "home", message: "ancestry cycle", at: #""id": "home", "parent": ^"item""#),
        Case(
            name: "pattern param not declared", old: #""patterns": ["item/:id", "i/:id"]"#, new: #""patterns": ["item/:id", "i/:ident"]"#,
            path: "$.destinations[1].patterns[1]", destination: "item", message: "uses :ident, which params does not declare",
            at: #"^"i/:ident""#),
        Case(
            name: "invalid regular expression", old: #""pattern": "[0-9]{1,6}""#, new: #""pattern": "[0-9""#,
            path: "$.destinations[1].params[0].pattern", destination: "item", message: "invalid regular expression /[0-9/",
            at: #""pattern": ^"[0-9""#),
        Case(
            name: "a param pattern that can backtrack without end", old: #""pattern": "[0-9]{1,6}""#,
            new: #""pattern": "([0-9]+)+x""#, path: "$.destinations[1].params[0].pattern", destination: "item",
            message: "/([0-9]+)+x/ repeats ([0-9]+)+, a group with a repetition inside and nothing that marks where a turn "
                + "ends: matching a long value that almost fits can take exponential time, and a link would hang the router; "
                + "repeat the inner part once ((a+)+ as a+), or begin or end each turn with a character its repetitions "
                + "cannot match ((-[a-z]+)*)",
            at: #""pattern": ^"([0-9]+)+x""#),
        Case(
            name: "a param pattern with a run of repetitions", old: #""pattern": "[0-9]{1,6}""#,
            new: #""pattern": ".*.*.*x""#, path: "$.destinations[1].params[0].pattern", destination: "item",
            message: "/.*.*.*x/ has .*.*.*, repetitions that can share a value out in very many ways",
            at: #""pattern": ^".*.*.*x""#),
        Case(
            name: "an empty param pattern", old: #""pattern": "[0-9]{1,6}""#, new: #""pattern": """#,
            path: "$.destinations[1].params[0].pattern", destination: "item",
            message: "an empty pattern matches only an empty value, which no link has", at: #""pattern": ^"""#),
        Case(
            name: "a param captured twice", old: #""patterns": ["item/:id", "i/:id"]"#, new: #""patterns": ["item/:id", "i/:id/:id"]"#,
            path: "$.destinations[1].patterns[1]", destination: "item", message: "\"i/:id/:id\" captures :id twice",
            at: #"^"i/:id/:id""#),
        Case(
            name: "a scheme no link can have", old: #""scheme": "myapp""#, new: #""scheme": "my app""#, path: "$.scheme",
            destination: nil, message: "the scheme \"my app\" is not a URL scheme", at: #""scheme": ^"my app""#),
        Case(
            name: "duplicate pattern", old: #""patterns": ["account"]"#, new: #""patterns": ["home"]"#,
            path: "$.destinations[2].patterns[0]", destination: "account", message: "duplicates \"home\" of home",
            at: #""preconditions": ["auth"], "patterns": [^"home"]"#),
        Case(
            name: "overlapping patterns", old: #""patterns": ["account"]"#, new: #""patterns": ["item/123"]"#,
            path: "$.destinations[2].patterns[0]", destination: "account", message: "overlaps \"item/:id\" of item", at: #"^"item/123""#),
        Case(
            name: "unreachable destination", old: #""patterns": ["item/:id", "i/:id"]"#, new: #""patterns": []"#,
            path: "$.destinations[1].patterns", destination: "item", message: "nothing reaches this destination", at: #""patterns": ^[]"#),
        Case(
            name: "ancestor param missing", old: #"{ "id": "account", "tab": "account""#, new: #"{ "id": "account", "parent": "item""#,
            path: "$.destinations[2].params", destination: "account", message: "ancestor \"item\" needs the param id",
            at: #"^{ "id": "account", "parent": "item""#),
        Case(
            name: "duplicate id", old: #""id": "account""#, new: #""id": "home""#,
            path: "$.destinations[2].id", destination: "home",
            message: "duplicate destination id \"home\" (first at line 7, column 13): links, parents and taps name a destination",
            at: #""id": ^"home", "tab": "account""#),
        Case(
            name: "duplicate tab", old: #""tabs": ["home", "account"]"#, new: #""tabs": ["home", "account", "home"]"#,
            path: "$.tabs[2]", destination: nil,
            message: "duplicate tab \"home\" (first at line 4, column 12): the tab bar shows the tabs in this order",
            at: #""account", ^"home"]"#),
        Case(
            name: "duplicate declared precondition", old: #""preconditions": ["auth"],"# + "\n" + #"  "destinations""#,
            new: #""preconditions": ["auth", "auth"],"# + "\n" + #"  "destinations""#,
            path: "$.preconditions[1]", destination: nil,
            message: "duplicate precondition \"auth\" (first at line 5, column 21): the repeat adds nothing", at: #"["auth", ^"auth"],"#),
        Case(
            name: "duplicate universal host", old: #"["myapp.example.com"]"#, new: #"["myapp.example.com", "myapp.example.com"]"#,
            path: "$.universal_hosts[1]", destination: nil, message: "duplicate universal host \"myapp.example.com\"",
            at: #""myapp.example.com", ^"myapp.example.com""#),
        Case(
            name: "duplicate param", old: #"[{ "name": "id", "pattern": "[0-9]{1,6}" }]"#,
            new: #"[{ "name": "id", "pattern": "[0-9]{1,6}" }, { "name": "id", "kind": "integer" }]"#,
            path: "$.destinations[1].params[1].name", destination: "item",
            message: "duplicate param \"id\" (first at line 9, column 28): a link's parameters are found by name",
            at: #"{ "name": ^"id", "kind""#),
        Case(
            name: "duplicate gate of a destination", old: #""preconditions": ["auth"], "patterns""#,
            new: #""preconditions": ["auth", "auth"], "patterns""#, path: "$.destinations[2].preconditions[1]", destination: "account",
            message: "duplicate precondition \"auth\"", at: #"["auth", ^"auth"], "patterns""#),
        Case(
            name: "duplicate entry point", old: #""patterns": ["account"]"#,
            new: #""patterns": [{ "path": "account", "entries": ["scheme", "push", "scheme"] }]"#,
            path: "$.destinations[2].patterns[0].entries[2]", destination: "account", message: "duplicate entry point \"scheme\"",
            at: #""push", ^"scheme"]"#),
        Case(
            name: "length limits no value meets", old: #""pattern": "[0-9]{1,6}""#,
            new: #""pattern": "[0-9]{1,6}", "min_length": 20, "max_length": 12"#,
            path: "$.destinations[1].params[0].min_length", destination: "item", message: "min_length 20 is more than max_length 12",
            at: #""min_length": ^20"#),
        Case(
            name: "a length limit no value meets", old: #""pattern": "[0-9]{1,6}""#,
            new: #""pattern": "[0-9]{1,6}", "max_length": 0"#,
            path: "$.destinations[1].params[0].max_length", destination: "item", message: "max_length 0 accepts no value of id",
            at: #""max_length": ^0"#),
        Case(
            name: "no destination at all", old: #""destinations": ["#, new: #""destinations": [], "unused": ["#,
            path: "$.destinations", destination: nil, message: "no destination: every link is rejected", at: #""destinations": ^[]"#),
        Case(
            name: "duplicate key", old: #""tabs": ["home", "account"],"#, new: #""tabs": ["home", "account"], "tabs": ["home"],"#,
            path: "$.tabs", destination: nil, message: "duplicate key \"tabs\" (first at line 4, column 3): JSON readers disagree",
            at: #"], ^"tabs": ["home"]"#),
        Case(
            name: "duplicate key in a destination", old: #"{ "id": "home", "tab": "home", "flow": "home","#,
            new: #"{ "id": "home", "tab": "home", "flow": "home", "tab": "account","#,
            path: "$.destinations[0].tab", destination: nil, message: "duplicate key \"tab\"", at: #""flow": "home", ^"tab": "account""#),
        Case(
            name: "an entry point that skips a gate another enforces",
            old: #""preconditions": ["auth"], "patterns": ["account"] }"#,
            new: #""preconditions": ["auth"], "patterns": [{ "path": "account", "entries": ["scheme", "push"] }] },"#
                + "\n"
                + #"    { "id": "account_open", "parent": "home", "flow": "home", "patterns": [{ "path": "account", "entries": ["universal"] }] }"#,
            path: "$.destinations[3].patterns[0]", destination: "account_open",
            message: #"a link matching "account" via universal opens account_open past no gate, but via scheme/push"#
                + #" ("account" of account, $.destinations[2].patterns[0]) it meets the gate auth: via universal it skips auth, "#
                + "which via scheme/push is enforced; give both destinations the same preconditions",
            at: #"[^{ "path": "account", "entries": ["universal"] }]"#),
        Case(
            name: "a parent's gate counts", old: #""preconditions": ["auth"], "patterns": ["account"] }"#,
            new: #""preconditions": ["auth"], "patterns": ["account"] },"# + "\n"
                + #"    { "id": "orders", "parent": "account", "flow": "account", "patterns": [{ "path": "orders", "entries": ["scheme"] }] },"#
                + "\n"
                + #"    { "id": "orders_open", "tab": "home", "flow": "home", "patterns": [{ "path": "orders", "entries": ["widget"] }] }"#,
            path: "$.destinations[4].patterns[0]", destination: "orders_open",
            message: "via widget it skips auth, which via scheme is enforced", at: #"[^{ "path": "orders", "entries": ["widget"] }]"#)
    ]

    @Test("each problem kind is reported at the offending value, with its path and destination", arguments: cases)
    func problemKind(_ c: Case) throws {
        let manifest = replacing(c.old, with: c.new)
        let found = try problems(manifest)
        let match = found.first { $0.path == c.path && $0.message.contains(c.message) }
        let listing = found.map(\.description).joined(separator: "\n")
        #expect(match != nil, "expected \(c.path): \(c.message) in\n\(listing)")
        #expect(match?.destination == c.destination)
        let expected = try #require(Self.position(of: c.at, in: manifest), "the marker \(c.at) is once in the manifest")
        #expect(match.map { ($0.line, $0.column) } ?? (0, 0) == expected, "at \(c.at)\n\(listing)")
    }

    /// Columns count Unicode scalars: a non-ASCII id before the value on
    /// its line moves it one column per character, not per UTF-8 byte.
    @Test func columnsCountUnicodeScalars() throws {
        let manifest = replacing(#"{ "id": "account", "tab": "account""#, with: #"{ "id": "accöunt", "tab": "acount""#)
        let problem = try #require(try problems(manifest).first { $0.path == "$.destinations[2].tab" })
        #expect((problem.line, problem.column) == (10, 31), "\(problem)")
    }

    /// The line compilers print: an editor or a CI problem matcher reads
    /// the file, line, column and severity before the message.
    @Test func aProblemIsReportedAsFileLineColumn() {
        let error = ManifestProblem(
            path: "$.destinations[3].tab", line: 153, column: 14, destination: "orders", message: "unknown tab \"order\"")
        #expect(
            error.reported(in: "routes.json")
                == #"routes.json:153:14: error: unknown tab "order" ($.destinations[3].tab, destination "orders")"#)
        let warning = ManifestProblem(path: "$.destinations", line: 6, column: 19, destination: nil, message: "m", isWarning: true)
        #expect(warning.reported(in: "m.json") == "m.json:6:19: warning: m ($.destinations)")
    }

    /// A path the manifest lacks the end of is placed at the deepest value
    /// on the way: the object that should hold the key.
    @Test func aPathIsResolvedToItsValueOrWhatShouldHoldIt() throws {
        let json = try JSONText.parse("{\n  \"a\": [1, {\"b\": \"x\"}]\n}")
        #expect(json.value(at: "$.a[1].b").line == 2 && json.value(at: "$.a[1].b").column == 18)
        #expect(json.value(at: "$.a[1].c").column == 12, "a missing key: its object")
        #expect(json.value(at: "$.a[5]").column == 8, "an index past the end: the array")
        #expect(json.value(at: "$").column == 1)
    }

    @Test func everyProblemIsReportedNotOnlyTheFirst() throws {
        let broken = replacing(#""parent": "home""#, with: #""parent": "hom""#)
            .replacingOccurrences(of: #""tab": "account", "flow""#, with: #""tab": "acount", "flow""#)
        #expect(try problems(broken).count >= 2)
    }

    @Test func aHostsScreensAndTapsMakeADestinationReachable() throws {
        let manifest = replacing(#""patterns": ["item/:id", "i/:id"]"#, with: #""patterns": []"#)
        /// A host that only declares screens: one output of `home` opening `item` with `parameters`.
        struct Host: ScenarioHost {
            var name: String { "T" }
            var engine: RoutingEngine
            var parameters = ["id"]
            var launchOptions: [LaunchOption] { [] }
            var faults: [HostFault] { [] }
            var screens: [ScreenDeclaration] { [ScreenDeclaration("home", [.init("item", parameters: parameters, opens: "item")])] }
            func launch(_ request: LaunchRequest) throws(HostError) -> any AppDriver { throw HostError("no") }
        }
        let host = Host(engine: try RoutingEngine(manifest: RouteManifest.load(json: Data(Self.base.utf8))))
        #expect(try ManifestCheck(host: host).check(manifest).filter { !$0.isWarning }.isEmpty, "a tap opens item")
        // What the manifest routes to that the app has no screen for: a warning at the destination.
        let unshown = try ManifestCheck(host: host).check(Self.base).filter(\.isWarning)
        #expect(unshown.map(\.destination) == ["item", "account"], "\(unshown)")
        #expect(
            unshown.allSatisfy {
                $0.path.hasPrefix("$.destinations[") && $0.line > 6
                    && $0.message.contains("the host declares no screen")
            }, "\(unshown)")

        // A manifest without a destination the app's taps open breaks them.
        let withoutItem = Self.base.replacingOccurrences(
            of: #"""
                    { "id": "item", "parent": "home", "flow": "home",
                      "params": [{ "name": "id", "pattern": "[0-9]{1,6}" }], "patterns": ["item/:id", "i/:id"] },

                """#, with: "")
        #expect(withoutItem != Self.base, "fixture edit applies")
        let found = try ManifestCheck(host: host).check(withoutItem)
        #expect(
            found.contains {
                $0.destination == "item" && $0.path == "$.destinations" && $0.line == 6 && $0.isWarning
                    && $0.message.contains(#"a tap in the app opens "item", which the manifest does not declare"#)
            }, "\(found)")
        #expect(try ManifestCheck().check(withoutItem).isEmpty, "without a host, nothing says the app shows item")

        // A declared output whose parameters its destination does not take.
        let misdeclared = try ManifestCheck(host: Host(engine: host.engine, parameters: ["item_id"])).check(Self.base)
            .filter { !$0.isWarning }
        #expect(
            misdeclared.count == 1 && misdeclared[0].destination == "item"
                && misdeclared[0].message.contains(
                    "\"item\" requires parameter 'id', which the host's declaration of output 'item' of 'home' (ScenarioHost.screens) does "
                        + "not pass (it passes: item_id)"),
            "\(misdeclared)")
        // A parameter passed that the destination does not take is ignored by the engine: no problem.
        let extra = try ManifestCheck(host: Host(engine: host.engine, parameters: ["id", "source"])).check(Self.base)
        #expect(extra.filter { !$0.isWarning }.isEmpty, "\(extra)")
    }
}
