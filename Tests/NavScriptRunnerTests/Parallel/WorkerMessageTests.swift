import Foundation
import NavigationCore
import Testing

@testable import NavScript
@testable import NavScriptLua
@testable import NavScriptRunner
@testable import NavScriptRuntime

@Suite("Worker protocol")
struct WorkerMessageTests {
    @Test func messagesRoundTripThroughOneLine() throws {
        let result = ScenarioResult(
            name: "n \"q\"\nx", file: "f.lua", line: 3, outcome: .failed(.expectation), message: "m",
            details: "d", timeline: ["t"], output: "o", duration: 0.25)
        let messages: [WorkerMessage] = [
            .loaded(task: 1, scenarios: [ScenarioListing(name: "a", file: "f.lua", line: 1, tags: ["x"])]),
            .loaded(
                task: 1, scenarios: [ScenarioListing(name: "a", file: "f.lua", line: 1)],
                declarations: ["launch {two_factor = true}; allow leaks=why"]),
            .start(task: 1, index: 0), .result(task: 1, index: 0, result: result), .done(task: 1),
            .step(
                task: 1, index: 0,
                step: TimelineStep(
                    location: "f.lua:3", action: "a \"quoted\" \\ step\n\u{1}\u{1F}\ttab é 🎉", screen: "cart:7", tab: "home")),
            .step(task: 1, index: 1, step: .note("invariants allowed: leaks (\"x\")")),
            .step(task: 1, index: 2, step: TimelineStep(location: "f.lua:9", action: "tap(\"a\")", screen: "a", tab: "home", scene: 2)),
            .running(task: 1, index: 1, line: "tap(\"x\")"),
            .loadFailed(task: 2, result: result),
            .passed(task: 3, index: 12, duration: 0.0011296272277832031), .passed(task: 0, index: 0, duration: 1e-05),
            .passed(task: 1, index: 2, duration: 3),
            // A long timeline travels as its kept lines and how many steps there were.
            .result(
                task: 4, index: 0,
                result: ScenarioResult(
                    name: "long", file: "f.lua", line: 1, outcome: .failed(.expectation),
                    timeline: Timeline((1...1_000).map { "step \($0)" })))
        ]
        for message in messages {
            let line = message.line
            #expect(line.hasSuffix("\n"))
            #expect(line.dropLast().contains("\n") == false)
            #expect(WorkerMessage.parse(line.dropLast()) == message)
            #expect(message.bytes == Array(line.utf8))
            // Every line, hand-written or not, is the synthesized Codable form.
            #expect(try JSONDecoder().decode(WorkerMessage.self, from: Data(line.utf8)) == message, "\(line)")
        }
        // The hand-written lines are the synthesized Codable form: one decoder reads both.
        let passed = WorkerMessage.passed(task: 3, index: 12, duration: 0.25)
        #expect(try JSONDecoder().decode(WorkerMessage.self, from: Data(passed.line.utf8)) == passed)
        let step = WorkerMessage.step(task: 1, index: 0, step: TimelineStep(location: "f.lua:3", action: "a", screen: "s", tab: "t"))
        #expect(try JSONDecoder().decode(WorkerMessage.self, from: Data(step.line.utf8)) == step)
        #expect(WorkerMessage.parseHandWritten(Array(step.line.dropLast().utf8)) == step, "read by hand, not by the decoder")
        #expect(WorkerMessage.parse("not json") == nil)
    }

    /// A streamed storyboard frame is written by hand as the JSON its
    /// Codable form decodes to the same frame, and read back as its bytes.
    @Test func aFrameIsWrittenByHandAndReadBackAsItsBytes() throws {
        var frame = StepFrame(
            number: 7, location: "f.lua:3", action: "tap(\"x\") \n\u{1} é 🎉", selectedTab: "home",
            tabs: [.init(name: "home", stack: ["home", "product:p1"]), .init(name: "cart", stack: [])],
            modals: [["login"], ["two_factor", "x"]], coordinators: ["app/main", "app/auth"], events: ["push \"q\"", "gate auth cart"],
            leaks: [.init(label: "product:p1", kind: "screen", leftDuring: "back")],
            problems: [.init(kind: "failure", message: "m \"q\"", details: "d\n\t")])
        frame.windows = [.init(number: 2, inFront: true, selectedTab: "home", tabs: [.init(name: "home", stack: ["home"])], modals: [])]
        frame.framesLeftOutBefore = 12
        let streamed = StreamedFrame(frame)
        #expect(streamed.frame == frame, "the hand-written JSON decodes to the frame: \(String(decoding: streamed.json, as: UTF8.self))")
        var bare = frame
        bare.windows = []
        bare.framesLeftOutBefore = nil
        bare.problems = []
        #expect(StreamedFrame(bare).frame == bare)
        let message = WorkerMessage.frame(task: 3, index: 4, frame: streamed)
        let line = message.line
        #expect(line.hasSuffix("}}\n") && !line.dropLast().contains("\n"))
        let parsed = WorkerMessage.parseHandWritten(Array(line.dropLast().utf8))
        #expect(parsed == message, "read by hand, its frame kept as the bytes it came as")
        #expect(try JSONDecoder().decode(WorkerMessage.self, from: Data(line.utf8)) == message, "and the decoder reads it too")
        // Kept undecoded, a frame is decoded when the storyboard is drawn, with a problem shown later.
        var frames = StoryboardFrames()
        frames.append(json: StreamedFrame(bare).json)
        frames.attach(StepFrame.Problem(kind: "error", message: "crash", details: ""))
        #expect(frames.frames.count == 1 && frames.frames.first?.problems.map(\.message) == ["crash"])
    }

    @Test func aSeedReplaysTheSameSequence() {
        var a = SeededGenerator(seed: 7), b = SeededGenerator(seed: 7), c = SeededGenerator(seed: 8)
        let first = (0..<5).map { _ in a.next() }
        #expect(first == (0..<5).map { _ in b.next() })
        #expect(first != (0..<5).map { _ in c.next() })
    }

    @Test func stableHashDoesNotDependOnTheProcess() {
        #expect(SeededGenerator.stableHash("") == 0xcbf2_9ce4_8422_2325)
        #expect(SeededGenerator.stableHash("a") == 0xaf63_dc4c_8601_ec8c)
    }
}
