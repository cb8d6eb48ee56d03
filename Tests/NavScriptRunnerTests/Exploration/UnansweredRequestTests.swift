import NavigationCore
import Testing

@testable import NavScriptLua
@testable import NavScriptRunner

/// The property "every request a gate held is resumed or dropped once the
/// gate's flow has ended", read from event logs — in Swift, and as the Lua a
/// reproducer ends with, which must agree on every log.
@Suite("Explore: unanswered requests")
struct UnansweredRequestTests {
    static let gate = ["deliver scheme shop://cart", "resolve cart gated auth", "gate auth cart", "start app/auth", "present login"]

    /// Each log, and the request the property finds unanswered (nil: none).
    static let cases: [(name: String, events: [String], unanswered: String?)] = [
        ("cancelled and dropped", gate + ["finish app/auth cancelled", "dismiss login", "release app/auth", "drop cart"], nil),
        ("signed in and resumed", gate + ["finish app/auth completed", "release app/auth", "resume cart", "resolve cart proceed"], nil),
        ("the flow is still up", gate, nil),
        ("the flow ended and nobody told the request", gate + ["finish app/auth cancelled", "release app/auth"], "cart"),
        ("released without finishing", gate + ["dismiss login", "release app/auth"], "cart"),
        (
            // Two windows each have an `app/auth`: the one that ended may be the other window's.
            "with several windows a flow's end cannot be told apart",
            // (Window 1 signs in for the cart; a link in window 2 waits on window 2's own sign-in,
            // which the log cannot tell from window 1's; window 1's is cancelled.)
            ["scene-open 2"] + gate + [
                "deliver universal https://shop.example.com/settings/security", "gate auth settings_security",
                "finish app/auth cancelled", "release app/auth", "drop cart"
            ],
            nil
        ),
        (
            "a second request joined the flow and was answered with the first",
            gate + ["deliver scheme shop://orders/1", "gate auth order", "finish app/auth completed", "resume cart", "resume order"],
            nil
        ),
        (
            "a second request joined the flow and was forgotten",
            gate + ["deliver scheme shop://orders/1", "gate auth order", "finish app/auth completed", "resume cart"],
            "order"
        ),
        (
            "a chained gate waits on its own flow, still up",
            gate + [
                "finish app/auth completed", "release app/auth", "resume cart", "resolve cart gated payment_method",
                "gate payment_method cart", "start app/payment"
            ],
            nil
        ),
        (
            "a gate with no flow started before the next delivery is not judged",
            ["gate auth cart", "deliver scheme x", "start app/other", "finish app/other done"], nil
        ),
        (
            "a drop of a request held by two gates answers it",
            [
                "gate auth cart", "start app/auth", "gate payment_method cart", "start app/payment", "drop cart", "release app/auth",
                "release app/payment"
            ],
            nil
        ),
        (
            "a request that joined a flow this log did not see start is not judged by the next flow",
            [
                "start app/auth", "present login", "gate auth order:501", "join-gate auth", "start app/profile/auth",
                "finish app/profile/auth completed", "release app/profile/auth"
            ],
            nil
        ),
        (
            "two windows each with a sign-in flow at one path: which one ended is not said",
            gate + [
                "scene-open 2", "start app", "gate auth profile_edit", "start app/auth", "finish app/auth completed",
                "release app/auth", "resume profile_edit"
            ],
            nil
        ),
        (
            "a flow started again at the path of one that ended holds its new request",
            gate + ["finish app/auth cancelled", "drop cart", "gate auth order", "start app/auth"], nil
        )
    ]

    @Test func theSwiftReadingFindsWhatEachLogLeftUnanswered() {
        for (name, events, unanswered) in Self.cases {
            #expect(UnansweredRequest.find(in: events)?.request == unanswered, "\(name)")
        }
        let found = UnansweredRequest.find(in: Self.gate + ["finish app/auth cancelled"])
        #expect(found == UnansweredRequest(request: "cart", precondition: "auth", flow: "app/auth"))
        #expect(found?.message == "cart was held by the gate auth and its flow app/auth ended, but it was never resumed or dropped")
    }

    /// Exploration reads a log as it grows: read in two parts, split
    /// anywhere, every log reads as it does whole.
    @Test func aLogReadAsItGrowsReadsAsItDoesWhole() {
        for (name, events, unanswered) in Self.cases {
            for split in 0...events.count {
                var reader = UnansweredRequest.Reader()
                reader.read(events[..<split])
                reader.read(events[split...])
                #expect(reader.unanswered?.request == unanswered, "\(name), split at \(split)")
            }
        }
        // Kept with its log: a new log is read from its start.
        let reading = UnansweredRequest.LogReading()
        let first = EventLog()
        first.record(.gate("auth", RouteRequest("cart")))
        first.record(.start("app/auth"))
        #expect(reading.unanswered(in: first) == nil)
        first.record(.finish("app/auth", .cancelled))
        #expect(reading.unanswered(in: first)?.request == "cart")
        let second = EventLog()
        second.record(.start("app/auth"))
        second.record(.finish("app/auth", .cancelled))
        #expect(reading.unanswered(in: second) == nil, "a new log: the first one's gate is not in it")
    }

    @Test func theReproducersLuaAgreesOnEveryLog() throws {
        for (name, events, unanswered) in Self.cases {
            let lua = try LuaState()
            let list = events.map { "\"" + $0 + "\"" }.joined(separator: ", ")
            let source =
                "local log = { \(list) }\nfunction events() return log end\n"
                + UnansweredRequest.luaAssertion.joined(separator: "\n")
            do {
                _ = try lua.run(source: source, chunkName: "=reproducer")
                #expect(unanswered == nil, "\(name): the Lua found nothing")
            } catch {
                #expect(unanswered != nil, "\(name): \(error)")
                if let unanswered { #expect("\(error)".contains("\(unanswered) was held by the gate"), "\(name): \(error)") }
            }
        }
    }
}
