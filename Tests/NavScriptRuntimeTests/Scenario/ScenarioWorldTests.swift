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
}
