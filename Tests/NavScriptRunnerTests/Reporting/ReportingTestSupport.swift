import Foundation
import TestSupport
import Testing

@testable import NavScript
@testable import NavScriptLua
@testable import NavScriptRunner
@testable import NavScriptRuntime

/// Fixtures and tools shared by the Reporting tests.
enum ReportingFixtures {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures", isDirectory: true)

    static var schema: URL { folder.appendingPathComponent("junit.xsd") }

    /// 2026-11-21T05:44:57Z as seconds since 1970.
    static let startedAt: Double = 1_795_239_897

    /// Two files: passes, a failure with a long timeline and output, an
    /// error, a pending scenario.
    static func mixedRun(seed: UInt64? = 42) -> RunResult {
        let login = "scenarios/gate_resume/login.lua"
        let tabs = "scenarios/tabs.lua"
        let timeline = (1...17).map { step in
            step == 17 ? "expect_stack {\"Home\", \"Cart\"}" : "tap \"item\(step)\""
        }
        return RunResult(
            files: [
                FileResult(
                    file: login,
                    scenarios: [
                        ScenarioResult(
                            name: "login shows the form", groups: ["login"], file: login, line: 4,
                            outcome: .passed, duration: 0.0042),
                        ScenarioResult(
                            name: "login cart gate resumes the cart", groups: ["login", "cart gate"],
                            file: login, line: 12, tags: ["gate"], outcome: .failed(.expectation),
                            message: "expect_stack: stacks differ",
                            details: "expected: Home > Cart\n  actual: Home\n\n  - Cart (missing)", timeline: Timeline(timeline),
                            output: "cart has 2 items\n", duration: 0.0125),
                        ScenarioResult(
                            name: "login remembers the user", groups: ["login"], file: login, line: 30,
                            outcome: .skipped(.pending), message: "needs the keychain fake")
                    ], duration: 0.0201),
                FileResult(
                    file: tabs,
                    scenarios: [
                        ScenarioResult(
                            name: "tabs keep their stacks", file: tabs, line: 3, outcome: .passed,
                            duration: 0.003),
                        ScenarioResult(
                            name: "tabs deep link loops", file: tabs, line: 9, outcome: .errored(.budget),
                            message: "instruction budget exceeded (1000000)",
                            details: "stack traceback:\n\tscenarios/tabs.lua:11: in function <scenarios/tabs.lua:9>",
                            timeline: ["launch", "deep_link shop://home"],
                            duration: 0.5)
                    ], duration: 0.5031)
            ],
            duration: 0.5412, seed: seed, startedAt: startedAt)
    }

    /// Strings that break naive XML writers and terminals.
    static let hostile =
        "a&b <tag> \"dq\" 'sq' ]]> \u{1}\u{8}\u{B}\u{C}\u{1F}\u{7F}\u{85}\u{FFFE}\u{FFFF} "
        + "\u{1B}[31mred\u{1B}[0m \u{1B}]8;;http://x\u{7}link\u{1B}]8;;\u{7} \u{1B}[2K bare\u{1B} "
        + "tab\there\r\nnew\nline \u{FFFD}\u{FFFD} é 😀 \u{0}nul"

    static func hostileRun() -> RunResult {
        let file = "scenarios/wé<ird> & \"odd\"/fi'le\u{1B}[1m.lua"
        var scenarios: [ScenarioResult] = []
        let outcomes: [ScenarioOutcome] = [.passed, .failed(.expectation), .errored(.luaError), .skipped(.pending)]
        for (index, outcome) in outcomes.enumerated() {
            scenarios.append(
                ScenarioResult(
                    name: "\(index) \(hostile)", groups: [hostile, "", "..", "."], file: file, line: index + 1,
                    tags: [hostile], outcome: outcome, message: hostile, details: hostile,
                    timeline: [hostile, hostile], output: hostile, duration: 0.25))
        }
        scenarios.append(ScenarioResult(name: "", file: file, line: 0, outcome: .errored(.loadError)))
        scenarios.append(ScenarioResult(name: "\u{1B}[0m", file: file, line: -3, outcome: .failed(.expectation)))
        return RunResult(
            files: [
                FileResult(file: file, scenarios: scenarios, duration: .nan),
                FileResult(file: "", scenarios: [], duration: -1)
            ],
            duration: .infinity, seed: 7, startedAt: startedAt)
    }
}

/// Collects what a reporter writes; safe to share with `@Sendable` sinks.
final class OutputCapture: @unchecked Sendable {
    private let lock = NSLock()
    private var pieces: [String] = []

    var write: @Sendable (String) -> Void { { [self] piece in append(piece) } }

    private func append(_ piece: String) {
        lock.lock()
        defer { lock.unlock() }
        pieces.append(piece)
    }

    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return pieces.joined()
    }
}

/// A folder under the temporary directory, removed on deinit.
final class ReportingTemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("navscript-reporting-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
