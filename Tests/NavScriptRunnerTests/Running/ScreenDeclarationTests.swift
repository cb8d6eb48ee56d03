import NavigationCore
import NotesApp
import TestSupport
import Testing

@testable import NavScript
@testable import NavScriptRunner
@testable import NavScriptRuntime

/// A host's screen declarations are what types, lint and the graph tell a
/// scenario's author; a tap on a screen that wires an output its
/// declaration leaves out fails at the tap's line, blaming the host, with
/// the fix — and a declaration that lists more than the screen wires now is fine.
@Suite("Screen declarations")
struct ScreenDeclarationTests {
    /// NotesApp with its own declarations replaced.
    struct Declaring: ScenarioHost {
        var notes: NotesHost
        var screens: [ScreenDeclaration]
        var engine: RoutingEngine {
            get { notes.engine }
            set { notes.engine = newValue }
        }
        var name: String { "Declaring" }
        var launchOptions: [LaunchOption] { notes.launchOptions }
        var faults: [HostFault] { [] }
        func launch(_ request: LaunchRequest) throws(HostError) -> any AppDriver { try notes.launch(request) }
    }

    private func run(_ screens: [ScreenDeclaration]) throws -> ScenarioResult {
        let source = """
            scenario("opens a note", function()
              launch{ signed_in = true }
              tap("note", "7")
              expect_stack{ "notes", "note:7" }
            end)
            """
        let host = Declaring(notes: try NotesHost(), screens: screens)
        return try #require(try runSource(source, file: "tap.lua", host: host).results.first)
    }

    @Test func aDeclarationThatLeavesOutAWiredOutputFailsTheTapBlamingTheHost() throws {
        let result = try run([ScreenDeclaration("notes", ["search"])])
        #expect(result.status == .failed, "\(result.status): \(result.message)")
        #expect(
            result.message.contains(
                "tap.lua:3: tap: the host's declaration of screen 'notes' (ScenarioHost.screens) does not match the app: it "
                    + "wires 'note(id) → note', which the declaration leaves out"), "\(result.message)")
    }

    @Test func aDeclarationListingMoreThanTheScreenWiresPasses() throws {
        let result = try run([ScreenDeclaration("notes", ["search", .init("note", parameters: ["id"], opens: "note")])])
        #expect(result.status == .passed, "\(result.message)")
    }
}
