import Testing

@testable import NavScriptRuntime

/// A scenario's output kept as its head and tail, the cut said with an exact count.
@Suite("BoundedOutput")
struct BoundedOutputTests {
    @Test func shortOutputIsKeptWholeAndStreamed() {
        var output = BoundedOutput(limit: 20)
        #expect(output.isEmpty)
        let first = output.append("abc\n")
        let second = output.append("def\n")
        #expect(first && second)
        #expect(output.text == "abc\ndef\n" && !output.isEmpty)
    }

    @Test func aFloodKeepsItsHeadAndTailAndCountsTheRest() {
        var output = BoundedOutput(limit: 20)
        let head = output.append("0123456789")  // the head: 10 bytes
        let past = output.append("x")
        #expect(head && !past, "past the head nothing more is streamed")
        var printed = "0123456789x"
        for index in 0..<1_000 {
            let line = "line \(index)\n"
            printed += line
            let streamed = output.append(line)
            #expect(!streamed)
        }
        let text = output.text
        #expect(text.hasPrefix("0123456789\n… (") && text.hasSuffix("line 999\n"), "\(text)")
        let kept = text.split(separator: "\n", omittingEmptySubsequences: false)
        let count = Int(text.firstMatch(of: /… \(([0-9]+) bytes of output left out here\) …/)!.1)!
        let tail = kept.drop { !$0.hasPrefix("… (") }.dropFirst().joined(separator: "\n")
        #expect(count == printed.utf8.count - 10 - tail.utf8.count, "the count is exact: \(text)")
        #expect(tail.utf8.count <= 10, "the last half of the limit")
    }

    @Test func theTailStartsOnAWholeCharacter() {
        var output = BoundedOutput(limit: 8)
        output.append("ab")
        for _ in 0..<100 { output.append("é🙂") }
        let text = output.text
        #expect(!text.contains("\u{FFFD}"), "\(text)")
        #expect(text.hasSuffix("🙂"))
    }

    @Test func aFirstPrintLargerThanTheHeadIsNotEmpty() {
        var output = BoundedOutput(limit: 8)
        let streamed = output.append(String(repeating: "z", count: 100))
        #expect(!streamed)
        #expect(!output.isEmpty && output.text.hasSuffix("zzzz"))
    }
}
