import NavScript
import NavigationCore

/// Watches an app's event log as it is written, for a gate's flow that
/// reports success before its precondition holds: the sign-in that says
/// "completed" while the session it stores is still on its way. Whether the
/// waiting request then loops or lands depends on timing (here the dismiss
/// animation outlasted the store; on a device it may not), so the end state
/// shows nothing: only the moment of the completion does, and only the app
/// can say what holds at that moment — so it is asked there.
final class GateCompletionWatch {
    /// A completion that came before its precondition held.
    struct Premature: Equatable {
        var precondition: Precondition
        /// The gate's event (`gate auth order:7`) and its flow's completion
        /// (`finish app/auth completed`), as the log says them.
        var gateEvent: String
        var completion: String
        /// The event after which the precondition held, when it came in the same step.
        var satisfiedBy: String?
    }

    /// The last gate met and the flow started for it.
    private var gate: (precondition: Precondition, event: String)?
    private var gateFlow: String?
    private var awaitingFlow = false
    /// A premature completion still waiting for the event that satisfies it.
    private var awaiting: Premature?
    private(set) var found: Premature?
    private weak var log: EventLog?
    private weak var app: (any AppDriver)?

    /// Watches `app`'s log from now on (nothing when it is the log already watched).
    func watch(_ app: any AppDriver) {
        let log = app.eventLog
        guard log !== self.log else { return }
        self.log = log
        self.app = app
        gate = nil
        gateFlow = nil
        awaitingFlow = false
        awaiting = nil
        let previous = log.observer
        log.observer = { [weak self] entry in
            previous?(entry)
            self?.observe(entry)
        }
    }

    /// The premature completion found during the step that just ended, if
    /// any (one whose precondition never held in it has no `satisfiedBy`);
    /// the watch starts over.
    func takeFinding() -> Premature? {
        defer {
            found = nil
            awaiting = nil
        }
        return found ?? awaiting
    }

    private func observe(_ entry: EventLog.Entry) {
        if var premature = awaiting, holds(premature.precondition) {
            premature.satisfiedBy = entry.text
            found = found ?? premature
            awaiting = nil
        }
        switch entry.event {
        case .gate(let precondition, _):
            gate = (precondition, entry.text)
            gateFlow = nil
            awaitingFlow = true
        case .start(let flow) where awaitingFlow:
            gateFlow = flow
            awaitingFlow = false
        case .finish(let flow, let result) where flow == gateFlow:
            if result == .completed, let gate, holds(gate.precondition) == false, found == nil {
                awaiting = Premature(precondition: gate.precondition, gateEvent: gate.event, completion: entry.text)
            }
            gate = nil
            gateFlow = nil
        default:
            break
        }
    }

    /// Whether `precondition` holds now; true when the app does not say.
    private func holds(_ precondition: Precondition) -> Bool {
        guard let satisfied = app?.satisfiedPreconditions else { return true }
        return satisfied.contains(precondition)
    }
}
