import Foundation
import NavScript
import NavScriptRuntime

/// `--shard i/n`: a stable partition of a suite's files across n CI
/// machines, balanced by the scenarios each file declares in its text, so
/// the n shards together run the suite exactly once.
package struct Shard: Hashable, Sendable, CustomStringConvertible {
    /// 1-based index of this shard.
    package let index: Int
    package let count: Int

    /// Parses `i/n` with 1 ≤ i ≤ n.
    package init?(_ text: String) {
        let parts = text.split(separator: "/")
        // A split into more than `maximumCount` shards is no CI's (and the partition allocates one list per shard).
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]),
            count >= 1, count <= Self.maximumCount, index >= 1, index <= count
        else { return nil }
        self.index = index
        self.count = count
    }

    package var description: String { "\(index)/\(count)" }

    /// The most shards a run may be split into.
    package static let maximumCount = 10_000

    /// Assigns each file to a shard: largest files first (ties by path),
    /// each to the currently lightest shard (ties to the lowest index).
    /// Depends only on paths and counts, so every machine computes the same split.
    package static func partition(_ weights: [(path: String, scenarios: Int)], count: Int) -> [[String]] {
        var shards = Array(repeating: (weight: 0, paths: [String]()), count: max(1, count))
        let ordered = weights.sorted { $0.scenarios != $1.scenarios ? $0.scenarios > $1.scenarios : $0.path < $1.path }
        for file in ordered {
            let lightest = shards.indices.min { shards[$0].weight != shards[$1].weight ? shards[$0].weight < shards[$1].weight : $0 < $1 }!
            shards[lightest].weight += max(1, file.scenarios)
            shards[lightest].paths.append(file.path)
        }
        return shards.map { $0.paths.sorted() }
    }

    /// How many scenarios a file declares as written: the calls of
    /// `scenario`, `scenario.each` and `pending` in its text (1 at least, and
    /// for a file that cannot be read). Read from the text, not by running
    /// the file: what a file computes at run time — a count drawn from
    /// `os.time()` — differs between machines, and so would their splits.
    package static func declarations(in file: URL) -> Int {
        guard let data = try? Data(contentsOf: file) else { return 1 }
        let text = String(decoding: data, as: UTF8.self)
        return max(1, text.matches(of: /\b(?:scenario|pending)\s*[(.{"']/).count)
    }

    /// The files of this shard, in their original order.
    package func select<Entry>(_ entries: [Entry], path: (Entry) -> String, scenarios: (Entry) -> Int) -> [Entry] {
        let mine = Set(Self.partition(entries.map { (path($0), scenarios($0)) }, count: count)[index - 1])
        return entries.filter { mine.contains(path($0)) }
    }
}
