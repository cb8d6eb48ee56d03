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
        #expect(WorkerMessage.parseHandWritten(Substring(step.line.dropLast()).utf8) == step, "read by hand, not by the decoder")
        #expect(WorkerMessage.parse("not json") == nil)
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
