import Foundation
import Testing

@testable import NavScript
@testable import NavScriptLua
@testable import NavScriptRunner
@testable import NavScriptRuntime

/// The one watch loop over child processes, on shell children whose ending is known.
@Suite("Child processes")
struct ChildProcessesTests {
    static func shell(_ script: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    @Test func eachChildsEndingIsToldApart() throws {
        let children = [try Self.shell("exit 3"), try Self.shell("kill -SEGV $$"), try Self.shell("exec sleep 30")]
        let endings = ChildProcesses.watch(children, stop: StopSignal()) { index in index == 2 }
        #expect(endings == [.exited(3), .signaled(SIGSEGV), .hung])
    }

    @Test func anInterruptIsPassedOnAndAChildThatIgnoresItIsKilled() throws {
        let stop = StopSignal()
        stop.set("interrupted (SIGTERM)", signal: SIGTERM)
        let obeys = try Self.shell("trap 'exit 7' TERM; while true; do sleep 0.1; done")
        let ignores = try Self.shell("trap '' TERM; while true; do sleep 0.1; done")
        let endings = ChildProcesses.watch([obeys, ignores], stop: stop, interruptGrace: 0.5)
        #expect(endings == [.exited(7), .unresponsive])
    }

    @Test func aCaptureHoldsWhatTheChildWrote() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "echo out; echo err >&2"]
        let output = try ChildProcesses.Capture(process, name: "capture-test-\(UUID().uuidString)")
        try process.run()
        #expect(ChildProcesses.watch([process], stop: StopSignal()) == [.exited(0)])
        #expect(output.text == "out\nerr\n")
    }
}
