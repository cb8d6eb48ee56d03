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
        /// The event after which the precondition held.
        var satisfiedBy: String
    }

    /// The gate just met, for the one event after it: a flow that starts
    /// right then is the flow the gate presented (a flow started later —
    /// a link to the sign-in screen, say — is not that gate's).
    private var justGated: (precondition: Precondition, event: String)?
    /// The flows gates presented, by path, with their gate.
    private var gateFlows: [String: (precondition: Precondition, event: String)] = [:]
    /// A completion seen while its precondition did not hold, waiting for the event that satisfies it.
    private var awaiting: (precondition: Precondition, gateEvent: String, completion: String)?
    private(set) var found: Premature?
    private weak var log: EventLog?
    private weak var app: (any AppDriver)?

    /// Watches `app`'s log from now on (nothing when it is the log already
    /// watched); nil forgets the app watched (a walk that has none yet).
    func watch(_ app: (any AppDriver)?) {
        let log = app?.eventLog
        guard log !== self.log else { return }
        self.log = log
        self.app = app
        justGated = nil
        gateFlows = [:]
        awaiting = nil
        guard let log else { return }
        let previous = log.observer
        log.observer = { [weak self, weak log] entry in
            previous?(entry)
            // An app left behind (torn down after a restart) still logs its releases: not the one watched.
            guard let self, let log, log === self.log else { return }
            self.observe(entry)
        }
    }

    /// The premature completion found during the step that just ended, if
    /// any; the watch starts over. Only a completion whose precondition came
    /// to hold later in the same step counts: that is the race (success
    /// signalled, the commit still on its way). A flow that completes with
    /// its precondition never holding may be an app's chained design (a
    /// sign-in presented for a payment gate) and is left to the properties
    /// that see what the resumed request then does.
    func takeFinding() -> Premature? {
        defer {
            found = nil
            awaiting = nil
        }
        return found
    }

    private func observe(_ entry: EventLog.Entry) {
        if let waiting = awaiting, holds(waiting.precondition) {
            found =
                found
                ?? Premature(
                    precondition: waiting.precondition, gateEvent: waiting.gateEvent, completion: waiting.completion,
                    satisfiedBy: entry.text)
            awaiting = nil
        }
        let gated = justGated
        justGated = nil
        switch entry.event {
        case .gate(let precondition, _):
            justGated = (precondition, entry.text)
        case .start(let flow):
            if let gated { gateFlows[flow] = gated }
        case .release(let flow):
            gateFlows[flow] = nil  // ended without a word (a sheet swiped away)
        case .finish(let flow, let result):
            guard let gate = gateFlows.removeValue(forKey: flow) else { break }
            if result == .completed, !holds(gate.precondition), found == nil, awaiting == nil {
                awaiting = (gate.precondition, gate.event, entry.text)
            }
        default:
            break
        }
    }

    /// A flow a gate presented that is still up though its precondition now
    /// holds (`app/auth` for `auth`, signed in elsewhere — another window):
    /// the requests waiting on it are never resumed. Asked once the app is
    /// idle, when whatever satisfied it has had its effect.
    func staleGateFlow() -> (flow: String, precondition: Precondition, gateEvent: String)? {
        // Asked after every idle step: nothing is built while no gate's flow is up (the usual case).
        guard !gateFlows.isEmpty, let satisfied = app?.satisfiedPreconditions else { return nil }
        return gateFlows.sorted { $0.key < $1.key }.first { satisfied.contains($0.value.precondition) }
            .map { ($0.key, $0.value.precondition, $0.value.event) }
    }

    /// Whether `precondition` holds now; true when the app does not say.
    private func holds(_ precondition: Precondition) -> Bool {
        guard let satisfied = app?.satisfiedPreconditions else { return true }
        return satisfied.contains(precondition)
    }
}
