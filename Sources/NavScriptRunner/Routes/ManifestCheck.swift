import Foundation
import NavScript
import NavScriptRuntime
import NavigationCore

/// Checks a manifest before it ships (`navscript routes check FILE.json`):
/// JSON syntax with line and column, keys an object repeats and names a
/// list repeats (a tab, a destination id, a param, …), the schema (unknown
/// keys, wrong types), then every rule the engine relies on — known tabs,
/// parents and preconditions, no ancestry cycle, pattern parameters
/// declared and declared parameters used, parameters the ancestry needs,
/// valid regular expressions, length limits some value meets, no duplicate
/// or overlapping patterns, no destination that nothing reaches, at least
/// one destination — and, as warnings, screens the app shows or taps open
/// that the manifest does not declare. Unlike the loader, it reports every
/// problem, not the first, each at the line and column of the value (or
/// key) that is wrong — a missing key at the object that lacks it — with
/// its JSON path.
package struct ManifestCheck {
    /// Destinations the host shows (its screen declarations): reachable by its flows.
    package var knownScreens: Set<DestinationID>
    /// Destinations a declared tap output opens.
    package var tapTargets: Set<DestinationID>
    /// The host's screen declarations, whose outputs' parameters must fit what they open.
    package var declarations: [ScreenDeclaration]

    /// The tabs the app's tab bar has (its own manifest's): a manifest with another places its
    /// destinations on no tab the app shows.
    package var knownTabs: [TabID]

    package init(host: (any ScenarioHost)? = nil) {
        knownTabs = host?.engine.manifest.tabs ?? []
        declarations = host?.screens ?? []
        knownScreens = Set(declarations.map(\.id))
        tapTargets = Set(declarations.flatMap { $0.outputs.compactMap(\.destination) })
    }

    /// The problems of `text`; a syntax error is thrown (the file cannot be read at all).
    package func check(_ text: String) throws(JSONText.SyntaxError) -> [ManifestProblem] {
        let json = try JSONText.parse(text)
        var problems = Self.duplicateKeys(json, path: "$") + Self.repeatedNames(json) + schemaProblems(json)
        // The rules need the decoded manifest; unknown keys do not stop it decoding.
        let manifest: RouteManifest
        do {
            manifest = try JSONDecoder().decode(RouteManifest.self, from: Data(text.utf8))
        } catch {
            return problems.isEmpty
                ? [ManifestProblem(path: "$", at: json, destination: nil, message: "not a route manifest: \(error)")] : problems
        }
        problems += ruleProblems(manifest, json: json)
        // In file order, then by path with its indices read as numbers ([99] before [100]) for
        // problems at one value.
        return problems.sorted {
            ($0.line, $0.column) != ($1.line, $1.column)
                ? ($0.line, $0.column) < ($1.line, $1.column) : $0.path.compare($1.path, options: .numeric) == .orderedAscending
        }
    }

    /// `name` with every character outside printable ASCII spelled (`hom<U+435>`, `home<U+A0>`):
    /// a look-alike shows what it is.
    static func spelledOut(_ name: String) -> String {
        name.unicodeScalars.map { (0x21...0x7E).contains($0.value) ? String($0) : "<U+\(String($0.value, radix: 16, uppercase: true))>" }
            .joined()
    }

    /// How `name` reads: white space and invisible characters left out, look-alike letters of other
    /// scripts read as their Latin twins (a few common ones), case folded.
    static func reading(of name: String) -> String {
        let twins: [Unicode.Scalar: Character] = [
            "\u{430}": "a", "\u{435}": "e", "\u{43E}": "o", "\u{440}": "p", "\u{441}": "c", "\u{445}": "x", "\u{443}": "y",
            "\u{456}": "i", "\u{3BF}": "o", "\u{3B1}": "a"
        ]
        var out = ""
        for scalar in name.unicodeScalars {
            if scalar.properties.isWhitespace || scalar.properties.isDefaultIgnorableCodePoint { continue }
            if let twin = twins[scalar] { out.append(twin) } else { out.unicodeScalars.append(scalar) }
        }
        return out.lowercased()
    }

    /// A key an object repeats: JSON readers disagree on which value counts
    /// (the first, the last, an error), so the check could pass a manifest
    /// the app reads otherwise.
    static func duplicateKeys(_ node: JSONText, path: String) -> [ManifestProblem] {
        switch node {
        case .object(let members, _, _):
            var first: [String: (line: Int, column: Int)] = [:]
            var problems: [ManifestProblem] = []
            for member in members {
                let memberPath = path + "." + member.key
                if let (line, column) = first[member.key] {
                    problems.append(
                        ManifestProblem(
                            path: memberPath, line: member.line, column: member.column, destination: nil,
                            message: "duplicate key \"\(member.key)\" (first at line \(line), column \(column)): JSON readers "
                                + "disagree on which value counts, so what this check reads may not be what the app loads; keep one"))
                } else {
                    first[member.key] = (member.line, member.column)
                }
                problems += duplicateKeys(member.value, path: memberPath)
            }
            return problems
        case .array(let items, _, _):
            return items.enumerated().flatMap { duplicateKeys($0.element, path: "\(path)[\($0.offset)]") }
        default:
            return []
        }
    }

    // MARK: - Names a list repeats

    /// A name a list holds twice: each list of the manifest names things
    /// once — tabs, destinations (by id), a destination's params (by name),
    /// the declared preconditions and universal hosts, a destination's
    /// gates, a pattern's entry points — as an object names its keys, so a
    /// repeat is reported as a repeated key is, at the second with the
    /// place of the first. Where the app would not notice (a gate listed
    /// twice is checked once), the repeat is still an error: it is usually
    /// a copy meant to be edited into another name, and the one it was
    /// meant to be is missing.
    static func repeatedNames(_ json: JSONText) -> [ManifestProblem] {
        var problems: [ManifestProblem] = []
        /// Each repeat in `list`, at `path`: its items are names, or objects named by their `key`;
        /// `destination` is the destination a name's problem is about (for ids, the name's own).
        func repeats(
            in list: JSONText?, at path: String, key: String? = nil, _ noun: String, of destination: (String) -> String?,
            _ consequence: String
        ) {
            guard case .array(let items, _, _)? = list else { return }
            var first: [String: JSONText] = [:]
            for (index, item) in items.enumerated() {
                guard let named = key.map({ item.member($0) }) ?? item, case .string(let name, _, _) = named else { continue }
                guard let earlier = first[name] else {
                    first[name] = named
                    continue
                }
                problems.append(
                    ManifestProblem(
                        path: "\(path)[\(index)]" + (key.map { ".\($0)" } ?? ""), at: named, destination: destination(name),
                        message: "duplicate \(noun) \"\(name)\" (first at line \(earlier.line), column \(earlier.column)): "
                            + consequence + "; keep one"))
            }
        }
        let meantToBeAnother = "the repeat adds nothing, and is usually a copy meant to be another"
        repeats(
            in: json.member("tabs"), at: "$.tabs", "tab", of: { _ in nil },
            "the tab bar shows the tabs in this order and finds a tab's stack by its id, so the app would get two tabs "
                + "sharing one stack")
        repeats(in: json.member("preconditions"), at: "$.preconditions", "precondition", of: { _ in nil }, meantToBeAnother)
        repeats(in: json.member("universal_hosts"), at: "$.universal_hosts", "universal host", of: { _ in nil }, meantToBeAnother)
        repeats(
            in: json.member("destinations"), at: "$.destinations", key: "id", "destination id", of: { $0 },
            "links, parents and taps name a destination by its id, and the app refuses a manifest that repeats one")
        guard case .array(let destinations, _, _)? = json.member("destinations") else { return problems }
        for (index, destination) in destinations.enumerated() {
            let path = "$.destinations[\(index)]"
            guard case .string(let id, _, _)? = destination.member("id") else { continue }
            repeats(
                in: destination.member("params"), at: "\(path).params", key: "name", "param", of: { _ in id },
                "a link's parameters are found by name, so every value would have to pass both specs")
            repeats(
                in: destination.member("preconditions"), at: "\(path).preconditions", "precondition", of: { _ in id },
                "each gate is checked once: " + meantToBeAnother)
            guard case .array(let patterns, _, _)? = destination.member("patterns") else { continue }
            for (p, pattern) in patterns.enumerated() {
                repeats(
                    in: pattern.member("entries"), at: "\(path).patterns[\(p)].entries", "entry point", of: { _ in id },
                    "a pattern applies to each entry point once: " + meantToBeAnother)
            }
        }
        return problems
    }

    // MARK: - Schema

    /// The longest value on which no pattern can backtrack for long (see the param rules).
    static let shortValue = 16

    private static let rootKeys: [String: String] = [
        "scheme": "string", "universal_hosts": "strings", "tabs": "strings",
        "preconditions": "strings", "destinations": "array"
    ]
    private static let destinationKeys: [String: String] = [
        "id": "string", "parent": "string", "tab": "string", "flow": "string", "presentation": "presentation",
        "params": "array", "preconditions": "strings", "patterns": "array"
    ]
    private static let paramKeys: [String: String] = [
        "name": "string", "kind": "kind", "pattern": "string",
        "min_length": "integer", "max_length": "integer"
    ]
    private static let patternKeys: [String: String] = ["path": "string", "entries": "entries"]

    private func schemaProblems(_ json: JSONText) -> [ManifestProblem] {
        var problems: [ManifestProblem] = []
        func problem(_ path: String, _ node: JSONText, _ message: String, _ destination: String? = nil) {
            problems.append(ManifestProblem(path: path, at: node, destination: destination, message: message))
        }
        func check(_ node: JSONText, _ kind: String, _ path: String, _ destination: String?) {
            switch (kind, node) {
            case ("string", .string), ("array", .array), ("object", .object): return
            case ("strings", .array(let items, _, _)):
                for (index, item) in items.enumerated() {
                    if case .string = item { continue }
                    problem("\(path)[\(index)]", item, "expected a string, got \(item.typeName)", destination)
                }
            case ("integer", .number(let value, _, _)) where value == value.rounded() && value >= 0: return
            case ("presentation", .string(let value, _, _)):
                if !["push", "modal"].contains(value) {
                    problem(path, node, "expected \"push\" or \"modal\", got \"\(value)\"", destination)
                }
            case ("kind", .string(let value, _, _)):
                if !["string", "integer"].contains(value) {
                    problem(path, node, "expected \"string\" or \"integer\", got \"\(value)\"", destination)
                }
            case ("entries", .array(let items, _, _)):
                for (index, item) in items.enumerated() {
                    guard case .string(let name, _, _) = item, EntryPoint(rawValue: name) != nil else {
                        problem(
                            "\(path)[\(index)]", item,
                            "expected an entry point ("
                                + EntryPoint.allCases.map(\.rawValue)
                                .joined(separator: ", ") + ")", destination)
                        continue
                    }
                }
            default:
                let expected =
                    [
                        "strings": "an array of strings", "integer": "a non-negative integer", "presentation": "a string",
                        "kind": "a string", "entries": "an array of entry points", "array": "an array",
                        "string": "a string"
                    ][kind] ?? kind
                problem(path, node, "expected \(expected), got \(node.typeName)", destination)
            }
        }
        func members(
            _ node: JSONText, _ allowed: [String: String], _ path: String, _ destination: String?,
            required: [String]
        ) {
            guard case .object(let fields, _, _) = node else {
                return problem(path, node, "expected an object, got \(node.typeName)", destination)
            }
            for field in fields {
                let fieldPath = "\(path).\(field.key)"
                guard let kind = allowed[field.key] else {
                    problems.append(
                        ManifestProblem(
                            path: fieldPath, line: field.line, column: field.column, destination: destination,
                            message: "unknown key \"\(field.key)\"; expected one of: "
                                + allowed.keys.sorted().joined(separator: ", ")))
                    continue
                }
                check(field.value, kind, fieldPath, destination)
            }
            for key in required where !fields.contains(where: { $0.key == key }) {
                problem(path, node, "the required key \"\(key)\" is missing", destination)
            }
        }
        members(json, Self.rootKeys, "$", nil, required: ["scheme", "tabs", "destinations"])
        guard case .object(let root, _, _) = json, let list = root.first(where: { $0.key == "destinations" })?.value,
            case .array(let destinations, _, _) = list
        else { return problems }
        for (index, destination) in destinations.enumerated() {
            let path = "$.destinations[\(index)]"
            var id: String?
            if case .object(let fields, _, _) = destination, case .string(let name, _, _)? = fields.first(where: { $0.key == "id" })?.value
            {
                id = name
            }
            members(destination, Self.destinationKeys, path, id, required: ["id", "flow"])
            guard case .object(let fields, _, _) = destination else { continue }
            if case .array(let params, _, _)? = fields.first(where: { $0.key == "params" })?.value {
                for (p, param) in params.enumerated() {
                    members(param, Self.paramKeys, "\(path).params[\(p)]", id, required: ["name"])
                }
            }
            if case .array(let patterns, _, _)? = fields.first(where: { $0.key == "patterns" })?.value {
                for (p, pattern) in patterns.enumerated() {
                    if case .string = pattern { continue }
                    members(pattern, Self.patternKeys, "\(path).patterns[\(p)]", id, required: ["path"])
                }
            }
        }
        return problems
    }

    // MARK: - Rules

    private func ruleProblems(_ manifest: RouteManifest, json: JSONText) -> [ManifestProblem] {
        var problems: [ManifestProblem] = []
        /// A problem at `path`, placed at the value there (or, absent, at what should hold it).
        func report(_ path: String, _ destination: String?, _ message: String, isWarning: Bool = false) {
            problems.append(
                ManifestProblem(path: path, at: json.value(at: path), destination: destination, message: message, isWarning: isWarning))
        }
        /// A problem of the destination at `index`, at `suffix` within it (`.tab`).
        func problem(_ index: Int, _ suffix: String, _ message: String) {
            report("$.destinations[\(index)]" + suffix, manifest.destinations[index].id.rawValue, message)
        }
        // A URL scheme is a letter, then letters, digits, `+`, `-` or `.` (RFC 3986): any other (an empty
        // one, a control character) matches no link, and every scheme link would be refused as malformed.
        let scheme = manifest.scheme.unicodeScalars
        func isSchemeCharacter(_ scalar: Unicode.Scalar) -> Bool {
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "+-.".unicodeScalars.contains(scalar))
        }
        let schemeIsURL = scheme.first.map { $0.isASCII && $0.properties.isAlphabetic } == true && scheme.allSatisfy(isSchemeCharacter)
        if !schemeIsURL {
            report(
                "$.scheme", nil,
                "the scheme \(LuaSource.string(manifest.scheme)) is not a URL scheme (a letter, then letters, digits, +, - or .): "
                    + "no link can have it, and every scheme link would be refused as malformed")
        }
        // The first of a repeated id counts, as in the engine (the repeat is `repeatedNames`'s).
        var byID: [DestinationID: Int] = [:]
        for (index, definition) in manifest.destinations.enumerated() where byID[definition.id] == nil { byID[definition.id] = index }
        let tabs = Set(manifest.tabs)
        let preconditions = Set(manifest.preconditions)
        for (index, definition) in manifest.destinations.enumerated() {
            if let parent = definition.parent, byID[parent] == nil { problem(index, ".parent", "unknown parent \"\(parent)\"") }
            if let tab = definition.tab, !tabs.contains(tab) {
                problem(index, ".tab", "unknown tab \"\(tab)\"; the tabs are: " + manifest.tabs.map(\.rawValue).joined(separator: ", "))
            }
            for (k, precondition) in definition.preconditions.enumerated() where !preconditions.contains(precondition) {
                problem(
                    index, ".preconditions[\(k)]",
                    "unknown precondition \"\(precondition)\"; declared: "
                        + manifest.preconditions.map(\.rawValue).joined(separator: ", "))
            }
            for (p, param) in definition.params.enumerated() {
                // The router checks a value's length before its pattern: however a pattern could backtrack,
                // on a value of at most 16 characters it tries at most 2^16 ways (well under a millisecond).
                let long = (param.maxLength ?? .max) > Self.shortValue
                if let pattern = param.pattern, (try? Regex(pattern)) == nil {
                    // A 400 KB pattern is shown by its ends: the position says where it is.
                    problem(index, ".params[\(p)].pattern", "invalid regular expression /\(TextCap.echoed(pattern))/")
                } else if long, let pattern = param.pattern, let nested = NestedRepetition.find(in: pattern) {
                    problem(
                        index, ".params[\(p)].pattern",
                        "/\(pattern)/ repeats \(nested), a group with a repetition inside and nothing that marks where "
                            + "a turn ends: matching a long value that almost fits can take exponential time, and a link "
                            + "would hang the router; repeat the inner part once ((a+)+ as a+), or begin or end each turn "
                            + "with a character its repetitions cannot match ((-[a-z]+)*), or make each turn atomic "
                            + "((?>[a-z]+-?)+) or the repetition possessive (++)")
                } else if long, let pattern = param.pattern, let group = NestedRepetition.findOverlappingAlternatives(in: pattern) {
                    problem(
                        index, ".params[\(p)].pattern",
                        "/\(TextCap.echoed(pattern))/ repeats \(TextCap.echoed(group)), whose alternatives can match the same "
                            + "characters: a value can be split into turns in exponentially many ways ((a|aa)+ reads aaaa "
                            + "five ways), so matching a long value that almost fits can take that many tries, and a link "
                            + "would hang the router; make the alternatives begin differently, merge them ((a|aa)+ as a+), "
                            + "or make each turn atomic ((?>a|aa)+)")
                } else if long, let pattern = param.pattern, let run = NestedRepetition.findRuns(in: pattern) {
                    problem(
                        index, ".params[\(p)].pattern",
                        "/\(TextCap.echoed(pattern))/ has \(TextCap.echoed(run)), repetitions that can share a value out in "
                            + "very many ways: matching a long value that almost fits can take that many tries, and a link "
                            + "would hang the router; repeat once what the pattern repeats (.*.* as .*, (a?){30} as a{0,30})")
                } else if param.pattern == "" {
                    problem(
                        index, ".params[\(p)].pattern",
                        "an empty pattern matches only an empty value, which no link has: every link to this destination "
                            + "fails validation; leave the pattern out to accept any value")
                }
                if let min = param.minLength, let max = param.maxLength, min > max {
                    problem(
                        index, ".params[\(p)].min_length",
                        "min_length \(min) is more than max_length \(max): no value of "
                            + "\(param.name) is accepted, so every link to this destination fails validation")
                } else if let max = param.maxLength, max < 1 {
                    // A link's value is never empty: a limit of 0 accepts none.
                    problem(
                        index, ".params[\(p)].max_length",
                        "max_length \(max) accepts no value of \(param.name) (a link's value has at least one character), so "
                            + "every link to this destination fails validation; give the longest value it may have")
                }
            }
            let declared = Set(definition.params.map(\.name))
            for (p, pattern) in definition.patterns.enumerated() {
                // `category/:id/:id`: the router keeps the last capture, and the first value is dropped unread.
                let names = pattern.parameterNames
                if let twice = names.enumerated().first(where: { names[..<$0.offset].contains($0.element) })?.element {
                    problem(
                        index, ".patterns[\(p)]",
                        "\"\(pattern.template)\" captures :\(twice) twice: the router keeps the last value and drops the "
                            + "first unread; give each place a parameter of its own")
                }
                for name in pattern.parameterNames where !declared.contains(name) {
                    problem(index, ".patterns[\(p)]", "\"\(pattern.template)\" uses :\(name), which params does not declare")
                }
                for name in declared.sorted() where !pattern.parameterNames.contains(name) {
                    problem(index, ".patterns[\(p)]", "\"\(pattern.template)\" does not capture the declared param \(name)")
                }
            }
            // Ancestry: cycles, a tab at the root, the parameters ancestors need.
            var seen: [DestinationID] = [definition.id]
            var current = definition
            while let parentID = current.parent, let parentIndex = byID[parentID] {
                if seen.contains(parentID) {
                    problem(index, ".parent", "ancestry cycle: " + (seen + [parentID]).map(\.rawValue).joined(separator: " > "))
                    break
                }
                let parent = manifest.destinations[parentIndex]
                for name in Set(parent.params.map(\.name)).subtracting(declared).sorted() {
                    problem(index, ".params", "ancestor \"\(parentID)\" needs the param \(name), which this destination does not declare")
                }
                seen.append(parentID)
                current = parent
            }
            if current.tab == nil, current.parent == nil {
                problem(index, "", "no tab: its ancestry ends at \"\(current.id)\", which has neither a tab nor a parent")
            }
            // Reachability: a link, a tap, a tab root, or a screen the host shows.
            if definition.patterns.isEmpty && definition.tab == nil && !tapTargets.contains(definition.id)
                && !knownScreens.contains(definition.id)
            {
                problem(index, ".patterns", "nothing reaches this destination: no link pattern, no tap opens it, not a tab root")
            }
        }
        problems += overlapProblems(manifest, problem: problem)
        // What the app shows must be in the manifest: links to a screen it
        // lacks are rejected, and taps that open it fail.
        if manifest.destinations.isEmpty {
            report("$.destinations", nil, "no destination: every link is rejected")
        }
        // And what the manifest routes to, the app must show: a link to a destination it has no
        // screen for is accepted by the router and then lands nowhere (the app keeps its stack).
        if !knownScreens.isEmpty {
            for (index, definition) in manifest.destinations.enumerated() where !knownScreens.contains(definition.id) {
                report(
                    "$.destinations[\(index)].id", definition.id.rawValue,
                    "the host declares no screen \"\(definition.id)\" (ScenarioHost.screens): if the app has none, "
                        + "links the router sends there are accepted and then shown nowhere (an app version that has the "
                        + "screen must ship first); if it has one, declare it", isWarning: true)
            }
        }
        // A tab the app's tab bar does not have (a new name, or one that reads as another: `home` with a
        // no-break space, with a Cyrillic `е`): every link placed on it lands where the app shows nothing.
        if !knownTabs.isEmpty {
            for (index, tab) in manifest.tabs.enumerated() where !knownTabs.contains(tab) {
                let close = knownTabs.first { Self.reading(of: $0.rawValue) == Self.reading(of: tab.rawValue) }
                report(
                    "$.tabs[\(index)]", nil,
                    "the app has no tab \"\(Self.spelledOut(tab.rawValue))\" (its tabs: "
                        + knownTabs.map(\.rawValue).joined(separator: ", ") + ")"
                        + (close.map { ": it reads as \"\($0)\" but is another name" } ?? "")
                        + "; destinations placed on it are shown on no tab the app has", isWarning: close == nil)
            }
        }
        // A declared output that does not pass a parameter its destination requires: every tap of
        // it is refused as missing that parameter, and the scenario would be blamed. (One it
        // passes that the destination does not take is ignored by the engine.)
        for declaration in declarations {
            for output in declaration.outputs {
                guard let target = output.destination, let index = byID[target] else { continue }
                let takes = manifest.destinations[index].params.map(\.name)
                for (k, parameter) in takes.enumerated() where !output.parameters.contains(parameter) {
                    report(
                        "$.destinations[\(index)].params[\(k)]", target.rawValue,
                        "\"\(target)\" requires parameter '\(parameter)', which the host's declaration of output "
                            + "'\(output.name)' of '\(declaration.id)' (ScenarioHost.screens) does not pass (it passes: "
                            + (output.parameters.isEmpty ? "none" : output.parameters.joined(separator: ", "))
                            + "): every tap of it would be refused")
                }
            }
        }
        for screen in knownScreens.union(tapTargets).subtracting(byID.keys).sorted(by: { $0.rawValue < $1.rawValue }) {
            let opened = tapTargets.contains(screen)
            let how = knownScreens.contains(screen) ? "the app shows" : "a tap in the app opens"
            report(
                "$.destinations", screen.rawValue,
                "\(how) \"\(screen)\", which the manifest does not declare: links to it "
                    + (opened ? "are rejected and taps that open it fail" : "are rejected"),
                isWarning: true)
        }
        return problems
    }

    /// The pairs of patterns (indices, the earlier first, in manifest
    /// order) that could match one link: same length, same query keys, and
    /// first segments that agree (the same literal, or a parameter on
    /// either side). Every other pair cannot overlap, so the check is not
    /// quadratic in destinations (20,000 took minutes).
    static func candidatePairs(_ patterns: [RoutePattern]) -> [(Int, Int)] {
        struct Shape: Hashable {
            var length: Int
            var queryKeys: [String]
        }
        var groups: [Shape: (byFirst: [String: [Int]], open: [Int])] = [:]
        for (index, pattern) in patterns.enumerated() {
            let shape = Shape(length: pattern.path.count, queryKeys: pattern.query.map(\.key).sorted())
            var group = groups[shape] ?? ([:], [])
            if case .literal(let first)? = pattern.path.first {
                group.byFirst[first, default: []].append(index)
            } else {
                group.open.append(index)
            }
            groups[shape] = group
        }
        var pairs: [(Int, Int)] = []
        for group in groups.values {
            let everyone = group.byFirst.values.flatMap { $0 } + group.open
            for bucket in group.byFirst.values {
                for (n, a) in bucket.enumerated() { for b in bucket[(n + 1)...] { pairs.append((a, b)) } }
            }
            // A pattern opening with a parameter may overlap any of its shape.
            for a in group.open {
                for b in everyone where b != a && (!group.open.contains(b) || a < b) { pairs.append((min(a, b), max(a, b))) }
            }
        }
        return pairs.sorted { $0 < $1 }
    }

    /// Two patterns one link could match: the same shape (a duplicate), or
    /// a literal segment where the other has a parameter (the first in
    /// manifest order wins, silently). Through different entry points, the
    /// same link must meet the same gates: a pattern that lets it past a
    /// precondition another entry point enforces (a universal link that
    /// skips the sign-in the scheme link asks for) is the bypass a rollout
    /// must not ship.
    private func overlapProblems(_ manifest: RouteManifest, problem: (Int, String, String) -> Void) -> [ManifestProblem] {
        let all = manifest.destinations.enumerated().flatMap { index, definition in
            definition.patterns.enumerated().map { (index, $0.offset, $0.element) }
        }
        let gates = manifest.ancestries().map(RouteManifest.preconditions(along:))
        // A literal segment facing a parameter whose spec refuses it (`latest` for an integer id) keeps
        // the patterns apart, as the router does. (A manifest the engine refuses: by shape alone.)
        let engine = try? RoutingEngine(manifest: manifest)
        for (a, b) in Self.candidatePairs(all.map(\.2)) {
            do {
                let (i, p, x) = all[a]
                let (j, q, y) = all[b]
                let doors = EntryPoint.allCases.filter { x.applies(to: $0) && y.applies(to: $0) }
                guard x.path.count == y.path.count, x.query.count == y.query.count,
                    x.query.map(\.key).sorted() == y.query.map(\.key).sorted()
                else { continue }
                let pairs =
                    zip(x.path, y.path).map { ($0, $1) }
                    + x.query.sorted { $0.key < $1.key }.map(\.value).enumerated().map {
                        ($0.element, y.query.sorted { $0.key < $1.key }[$0.offset].value)
                    }
                var identical = true
                var overlaps = true
                for (left, right) in pairs {
                    switch (left, right) {
                    case (.literal(let l), .literal(let r)):
                        if l != r { overlaps = false }
                    case (.param, .param):
                        continue
                    case (.literal(let literal), .param(let name)):
                        identical = false
                        if engine?.paramProblem(of: manifest.destinations[j].id, name: name, value: literal) != nil { overlaps = false }
                    case (.param(let name), .literal(let literal)):
                        identical = false
                        if engine?.paramProblem(of: manifest.destinations[i].id, name: name, value: literal) != nil { overlaps = false }
                    }
                }
                guard overlaps else { continue }
                let other = manifest.destinations[i].id.rawValue
                guard !doors.isEmpty else {
                    // Disjoint entry points: each link goes one way per door, and the ways must be gated alike.
                    let (xGates, yGates) = (gates[i], gates[j])
                    guard Set(xGates) != Set(yGates) else { continue }
                    func spelled(_ list: [Precondition]) -> String {
                        list.isEmpty
                            ? "no gate" : "the gate" + (list.count == 1 ? " " : "s ") + list.map(\.rawValue).joined(separator: ", ")
                    }
                    func entries(_ pattern: RoutePattern) -> String {
                        EntryPoint.allCases.filter { pattern.applies(to: $0) }.map(\.rawValue).joined(separator: "/")
                    }
                    // Each side may skip what the other enforces: said one way, then the other.
                    func skips(_ by: RoutePattern, _ gates: [Precondition], _ other: RoutePattern, _ enforced: [Precondition]) -> String? {
                        let skipped = enforced.filter { !gates.contains($0) }.map(\.rawValue)
                        return skipped.isEmpty
                            ? nil
                            : "via \(entries(by)) it skips \(skipped.joined(separator: ", ")), which via \(entries(other)) is enforced"
                    }
                    let bypasses = [skips(y, yGates, x, xGates), skips(x, xGates, y, yGates)].compactMap { $0 }
                    problem(
                        j, ".patterns[\(q)]",
                        "a link matching \"\(y.template)\" via \(entries(y)) opens "
                            + "\(manifest.destinations[j].id) past \(spelled(yGates)), but via \(entries(x)) (\"\(x.template)\" of "
                            + "\(other), $.destinations[\(i)].patterns[\(p)]) it meets \(spelled(xGates)): "
                            + bypasses.joined(separator: "; ") + "; give both destinations the same preconditions, or one "
                            + "pattern for every entry point")
                    continue
                }
                if identical {
                    problem(
                        j, ".patterns[\(q)]",
                        "\"\(y.template)\" duplicates \"\(x.template)\" of \(other) ($.destinations[\(i)].patterns[\(p)])")
                } else {
                    problem(
                        j, ".patterns[\(q)]",
                        "\"\(y.template)\" overlaps \"\(x.template)\" of \(other) ($.destinations[\(i)].patterns[\(p)]): "
                            + "a link can match both, and the first in manifest order wins silently")
                }
            }
        }
        return []
    }
}
