import Testing

@testable import NavScript
@testable import NavScriptLua
@testable import NavScriptRunner
@testable import NavScriptRuntime

@Suite("Worker stderr")
struct WorkerStderrTests {
    /// A debug build's trap is followed by a stack dump; a long one pushed
    /// the trap line out of the kept window and the crash lost its message.
    @Test func theTrapLineSurvivesAStackDumpLongerThanTheWindow() {
        var stderr = WorkerStderr()
        stderr.append("App/Router.swift:45: Fatal error: Unexpectedly found nil while unwrapping an Optional value\n")
        stderr.append("Current stack trace:\n")
        for frame in 0..<200 {
            stderr.append("\(frame)    libswiftCore.so    0x00007ff6ec512b60 _swift_stdlib_reportFatalErrorInFile + 109\n")
        }
        #expect(stderr.trapMessage == "App/Router.swift:45: Fatal error: Unexpectedly found nil while unwrapping an Optional value")
        #expect(stderr.tail.contains("Fatal error: Unexpectedly found nil"), "\(stderr.tail)")
        #expect(!stderr.tail.contains("0x00007ff6"), "frames are left out of the tail\n\(stderr.tail)")
    }

    /// Chunks split lines anywhere: a trap line written in two pieces is one line.
    @Test func aLineSplitAcrossChunksIsReadWhole() {
        var stderr = WorkerStderr()
        stderr.append("A.swift:1: Fatal er")
        #expect(stderr.trapMessage == nil)
        stderr.append("ror: boom\nlater\n")
        #expect(stderr.trapMessage == "A.swift:1: Fatal error: boom")
        #expect(stderr.tail == "worker stderr:\n  A.swift:1: Fatal error: boom\n  later")
    }

    /// The window keeps whole lines only: no fragment of a cut line.
    @Test func theWindowKeepsWholeLines() {
        var stderr = WorkerStderr()
        for number in 0..<500 { stderr.append("line \(number) of chatter\n") }
        let lines = stderr.tail.split(separator: "\n").dropFirst()
        #expect(lines.count == 8)
        #expect(lines.allSatisfy { $0.hasPrefix("  line ") && $0.hasSuffix(" of chatter") }, "\(stderr.tail)")
        #expect(lines.last == "  line 499 of chatter")
        #expect(stderr.trapMessage == nil)
    }

    /// A precondition's trap is a trap line too (it does not say "Fatal error").
    @Test func aPreconditionFailureIsTheTrapLine() {
        var stderr = WorkerStderr()
        stderr.append("App/Cart.swift:12: Precondition failed: the cart is empty\n")
        #expect(stderr.trapMessage == "App/Cart.swift:12: Precondition failed: the cart is empty")
    }
}
