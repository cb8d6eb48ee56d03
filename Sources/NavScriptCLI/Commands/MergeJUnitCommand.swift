import ArgumentParser
import Foundation
import NavScript
import NavScriptRunner
import NavScriptRuntime

/// `navscript merge-junit`: combines the JUnit reports of a sharded run
/// into one, with recomputed totals, so CI shows one report for the suite.
struct MergeJUnitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge-junit",
        abstract: "Merge JUnit XML reports (e.g. from --shard runs) into one."
    )

    @Argument(help: "The reports to merge.", completion: ValueCompletion.junit)
    var inputs: [String]

    @Option(name: .shortAndLong, help: "Where to write the merged report.", completion: ValueCompletion.junit)
    var output: String

    func validate() throws {
        try SuiteOptions.refuseEmptyPaths(inputs, give: "the JUnit reports to merge")
        try SuiteOptions.refuseEmptyPath(output, of: "-o")
        guard !inputs.isEmpty else { throw ValidationError("give at least one JUnit report to merge") }
        // As `--junit -` is: the merged report is a file (it wrote one named "-", and nothing to standard output).
        guard output != "-" else {
            throw ValidationError("-o - : the merged report is written to a file, not standard output; give a path (e.g. -o merged.xml)")
        }
    }

    func run() throws {
        // Writing over one of its own inputs would lose that report (re-running a merge over `reports/*.xml`).
        let target = URL(fileURLWithPath: output).resolvingSymlinksInPath().standardizedFileURL.path
        if let input = inputs.first(where: { URL(fileURLWithPath: $0).resolvingSymlinksInPath().standardizedFileURL.path == target }) {
            throw ValidationError(
                "-o \(output) is also one of the reports to merge (\(input)): it would be written over; write the merged "
                    + "report elsewhere, or leave it out of the reports")
        }
        let contents = try inputs.map { path throws(ValidationError) in (path, try JUnitShardReport.read(path)) }
        try Self.refuseRepeats(contents)
        let reports = try contents.map { path, data throws(ValidationError) in try JUnitShardReport(path: path, data: data) }
        // Strict (Jenkins xunit) reports leave out what the others carry (per-case properties,
        // file and line): merged, the result would satisfy neither schema.
        let strict = reports.filter(\.isStrict).map(\.path)
        let loose = reports.filter { $0.isNavscript && !$0.isStrict }.map(\.path)
        if let strictOne = strict.first, let looseOne = loose.first {
            throw ValidationError(
                "\(strictOne) was written with --junit-strict and \(looseOne) without: a merge of both would "
                    + "satisfy neither schema; write every shard's report the same way")
        }
        try Self.refuseIncompleteSplit(reports.map { ($0.path, Set($0.suites.compactMap(\.shard))) })
        try Self.refuseMixed(
            reports.map { report in (report.path, Set(report.suites.filter { $0.shard != nil }.map { $0.split ?? "" })) },
            saying: { first, other in
                "\(first.path) and \(other.path) are shards of different suites (\(Self.said(first.value)) and \(Self.said(other.value))): "
                    + "a file added between the shards' runs, another folder or another app — merged, scenarios of the "
                    + "suite would be in no shard; run every shard over the same suite and merge one run's reports"
            })
        try Self.refuseMixed(
            reports.map { report in (report.path, Set(report.suites.filter { $0.shard != nil }.map { $0.selection ?? "" })) },
            saying: { first, other in
                "\(first.path) ran \(Self.said(first.value, else: "the whole suite as it is")) and \(other.path) ran "
                    + "\(Self.said(other.value, else: "the whole suite as it is")): shards of one split must select and change "
                    + "the same scenarios; merge the reports of one run"
            })
        let suites = reports.flatMap(\.suites)
        for warning in reports.flatMap(\.warnings) {
            writeStandardError("\(NavScriptCLI.executableName) merge-junit: warning: \(warning)\n")
        }
        // The first twenty, then how many more: two shards that ran the same 20,000 cases printed 20,000 lines.
        let duplicates = Self.duplicates(in: suites)
        for duplicate in duplicates.prefix(20) {
            writeStandardError(
                "\(NavScriptCLI.executableName) merge-junit: warning: \(duplicate) appears more than once; "
                    + "CI reporters keep only one (did two shards run the same file?)\n")
        }
        if duplicates.count > 20 {
            writeStandardError(
                "\(NavScriptCLI.executableName) merge-junit: warning: and \(duplicates.count - 20) more test cases appear more "
                    + "than once\n")
        }
        // Each count is at most a trillion (JUnitShardReport.countLimit), but millions of suites could
        // still add up past a number: refused, never a trap or a total lower than one stated.
        func total(_ what: String, _ count: (JUnitShardScan.Suite) -> Int) throws(ValidationError) -> Int {
            guard let sum = JUnitShardReport.total(suites.lazy.map(count)) else {
                throw ValidationError(
                    "the reports' suites hold more \(what) in all than merge-junit can add up (past \(Int.max)); "
                        + "merge fewer reports at once")
            }
            return sum
        }
        let totals = (
            tests: try total("tests", \.tests), failures: try total("failures", \.failures),
            errors: try total("errors", \.errors), skipped: try total("skipped", \.skipped)
        )
        // The shards' own times added up: a merged run took that long in all,
        // even when the shards ran side by side.
        let time = String(format: "%.3f", reports.reduce(0) { $0 + $1.time })
        // One strict shard makes the merged report strict: its consumer
        // (Jenkins' xunit schema) rejects a `skipped` total on the root.
        let skipped = reports.contains(where: \.isStrict) ? "" : " skipped=\"\(totals.skipped)\""
        // The shards' app, when they all name the same one (one app's suite, sharded).
        let names = Set(reports.map { $0.rootName ?? "navscript" })
        let name = names.count == 1 ? names.first ?? "navscript" : "navscript"
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml +=
            "<testsuites name=\"\(ReportText.xmlAttribute(name))\" tests=\"\(totals.tests)\" failures=\"\(totals.failures)\" errors=\"\(totals.errors)\"\(skipped) time=\"\(time)\">\n"
        for block in reports.flatMap(\.blocks) { xml += block.hasSuffix("\n") ? block : block + "\n" }
        xml += "</testsuites>\n"
        do {
            try ReportFile.write(xml, to: URL(fileURLWithPath: output), kind: "merged JUnit report")
        } catch {
            throw ValidationError(error.description)
        }
        print(
            "merged \(suites.count) test suite\(suites.count == 1 ? "" : "s") from \(inputs.count) report\(inputs.count == 1 ? "" : "s"): "
                + "\(totals.tests) tests, \(totals.failures) failures, \(totals.errors) errors, \(totals.skipped) skipped → \(output)")
    }

    /// navscript's shard reports say which share of a split they are (`navscript.shard`): a set that
    /// is not one whole split — a shard missing (its artifact lost), one twice, shards of two splits
    /// (a matrix changed from 3 machines to 2) — merged into a total missing scenarios, a failing one
    /// among them, and read green. Refused, saying what is missing. Reports without the property (other
    /// tools', unsharded runs) are merged as they are.
    static func refuseIncompleteSplit(_ reports: [(path: String, shards: Set<String>)]) throws(ValidationError) {
        let sharded = reports.filter { !$0.shards.isEmpty }
        guard !sharded.isEmpty else { return }
        var given: [Int: String] = [:]  // shard index → the report that holds it
        var counts: Set<Int> = []
        for report in sharded {
            for text in report.shards.sorted() {
                guard let shard = Shard(text) else {
                    throw ValidationError("\(report.path) says it is shard '\(text)', which is no share of a split (i/n)")
                }
                counts.insert(shard.count)
                if let other = given[shard.index], other != report.path {
                    // A report holding several shards is a merge of them (a merge re-run over `reports/*.xml`).
                    let merged = [other, report.path].first { path in (sharded.first { $0.path == path }?.shards.count ?? 0) > 1 }
                    if let merged {
                        throw ValidationError(
                            "\(merged) is a merged report (it holds shards "
                                + (sharded.first { $0.path == merged }?.shards.sorted().joined(separator: ", ") ?? "")
                                + ") and \(merged == other ? report.path : other) is one of its shards: merged again, "
                                + "its scenarios would count twice; merge the shards' own reports, without \(merged)")
                    }
                    throw ValidationError(
                        "\(other) and \(report.path) are both shard \(shard): merged, its scenarios would count twice; "
                            + "give each shard's report once")
                }
                given[shard.index] = report.path
            }
        }
        if counts.count > 1 {
            throw ValidationError(
                "the reports are shards of different splits (" + counts.sorted().map { "of \($0)" }.joined(separator: ", ")
                    + "): merged, some scenarios would be missing and others twice; merge the reports of one run's shards")
        }
        let count = counts.first ?? 1
        let missing = (1...count).filter { given[$0] == nil }
        if !missing.isEmpty {
            throw ValidationError(
                "shard" + (missing.count == 1 ? " " : "s ") + missing.map { "\($0)/\(count)" }.joined(separator: ", ")
                    + " of the split " + (missing.count == 1 ? "is" : "are") + " missing: the merged report would lack "
                    + (missing.count == 1 ? "its" : "their") + " scenarios and could read green; give every shard's report")
        }
        if let unsharded = reports.first(where: { $0.shards.isEmpty }) {
            throw ValidationError(
                "\(unsharded.path) is no shard of the split the others are (1/\(count) … \(count)/\(count)): merge one run's "
                    + "shards on their own")
        }
    }

    /// Shards whose property differs — another selection or fault (`--filter` on one machine, a
    /// `--fault` left in a job), another suite split (files added between the shards' runs, another
    /// folder, another app) — merged into a total that missed scenarios or checked another app, and
    /// read green: refused, naming both (`saying` the first report's value and the other's).
    static func refuseMixed(
        _ reports: [(path: String, values: Set<String>)],
        saying: ((path: String, value: String), (path: String, value: String)) -> String
    ) throws(ValidationError) {
        var first: (path: String, value: String)?
        for report in reports {
            for value in report.values.sorted() {
                guard let reference = first else {
                    first = (report.path, value)
                    continue
                }
                if value != reference.value { throw ValidationError(saying(reference, (report.path, value))) }
            }
        }
    }

    /// A property's value as a message quotes it; `empty` for none.
    private static func said(_ text: String, else empty: String = "none said") -> String { text.isEmpty ? empty : "'\(text)'" }

    /// One report given twice — the same file (by its resolved path) or the
    /// same bytes under two names (a copy, overlapping globs) — would count
    /// every test twice: refused, naming both.
    static func refuseRepeats(_ reports: [(path: String, data: Data)]) throws(ValidationError) {
        var byPath: [String: String] = [:]  // resolved path → the name first given
        var byContent: [Data: String] = [:]
        for (path, data) in reports {
            let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
            if let first = byPath[resolved] {
                throw ValidationError(
                    "\(path) is given twice (\(first == path ? "" : "as \(first) and ")\(path)): "
                        + "merging it would count its tests twice")
            }
            byPath[resolved] = path
            guard !data.isEmpty else { continue }
            if let first = byContent[data] {
                throw ValidationError(
                    "\(first) and \(path) are the same report (identical bytes): merging both would count "
                        + "its tests twice")
            }
            byContent[data] = path
        }
    }

    /// `suite › classname › name` of every test case seen twice.
    static func duplicates(in suites: [JUnitShardScan.Suite]) -> [String] {
        var seen: Set<String> = []
        var repeated: [String] = []
        var reported: Set<String> = []
        for suite in suites {
            for key in suite.caseKeys.lazy.map({ suite.name + " › " + $0 }) where !seen.insert(key).inserted {
                if reported.insert(key).inserted { repeated.append(key) }
            }
        }
        return repeated
    }
}
