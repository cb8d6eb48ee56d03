import Testing

@testable import NavScriptRuntime

/// A long history kept as its first and last elements and a count.
@Suite("BoundedHistory")
struct BoundedHistoryTests {
    @Test func aShortHistoryKeepsEverything() {
        var history = BoundedHistory<Int>(headLimit: 3, tailLimit: 4)
        #expect(history.isEmpty && history.last == nil && history.kept.isEmpty)
        for number in 1...6 { #expect(history.append(number) == nil) }
        #expect(history.count == 6 && history.omitted == 0 && !history.isEmpty)
        #expect(history.head == [1, 2, 3] && history.tail == [4, 5, 6] && history.kept == [1, 2, 3, 4, 5, 6])
        #expect(history.last == 6)
        #expect(history.numbered.map(\.number) == [1, 2, 3, 4, 5, 6])
    }

    @Test func aLongHistoryKeepsItsEndsAndCountsTheMiddle() {
        var history = BoundedHistory<Int>(headLimit: 3, tailLimit: 4)
        var evicted: [Int] = []
        for number in 1...20 {
            if let out = history.append(number) { evicted.append(out) }
        }
        #expect(evicted == Array(4...16), "each pushed out of the tail, oldest first")
        #expect(history.count == 20 && history.omitted == 13)
        #expect(history.head == [1, 2, 3] && history.tail == [17, 18, 19, 20])
        #expect(history.last == 20)
        #expect(history.numbered.map(\.number) == [1, 2, 3, 17, 18, 19, 20])
        #expect(history.numbered.map(\.element) == [1, 2, 3, 17, 18, 19, 20])
    }

    @Test func theLastElementCanBeChangedWhereverItIs() {
        var history = BoundedHistory<[String]>(headLimit: 1, tailLimit: 2)
        history.updateLast { $0.append("nothing to change") }
        #expect(history.isEmpty)
        history.append(["a"])
        history.updateLast { $0.append("in the head") }
        #expect(history.head == [["a", "in the head"]])
        for letter in ["b", "c", "d"] { history.append([letter]) }
        history.updateLast { $0.append("in a full ring") }
        #expect(history.tail == [["c"], ["d", "in a full ring"]])
    }

    @Test func aHistoryReadBackFromItsKeptElementsNumbersThemAsBefore() {
        var long = Timeline()
        for step in 1...1_000 { long.append("step \(step)") }
        let read = Timeline(kept: long.kept, count: long.count)
        #expect(read == long && read.omitted == 500 && read.numbered.last?.number == 1_000)
        #expect(read.numbered[100].number == 601 && read.numbered[100].element == "step 601")
        let short: Timeline = ["a", "b"]
        #expect(Timeline(kept: short.kept, count: 2) == short && short.tail == [])
        #expect(Timeline(kept: ["a"], count: 0).count == 1, "never fewer than it keeps")
    }
}
