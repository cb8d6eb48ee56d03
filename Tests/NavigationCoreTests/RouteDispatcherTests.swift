import Testing

@testable import NavigationCore

/// A root coordinator whose behaviour each test scripts: it records what it
/// was asked to do and can hold `execute`'s completion to model a transition
/// still in flight.
final class FakeRoot: RootCoordinating {
    var executed: [(Target, RouteSource)] = []
    var satisfyRequests: [Precondition] = []
    var deferExecution = false
    private(set) var pendingCompletions: [() -> Void] = []
    /// Decides each gate; default: cancel.
    var onSatisfy: (Precondition, @escaping (Bool) -> Void) -> Void = { _, completion in completion(false) }

    var executedLeaves: [RouteStep?] { executed.map { $0.0.leaf } }

    func execute(_ target: Target, source: RouteSource, completion: @escaping () -> Void) {
        executed.append((target, source))
        if deferExecution { pendingCompletions.append(completion) } else { completion() }
    }

    func satisfy(_ precondition: Precondition, completion: @escaping (Bool) -> Void) {
        satisfyRequests.append(precondition)
        onSatisfy(precondition, completion)
    }

    /// Finishes the oldest execution still in flight.
    func finishOne() {
        guard !pendingCompletions.isEmpty else {
            Issue.record("no execution in flight")
            return
        }
        pendingCompletions.removeFirst()()
    }
}

/// The app's mutable situation, read by the context closure on every pass.
final class Situation {
    var satisfied: Set<Precondition> = []
    var contextsBuilt = 0
}

@Suite("RouteDispatcher")
struct RouteDispatcherTests {
    let log = EventLog()
    let root = FakeRoot()
    let situation = Situation()
    let dispatcher: RouteDispatcher

    init() throws {
        let situation = self.situation
        dispatcher = RouteDispatcher(engine: try Fixture.engine(), root: root, log: log, gateBound: 4) {
            situation.contextsBuilt += 1
            return RouteContext(satisfied: situation.satisfied)
        }
    }

    @Test func proceedExecutes() throws {
        let outcome = dispatcher.dispatch(RouteRequest("product", params: ["id": "p1"]), source: .internal)
        let target = try Fixture.engine().target(for: RouteRequest("product", params: ["id": "p1"]))
        #expect(outcome == .proceed(target))
        #expect(root.executed.map(\.0) == [target])
        #expect(root.executed.map(\.1) == [.internal])
        #expect(root.satisfyRequests.isEmpty)
        #expect(log.texts == ["resolve product:p1 proceed"])
        #expect(dispatcher.isIdle)
    }

    @Test func satisfiedGateReDispatchesWithAFreshContext() throws {
        root.onSatisfy = { [situation] precondition, completion in
            situation.satisfied.insert(precondition)  // the session commits first…
            completion(true)  // …then the flow reports success
        }
        let outcome = dispatcher.dispatch(RouteRequest("cart"), source: .external)
        #expect(outcome == .gated(Fixture.auth, resume: RouteRequest("cart")))
        #expect(root.satisfyRequests == [Fixture.auth])
        #expect(root.executedLeaves == [step("cart")])
        #expect(root.executed.first?.1 == .external, "the resumed intent keeps its source")
        #expect(situation.contextsBuilt == 2, "one context per pass")
        #expect(log.texts == ["resolve cart gated auth", "gate auth cart", "resume cart", "resolve cart proceed"])
    }

    @Test func aGateReportedSatisfiedIsReEvaluatedNotTrusted() throws {
        // The flow says "done" but the session is not committed yet: the fresh
        // context still gates, so the dispatcher asks again instead of executing.
        var calls = 0
        root.onSatisfy = { [situation] precondition, completion in
            calls += 1
            if calls == 2 { situation.satisfied.insert(precondition) }
            completion(true)
        }
        dispatcher.dispatch(RouteRequest("orders"), source: .internal)
        #expect(root.satisfyRequests == [Fixture.auth, Fixture.auth])
        #expect(root.executedLeaves == [step("orders")])
        #expect(situation.contextsBuilt == 3)
    }

