import Testing

@testable import NavScript
@testable import NavScriptLua
@testable import NavScriptRunner
@testable import NavScriptRuntime

/// The one shrinker, on walks of numbers whose failure is known.
@Suite("Walk shrinker")
struct WalkShrinkerTests {
    /// Fails when both 3 and 7 are in the walk, in that order.
    static func needsThreeThenSeven(_ walk: [Int]) -> Bool {
        guard let three = walk.firstIndex(of: 3) else { return false }
        return walk[three...].contains(7)
    }

    @Test func aWalkShrinksToTheStepsTheFailureNeeds() {
        let shrunk = WalkShrinker<Int>().shrink(Array(0..<20), stillFails: Self.needsThreeThenSeven)
        #expect(shrunk == [3, 7])
    }

    @Test func theFixedPrefixIsKeptWhateverItCosts() {
        let shrunk = WalkShrinker<Int>(fixedPrefix: 2).shrink(Array(0..<20), stillFails: Self.needsThreeThenSeven)
        #expect(shrunk == [0, 1, 3, 7])
        // Down to the prefix alone, when the failure needs nothing else.
        #expect(WalkShrinker<Int>(fixedPrefix: 1).shrink([0, 5], stillFails: { _ in true }) == [0])
    }

    @Test func aWalkThatCannotShrinkIsReturnedAsItIs() {
        #expect(WalkShrinker<Int>().shrink([3, 7], stillFails: Self.needsThreeThenSeven) == [3, 7])
        #expect(WalkShrinker<Int>().shrink([4], stillFails: { _ in true }) == [4], "never to an empty walk")
    }

    @Test func attemptsAreCountedAndStopTheShrinking() {
        var replays = 0
        let shrunk = WalkShrinker<Int>(attempts: 3).shrink(Array(0..<40)) { walk in
            replays += 1
            return Self.needsThreeThenSeven(walk)
        }
        #expect(replays == 3)
        #expect(Self.needsThreeThenSeven(shrunk), "what it returns still fails: \(shrunk)")
        #expect(shrunk.count < 40, "the attempts it had were used")
    }

    @Test func aStopEndsItBeforeTheNextReplay() {
        var replays = 0
        let shrunk = WalkShrinker<Int>(shouldStop: { replays >= 1 }).shrink(Array(0..<20)) { walk in
            replays += 1
            return Self.needsThreeThenSeven(walk)
        }
        #expect(replays == 1)
        #expect(Self.needsThreeThenSeven(shrunk))
    }
}
