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

    /// A release build prints no "Fatal error" line: the backtracer's report
    /// is the only place the trap's message and the app's frame are. They are
    /// read into the same shape, without the report's chrome and frames.
    @Test func aReleaseBacktraceGivesTheFailureAndTheAppFrame() {
        var stderr = WorkerStderr()
        for chunk in [
            "swift-runtime: failed to suspend thread 11350 while processing a crash; backtraces will be missing information\n",
            "\n*** Signal 4: Backtracing from 0x556cdff6ff47... done ***\n\n",
            "*** Swift runtime failure: Unexpectedly found nil while unwrapping an Optional value ***\n\n",
            "Platform: x86_64 Linux (Debian GNU/Linux 12 (bookworm))\n\nThread 0 \"navscript\" crashed:\n\n",
            "  0 [inlined] [system]      0x0000556cdff6ff47 Swift runtime failure: Unexpectedly found nil while unwrapping an "
                + "Optional value in navscript at //<compiler-generated>\n",
            "  1                         0x0000556cdff6ff47 ShopRouter.deliver(_:via:) + 2599 in navscript at "
                + "/work/main/Sources/ShopApp/App/ShopRouter.swift:48:62\n",
            "  2 [ra]                    0x0000556cdff6dcce ShopApplication.receive(_:via:) + 29 in navscript at "
                + "/work/main/Sources/ShopApp/App/ShopApplication.swift:107:16\n",
            "...\n\nBacktrace took 0.40s\n"
        ] { stderr.append(chunk) }
        let expected =
            "ShopRouter.swift:48: Swift runtime failure: Unexpectedly found nil while unwrapping an Optional value "
            + "(in ShopRouter.deliver(_:via:))"
        #expect(stderr.trapMessage == expected)
        #expect(stderr.tail == "worker stderr:\n  " + expected, "\(stderr.tail)")
        // A crash's consequence written later (a second trap) does not replace the first.
        stderr.append("Foundation/FileHandle.swift:231: Fatal error: Interrupted system call\n")
        #expect(stderr.trapMessage == expected)
        var debug = WorkerStderr()
        debug.append("A.swift:1: Fatal error: first\nB.swift:2: Fatal error: second\n")
        #expect(debug.trapMessage == "A.swift:1: Fatal error: first")
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
