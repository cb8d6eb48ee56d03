import Testing

@testable import NavScriptLua
@testable import NavScriptRunner

/// "A request resumed after its gate reported success is not gated by it
/// again", read from event logs in Swift (the explorer) and in the Lua a
/// reproducer ends with — which must agree, and must hold where a second
/// gate is legitimate.
@Suite("Explore: re-gated resumes")
struct RegatedResumeTests {
    static let cases: [(name: String, events: [String], regated: Bool)] = [
        ("resumed and proceeded", ["gate auth cart", "resume cart", "resolve cart proceed"], false),
        ("resumed and gated again by the same gate", ["gate auth cart", "resume cart", "resolve cart gated auth"], true),
        (
            "two links waiting on one sign-in, both resumed",
            ["gate auth a", "gate auth a", "resume a", "resolve a proceed", "resume a", "resolve a proceed"],
            false
        ),
        ("a chained gate after the first", ["gate auth cart", "resume cart", "resolve cart gated payment"], false),
        ("a drop answers the waiter", ["gate auth cart", "drop cart", "resume cart", "resolve cart gated auth"], false)
    ]

    @Test func swiftAndTheReproducersLuaAgree() throws {
        for (name, events, regated) in Self.cases {
            #expect((Explorer.regatedResume(in: events, since: 0) != nil) == regated, "\(name)")
            let lua = try LuaState()
            let source =
                "local log_ = { \(events.map { "\"" + $0 + "\"" }.joined(separator: ", ")) }\n"
                + "function events() return log_ end\n" + Explorer.regatedResumeLua.joined(separator: "\n")
            let failed: Bool
            do {
                _ = try lua.run(source: source, chunkName: "=reproducer")
                failed = false
            } catch {
                failed = true
            }
            #expect(failed == regated, "\(name)")
        }
    }
}
