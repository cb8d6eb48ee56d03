import Foundation
import NavigationCore
import Testing

@testable import NavScript
@testable import NavScriptLua
@testable import NavScriptRunner
@testable import NavScriptRuntime

/// `routes diff`: what a rollout changes, link by link.
@Suite("Manifest diff")
struct ManifestDiffTests {
    @Test func aRemovedAliasAndARemovedGateAreBothReported() throws {
        let old = try RoutingEngine(manifest: RouteManifest.load(json: Data(ManifestCheckTests.base.utf8)))
        let new = try RoutingEngine(
            manifest: RouteManifest.load(
                json: Data(
                    ManifestCheckTests.base
                        .replacingOccurrences(of: #""patterns": ["item/:id", "i/:id"]"#, with: #""patterns": ["item/:id"]"#)
                        .replacingOccurrences(of: #""preconditions": ["auth"], "patterns""#, with: #""patterns""#).utf8)))
        let diff = ManifestDiff(old: old, new: new, entries: [.scheme, .push])
        let changes = diff.changes()
        #expect(changes.contains { $0.link.hasPrefix("myapp://i/") && $0.after == .rejected("unknown_route") && $0.entry == .push })
        #expect(
            changes.contains {
                $0.link == "myapp://account" && $0.session == .signedOut
                    && "\($0.before)".hasPrefix("gated auth") && "\($0.after)".hasPrefix("proceed")
            })
        #expect(!changes.contains { $0.link == "myapp://account" && $0.session == .signedIn }, "signed in nothing changes")
        #expect(ManifestDiff(old: old, new: old).changes().isEmpty)
        #expect(diff.changes(extra: ["myapp://i/9"]).filter { $0.link == "myapp://i/9" }.count == 4)

        // The report: a summary, then each link once, its entry points and sessions collapsed.
        let report = diff.report()
        #expect(report.summary == "2 of 4 links change: 1 now rejected, 1 no longer gated", "\(report.text)")
        #expect(report.links.map(\.groups.count) == [1, 1], "\(report.text)")
        let alias = try #require(report.links.first { $0.link.hasPrefix("myapp://i/") })
        #expect(report.place(alias.groups[0]) == "both entry points, signed in and out")
        let account = try #require(report.links.first { $0.link == "myapp://account" })
        #expect(report.place(account.groups[0]) == "both entry points, signed out")
        #expect(ManifestDiff(old: old, new: old).report().text == "no link changes its outcome (4 links compared)\n")
    }

    @Test(
        "each way an outcome changes has its name",
        arguments: [
            (ManifestDiff.Outcome.proceed("a"), ManifestDiff.Outcome.gated("auth", resume: "a"), ManifestDiff.Kind.newlyGated),
            (.gated("auth", resume: "a"), .proceed("a"), .noLongerGated),
            (.gated("auth", resume: "a"), .gated("vip", resume: "a"), .gatedDifferently),
            (.proceed("a"), .proceed("b"), .opensElsewhere),
            (.proceed("a"), .rejected("unknown_route"), .nowRejected),
            (.gated("auth", resume: "a"), .rejected("unknown_route"), .nowRejected),
            (.rejected("unknown_route"), .proceed("a"), .nowAccepted),
            (.rejected("unknown_route"), .rejected("validation_failed"), .rejectedDifferently)
        ])
    func kinds(_ before: ManifestDiff.Outcome, _ after: ManifestDiff.Outcome, _ kind: ManifestDiff.Kind) {
        #expect(ManifestDiff.Kind(before: before, after: after) == kind)
    }

    /// Changes as `routes diff` finds them: a link per entry point and session.
    static func change(
        _ link: String, _ entry: EntryPoint, _ session: ManifestDiff.Session, _ before: ManifestDiff.Outcome,
        _ after: ManifestDiff.Outcome
    ) -> ManifestDiff.Change {
        ManifestDiff.Change(link: link, entry: entry, session: session, before: before, after: after)
    }

    /// Gating one destination changed a row per link × entry point ×
    /// session; the report has one entry per link, the entry points and
    /// sessions that agree said once, and a summary first.
    @Test func theReportIsASummaryThenOneEntryPerLink() {
        let entries: [EntryPoint] = [.scheme, .universal, .push, .widget]
        let open = ManifestDiff.Outcome.proceed("home: home > p")
        let gated = ManifestDiff.Outcome.gated("auth", resume: "p")
        let gone = ManifestDiff.Outcome.rejected("unknown_route")
        var changes = entries.map { Self.change("app://p", $0, .signedOut, open, gated) }
        // One link changes in two ways: rejected by two entry points signed out and one signed in, gated by the others.
        changes += [
            Self.change("app://q", .scheme, .signedOut, open, gone), Self.change("app://q", .scheme, .signedIn, open, gone),
            Self.change("app://q", .push, .signedOut, open, gone), Self.change("app://q", .universal, .signedOut, open, gated)
        ]
        changes += ManifestDiff.Session.allCases.map { Self.change("app://r|s", .widget, $0, gone, open) }
        let report = ManifestDiffReport(changes: changes, compared: 42, entries: entries)
        #expect(
            report.text == """
                3 of 42 links change: 1 now rejected, 2 newly gated, 1 now accepted (a link that changes in more than one way is \
                counted under each)
                app://p  (newly gated)
                    all 4 entry points, signed out: proceed home: home > p  →  gated auth (p)
                app://q  (now rejected, newly gated)
                    scheme, push, signed out; scheme, signed in: proceed home: home > p  →  error unknown_route
                    universal, signed out: proceed home: home > p  →  gated auth (p)
                app://r|s  (now accepted)
                    widget, signed in and out: error unknown_route  →  proceed home: home > p

                """, "\(report.text)")
        #expect(
            report.markdown == """
                **3 of 42 links change: 1 now rejected, 2 newly gated, 1 now accepted (a link that changes in more than one way is \
                counted under each)**

                | link | change | where | before | after |
                |---|---|---|---|---|
                | `app://p` | newly gated | all 4 entry points, signed out | proceed home: home > p | gated auth (p) |
                | `app://q` | now rejected<br>newly gated | scheme, push, signed out; scheme, signed in<br>universal, signed out \
                | proceed home: home > p<br>proceed home: home > p | error unknown_route<br>gated auth (p) |
                | `app://r\\|s` | now accepted | widget, signed in and out | error unknown_route | proceed home: home > p |

                """, "\(report.markdown)")
        #expect(
            ManifestDiffReport(changes: [], compared: 1, entries: entries).markdown == "**no link changes its outcome (1 link compared)**\n"
        )
    }

    /// A link with a no-break space or a control character read as another link in the report
    /// (`shop://orders x` beside `shop://orders x`): both are spelled, in the text and in Markdown.
    @Test func aLinksHiddenCharactersAreSpelled() {
        let change = Self.change("app://orders\u{A0}x\u{1B}", .scheme, .signedOut, .rejected("unknown_route"), .proceed("o: o"))
        let report = ManifestDiffReport(changes: [change], compared: 2, entries: [.scheme])
        #expect(report.text.contains("app://orders<U+A0>x\\u{1B}  (now accepted)"), "\(report.text)")
        #expect(report.markdown.contains("`app://orders<U+A0>x\\u{1B}`"), "\(report.markdown)")
    }

    /// A pattern both manifests have is one link, with one example value:
    /// not one per manifest, which listed every change twice.
    @Test func aPatternBothManifestsHaveIsOneLink() throws {
        let old = try RoutingEngine(manifest: RouteManifest.load(json: Data(ManifestCheckTests.base.utf8)))
        let new = try RoutingEngine(
            manifest: RouteManifest.load(
                json: Data(ManifestCheckTests.base.replacingOccurrences(of: #""flow": "account""#, with: #""flow": "profile""#).utf8)))
        let links = ManifestDiff(old: old, new: new).links()
        #expect(links.count == 4 && links.filter { $0.hasPrefix("myapp://i") }.count == 2, "\(links)")
    }

    /// A pattern narrowed to refuse characters or shapes the old one took — a dash dropped from a
    /// class, a leading 0 refused, a branch removed — changes links, and so does one widened:
    /// a few random examples never held a dash, and the rollout gate said nothing changed.
    @Test(arguments: [
        ("[a-z][a-z0-9-]*", "[a-z][a-z0-9]*"), ("[0-9]{1,6}", "[1-9][0-9]{0,5}"), ("[a-z]+", "[a-y]+"),
        ("[0-9]{1,6}|new", "[0-9]{1,6}"), ("[a-z][a-z0-9]*", "[a-z][a-z0-9_]*"), ("x\\d{2,4}", "x\\d{2,3}"),
        // What sampling the patterns does not reach: a bound inside one alternative, a trailing delimiter
        // a new grouping refuses, a caseless flag, a word a lookahead excludes (after a prefix too), letters beyond ASCII.
        ("[a-z][a-z0-9-]*", "[b-z][a-z0-9-]*|a[a-z0-9-]{0,5}"), ("[a-z][a-z0-9-]*", "[a-z][a-z0-9]*(-[a-z0-9]+)*"),
        ("[a-z][a-z0-9-]*", "(?i)[a-z][a-z0-9-]*"), ("[a-z][a-z0-9-]*", "(?!admin)[a-z][a-z0-9-]*"), ("\\w+", "[A-Za-z0-9_]+"),
        ("[0-9]{1,6}", "\\d{1,6}"), ("p[0-9]{1,6}", "p(?!31415)[0-9]{1,6}")
    ])
    func aNarrowedOrWidenedPatternChangesLinks(old: String, new: String) throws {
        func engine(_ pattern: String) throws -> RoutingEngine {
            let json = ManifestCheckTests.base.replacingOccurrences(
                of: #""pattern": "[0-9]{1,6}""#, with: #""pattern": "\#(pattern.replacingOccurrences(of: "\\", with: "\\\\"))""#)
            return try RoutingEngine(manifest: RouteManifest.load(json: Data(json.utf8)))
        }
        let changes = ManifestDiff(old: try engine(old), new: try engine(new)).changes()
        #expect(changes.contains { $0.link.hasPrefix("myapp://item/") }, "\(old) → \(new): \(changes.map(\.link))")
        #expect(ManifestDiff(old: try engine(old), new: try engine(old)).changes().isEmpty)
    }
}
