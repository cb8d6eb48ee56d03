import Testing

/// Helpers for fixture scenario sources.
enum Lua {
    /// The 1-based line of `source` containing `marker` (a `-- @name` comment
    /// or any unique text), so assertions on `file:line` follow the fixture.
    static func line(of marker: String, in source: String, sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        let hits = lines.indices.filter { lines[$0].contains(marker) }
        if hits.count != 1 {
            Issue.record("fixture marker '\(marker)' found \(hits.count) times", sourceLocation: sourceLocation)
        }
        return (hits.first ?? -1) + 1
    }
}
