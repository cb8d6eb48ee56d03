import Foundation
import NavScript
import NavScriptRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Renders a run as JUnit XML, the format every CI server reads.
///
/// Why it exists: CI (Jenkins, GitLab, GitHub reporters) shows failing
/// scenarios, annotates their `file:line` and tracks them over time only
/// when it can parse the results. The output therefore follows the common
/// Ant/Jenkins dialect (the README's reports section): one flat `<testsuite>` per scenario
/// file (some reporters drop nested suites), a `<testcase>` per scenario, and
/// it stays valid XML 1.0 whatever the scenario names, messages and printed
/// output contain — ANSI colour sequences and forbidden control characters
/// are removed, markup characters escaped. Numbers and timestamps are
/// formatted without the locale. (`JUnitReport(.init(strict: true)).write(run, to: url)` writes one.)
package struct JUnitReport: Sendable {
    /// What to put in the report beyond the fixed structure.
    package struct Options: Hashable, Sendable {
        /// Validate against Jenkins' xunit plugin schema (`junit-10.xsd`),
        /// which rejects what other consumers read: `file` and `line` on
        /// `<testcase>` (mikepenz's reporter and GitLab use them), a
        /// `skipped` total on `<testsuites>`, `<properties>` in a test case.
        package var strict: Bool
        /// The `hostname` of every `<testsuite>`; nil asks the system. Set it
        /// in tests for reproducible output.
        package var hostname: String?
        /// The invariants checked after every scenario, written as the
        /// `navscript.invariants` property of every `<testsuite>`.
        package var invariants: [String]
        /// The command line that replays one scenario, without its
        /// `--filter` (e.g. `["navscript", "run", "--fault", "x"]`); when
        /// set, every `<testcase>` gets `navscript.replay` and, on a
        /// shuffled run, `navscript.seed` properties.
        package var replayCommand: [String]?
        /// Every file of the suite the run's files were taken from (before a shard or a line
        /// took part of it): two files whose paths reduce to one classname are numbered over
        /// these, so each shard — and each shuffled order — names a file alike (numbered over
        /// one shard's files, both were `…cart` once merged, and a CI reporter kept one).
        package var suiteFiles: [String]
        /// The share of the suite this run is (`--shard 1/3`), written as the `navscript.shard`
        /// property of every `<testsuite>` (a shard with no file gets an empty one): `merge-junit`
        /// refuses a set of shard reports that is not one whole split (one missing, one twice, two splits).
        package var shard: String?
        /// With ``shard``: what selected and changed the scenarios (`filter=…; fault=…`), written as the
        /// `navscript.selection` property: shards of one split run otherwise are refused by `merge-junit`.
        package var selection = ""
        /// With ``shard``: which suite was split (``splitName(app:suiteFiles:)``), written as the
        /// `navscript.split` property: shards of two suites — a shard re-run after files were added,
        /// one given another folder, another app's — are refused by `merge-junit`.
        package var split = ""

        package init(
            strict: Bool = false, hostname: String? = nil, invariants: [String] = [],
            replayCommand: [String]? = nil, suiteFiles: [String] = [], shard: String? = nil, selection: String = "",
            split: String = ""
        ) {
            self.shard = shard
            self.selection = selection
            self.split = split
            self.strict = strict
            self.hostname = hostname
            self.invariants = invariants
            self.replayCommand = replayCommand
            self.suiteFiles = suiteFiles
        }
    }

    package var options: Options

    package init(_ options: Options = Options()) {
        self.options = options
    }

    /// The complete XML document, declaration included, ending in a newline.
    ///
    /// - Parameter app: the app under test (the host's name): the
    ///   `<testsuites>` root is named `App (navscript)`, so that a CI page
    ///   with several apps' reports tells them apart and `merge-junit` still
    ///   knows the report for navscript's (``rootName(app:)``).
    package func render(_ run: RunResult, app: String? = nil) -> String {
        let hostname = nonEmpty(options.hostname ?? ProcessInfo.processInfo.hostName, else: "localhost")
        let timestamp = ReportText.utcTimestamp(secondsSince1970: run.startedAt)

        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += "<testsuites"
        xml += attribute("name", Self.rootName(app: app))
        xml +=
            attribute("tests", String(run.scenarios.count)) + attribute("failures", String(run.count(.failed)))
            + attribute("errors", String(run.count(.errored)))
        if !options.strict { xml += attribute("skipped", String(run.count(.skipped))) }
        xml += attribute("time", ReportText.seconds(run.duration))
        guard !run.files.isEmpty || options.shard != nil else { return xml + "/>\n" }
        xml += ">\n"
        if run.files.isEmpty, let shard = options.shard {
            // A shard that got no file says which it is, so a merge of the split can tell it was there.
            xml += "  <testsuite" + attribute("name", "(shard \(shard): no file)") + counts(tests: 0, failures: 0, errors: 0, skipped: 0)
            xml += attribute("time", "0.000") + attribute("timestamp", timestamp) + attribute("hostname", hostname) + ">\n"
            xml += "    <properties>\n" + shardProperties(shard) + "    </properties>\n  </testsuite>\n"
        }

        let prefixes = Self.classPrefixes(options.suiteFiles + run.files.map(\.file))
        for file in run.files {
            xml += "  <testsuite"
            xml += attribute("name", nonEmpty(file.file, else: "(unnamed file)"))
            xml += counts(
                tests: file.scenarios.count, failures: file.count(.failed),
                errors: file.count(.errored), skipped: file.count(.skipped))
            xml += attribute("time", ReportText.seconds(file.duration))
            xml += attribute("timestamp", timestamp)
            xml += attribute("hostname", hostname)
            if file.scenarios.isEmpty {
                xml += "/>\n"
                continue
            }
            xml += ">\n"
            if !options.invariants.isEmpty || options.shard != nil {
                xml += "    <properties>\n"
                if !options.invariants.isEmpty { xml += property("navscript.invariants", options.invariants.joined(separator: ",")) }
                if let shard = options.shard { xml += shardProperties(shard) }
                xml += "    </properties>\n"
            }
            var usedNames: Set<String> = []
            for scenario in file.scenarios {
                let prefix = prefixes[scenario.file] ?? Self.pathName(scenario.file)
                xml += testcase(
                    scenario, name: uniqueName(scenario.name, in: &usedNames),
                    classname: Self.classname(prefix: prefix, groups: scenario.groups), seed: run.seed)
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    /// Writes `render(run)` to `url` atomically (``ReportFile/write(_:to:kind:)``).
    package func write(_ run: RunResult, to url: URL) throws(ReportFile.WriteError) {
        try ReportFile.write(render(run), to: url, kind: "JUnit report")
    }

    /// `MyApp (navscript)`; `navscript` without an app.
    package static func rootName(app: String?) -> String {
        guard let app, !app.isEmpty, app != "navscript" else { return "navscript" }
        return "\(app) (navscript)"
    }

    /// Whether a report's root name is one ``rootName(app:)`` gives.
    package static func isRootName(_ name: String) -> Bool {
        name == "navscript" || name.hasSuffix(" (navscript)")
    }

    // MARK: Test cases

    /// One `<property>` line of a suite's `<properties>`.

    /// A shard's properties: which share it is, what selected its scenarios, which suite was split.
    private func shardProperties(_ shard: String) -> String {
        property("navscript.shard", shard)
            + (options.selection.isEmpty ? "" : property("navscript.selection", options.selection))
            + (options.split.isEmpty ? "" : property("navscript.split", options.split))
    }

    /// `ShopApp: 11 files, 5d0c…`: the app and the files a shard's split was taken over, with a digest
    /// of their paths — the same on every machine that splits the same suite of the same app.
    package static func splitName(app: String, suiteFiles: [String]) -> String {
        let digest = SeededGenerator.stableHash(([app] + suiteFiles.sorted()).joined(separator: "\n"))
        let hex = String(digest, radix: 16)
        return "\(app): \(suiteFiles.count) file\(suiteFiles.count == 1 ? "" : "s"), "
            + String(repeating: "0", count: 16 - hex.count) + hex
    }

    private func property(_ name: String, _ value: String) -> String {
        "      <property" + attribute("name", name) + attribute("value", value) + "/>\n"
    }

    private func testcase(_ scenario: ScenarioResult, name: String, classname: String, seed: UInt64?) -> String {
        var xml = "    <testcase"
        xml += attribute("name", name)
        xml += attribute("classname", classname)
        xml += attribute("time", ReportText.seconds(scenario.duration))
        // Only a scenario file is a file: `mutate`'s and `explore`'s groups name no file a CI
        // annotation could open, and a replay of them would run nothing.
        let isFile = scenario.file.hasSuffix(".lua")
        if !options.strict {
            // mikepenz's action-junit-report and EnricoMi's publish-unit-test-result-action annotate
            // `line`: a failure's own line (where the check failed) rather than the declaration's.
            let line = Self.failingLine(scenario) ?? scenario.line
            if isFile { xml += attribute("file", scenario.file) }
            if isFile && line > 0 { xml += attribute("line", String(line)) }
        }

        var body = ""
        if let command = options.replayCommand, !options.strict, isFile {
            var properties = ["navscript.replay": Self.replay(scenario, command: command, seed: seed)]
            if let seed { properties["navscript.seed"] = String(seed) }
            body += "      <properties>\n"
            for (name, value) in properties.sorted(by: { $0.key < $1.key }) {
                body += "        <property" + attribute("name", name) + attribute("value", value) + "/>\n"
            }
            body += "      </properties>\n"
        }
        switch scenario.status {
        case .passed:
            break
        case .failed:
            body += problem("failure", scenario, defaultType: "expectation")
        case .errored:
            body += problem("error", scenario, defaultType: "error")
        case .skipped:
            // Never self-closing: released Codecov parsers read `<skipped/>`
            // as a pass, and GitLab shows only the element's text.
            let reason = nonEmpty(scenario.message, else: nonEmpty(scenario.kind, else: "skipped"))
            body +=
                "      <skipped" + attribute("message", Self.messageAttribute(reason)) + ">" + ReportText.xmlText(reason) + "</skipped>\n"
        }
        var systemOut = Self.systemOut(scenario)
        // junit-10.xsd has no test-case properties: a failure's replay command goes first in its output.
        if options.strict, isFile, scenario.status.isProblem, let command = options.replayCommand {
            systemOut = "replay: " + Self.replay(scenario, command: command, seed: seed) + (systemOut.isEmpty ? "" : "\n" + systemOut)
        }
        if !systemOut.isEmpty {
            body += "      <system-out>" + ReportText.xmlText(systemOut) + "</system-out>\n"
        }

        if body.isEmpty { return xml + "/>\n" }
        return xml + ">\n" + body + "    </testcase>\n"
    }

    /// The shell command that runs this one scenario again: its file and an
    /// anchored `--filter` on its full name (and the seed of a shuffled run).
    static func replay(_ scenario: ScenarioResult, command: [String], seed: UInt64?) -> String {
        // A path that starts with `-` would be read as options (`-dash.lua`): `./-dash.lua` is the same file.
        let file = scenario.file.hasPrefix("-") ? "./" + scenario.file : scenario.file
        // A whole file's entry (not run, did not load) is replayed by running the file.
        var words = command + [file]
        if !ScenarioRunner.isFileEntry(scenario) { words += ["--filter", "^" + escapeRegex(scenario.name) + "$"] }
        if let seed { words += ["--shuffle", "--seed", String(seed)] }
        return words.map(ShellWord.quoted).joined(separator: " ")
    }

    /// `text` as a regular expression that matches only it. What a report
    /// drops (most controls, U+FFFE…) and the whitespace an XML attribute
    /// normalises is spelled `\x{1}`: the replay must select the scenario
    /// whose name had it.
    package static func escapeRegex(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if !ReportText.isAllowed(scalar) || scalar.properties.generalCategory == .control {
                out += "\\x{" + String(scalar.value, radix: 16) + "}"
                continue
            }
            if "\\^$.|?*+()[]{}".unicodeScalars.contains(scalar) { out.append("\\") }
            out.unicodeScalars.append(scalar)
        }
        return out
    }

    /// A `<failure>`/`<error>`: the `message` attribute, and a body that
    /// starts with the same message — GitLab shows only the body — then the
    /// explanation (expected vs actual, traceback), the stack frame dorny
    /// reads the failing line from, and the step timeline: GitLab and the
    /// GitHub reporters show the body in the failure's annotation but never
    /// `system-out`, and the steps that led there are what a reader needs.
    private func problem(_ element: String, _ scenario: ScenarioResult, defaultType: String) -> String {
        let message = nonEmpty(scenario.message, else: nonEmpty(scenario.kind, else: defaultType))
        var text = scenario.details.isEmpty || scenario.details == message ? message : message + "\n" + scenario.details
        if let frame = Self.frame(scenario) { text += "\n" + frame }
        if let timeline = Self.timeline(scenario) { text += "\n" + timeline }
        return "      <\(element)"
            + attribute("message", Self.messageAttribute(message))
            + attribute("type", nonEmpty(scenario.kind, else: defaultType))
            + ">" + ReportText.xmlText(text) + "</\(element)>\n"
    }

    /// A Java-style stack line naming the scenario's file and failing line
    /// (`at scenarios.gate.Cart.scenario(cart.lua:12)`): the only place
    /// GitHub's dorny test-reporter reads a location from. It takes the
    /// dotted segments before the first one that starts with a capital (any
    /// character up to `Z`) as the package, and annotates the tracked file
    /// of the frame's file name whose last folders are that package — so the
    /// folders come first, then the file's stem as a capitalised class.
    /// (A folder whose name starts with a capital or a digit, or holds a
    /// dot, cuts the package short: dorny cannot place such a file.)
    static func frame(_ scenario: ScenarioResult) -> String? {
        guard scenario.file.hasSuffix(".lua"), !scenario.file.hasPrefix("/") else { return nil }
        let line = failingLine(scenario) ?? scenario.line
        guard line > 0 else { return nil }
        let parts = scenario.file.split(separator: "/").map(String.init)
        let base = parts.last ?? scenario.file
        let package = parts.dropLast().joined(separator: ".")
        // dorny's pattern reads the frame up to its last `(`: no parentheses, no line breaks.
        guard !scenario.file.contains(where: { "()\n\r".contains($0) }) else { return nil }
        return "    at \(package.isEmpty ? "" : package + ".")\(className(stem: String(base.dropLast(4)))).scenario(\(base):\(line))"
    }

    /// The line of the scenario's own file where it failed, when its message
    /// starts with that file's `path:line:` (a failure raised in a support
    /// module, or an error without a place, has none).
    static func failingLine(_ scenario: ScenarioResult) -> Int? {
        guard scenario.status.isProblem, !scenario.file.isEmpty, scenario.message.hasPrefix(scenario.file + ":"),
            let number = Int(scenario.message.dropFirst(scenario.file.count + 1).prefix { $0.isNumber }), number > 0
        else { return nil }
        return number
    }

    /// A file's stem as the frame's class: it must start with a character
    /// up to `Z` to end dorny's package (`cart_gate` → `Cart_gate`; a stem
    /// that starts with `_` or a non-ASCII letter is prefixed: `Lua_setup`).
    static func className(stem: String) -> String {
        guard let first = stem.unicodeScalars.first else { return "Lua" }
        if first.value >= 0x61 && first.value <= 0x7A { return stem.prefix(1).uppercased() + stem.dropFirst() }
        return first.value <= 0x5A ? stem : "Lua" + stem
    }

    /// `timeline:` and the steps, indented, its middle left out (said) when
    /// it is long; nil when the scenario took no step.
    static func timeline(_ scenario: ScenarioResult) -> String? {
        guard !scenario.timeline.isEmpty else { return nil }
        let timeline = scenario.timeline
        var lines = timeline.head.map { "  " + $0 }
        if timeline.omitted > 0 { lines.append("  " + ReportText.stepsLeftOut(timeline)) }
        lines += timeline.tail.map { "  " + $0 }
        return "timeline:\n" + lines.joined(separator: "\n")
    }

    /// What the scenario printed and, for a scenario that did not fail or
    /// err (whose failure body has it), the step timeline; empty when there
    /// is neither.
    static func systemOut(_ scenario: ScenarioResult) -> String {
        var parts: [String] = []
        // JUnit has no warning element: a passed scenario's warning leads its output.
        if scenario.passedWithWarning { parts.append("warning: " + scenario.message) }
        if !scenario.status.isProblem, let timeline = timeline(scenario) { parts.append(timeline) }
        if !scenario.output.isEmpty {
            parts.append("output:\n" + ReportText.capped(scenario.output))
        }
        return parts.joined(separator: "\n")
    }

    /// `scenarios/gate_resume/login.lua` + `["cart gate"]` →
    /// `scenarios.gate_resume.login.cart_gate`: the path without `.lua`,
    /// then the describe chain, each segment reduced to letters, digits and
    /// `_` so that reporters splitting on `.` see a package-like name.
    static func classname(file: String, groups: [String]) -> String {
        var path = Substring(file)
        if path.hasSuffix(".lua") { path = path.dropLast(4) }
        let pathSegments = path.split(whereSeparator: { $0 == "/" || $0 == "\\" })
            .filter { $0 != "." && $0 != ".." }
            .map(String.init)
        let segments = (pathSegments + groups).map(sanitizeSegment).filter { !$0.isEmpty }
        return segments.isEmpty ? "navscript" : segments.joined(separator: ".")
    }

    /// Each file's classname prefix, unique in the report: two files whose
    /// paths reduce to the same name (`a.b.lua`, `a_b.lua`) would merge into
    /// one class in every reporter that groups by it, so the later ones get
    /// `_2`, `_3`, in path order (not run order: a shuffled run moved the
    /// suffix from file to file) — after a file whose path is its name
    /// already (`a_b.lua`), which keeps it. A path that reduces to nothing
    /// has none.
    static func classPrefixes(_ files: [String]) -> [String: String] {
        var prefixes: [String: String] = [:]
        var uses: [String: Int] = [:]
        let sorted = Set(files).sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }
        let (exact, reduced) = sorted.reduce(into: ([String](), [String]())) { split, file in
            let segments = (file.hasSuffix(".lua") ? file.dropLast(4) : file[...]).split(separator: "/").filter { $0 != "." && $0 != ".." }
            if segments.joined(separator: ".") == pathName(file) { split.0.append(file) } else { split.1.append(file) }
        }
        for file in exact + reduced {
            let base = pathName(file)
            guard !base.isEmpty else {
                prefixes[file] = ""
                continue
            }
            let count = (uses[base] ?? 0) + 1
            uses[base] = count
            prefixes[file] = count == 1 ? base : "\(base)_\(count)"
        }
        return prefixes
    }

    /// A file's prefix and the describe chain, joined as ``classname(file:groups:)`` joins them.
    static func classname(prefix: String, groups: [String]) -> String {
        let segments = ([prefix] + groups.map(sanitizeSegment)).filter { !$0.isEmpty }
        return segments.isEmpty ? "navscript" : segments.joined(separator: ".")
    }

    /// The path without `.lua`, its segments reduced and joined with `.`.
    private static func pathName(_ file: String) -> String {
        var path = Substring(file)
        if path.hasSuffix(".lua") { path = path.dropLast(4) }
        return path.split(whereSeparator: { $0 == "/" || $0 == "\\" })
            .filter { $0 != "." && $0 != ".." }
            .map { sanitizeSegment(String($0)) }.filter { !$0.isEmpty }
            .joined(separator: ".")
    }

    private static func sanitizeSegment(_ segment: String) -> String {
        var out = ""
        var pendingUnderscore = false
        for character in ReportText.clean(segment) {
            if character.isLetter || character.isNumber || character == "_" {
                if pendingUnderscore, !out.isEmpty { out += "_" }
                pendingUnderscore = false
                // Keep only the scalars that are letters or digits themselves
                // (XSD `\p{L}` / `\p{N}`), dropping combining marks.
                for scalar in character.unicodeScalars where scalar == "_" || isLetterOrNumber(scalar) {
                    out.unicodeScalars.append(scalar)
                }
            } else {
                pendingUnderscore = true
            }
        }
        return out
    }

    private static func isLetterOrNumber(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .decimalNumber, .letterNumber, .otherNumber:
            return true
        default:
            return false
        }
    }

    // MARK: Helpers

    /// The most of a message an attribute carries. Why: the element's text
    /// has the whole message (and a scenario can fail with megabytes of it);
    /// annotation APIs and CI viewers that show the attribute cut it anyway,
    /// and every consumer parsed it twice.
    static let messageAttributeLimit = 4_096

    /// `message`, or its first ``messageAttributeLimit`` characters and how many more the element's text has.
    static func messageAttribute(_ message: String) -> String {
        guard message.utf8.count > messageAttributeLimit else { return message }  // most: no character count
        let count = message.count
        guard count > messageAttributeLimit else { return message }
        return String(message.prefix(messageAttributeLimit))
            + " … (\(count - messageAttributeLimit) more characters: the whole message is the element's text)"
    }

    /// CI reporters silently drop test cases with duplicate names; the
    /// runtime rejects duplicates, and this keeps the report honest if one
    /// slips through anyway — also names that differ only in what the report
    /// cannot show (control characters it drops, `x` and `x\u{1}`) or in what
    /// a reporter trims (dorny: `y` and `y `). Compared as Swift compares
    /// strings, so canonically equivalent spellings (NFC, NFD) collide too.
    private func uniqueName(_ name: String, in used: inout Set<String>) -> String {
        let base = nonEmpty(ReportText.clean(name), else: "(unnamed)")
        var candidate = base
        var counter = 2
        while !used.insert(candidate.trimmingCharacters(in: .whitespacesAndNewlines)).inserted {
            candidate = "\(base) (\(counter))"
            counter += 1
        }
        return candidate
    }

    private func counts(tests: Int, failures: Int, errors: Int, skipped: Int) -> String {
        attribute("tests", String(tests)) + attribute("failures", String(failures))
            + attribute("errors", String(errors)) + attribute("skipped", String(skipped))
    }

    private func attribute(_ name: String, _ value: String) -> String {
        " \(name)=\"\(ReportText.xmlAttribute(value))\""
    }

    /// `value`, or `fallback` when `value` has nothing visible once cleaned.
    private func nonEmpty(_ value: String, else fallback: String) -> String {
        ReportText.clean(value).allSatisfy(\.isWhitespace) ? fallback : value
    }
}
