import Foundation
import NavigationCore
import NotesApp
import TestSupport
import Testing

@testable import NavScript
@testable import NavScriptLua
@testable import NavScriptRunner
@testable import NavScriptRuntime

/// Exploration on the notes app: it finds what its faults break with no
/// scenario written, shrinks it to a reproducer that fails with the fault
/// and passes without, replays the same walks from the same seed, and
/// reports nothing on the healthy app.
@Suite("Explorer")
struct ExplorerTests {
    func explore(faults: [String], seed: UInt64 = 11, steps: Int = 3_000) throws -> Explorer.Report {
        let explorer = Explorer(
            host: try NotesHost(),
            configuration: .init(
                seed: seed, seconds: 0, steps: steps, walkLength: 20, faults: faults, stopAtFirst: !faults.isEmpty))
        return explorer.run()
    }

    @Test(
        "each fault of the notes app is found and shrunk to a verified reproducer",
        arguments: NotesFault.allCases.map(\.rawValue))
    func findsEveryFault(_ fault: String) throws {
        let report = try explore(faults: [fault])
        let finding = try #require(report.findings.first, "\(fault) was not found in \(report.steps) steps")
        #expect(finding.verified, "the reproducer must fail with the fault and pass without:\n\(finding.reproducer)")
        #expect(finding.steps.count <= 4, "shrunk to a few steps:\n\(finding.reproducer)")
        #expect(finding.steps.count < finding.originalSteps || finding.originalSteps <= 2)
        #expect(finding.reproducer.contains("scenario(\"explore seed 11:"))
        #expect(finding.reproducer.contains("--fault \(fault)"))
        // The message's step numbers are the listed timeline's, and name no internal file.
        #expect(!finding.message.contains(ExplorationWalk.chunkName), "\(finding.message)")
        #expect(
            finding.timeline.first?.hasPrefix("launch") == true && finding.timeline.count > finding.steps.count,
            "the implicit launch first: \(finding.timeline)")
        let steps = finding.message.matches(of: /after step ([0-9]+)/).map { Int($0.1)! }
        if finding.property.hasPrefix("invariant") {
            #expect(!steps.isEmpty, "an invariant names the step it broke at: \(finding.message)")
        }
        for step in steps {
            #expect(step <= finding.timeline.count, "\(finding.message)\n\(finding.timeline)")
        }
    }

    /// Slips a catalogue never listed, found by the properties that name
    /// them: a restart that restores although told not to; a link that
    /// also resets the tab the user left.
    @Test(arguments: [
        (SlipDriver.Slip.restoresAlways, "a restart without restoration starts every tab at its root"),
        (SlipDriver.Slip.resetsOtherTab, "a link leaves the other tabs' stacks as they were")
    ])
    func aSlipIsFoundByThePropertyThatItBreaks(_ slip: SlipDriver.Slip, property: String) throws {
        let explorer = Explorer(
            host: SlipHost(notes: try NotesHost(), slip: slip),
            configuration: .init(seed: 11, seconds: 0, steps: 4_000, walkLength: 20, faults: [], stopAtFirst: true))
        let finding = try #require(explorer.run().findings.first, "\(slip) was not found")
        #expect(finding.property == property, "\(finding.property): \(finding.message)")
        #expect(finding.verified, "replayed alone, the reproducer fails the same way")
    }

    /// The spec read plainly — the explorer's judge of a refused value, so
    /// that a slip in the engine's own validation (a length limit off by
    /// one) is not the explorer's too.
    @Test(arguments: [
        ("p12345678", ParamSpec("id", pattern: "p[0-9]{1,8}"), true), ("p123456789", ParamSpec("id", pattern: "p[0-9]{1,8}"), false),
        ("xp1", ParamSpec("id", pattern: "p[0-9]{1,8}"), false), ("admin", ParamSpec("id", pattern: "p[0-9]+|admin"), true),
        ("123456789", ParamSpec("id", kind: .integer, maxLength: 9), true),
        ("1234567890", ParamSpec("id", kind: .integer, maxLength: 9), false),
        ("12a", ParamSpec("id", kind: .integer), false), ("99999999999999999999", ParamSpec("id", kind: .integer), false),
        ("ab", ParamSpec("code", minLength: 3), false), ("abc", ParamSpec("code", minLength: 3), true), ("", ParamSpec("code"), false),
        ("é", ParamSpec("code", maxLength: 1), true), ("x", ParamSpec("code", pattern: "("), false)
    ])
    func aValueIsJudgedByItsSpecAlone(value: String, spec: ParamSpec, accepted: Bool) {
        #expect(ParamOracle().accepts(value, spec: spec) == accepted, "\(value) against \(spec)")
    }

    /// A cold start's held link is answered by a later delivery of the same
    /// input through the same door; a second window stops the judging (the
    /// first may still be in onboarding, which its links wait for).
    @Test func heldLinksAreAnsweredByTheirDelivery() {
        var reader = StashedLinks.Reader()
        reader.read(["stash scheme shop://cart", "stash push shop://cart", "deliver scheme shop://cart"][...])
        #expect(reader.held == ["push shop://cart"])
        reader.read(["deliver scheme shop://cart", "deliver push shop://cart"][...])
        #expect(reader.held.isEmpty)
        reader.read(["stash scheme x", "scene-open 2"][...])
        #expect(reader.held == ["scheme x"] && reader.severalWindows)
    }

    /// A refusal right after a delivery, a dequeue or a resume is of a link
    /// from outside; any other is of a request the app built itself.
    @Test func aRefusalIsTheAppsOwnUnlessALinkFromOutsideComesJustBeforeIt() {
        let outside: [String] = [
            "deliver scheme shop://x", "reject unknown_route shop://x", "queue order:1", "dequeue order:1",
            "reject validation_failed order:1", "resume cart", "reject validation_failed cart"
        ]
        #expect(SelfSentRejection.find(in: outside[...]) == nil)
        #expect(
            SelfSentRejection.find(in: (outside + ["set-stack orders orders", "reject validation_failed order:7"])[...])
                == "reject validation_failed order:7")
    }

    /// Closing the window in front brings the one used most recently
    /// forward: window 1 is in front at launch; opening and focusing use a
    /// window; a close of one behind the front expects nothing.
    @Test func closingTheFrontWindowBringsTheMostRecentlyUsedForward() {
        var reader = WindowFocusOrder.Reader()
        reader.read(
            ["scene-open 2", "scene-open 3", "scene-focus 2", "scene-close 1", "scene-focus 3", "scene-close 3", "scene-focus 2"][...])
        #expect(reader.wrong == nil && reader.order == [2])
        var slipped = WindowFocusOrder.Reader()
        slipped.read(["scene-open 2", "scene-open 3", "scene-close 3", "scene-focus 1"][...])
        #expect(slipped.wrong.map { [$0.closed, $0.focused, $0.expected] } == [3, 1, 2])
        // A restored app starts with the window its log names in front (windows keep their numbers).
        var restored = WindowFocusOrder.Reader()
        restored.read(["scene-restore 2", "scene-open 3", "scene-close 3", "scene-focus 2"][...])
        #expect(restored.wrong == nil && restored.order == [2], "no window 1 to come forward: \(restored.order)")
    }

    /// A tap whose output declares what it opens must show it with the tapped values: a row that
    /// opens another note than the one tapped (a captured id) showed a note, and no other property
    /// could tell it was the wrong one.
    @Test func aTapThatOpensAnotherScreenThanItsOutputDeclaresIsFound() throws {
        let finding = try #require(try explore(faults: ["note-row-opens-first"]).findings.first)
        #expect(finding.property == ExplorationProperty.tapOpens.description, "\(finding.property): \(finding.message)")
        #expect(finding.message.contains("so the tap should show note(id = "), "\(finding.message)")
        #expect(finding.message.contains("the screen on top after it is note(id = 1)"), "\(finding.message)")
        #expect(finding.reproducer.contains("expect_screen(\"note:"), "\(finding.reproducer)")
    }

    @Test func theHealthyAppBreaksNoProperty() throws {
        let report = try explore(faults: [], steps: 2_000)
        #expect(report.findings.isEmpty, "\(report.findings.map { $0.property + ": " + $0.message })")
        #expect(report.coverage.missing.isEmpty, "not covered: \(report.coverage.missing)")
        #expect(report.steps >= 2_000)
    }

    /// A gated link is covered with its gate closed and open: walks are
    /// steered to try the account link signed out and signed in.
    @Test func gatedLinksAreCoveredWithTheirGateOpenAndClosed() throws {
        let report = try explore(faults: [], steps: 2_000)
        let gated = report.coverage.all.filter { $0.hasPrefix("link account ") }
        #expect(!gated.isEmpty && gated.allSatisfy { $0.hasSuffix(", gate open") || $0.hasSuffix(", gate closed") }, "\(gated)")
        #expect(gated.filter { $0.hasSuffix(", gate open") }.count == gated.count / 2, "both states of each: \(gated.sorted())")
        #expect(gated.isSubset(of: report.coverage.covered), "missing: \(gated.subtracting(report.coverage.covered).sorted())")
        let open = report.coverage.all.filter { $0.hasPrefix("link notes ") }
        #expect(!open.isEmpty && open.allSatisfy { !$0.contains(", gate ") }, "an ungated link is covered once: \(open)")
        // A host that does not say which preconditions hold keeps one key per link.
        let unsaid = ActionSpace(host: try NotesHost(), seed: 1).allCoverage(gateStates: false)
        #expect(unsaid.filter { $0.hasPrefix("link account ") }.count == gated.count / 2)
    }

    @Test func theSameSeedGivesTheSameWalksAndReproducer() throws {
        let first = try explore(faults: ["keep-popped-notes"], seed: 5)
        let second = try explore(faults: ["keep-popped-notes"], seed: 5)
        #expect(first.steps == second.steps)
        #expect(first.findings.map(\.reproducer) == second.findings.map(\.reproducer))
    }

    @Test func aReproducerIsAScenarioTheRunnerFailsWithTheFault() throws {
        let finding = try #require(try explore(faults: ["sign-in-without-commit"]).findings.first)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("explore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("repro.lua")
        try Data(finding.reproducer.utf8).write(to: url)
        let entry = SuiteFile(path: url.path, url: url, suiteRoot: folder)
        let host = try NotesHost()
        let faulty = ScenarioRunner(host: host, options: RunOptions(faults: ["sign-in-without-commit"]))
            .runFile(entry, filter: nil)
        #expect(faulty.scenarios.first?.status == .failed, "\(faulty.scenarios.first?.message ?? "")")
        let healthy = ScenarioRunner(host: host, options: RunOptions()).runFile(entry, filter: nil)
        #expect(healthy.scenarios.first?.status == .passed, "\(healthy.scenarios.first?.message ?? "")")

        // The same through one runner whose faults change per file (as workers and `mutate` run
        // files): the fault applies, and the prepared language is shared, not prepared again.
        let base = ScenarioRunner(host: host, options: RunOptions())
        let withFault = base.with(faults: ["sign-in-without-commit"])
        #expect(withFault.language === base.language && withFault.options.faults == ["sign-in-without-commit"])
        #expect(withFault.runFile(entry, filter: nil).scenarios.first?.status == .failed)
        #expect(withFault.with(faults: []).runFile(entry, filter: nil).scenarios.first?.status == .passed)
    }

    @Test func aResumeGatedAgainByItsOwnGateIsFound() throws {
        let events = ["gate auth cart", "present login", "session-commit", "resume cart", "resolve cart gated auth"]
        let found = try #require(Explorer.regatedResume(in: events, since: 0))
        #expect(found.precondition == "auth" && found.request == "cart" && found.event == "resolve cart gated auth")
        #expect(Explorer.regatedResume(in: events, since: events.count) == nil, "only resumes in this step count")
        let onward = ["gate auth cart", "resume cart", "resolve cart gated payment_method"]
        #expect(Explorer.regatedResume(in: onward, since: 0) == nil, "a different gate is the next precondition")
    }

    /// Seen on ShopApp after 7 s of exploring: two checkouts wait on auth;
    /// the first moves on to payment_method, whose flow a later link
    /// cancels. The `drop` belongs to the payment_method gate, not the
    /// oldest auth one, so the second checkout's resume is not a re-gate.
    @Test func aDropThatCannotBeMatchedIsNotReportedAsARegate() {
        let events = [
            "gate auth checkout_address", "gate auth checkout_address", "session-commit",
            "resume checkout_address", "resolve checkout_address gated payment_method",
            "gate payment_method checkout_address", "finish app/payment cancelled", "drop checkout_address",
            "resume checkout_address", "queue checkout_address", "dequeue checkout_address",
            "resolve checkout_address gated payment_method"
        ]
        #expect(Explorer.regatedResume(in: events, since: 0) == nil)
        let single = ["gate auth cart", "gate auth cart", "drop cart", "resume cart", "resolve cart gated auth"]
        #expect(Explorer.regatedResume(in: single, since: 0) != nil, "one precondition: the drop is unambiguous")
    }

    @Test func aResumedRequestMustBeResolvedAgain() throws {
        for healthy in [
            ["resume cart", "resolve cart proceed"], ["resume cart", "queue cart"],
            ["resume order:9", "reject unknown-destination order:9"]
        ] {
            #expect(Explorer.unresolvedResume(in: healthy, since: 0) == nil, "\(healthy)")
        }
        let cached = [
            "gate auth checkout_address", "session-commit", "resume checkout_address",
            "execute checkout_address external"
        ]
        let found = try #require(Explorer.unresolvedResume(in: cached, since: 0))
        #expect(found.request == "checkout_address" && found.next == "execute checkout_address external")
        #expect(Explorer.unresolvedResume(in: cached, since: 3) == nil, "only this step's events count")
        #expect(Explorer.unresolvedResume(in: ["resume cart"], since: 0)?.next == "nothing")
    }

    @Test func aLinkLandsOnTheCanonicalStackOrLeavesItsTargetOnTop() {
        let canonical = ["home", "product:p5"]
        #expect(Explorer.landed(canonical, expected: canonical, stackBefore: nil))
        let viaPromo = ["home", "promo:Z", "product:p5"]
        #expect(
            Explorer.landed(viaPromo, expected: canonical, stackBefore: viaPromo),
            "already looking at the target: the reconciler leaves the stack alone")
        #expect(
            !Explorer.landed(viaPromo, expected: canonical, stackBefore: ["home", "promo:Z"]),
            "a link that grafted its target onto a stale stack")
        #expect(!Explorer.landed(["home", "cart"], expected: canonical, stackBefore: ["home", "cart"]))
    }

    @Test func valuesAreDrawnFromTheSpecs() {
        var sampler = ValueSampler(seed: 3)
        for pattern in ["p[0-9]{1,8}", "[a-z][a-z0-9-]*", "[A-Z0-9]+", "(ab|cd)", "p[0-9]{1,8}|(?:ad|root)min|x?"] {
            let regex = try? Regex("^(?:\(pattern))$")
            for _ in 0..<20 {
                let value = sampler.sample(pattern) ?? "(none)"
                #expect((try? regex?.wholeMatch(in: value)) != nil, "\(value) does not match \(pattern)")
            }
        }
        // A letter written by its code is that letter: `\x61[0-9]+` drew "x61…", and routes diff missed every id it broke.
        for pattern in ["\\x61[0-9]+", "\\u0061[0-9]{2}", "\\x{61}b"] {
            let regex = try? Regex("^(?:\(pattern))$")
            let value = sampler.sample(pattern) ?? "(none)"
            #expect(value.hasPrefix("a") && (try? regex?.wholeMatch(in: value)) != nil, "\(value) for \(pattern)")
        }
        #expect(sampler.sample("\\p{L}+") == nil, "a property class is outside the subset")
        // Each branch of an alternation is drawn in turn, nested ones too.
        let drawn = Set((0..<6).compactMap { _ in sampler.sample("(ab|cd)|e(f|g)") })
        #expect(drawn == ["ab", "cd", "ef", "eg"], "\(drawn)")
        #expect(sampler.sample("a|*") == nil, "a quantifier without an atom is outside the subset")
        let spec = ParamSpec("code", pattern: "[A-Z0-9]+", minLength: 4, maxLength: 12)
        #expect(sampler.invalid(spec).contains("9999999999999"))
        let bounds = sampler.boundary(spec, from: "SALE10") { $0.count >= 4 && $0.count <= 12 }
        #expect(bounds.map(\.count).sorted() == [4, 12])
    }

    /// Reproducers are Lua: each literal is the input when Lua reads it.
    @Test func luaLiteralsAreTheInputWhenLuaReadsThem() throws {
        #expect(LuaSource.string("a\"b\\c\nd") == #""a\"b\\c\nd""#)
        #expect(LuaSource.table(["route": "cart", "x-y": "1"]) == #"{ route = "cart", ["x-y"] = "1" }"#)
        let lua = try LuaState.forTests()
        func read(_ input: EntryInput) throws -> LuaValue? {
            try lua.run(source: "return " + LuaSource.input(input), chunkName: "=literal").first
        }
        #expect(try read(.url("myapp://a/\"b\"")) == .string("myapp://a/\"b\""))
        #expect(try read(.payload(["route": "note/7", "x-y": "1"]))?.tableValue?.fields.count == 2)
        #expect(try read(.payload(["route": "note/7"]))?.tableValue?["route"].stringValue == "note/7")
        let activity = try read(.activity(type: "myapp.link", userInfo: ["identifier": "note/7"]))?.tableValue
        #expect(activity?["activity_type"].stringValue == "myapp.link")
        #expect(activity?["identifier"].stringValue == "note/7")
    }
}

