import Testing

@testable import NavScriptRunner
@testable import NavScriptRuntime

@Suite("Live output of a running scenario")
struct LiveOutputTests {
    @Test func theLiveStreamStopsAtTheHeadAndSaysSoOnceWhileEverythingIsKeptAsAResultKeepsIt() {
        var live = LiveOutput()
        let line = String(repeating: "x", count: 99) + "\n"
        var shown: [String] = []
        for _ in 0..<20_000 { if let text = live.take(line) { shown.append(text) } }
        if let text = live.take("LAST\n") { shown.append(text) }
        #expect(shown.last == LiveOutput.heldBack)
        #expect(shown.filter { $0 == LiveOutput.heldBack }.count == 1)
        #expect(shown.dropLast().joined().utf8.count <= TextCap.output / 2)
        let kept = live.kept.text
        #expect(kept.hasPrefix(line) && kept.hasSuffix("LAST\n"))
        #expect(kept.contains("bytes of output left out here"))
        // A short scenario's output goes live whole, and is kept whole.
        var short = LiveOutput()
        #expect(short.take("hello\n") == "hello\n")
        #expect(short.kept.text == "hello\n")
    }
}
