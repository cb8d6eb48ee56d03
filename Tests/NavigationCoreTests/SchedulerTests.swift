import Testing

@testable import NavigationCore

@Suite("Scheduler")
struct SchedulerTests {
    /// A schedule with ties, nesting and zero/negative delays; returns the trace.
    static func run(_ scheduler: Scheduler) throws -> [String] {
        var trace: [String] = []
        func note(_ label: String) { trace.append("\(scheduler.now) \(label)") }
        scheduler.schedule(after: 300, "a") { note("a") }
        scheduler.schedule(after: 100, "b") {
            note("b")
            scheduler.schedule(after: 200, "b1") { note("b1") }  // due 300, after a (scheduled earlier)
            scheduler.schedule(after: 0, "b2") { note("b2") }  // due 100, runs next
        }
        scheduler.schedule(after: 300, "c") { note("c") }
        scheduler.schedule(after: -50, "d") { note("d") }  // clamped to now
        try scheduler.settle()
        return trace
    }

    @Test func sameScheduleSameTrace() throws {
        let first = try Self.run(Scheduler())
        let second = try Self.run(Scheduler())
        #expect(first == second)
        #expect(first == ["0 d", "100 b", "100 b2", "300 a", "300 c", "300 b1"])
    }

    @Test func tiesRunInSchedulingOrder() throws {
        let scheduler = Scheduler()
        var order: [Int] = []
        for i in 0..<50 { scheduler.schedule(after: 10, "t\(i)") { order.append(i) } }
        #expect(scheduler.pending == (0..<50).map { "t\($0)" })
        try scheduler.settle()
        #expect(order == Array(0..<50))
        #expect(scheduler.now == 10)
    }

    @Test func runNextAdvancesVirtualTimeOneTaskAtATime() {
        let scheduler = Scheduler()
        var ran: [String] = []
        scheduler.schedule(after: 20, "late") { ran.append("late") }
        scheduler.schedule(after: 5, "early") { ran.append("early") }
        #expect(scheduler.pending == ["early", "late"])
        #expect(scheduler.runNext())
        #expect(ran == ["early"])
        #expect(scheduler.now == 5)
        #expect(!scheduler.isIdle)
        #expect(scheduler.runNext())
        #expect(scheduler.now == 20)
        #expect(!scheduler.runNext())
        #expect(scheduler.isIdle)
        #expect(scheduler.now == 20, "time does not move when idle")
    }

    @Test func delaysAreRelativeToTheVirtualNow() {
        let scheduler = Scheduler()
        var times: [Int] = []
        scheduler.schedule(after: 100, "x") {
            scheduler.schedule(after: 100, "y") { times.append(scheduler.now) }
        }
        #expect(throws: Never.self) { try scheduler.settle() }
        #expect(times == [200])
    }

    @Test func selfReschedulingWorkHitsTheSettleBound() {
        let scheduler = Scheduler()
        func spin() { scheduler.schedule(after: 1, "spinner") { spin() } }
        spin()
        let error = #expect(throws: SchedulerError.self) { try scheduler.settle(maxTasks: 100) }
        #expect(error?.tasksRun == 100)
        #expect(error?.pending == ["spinner"])
        #expect(error?.description == "the app did not settle after 100 scheduled tasks; still pending: spinner")
    }

    @Test func theDefaultBoundAlsoStopsAZeroDelaySpinner() {
        let scheduler = Scheduler()
        func spin() { scheduler.schedule("zero") { spin() } }
        spin()
        #expect(throws: SchedulerError.self) { try scheduler.settle() }
        #expect(scheduler.now == 0)
    }

    /// Running exactly `maxTasks` tasks and then being idle is settling, not
    /// failing: the bound is checked before asking whether work remains.
    @Test func settlingInExactlyTheBoundIsNotAnError() {
        let scheduler = Scheduler()
        for i in 0..<3 { scheduler.schedule("t\(i)") {} }
        #expect(throws: Never.self) { try scheduler.settle(maxTasks: 3) }
        #expect(scheduler.isIdle)
    }
}

@Suite("Scheduler turns")
struct SchedulerTurnTests {
    @Test func theHookRunsAfterEveryTaskInOrder() throws {
        let scheduler = Scheduler()
        var trace: [String] = []
        scheduler.afterEachTask = { trace.append("frame") }
        scheduler.schedule(after: 10, "b") { trace.append("b") }
        scheduler.schedule(after: 0, "a") { trace.append("a") }
        try scheduler.settle()
        #expect(trace == ["a", "frame", "b", "frame"])
    }
}
