import Foundation
import NotesApp
import TestSupport
import Testing

@testable import NavScriptRunner
@testable import NavScriptRuntime

/// A scenario of thousands of steps keeps bounded memory: its timeline and
/// its storyboard keep their ends (and every failing frame), the app's
/// event log its latest events — and a check that would need an event the
/// log dropped says so instead of passing or failing.
@Suite("Long scenarios")
struct LongScenarioTests {
    private func run(_ source: String, options: RunOptions) throws -> [ScenarioResult] {
        try runSource(source, file: "long.lua", options: options).results
    }

    @Test func aLongScenarioKeepsItsTimelineEndsAndEveryFailingFrame() throws {
        var options = RunOptions(recordsFrames: true)
        options.eventRetention = 100
        let results = try run(
            """
            scenario("two thousand links", function()
              for i = 1, 2000 do
                deep_link("notes://note/" .. i)
                if i == 1000 then pcall(expect_stack, { "nothing" }) end
              end
            end)
            """, options: options)
        let result = try #require(results.first)
        #expect(result.status == .failed, "the failure a pcall caught still counts: \(result.message)")
        let timeline = result.timeline
        #expect(timeline.count == 2_001 && timeline.head.count == 100 && timeline.tail.count == 400, "\(timeline.count)")
        #expect(timeline.tail.last?.contains("deep_link(\"notes://note/2000\", via scheme)") == true, "\(timeline.tail.suffix(3))")
        let frames = result.frames
        #expect(frames.count == 20 + 1 + 100, "the first 20, the failing one, the last 100: \(frames.count)")
        // The failure shows on the frame of the step it followed.
        let failing = try #require(frames.firstIndex { !$0.problems.isEmpty })
        #expect(
            failing == 20 && frames[failing].action.hasPrefix("deep_link(\"notes://note/1000\""),
            "\(frames[failing - 1 ... failing + 1].map(\.action))")
        #expect(frames[failing].framesLeftOutBefore == frames[failing].number - 21, "every frame before it but the first 20")
        #expect(frames[21].framesLeftOutBefore == frames[21].number - frames[failing].number - 1)
        #expect(frames.last?.number == 2_001 && frames.filter { $0.framesLeftOutBefore != nil }.count == 2)
        // What a worker sends and reads back: the kept lines and how many there were.
        let decoded = try JSONDecoder().decode(ScenarioResult.self, from: JSONEncoder().encode(result))
        #expect(decoded.timeline == timeline && decoded.frames == frames)
    }

    @Test func checksAfterTheLogDroppedItsOldestEvents() throws {
        var options = RunOptions()
        options.eventRetention = 40
        let results = try run(
            """
            scenario("recent events are checked as usual", function()
              for i = 1, 100 do deep_link("notes://note/" .. i) end
              local m = mark()
              deep_link("notes://note/7")
              expect_events_since(m, { "resolve note:7 proceed" })
              expect_events{ "resolve note:100", "resolve note:7" }
              expect_no_event("resolve note:8", m)
              expect_event_count("resolve", 1, m)
              assert(#events(m) > 0 and #events(m) < 10 and m > 400, #events(m) .. " " .. m)
              assert(events(m)[1]:find("note", 1, true), events(m)[1])
            end)

            scenario("nor is a list without its oldest events", function()
              for i = 1, 100 do deep_link("notes://note/" .. i) end
              local all = events()
            end)

            scenario("an event the log dropped is no pass", function()
              for i = 1, 100 do deep_link("notes://note/" .. i) end
              expect_no_event("resolve note:1 proceed")
            end)

            scenario("nor a failure", function()
              for i = 1, 100 do deep_link("notes://note/" .. i) end
              expect_events{ "resolve note:1 proceed" }
            end)

            scenario("nor a count", function()
              for i = 1, 100 do deep_link("notes://note/" .. i) end
              expect_event_count("resolve", 100)
            end)
            """, options: options)
        #expect(results.map(\.status) == [.passed, .errored, .errored, .errored, .errored], "\(results.map(\.message))")
        for result in results.dropFirst(2) {
            #expect(result.message.contains("cannot tell: this app recorded "), "\(result.message)")
            #expect(result.message.contains("take a mark() shortly before what you check"), "\(result.message)")
        }
        #expect(results[1].message.contains("/long.lua:15: events cannot return them all: this app recorded "), "\(results[1].message)")
        #expect(results[2].message.contains("/long.lua:20: expect_no_event cannot tell: "), "\(results[2].message)")
    }
}
