/// The single re-entrant funnel between the engine and the root coordinator.
///
/// Every request — external links and gated in-app intents alike — enters
/// here. Each pass builds a *fresh* context, so a gate re-evaluated after
/// login sees the committed session. On `gated` it asks the root to satisfy
/// the precondition and re-dispatches the original request only on success
/// (chained gates compose for free); a cancelled gate drops the intent.
///
/// Dispatch is serialized: a request arriving while another executes is
/// queued and run after it, never interleaved. A loop guard turns a gate
/// that keeps re-gating into a `loop-guard` event instead of a hang.
public final class RouteDispatcher {
    /// What happened to a request when it was handed in.
    public enum Outcome: Hashable, Sendable {
        case proceed(Target)
        case gated(Precondition, resume: RouteRequest)
        case queued(RouteRequest)
        case rejected(RouteError)
        /// The loop guard stopped a request that re-gated too often.
        case loopGuard(RouteRequest, Precondition)
    }

    public let engine: RoutingEngine
    private weak var root: RootCoordinating?
    private let makeContext: () -> RouteContext
    private let log: EventLog
    /// How many times one intent may be gated before the guard stops it.
    public let gateBound: Int

    /// The request whose target is executing (its completion not yet called).
    private var executing: RouteRequest?
    private var isExecuting: Bool { executing != nil }
    private var queue: [(RouteRequest, RouteSource)] = []

    /// `root` is not retained: the app's composition root owns both.
    public init(
        engine: RoutingEngine, root: RootCoordinating, log: EventLog, gateBound: Int = 5,
        context: @escaping () -> RouteContext
    ) {
        self.engine = engine
        self.root = root
        self.log = log
        self.gateBound = gateBound
        self.makeContext = context
    }

    public var isIdle: Bool { !isExecuting && queue.isEmpty }

    /// What is still under way, named (empty when idle): the request
    /// executing, then each one queued behind it. Why: "did not go idle"
    /// alone sent a developer hunting; a completion never called strands
    /// the request executing and every link queued after it, and these
    /// lines say which.
    public var pending: [String] {
        (executing.map { ["executing \($0) (its completion not called yet)"] } ?? [])
            + queue.map { "queued \($0.0) (\($0.1.rawValue))" }
    }

    /// External door: an entry point hands over untrusted input.
    @discardableResult
    public func deliver(_ input: EntryInput, via entry: EntryPoint) -> Outcome {
        log.record(.deliver(entry, input.description))
        let request: RouteRequest
        do {
            request = try engine.request(for: try engine.adapter.link(for: input, via: entry))
        } catch {
            log.record(.reject(kind: error.kind, input: input.description))
            return .rejected(error)
        }
        return dispatch(request, source: .external)
    }

    /// In-app door (and the re-entry point of a satisfied gate).
    @discardableResult
    public func dispatch(_ request: RouteRequest, source: RouteSource) -> Outcome {
        run(request, source: source, gates: 0)
    }

    private func run(_ request: RouteRequest, source: RouteSource, gates: Int) -> Outcome {
        if isExecuting {
            queue.append((request, source))
            log.record(.queue(request))
            return .queued(request)
        }
        let resolution: RouteResolution
        do {
            resolution = try engine.resolve(request: request, context: makeContext())
        } catch {
            log.record(.reject(kind: error.kind, input: request.description))
            return .rejected(error)
        }
        switch resolution {
        case .proceed(let target):
            log.record(.resolveProceed(request))
            guard let root else { return .proceed(target) }
            executing = request
            root.execute(target, source: source) { [weak self] in self?.didFinishExecuting() }
            return .proceed(target)
        case .gated(let precondition, let resume):
            log.record(.resolveGated(request, precondition))
            guard gates < gateBound else {
                log.record(.loopGuard(resume, precondition, count: gates))
                return .loopGuard(resume, precondition)
            }
            log.record(.gate(precondition, resume))
            root?.satisfy(precondition) { [weak self] satisfied in
                guard let self else { return }
                if satisfied {
                    self.log.record(.resume(resume))
                    _ = self.run(resume, source: source, gates: gates + 1)
                } else {
                    self.log.record(.drop(resume))
                }
            }
            return .gated(precondition, resume: resume)
        }
    }

    private func didFinishExecuting() {
        executing = nil
        // A dequeued request may not execute (rejected, gated, loop-guarded):
        // keep going so nothing queued behind it is stranded.
        while !isExecuting, !queue.isEmpty {
            let (request, source) = queue.removeFirst()
            log.record(.dequeue(request))
            _ = run(request, source: source, gates: 0)
        }
    }
}
