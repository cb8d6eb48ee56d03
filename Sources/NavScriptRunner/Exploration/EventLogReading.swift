import NavigationCore

/// What an exploration property concludes from an app's event log, read a
/// slice at a time as the log grows.
protocol EventLogReader {
    init()
    /// Reads the events that follow those already read.
    mutating func read(_ events: ArraySlice<String>)
}

/// An ``EventLogReader`` kept with the log it reads, for an exploration's
/// steps: each step reads only the events that are new (reading the walk's
/// whole log after every step made a step's cost grow with its walk); a
/// new log (a launch, a restart) or one that dropped its oldest entries is
/// read again from its first kept entry, by a fresh reader.
final class EventLogReading<Reader: EventLogReader> {
    private let cursor = EventLogCursor()
    private var reader = Reader()

    /// The reader, once it has read what `log` gained since the last call.
    func read(_ log: EventLog) -> Reader {
        let (events, from, startsOver) = cursor.advance(in: log)
        if startsOver { reader = Reader() }
        reader.read(events[from...])
        return reader
    }
}
