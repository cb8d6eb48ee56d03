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
        #expect(changes.contains { $0.link.hasPrefix("myapp://i/") && $0.after == "error unknown_route" && $0.entry == .push })
        #expect(
            changes.contains {
                $0.link == "myapp://account" && $0.context == "signed out"
                    && $0.before.hasPrefix("gated auth") && $0.after.hasPrefix("proceed")
            })
        #expect(!changes.contains { $0.link == "myapp://account" && $0.context == "signed in" }, "signed in nothing changes")
        #expect(ManifestDiff(old: old, new: old).changes().isEmpty)
        #expect(ManifestDiff.render(changes, markdown: true).hasPrefix("| link | entry point | session | before | after |"))
        #expect(diff.changes(extra: ["myapp://i/9"]).filter { $0.link == "myapp://i/9" }.count == 4)
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
}
