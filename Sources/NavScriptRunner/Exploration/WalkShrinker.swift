/// Shrinks a walk that breaks something to a shortest walk that still
/// does (delta debugging: drop halves, then quarters, … then single steps,
/// until no single step can go). One shrinker for every kind of finding:
/// a property an in-process replay checks, and a crash or a hang a worker
/// process replays.
package struct WalkShrinker<Step> {
    /// The first steps every candidate keeps (a crash's replay keeps its launch).
    package var fixedPrefix: Int
    /// The most replays to try (each may cost a process); nil: no limit.
    package var attempts: Int?
    /// Asked before each replay: an interrupt ends the shrinking where it is.
    package var shouldStop: () -> Bool

    package init(fixedPrefix: Int = 0, attempts: Int? = nil, shouldStop: @escaping () -> Bool = { false }) {
        self.fixedPrefix = fixedPrefix
        self.attempts = attempts
        self.shouldStop = shouldStop
    }

    /// The shortest walk found that `stillFails`; `walk` itself when none is shorter.
    package func shrink(_ walk: [Step], stillFails: ([Step]) -> Bool) -> [Step] {
        let prefix = Array(walk.prefix(fixedPrefix))
        var current = Array(walk.dropFirst(fixedPrefix))
        var tried = 0
        func fails(_ candidate: [Step]) -> Bool {
            guard attempts.map({ tried < $0 }) ?? true, !shouldStop() else { return false }
            tried += 1
            return stillFails(prefix + candidate)
        }
        var granularity = 2
        while current.count >= 2 || (current.count == 1 && !prefix.isEmpty) {
            let chunk = max(1, current.count / granularity)
            var reduced = false
            var start = 0
            while start < current.count {
                var candidate = current
                candidate.removeSubrange(start..<min(current.count, start + chunk))
                if !(prefix + candidate).isEmpty, fails(candidate) {
                    current = candidate
                    reduced = true
                    granularity = max(granularity - 1, 2)
                    break
                }
                start += chunk
            }
            if !reduced {
                if chunk == 1 { break }
                granularity = min(current.count, granularity * 2)
            }
            if attempts.map({ tried >= $0 }) == true || shouldStop() { break }
        }
        return prefix + current
    }
}