    @Test func chainedGatesComposeInOrder() throws {
        root.onSatisfy = { [situation] precondition, completion in
            situation.satisfied.insert(precondition)
            completion(true)
        }
        dispatcher.dispatch(RouteRequest("checkout"), source: .external)
        #expect(root.satisfyRequests == [Fixture.auth, Fixture.payment])
        #expect(root.executedLeaves == [step("checkout")])
        #expect(
            log.texts == [
                "resolve checkout gated auth", "gate auth checkout", "resume checkout",
                "resolve checkout gated payment_method", "gate payment_method checkout", "resume checkout",
                "resolve checkout proceed"
            ])
    }

    @Test func aCancelledSecondGateDropsTheWholeIntent() throws {
        root.onSatisfy = { [situation] precondition, completion in
            if precondition == Fixture.auth { situation.satisfied.insert(precondition) }
            completion(precondition == Fixture.auth)
        }
        dispatcher.dispatch(RouteRequest("checkout"), source: .external)
        #expect(root.executed.isEmpty)
        #expect(log.texts.suffix(2) == ["gate payment_method checkout", "drop checkout"])
    }

    @Test func cancelDropsTheIntent() throws {
        let outcome = dispatcher.dispatch(RouteRequest("cart"), source: .external)
        #expect(outcome == .gated(Fixture.auth, resume: RouteRequest("cart")))
        #expect(root.executed.isEmpty)
        #expect(log.texts == ["resolve cart gated auth", "gate auth cart", "drop cart"])
        #expect(dispatcher.isIdle)
        // Nothing was remembered: a later, satisfied dispatch runs once.
        situation.satisfied = [Fixture.auth]
        dispatcher.dispatch(RouteRequest("product", params: ["id": "p1"]), source: .internal)
        #expect(root.executedLeaves == [step("product", id: "p1")])
    }

    @Test func anAsynchronousGateResumesWhenTheRootReports() throws {
        var pending: ((Bool) -> Void)?
        root.onSatisfy = { _, completion in pending = completion }
        dispatcher.dispatch(RouteRequest("cart"), source: .external)
        #expect(root.executed.isEmpty)
        situation.satisfied = [Fixture.auth]
        let resume = try #require(pending)
        resume(true)
        #expect(root.executedLeaves == [step("cart")])
    }

    @Test func theLoopGuardStopsAGateThatNeverClears() throws {
        root.onSatisfy = { _, completion in completion(true) }  // lies: the context never changes
        let outcome = dispatcher.dispatch(RouteRequest("cart"), source: .external)
        #expect(outcome == .gated(Fixture.auth, resume: RouteRequest("cart")))
        #expect(root.satisfyRequests.count == dispatcher.gateBound)
        #expect(root.executed.isEmpty)
        #expect(log.texts.last == "loop-guard cart auth \(dispatcher.gateBound)")
        #expect(log.texts.filter { $0.hasPrefix("loop-guard") }.count == 1)
        #expect(dispatcher.isIdle)
    }

    @Test func theLoopGuardOutcomeIsReturnedWhenTheBoundIsHitSynchronously() throws {
        let root = FakeRoot()
        root.onSatisfy = { _, completion in completion(true) }
        let zero = RouteDispatcher(engine: try Fixture.engine(), root: root, log: log, gateBound: 0) { RouteContext() }
        #expect(zero.dispatch(RouteRequest("cart"), source: .internal) == .loopGuard(RouteRequest("cart"), Fixture.auth))
        #expect(root.satisfyRequests.isEmpty)
        #expect(log.texts == ["resolve cart gated auth", "loop-guard cart auth 0"])
    }

    @Test func aRequestArrivingDuringExecutionIsQueuedAndRunsAfterInOrder() throws {
        root.deferExecution = true
        let a = RouteRequest("product", params: ["id": "p1"])
        let b = RouteRequest("product", params: ["id": "p2"])
        let c = RouteRequest("profile")
        #expect(dispatcher.dispatch(a, source: .external) == .proceed(try Fixture.engine().target(for: a)))
        #expect(dispatcher.dispatch(b, source: .internal) == .queued(b))
        #expect(dispatcher.dispatch(c, source: .external) == .queued(c))
        #expect(root.executedLeaves == [step("product", id: "p1")], "never interleaved")
        #expect(!dispatcher.isIdle)
        #expect(
            dispatcher.pending == [
                "executing product:p1 (its completion not called yet)", "queued product:p2 (internal)", "queued profile (external)"
            ], "what is under way, named")

        root.finishOne()
        #expect(root.executedLeaves == [step("product", id: "p1"), step("product", id: "p2")])
        #expect(root.executed.last?.1 == .internal, "a queued request keeps its source")
        root.finishOne()
        root.finishOne()
        #expect(root.executedLeaves == [step("product", id: "p1"), step("product", id: "p2"), step("profile")])
        #expect(dispatcher.isIdle)
        #expect(dispatcher.pending.isEmpty)
        #expect(
            log.texts == [
                "resolve product:p1 proceed", "queue product:p2", "queue profile",
                "dequeue product:p2", "resolve product:p2 proceed",
                "dequeue profile", "resolve profile proceed"
            ])
    }

    @Test func aDispatchFromInsideExecuteIsQueuedNotNested() throws {
        // A coordinator that routes again while carrying out a target (a flow
        // whose start immediately forwards somewhere) re-enters the funnel.
        var inner: RouteDispatcher.Outcome?
        let reentrant = ReentrantRoot()
        let dispatcher = RouteDispatcher(engine: try Fixture.engine(), root: reentrant, log: log) { RouteContext() }
        reentrant.onExecute = { target in
            if target.leaf == step("home") { inner = dispatcher.dispatch(RouteRequest("profile"), source: .internal) }
        }
        dispatcher.dispatch(RouteRequest("home"), source: .internal)
        #expect(inner == .queued(RouteRequest("profile")))
        #expect(reentrant.log == ["begin home", "end home", "begin profile", "end profile"], "never interleaved")
        #expect(dispatcher.isIdle)
    }

    @Test func aQueuedRequestIsResolvedWhenDequeuedAgainstTheThenContext() throws {
        root.deferExecution = true
        dispatcher.dispatch(RouteRequest("home"), source: .internal)
        dispatcher.dispatch(RouteRequest("orders"), source: .internal)
        situation.satisfied = [Fixture.auth]  // login committed while the first ran
        root.finishOne()
        #expect(root.executedLeaves == [step("home"), step("orders")])
        #expect(root.satisfyRequests.isEmpty)
    }

    @Test func aDeliveryDuringExecutionIsQueuedToo() throws {
        root.deferExecution = true
        dispatcher.deliver(.url("shop://home"), via: .scheme)
        let outcome = dispatcher.deliver(.url("https://shop.example.com/p/p9"), via: .universal)
        #expect(outcome == .queued(RouteRequest("product", params: ["id": "p9"])))
        root.finishOne()
        #expect(root.executedLeaves == [step("home"), step("product", id: "p9")])
        #expect(root.executed.map(\.1) == [.external, .external])
    }

    /// A dequeued request that does not execute (rejected, or gated and
    /// cancelled) never calls the root's completion, and `didFinishExecuting`
    /// only dequeues from that completion — so everything behind it is stranded.
    @Test(
        "the queue keeps draining when a dequeued request does not execute",
        arguments: [RouteRequest("nowhere"), RouteRequest("cart"), RouteRequest("order", params: ["id": "x"])])
    func queueDrainsPastANonExecutingRequest(_ blocker: RouteRequest) throws {
        root.deferExecution = true
        dispatcher.dispatch(RouteRequest("home"), source: .internal)
        dispatcher.dispatch(blocker, source: .internal)
        dispatcher.dispatch(RouteRequest("profile"), source: .internal)
        root.finishOne()  // home done → blocker dequeued, rejected or dropped
        #expect(log.texts.contains("dequeue \(blocker)"))
        #expect(root.executedLeaves == [step("home"), step("profile")])
        root.finishOne()  // profile done
        #expect(dispatcher.isIdle)
    }

    @Test(
        "deliver rejects bad input with a reject event",
        arguments: [
            ("%zz", "malformed"),
            ("shop://product/%ff%fe", "malformed"),
            ("", "malformed"),
            ("shop://nowhere", "unknown_route"),
            ("shop://orders/abc", "validation_failed")
        ])
    func deliverRejects(_ url: String, _ kind: String) throws {
        let outcome = dispatcher.deliver(.url(url), via: .scheme)
        guard case .rejected(let error) = outcome else {
            Issue.record("expected a rejection, got \(outcome)")
            return
        }
        #expect(error.kind == kind)
        #expect(log.texts == ["deliver scheme \(url)", "reject \(kind) \(url)"])
        #expect(root.executed.isEmpty)
        #expect(root.satisfyRequests.isEmpty)
        #expect(situation.contextsBuilt == 0, "rejected before any evaluation")
    }

    @Test func deliverLiftsEveryEntryPointThroughTheSameFunnel() throws {
        situation.satisfied = [Fixture.auth]
        dispatcher.deliver(.payload(["route": "orders/7"]), via: .push)
        dispatcher.deliver(.activity(type: "t", userInfo: ["identifier": "product/p3"]), via: .spotlight)
        dispatcher.deliver(.url("shop://profile"), via: .widget)
        #expect(root.executedLeaves == [step("order", id: "7"), step("product", id: "p3"), step("profile")])
        #expect(root.executed.allSatisfy { $0.1 == .external })
        #expect(
            log.texts.filter { $0.hasPrefix("deliver") }
                == [
                    "deliver push {route=orders/7}", "deliver spotlight activity t {identifier=product/p3}", "deliver widget shop://profile"
                ])
    }

    @Test func anInAppRequestForAnUnknownDestinationIsRejected() throws {
        #expect(dispatcher.dispatch(RouteRequest("nowhere"), source: .internal) == .rejected(.unknownRoute(input: "nowhere")))
        #expect(log.texts == ["reject unknown_route nowhere"])
    }

    @Test func theDispatcherDoesNotRetainTheRoot() throws {
        weak var weakRoot: FakeRoot?
        let dispatcher: RouteDispatcher
        do {
            let root = FakeRoot()
            weakRoot = root
            dispatcher = RouteDispatcher(engine: try Fixture.engine(), root: root, log: log) { RouteContext() }
        }
        #expect(weakRoot == nil)
        // Without a root it still decides, it just cannot execute.
        #expect(
            dispatcher.dispatch(RouteRequest("home"), source: .internal)
                == .proceed(Target(tab: "home", baseRun: [step("home")])))
        #expect(dispatcher.isIdle)
    }
}

/// A root that runs a hook in the middle of `execute`, then completes.
final class ReentrantRoot: RootCoordinating {
    var log: [String] = []
    var onExecute: (Target) -> Void = { _ in }

    func execute(_ target: Target, source: RouteSource, completion: @escaping () -> Void) {
        let name = target.leaf?.description ?? "?"
        log.append("begin \(name)")
        onExecute(target)
        log.append("end \(name)")
        completion()
    }

    func satisfy(_ precondition: Precondition, completion: @escaping (Bool) -> Void) { completion(false) }
}
