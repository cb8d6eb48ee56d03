import NavScript
import NavigationCore
import Testing

@testable import NavScriptRunner

/// The property "a gate's flow reports success only once its precondition
/// holds", watched on the log as it is written.
@Suite("Explore: gate completions")
struct GateCompletionWatchTests {
    /// An app whose only state is its log and whether the user is signed in.
    final class Session: AppDriver {
        let eventLog = EventLog()
        var signedIn: Bool? = false
        func perform(_ action: AppAction) throws(HostError) -> LinkOutcome? { nil }
        func settle() throws(HostError) {}
        func relaunch(restore: Bool) throws(HostError) -> any AppDriver { self }
        var state: NavigationState { NavigationState(selectedTab: "home", tabs: ["home"]) }
        var visibleScreen: String? { "home" }
        var coordinatorPaths: [String] { [] }
        var step: Int { 0 }
        var rootFlow: String { "main" }
        var leaks: [LifecycleTracker.Leak] { [] }
        var satisfiedPreconditions: Set<Precondition>? { signedIn.map { $0 ? ["auth"] : [] } }

        func gate() {
            eventLog.record(.gate("auth", RouteRequest("cart")))
            eventLog.record(.start("app/auth"))
            eventLog.record(.present("login"))
        }

        func commit() {
            signedIn = true  // stored, then logged: as SessionStore does
            eventLog.record(.sessionCommit)
        }

        func finish(_ result: FlowResult = .completed) { eventLog.record(.finish("app/auth", result)) }
    }

    @Test func aCompletionAfterTheCommitIsNoFinding() {
        let app = Session(), watch = GateCompletionWatch()
        watch.watch(app)
        app.gate()
        app.commit()
        app.finish()
        app.eventLog.record(.resume(RouteRequest("cart")))
        #expect(watch.takeFinding() == nil)
    }

    @Test func aCompletionBeforeTheCommitIsFoundWithTheEventThatSatisfiedIt() {
        let app = Session(), watch = GateCompletionWatch()
        var seen: [String] = []
        app.eventLog.observer = { seen.append($0.text) }  // an observer the app had is still called
        watch.watch(app)
        watch.watch(app)  // the same log again: watched once
        app.gate()
        app.finish()
        app.commit()
        let found = watch.takeFinding()
        #expect(
            found
                == .init(
                    precondition: "auth", gateEvent: "gate auth cart", completion: "finish app/auth completed",
                    satisfiedBy: "session-commit"))
        #expect(seen.count == 5)
        #expect(watch.takeFinding() == nil, "taken once")
        let reproducer = Explorer.violation(found!, step: 3)
        #expect(reproducer.assertion.last == #"expect_events{ "gate auth cart", "session-commit", "finish app/auth completed" }"#)
    }

    /// A completion whose precondition never comes to hold in the step is no
    /// finding here (a chained design may do that; what the resumed request
    /// does is judged elsewhere), and only the flow started right at the gate
    /// is the gate's: a sign-in a link opened later is not.
    @Test func onlyTheGatesOwnFlowRacingItsCommitIsFound() {
        let app = Session(), watch = GateCompletionWatch()
        watch.watch(app)
        app.gate()
        app.finish()
        #expect(watch.takeFinding() == nil, "never held in the step")
        app.eventLog.record(.gate("auth", RouteRequest("cart")))
        app.eventLog.record(.present("login"))  // joined an existing flow: nothing started at the gate
        app.eventLog.record(.start("app/auth"))  // a flow opened later (a link to the sign-in)
        app.eventLog.record(.finish("app/auth", .completed))
        app.commit()
        #expect(watch.takeFinding() == nil, "not the gate's flow")
    }

    @Test func aCancelledFlowOrAnotherFlowOrAnAppThatDoesNotSayIsNoFinding() {
        let app = Session(), watch = GateCompletionWatch()
        watch.watch(app)
        app.gate()
        app.finish(.cancelled)
        app.eventLog.record(.finish("app/other", .completed))
        #expect(watch.takeFinding() == nil)
        app.signedIn = nil
        app.gate()
        app.finish()
        #expect(watch.takeFinding() == nil, "an app that does not say what holds is not judged")
        // A new app (a restart) is watched afresh, and the old one's last words are not its.
        let next = Session()
        watch.watch(next)
        next.gate()
        app.eventLog.record(.finish("app/auth", .completed))
        next.signedIn = true
        #expect(watch.staleGateFlow()?.flow == "app/auth", "the new app's flow is still watched")
        next.signedIn = false
        next.finish()
        next.commit()
        #expect(watch.takeFinding() != nil)
    }

    /// A gate's flow still up once its precondition holds (signed in in
    /// another window) is found; one that ended, or was released, is not.
    @Test func aGateFlowLeftUpOnceItsPreconditionHoldsIsFound() {
        let app = Session(), watch = GateCompletionWatch()
        watch.watch(app)
        app.gate()
        #expect(watch.staleGateFlow() == nil, "up, and rightly: not signed in")
        app.commit()  // elsewhere: this flow heard nothing
        let stale = watch.staleGateFlow()
        #expect(stale?.flow == "app/auth" && stale?.precondition == "auth" && stale?.gateEvent == "gate auth cart")
        app.eventLog.record(.release("app/auth"))
        #expect(watch.staleGateFlow() == nil, "released")
        app.signedIn = false
        app.gate()
        app.commit()
        app.finish()
        #expect(watch.staleGateFlow() == nil, "finished")
        app.signedIn = false
        app.gate()
        watch.watch(nil)  // a walk without an app yet forgets the one it watched
        app.signedIn = true
        #expect(watch.staleGateFlow() == nil)
    }
}
