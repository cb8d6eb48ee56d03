import NavigationCore
import NotesApp
import Testing

@testable import NavScript
@testable import NavScriptLua
@testable import NavScriptRuntime

/// A tap is checked against the host's screen declarations and the
/// destination's param specs; when the declaration itself cannot fit the
/// destination, the message blames the declaration, not the scenario.
@Suite("tap checks")
struct TapCheckTests {
    let host: NotesHost
    let app: any AppDriver

    init() throws {
        host = try NotesHost()
        app = try host.launch(LaunchRequest())
        try app.settle()
    }

    func check(_ declaration: ScreenDeclaration.Output, _ args: [String: String]) -> String? {
        do {
            try DrivingBindings.checkTap(
                declaration.name, args, app: app, screens: ["notes": ScreenDeclaration("notes", [declaration])],
                engine: host.engine)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func aDeclarationThatFitsItsDestinationBlamesTheValue() throws {
        let message = try #require(check(.init("note", parameters: ["id"], opens: "note"), ["id": "x"]))
        #expect(message.hasPrefix("output 'note' of 'notes' opens 'note', whose spec refuses it"), "\(message)")
        #expect(!message.contains("fix the declaration"), "\(message)")
        #expect(check(.init("note", parameters: ["id"], opens: "note"), ["id": "7"]) == nil)
        // A declared parameter the destination does not take is ignored: a bad value is still the scenario's.
        let extra = try #require(check(.init("note", parameters: ["id", "source"], opens: "note"), ["id": "x", "source": "list"]))
        #expect(!extra.contains("fix the declaration"), "\(extra)")
    }

    @Test func aDeclarationThatCannotFitItsDestinationIsBlamed() throws {
        let message = try #require(check(.init("note", parameters: ["note_id"], opens: "note"), ["note_id": "7"]))
        #expect(
            message.contains(
                "the host's declaration of 'notes' (ScenarioHost.screens) gives output 'note' the parameters "
                    + "[note_id] but 'note' takes [id]: fix the declaration"), "\(message)")
    }
}
