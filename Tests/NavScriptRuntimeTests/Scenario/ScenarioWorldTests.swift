import NavigationCore
import NotesApp
import Testing

@testable import NavScript
@testable import NavScriptLua
@testable import NavScriptRuntime

/// A scenario's world launching the host's app: what it refuses of a host.
@Suite("ScenarioWorld")
struct ScenarioWorldTests {
    /// A host whose launch drops the cold-start link is refused at the
    /// launch: `launch{ url = … }` would otherwise test nothing.
    @Test func aLaunchThatDropsItsLinkIsRefused() throws {
        struct Forgetful: ScenarioHost {
            var notes: NotesHost
            var engine: RoutingEngine {
                get { notes.engine }
                set { notes.engine = newValue }
            }
            var name: String { "Forgetful" }
            var launchOptions: [LaunchOption] { notes.launchOptions }
            var faults: [HostFault] { [] }
            func launch(_ request: LaunchRequest) throws(HostError) -> any AppDriver {
                var request = request
                request.link = nil
                return try notes.launch(request)
            }
        }
        var request = LaunchRequest()
        request.link = .url("notes://note/7")
        let forgetful = ScenarioWorld(host: Forgetful(notes: try NotesHost()), faults: [])
        let failure = #expect(throws: LaunchFailure.self) { try forgetful.launch(request, at: "a.lua:1") }
        #expect(
            failure?.message
                == "Forgetful's launch(_:) did not deliver the cold-start link notes://note/7 (the app logged "
                + "no 'deliver' event): a host passes request.link to its dispatcher, via request.via")
        #expect(failure?.location == "a.lua:1")
        #expect(forgetful.launchFailure === failure, "kept: the scenario errors with it even if a pcall caught it")
        let notes = ScenarioWorld(host: try NotesHost(), faults: [])
        try notes.launch(request, at: "a.lua:1")
        #expect(notes.app?.visibleScreen == "note:7")
    }

    /// A step that left work pending (`deep_link{ settle = false }`) may
    /// leave objects whose release is that work: not leaks yet. Once the
    /// app is idle, they are.
    @Test func aLeakIsNotCalledWhileTheWorkThatReleasesItIsPending() throws {
        final class Pending: AppDriver {
            let eventLog = EventLog()
            var isIdle = false
            var leaks = [LifecycleTracker.Leak(label: "sign_in view-model", kind: .viewModel, leftAtStep: 1, leftDuring: "link")]
            func perform(_ action: AppAction) throws(HostError) -> LinkOutcome? { nil }
            func settle() throws(HostError) {}
            func relaunch(restore: Bool) throws(HostError) -> any AppDriver { self }
            var state: NavigationState { NavigationState(selectedTab: "notes", tabs: ["notes"]) }
            var visibleScreen: String? { "notes" }
            var coordinatorPaths: [String] { [] }
            var step: Int { 1 }
            var rootFlow: String { "main" }
        }
        struct Host: ScenarioHost {
            var engine: RoutingEngine
            var name: String { "Pending" }
            var launchOptions: [LaunchOption] { [] }
            var faults: [HostFault] { [] }
            func launch(_ request: LaunchRequest) throws(HostError) -> any AppDriver { Pending() }
        }
        let world = ScenarioWorld(host: Host(engine: try NotesHost().engine), faults: [])
        try world.launch(LaunchRequest(), at: "a.lua:1")
        world.checkInvariants(after: "after step 1", at: "a.lua:2", settled: false)
        #expect(world.failures.isEmpty, "pending work: neither idle nor leaks is judged")
        (world.app as? Pending)?.isIdle = true
        world.checkInvariants(after: "after step 2", at: "a.lua:3", settled: false)
        #expect(world.failures.map(\.invariant) == [.leaks], "idle though unsettled: what is still alive leaked")
    }

    /// A storyboard frame carries a step's action, its events and its
    /// problems to the HTML report and the JSON stream: capped as the
    /// timeline and the result are, not whole (a 2 MB error was 2 MB in
    /// every frame that showed it).
    @Test func aFrameKeepsItsActionAndProblemsCapped() throws {
        let world = ScenarioWorld(host: try NotesHost(), faults: [], recordsFrames: true)
        try world.launch(LaunchRequest(), at: "a.lua:1")
        world.record(String(repeating: "t", count: 1_000_000), at: "a.lua:2")
        world.recordFailure(
            ExpectationFailure(String(repeating: "m", count: 2_000_000), details: String(repeating: "d", count: 2_000_000)))
        let frame = try #require(world.frames.last)
        #expect(frame.action.utf8.count < TextCap.step + 100, "\(frame.action.utf8.count)")
        #expect(frame.action.contains("characters left out here"))
        let problem = try #require(frame.problems.first)
        #expect(problem.message.utf8.count < TextCap.message + 100, "\(problem.message.utf8.count)")
        #expect(problem.details.utf8.count < TextCap.details + 100, "\(problem.details.utf8.count)")
        #expect(problem.message.hasPrefix("mmm") && problem.message.hasSuffix("mmm"))
    }
}
