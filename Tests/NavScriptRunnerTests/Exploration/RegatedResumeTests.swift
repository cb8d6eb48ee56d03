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

    /// Exploration reads the log as it grows, asking after each step about
    /// that step's events: each log read in two parts, split anywhere, finds
    /// what a whole reading finds from the split on.
    @Test func aLogReadAsItGrowsFindsWhatAWholeReadingFinds() {
        for (name, events, _) in Self.cases {
            for split in 0...events.count {
                var reader = RegatedResumeReader()
                let early = reader.read(Array(events[..<split]), since: 0)
                let late = reader.read(events, from: split, since: split)
                let wholeEarly = Explorer.regatedResume(in: Array(events[..<split]), since: 0)
                #expect(early.map { $0.request } == wholeEarly?.request, "\(name) \(split)")
                #expect(late?.event == Explorer.regatedResume(in: events, since: split)?.event, "\(name) \(split)")
            }
        }
    }

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
