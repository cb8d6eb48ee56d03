import Foundation
import NavigationCore
import Testing

@testable import NavScript
@testable import NavScriptLua
@testable import NavScriptRunner
@testable import NavScriptRuntime

@Suite("Shard")
struct ShardTests {
    @Test(arguments: ["0/2", "3/2", "1/0", "a/b", "1", "1/2/3", "1/10001", "9223372036854775807/9223372036854775807"])
    func rejectsMalformedSpecs(_ text: String) {
        #expect(Shard(text) == nil)
    }

    @Test func everyFileLandsInExactlyOneShard() {
        let files = (0..<23).map { (path: "f\($0).lua", scenarios: ($0 * 7) % 11) }
        for count in 1...6 {
            let shards = Shard.partition(files, count: count)
            #expect(shards.count == count)
            let all = shards.flatMap { $0 }
            #expect(all.count == files.count)
            #expect(Set(all) == Set(files.map(\.path)))
        }
    }

    @Test func shardsAreBalancedByScenarioCount() {
        let files = [("a", 10), ("b", 9), ("c", 5), ("d", 4), ("e", 1), ("f", 1)].map { (path: $0.0, scenarios: $0.1) }
        let shards = Shard.partition(files, count: 2)
        let weights = shards.map { $0.reduce(0) { total, path in total + files.first { $0.path == path }!.scenarios } }
        #expect(abs(weights[0] - weights[1]) <= 1, "\(weights)")
    }

    @Test func selectionKeepsOriginalOrderAndIsStable() throws {
        let entries = ["z.lua", "a.lua", "m.lua", "b.lua"]
        let shard = try #require(Shard("2/2"))
        let first = shard.select(entries, path: { $0 }, scenarios: { _ in 3 })
        #expect(first == shard.select(entries, path: { $0 }, scenarios: { _ in 3 }))
        #expect(first == entries.filter(first.contains))
    }
}
