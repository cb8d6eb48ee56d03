import NavigationCore
import Testing

@testable import NavScript
@testable import NavScriptLua
@testable import NavScriptRuntime

/// `launch{}`'s table read into a request: the runtime's own options
/// (`url`, `via`) are named for what they are when given the wrong kind.
@Suite("launch{} options")
struct LaunchRequestTests {
    struct Refused: Error { let message: String }

    func refusal(_ options: LuaTable) -> String? {
        do {
            _ = try DrivingBindings.launchRequest(options) { Refused(message: $0) }
            return nil
        } catch {
            return (error as? Refused)?.message
        }
    }

    @Test func aURLOfTheWrongKindIsNamedAsTheColdStartLink() {
        #expect(
            refusal(["url": .integer(5)]) == "launch option 'url' is the cold-start link: a URL string or a table "
                + "(a push payload, an activity), got number")
        #expect(refusal(["via": .boolean(true)])?.hasPrefix("launch option 'via' names the entry point") == true)
    }

    @Test func theRightKindsMakeTheRequest() throws {
        let request = try DrivingBindings.launchRequest(["url": "notes://note/7", "via": "push", "signed_in": true]) {
            Refused(message: $0)
        }
        #expect(request.link == .url("notes://note/7"))
        #expect(request.via == .push)
        #expect(request.bool("signed_in") == true)
    }
}
