import NavigationCore

/// Reads an event log for a request resumed after its gate reported
/// success and gated by that same gate again (``Explorer/regatedResume(in:since:)``),
/// as the log grows: exploration asks after every step, and reading the
/// walk's whole log each time made a step's cost grow with its walk.
///
/// Gates are matched to resumes first in, first out per request, as the
/// dispatcher resumes waiters in arrival order. `drop R` does not say which
/// gate was cancelled: when R waits on more than one precondition, the
/// match is ambiguous and R's waiters are forgotten rather than guessed — a
/// missed finding costs less than a false one, which teaches a team to
/// ignore the explorer.
struct RegatedResumeReader {
    /// Each request's gates not yet answered, oldest first.
    private var pending: [String: [Substring]] = [:]

    /// Reads `events` from `first` (the ones read before it were read by an
    /// earlier call), and returns the first `resume R` at or after `start`
    /// whose request is gated again by the precondition it waited on (its
    /// next `resolve R …` is `resolve R gated P`).
    mutating func read(_ events: [String], from first: Int = 0, since start: Int) -> (
        precondition: String, request: String, event: String
    )? {
        var found: (precondition: String, request: String, event: String)?
        for index in first..<max(first, events.count) {
            let event = events[index]
            if event.hasPrefix("gate ") {
                let rest = event.dropFirst("gate ".count)
                let precondition = rest.prefix { $0 != " " }
                pending[String(rest.dropFirst(precondition.count + 1)), default: []].append(precondition)
            } else if event.hasPrefix("drop ") {
                let request = String(event.dropFirst("drop ".count))
                guard let waiting = pending[request], !waiting.isEmpty else { continue }
                if Set(waiting).count == 1 { pending[request]?.removeFirst() } else { pending[request] = nil }
            } else if event.hasPrefix("resume ") {
                let request = String(event.dropFirst("resume ".count))
                guard pending[request]?.isEmpty == false, let precondition = pending[request]?.removeFirst() else { continue }
                guard found == nil, index >= start,
                    let next = events[(index + 1)...].first(where: { $0.hasPrefix("resolve \(request) ") }),
                    next == "resolve \(request) gated \(precondition)"
                else { continue }
                found = (String(precondition), request, next)
            }
        }
        return found
    }

    /// A reader kept with the log it reads: a new log (a launch, a restart)
    /// or one that dropped its oldest entries is read again from its first kept entry.
    final class LogReading {
        private let cursor = EventLogCursor()
        private var reader = RegatedResumeReader()

        /// What ``RegatedResumeReader/read(_:from:since:)`` finds in `log`'s kept events now.
        func regatedResume(in log: EventLog, since start: Int) -> (precondition: String, request: String, event: String)? {
            let (events, from, startsOver) = cursor.advance(in: log)
            if startsOver { reader = RegatedResumeReader() }
            return reader.read(events, from: from, since: start)
        }
    }
}