/// The notes app with one slip built in (no fault switch: always on).
struct SlipHost: ScenarioHost {
    var notes: NotesHost
    let slip: SlipDriver.Slip
    var engine: RoutingEngine {
        get { notes.engine }
        set { notes.engine = newValue }
    }
    var name: String { "SlippingNotes" }
    var launchOptions: [LaunchOption] { notes.launchOptions }
    var faults: [HostFault] { [] }
    var screens: [ScreenDeclaration] { notes.screens }
    var entryPoints: [EntryPoint] { notes.entryPoints }
    func launch(_ request: LaunchRequest) throws(HostError) -> any AppDriver {
        let app = NotesApp(engine: engine, signedIn: request.bool("signed_in") ?? false, faults: [])
        if let link = request.link { _ = app.dispatcher.deliver(link, via: request.via) }
        return SlipDriver(app, slip: slip)
    }
}

final class SlipDriver: NavigationDriver {
    enum Slip: Sendable, CustomStringConvertible {
        case restoresAlways, resetsOtherTab
        var description: String { self == .restoresAlways ? "restores-always" : "resets-other-tab" }
    }

    let app: NotesApp
    let slip: Slip

    init(_ app: NotesApp, slip: Slip) {
        self.app = app
        self.slip = slip
        super.init(navigation: app.navigation)
    }

    override func deliver(_ input: EntryInput, via entry: EntryPoint) throws(HostError) -> LinkOutcome {
        let outcome = LinkOutcome(app.dispatcher.deliver(input, via: entry))
        if slip == .resetsOtherTab, outcome.status == .proceed {
            // The slip: "clean up" every tab but the one the link went to.
            for tab in app.navigation.tabs where tab != app.navigation.selectedTab {
                if let root = app.navigation.stack(tab).root?.destination { app.navigation.stack(tab).pop(to: root, animated: false) }
            }
        }
        return outcome
    }

    override func relaunch(restore: Bool) throws(HostError) -> any AppDriver {
        let state = restore || slip == .restoresAlways ? app.navigation.state : nil
        return SlipDriver(
            NotesApp(engine: app.dispatcher.engine, signedIn: app.session.isLoggedIn, faults: [], restoring: state), slip: slip)
    }

    override var coordinatorPaths: [String] { app.coordinatorPaths }
}
