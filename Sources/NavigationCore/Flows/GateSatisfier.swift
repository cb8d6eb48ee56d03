/// One satisfier per precondition, shared by every request waiting on it.
///
/// Why: two gated links arriving while signed out must not present two
/// sign-in sheets (and commit the session twice). The first request starts
/// the flow that satisfies the precondition; a request gated while that
/// flow is still on screen joins it instead. When the flow ends, every
/// waiting request hears the result in arrival order — on success each
/// resumes (the dispatcher serialises them, so the last one decides where
/// the user ends), on cancel all are dropped.
public final class GateSatisfier {
    private let log: EventLog
    private var waiting: [Precondition: [(Bool) -> Void]] = [:]

    public init(log: EventLog) {
        self.log = log
    }

    /// Whether a flow for `precondition` is on screen, with requests waiting on it.
    public func isSatisfying(_ precondition: Precondition) -> Bool {
        waiting[precondition] != nil
    }

    /// How many requests wait on `precondition`.
    public func waiters(for precondition: Precondition) -> Int {
        waiting[precondition]?.count ?? 0
    }

    /// Satisfies `precondition` for one more waiter. When no flow for it is
    /// running, `start` runs one and must call its argument exactly once
    /// with the result; otherwise `completion` joins the running one
    /// (logged as `join-gate <precondition>`).
    public func satisfy(
        _ precondition: Precondition, start: (@escaping (Bool) -> Void) -> Void,
        completion: @escaping (Bool) -> Void
    ) {
        if waiting[precondition] != nil {
            waiting[precondition]?.append(completion)
            log.record(.joinGate(precondition))
            return
        }
        waiting[precondition] = [completion]
        start { [weak self] satisfied in
            guard let self, let waiters = self.waiting.removeValue(forKey: precondition) else { return }
            for waiter in waiters { waiter(satisfied) }
        }
    }

    /// Tells every waiter its gate was not satisfied and forgets them: a
    /// flow swap tore the satisfying flows down, so their intents are
    /// dropped (and the dispatcher logs each `drop`).
    public func reset() {
        let dropped = waiting.sorted { $0.key.rawValue < $1.key.rawValue }.flatMap(\.value)
        waiting.removeAll()
        for waiter in dropped { waiter(false) }
    }
}
