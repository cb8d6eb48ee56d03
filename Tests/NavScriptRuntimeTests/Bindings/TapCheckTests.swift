import NavigationCore
import NotesApp
import Testing

@testable import NavScript
@testable import NavScriptLua
@testable import NavScriptRuntime

/// A tap is checked against the output the app wired (or, when the driver
/// cannot tell, the host's declaration) and the destination's param specs;
/// when the output itself cannot fit the destination, the message blames
/// the output, not the scenario. The host's declaration must list what the
/// screen wires, spelled the same.
@Suite("tap checks")
struct TapCheckTests {
    let host: NotesHost

    init() throws {
        host = try NotesHost()
    }

    func check(
        _ args: [String: String], wired: [ScreenOutput], declared: [ScreenOutput]? = nil, tapping output: String = "note"
    ) -> String? {
        do {
            try DrivingBindings.checkTap(
                output, args, on: "notes", wired: wired, declared: declared.map { ScreenDeclaration("notes", $0) },
                engine: host.engine)
            return nil
        } catch {
            return error.message
        }
    }

    static let note = ScreenOutput("note", parameters: ["id"], opens: "note")

    @Test func anOutputThatFitsItsDestinationBlamesTheValue() throws {
        let message = try #require(check(["id": "x"], wired: [Self.note]))
        #expect(message.hasPrefix("output 'note' of 'notes' opens 'note', whose spec refuses it"), "\(message)")
        #expect(!message.contains("fix the"), "\(message)")
        #expect(check(["id": "7"], wired: [Self.note]) == nil)
        #expect(check(["id": "7"], wired: [Self.note], declared: [Self.note]) == nil)
        // A parameter the destination does not take is ignored: a bad value is still the scenario's.
        let extra = ScreenOutput("note", parameters: ["id", "source"], opens: "note")
        let message2 = try #require(check(["id": "x", "source": "list"], wired: [extra]))
        #expect(!message2.contains("fix the"), "\(message2)")
    }

    @Test func anOutputWiredSoThatNoTapFitsItsDestinationIsBlamed() throws {
        let wrong = ScreenOutput("note", parameters: ["note_id"], opens: "note")
        let message = try #require(check(["note_id": "7"], wired: [wrong]))
        #expect(
            message.contains(
                "the app wires output 'note' of 'notes' (its ScreenOutput) with the parameters [note_id] but 'note' "
                    + "takes [id]: fix the ScreenOutput"), "\(message)")
    }

    @Test func aDriverThatCannotTellFallsBackOnTheDeclaration() throws {
        let wrong = ScreenOutput("note", parameters: ["note_id"], opens: "note")
        let message = try #require(check(["note_id": "7"], wired: [], declared: [wrong]))
        #expect(
            message.contains(
                "the host's declaration of 'notes' (ScenarioHost.screens) gives output 'note' the parameters "
                    + "[note_id] but 'note' takes [id]: fix the declaration"), "\(message)")
        let missing = try #require(check([:], wired: [], declared: [Self.note]))
        #expect(missing == "output 'note' of 'notes' takes id; missing id (tap(\"note\", { id = … }))", "\(missing)")
    }

    @Test func aDeclarationMustListWhatTheScreenWiresSpelledTheSame() throws {
        // Listed but not wired now (a button shown only when signed in), or listed in another order: fine.
        #expect(check(["id": "7"], wired: [Self.note], declared: ["search", Self.note]) == nil)
        #expect(check(["id": "7"], wired: ["search", Self.note], declared: [Self.note, "search"]) == nil)
        let left = try #require(check(["id": "7"], wired: [Self.note, "share"], declared: [Self.note]))
        #expect(
            left
                == "the host's declaration of screen 'notes' (ScenarioHost.screens) does not match the app: it wires "
                + "'share', which the declaration leaves out — list the same ScreenOutput values the coordinator "
                + "passes to setOutput")
        let spelled = try #require(check(["id": "7"], wired: [Self.note], declared: ["note"]))
        #expect(spelled.contains("it wires 'note(id) → note', which the declaration spells 'note'"), "\(spelled)")
        // Checked whatever output is tapped: the declaration is the screen's, not the tap's.
        #expect(check([:], wired: [Self.note, "share"], declared: [Self.note], tapping: "other") != nil)
    }
}
