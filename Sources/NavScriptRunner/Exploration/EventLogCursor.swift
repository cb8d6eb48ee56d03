import NavigationCore

/// How far an exploration property has read an app's event log, so that
/// each step reads only the events that are new: reading the walk's whole
/// log after every step made a step's cost grow with its walk.
final class EventLogCursor {
    private weak var log: EventLog?
    private var dropped = 0
    private var position = 0

    /// `log`'s kept events and where the unread ones begin. `startsOver`
    /// when the log is not the one read before (a launch, a restart) or it
    /// dropped its oldest entries since: then every kept event is unread,
    /// and what was concluded from the old ones no longer holds.
    func advance(in log: EventLog) -> (events: [String], from: Int, startsOver: Bool) {
        let startsOver = log !== self.log || log.droppedCount != dropped
        if startsOver {
            self.log = log
            dropped = log.droppedCount
            position = 0
        }
        let events = log.texts
        let from = position
        position = events.count
        return (events, from, startsOver)
    }
}
