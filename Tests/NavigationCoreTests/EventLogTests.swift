import Testing

@testable import NavigationCore

/// An app's own event, as a team would declare it.
private enum TestAppEvent: AppEvent {
    case boot
    case marked(String)
    var text: String {
        switch self {
        case .boot: return "boot"
        case .marked(let label): return "marked \(label)"
        }
    }
}

@Suite("EventLog")
struct EventLogTests {
    @Test func theFirstLoopGuardIsKeptAsRecorded() {
        let log = EventLog()
        log.record(.push("home"))
        #expect(log.firstLoopGuard == nil)
        let cart = RouteRequest("cart")
        log.beginStep("deep link")
        log.record(.loopGuard(cart, "auth", count: 3))
        log.record(.loopGuard(RouteRequest("orders"), "auth", count: 4))
        #expect(log.firstLoopGuard?.index == 1)
        #expect(log.firstLoopGuard?.step == 1)
        #expect(log.firstLoopGuard?.text == "loop-guard cart auth 3")
    }

    /// With a retention, the log keeps about that many of its latest entries
    /// and step names; indices and step numbers still count from the first,
    /// and the first loop guard outlives the entries dropped.
    @Test func aRetentionKeepsTheLatestEntriesAndCountsTheRest() {
        let log = EventLog()
        log.record(.loopGuard(RouteRequest("cart"), "auth", count: 3))
        _ = log.texts  // rendered before the drop: the cache is dropped with its entries
        log.retention = 8
        for number in 1...30 {
            log.beginStep("step \(number)")
            log.record(.push("item:\(number)"))
        }
        #expect(log.count == 31)
        #expect(log.entries.count <= 8 + 2 && log.entries.count >= 8, "about the retention: \(log.entries.count)")
        #expect(log.droppedCount + log.entries.count == 31)
        #expect(log.entries.first?.index == log.droppedCount, "indices count from the log's first entry")
        #expect(log.entries.last?.index == 30 && log.entries.last?.step == 30)
        #expect(log.texts.last == "push item:30" && log.texts.count == log.entries.count)
        #expect(log.texts.first == log.entries.first?.text)
        #expect(log.firstLoopGuard?.text == "loop-guard cart auth 3", "kept though its entry is gone")
        #expect(log.name(ofStep: 30) == "step 30")
        #expect(log.name(ofStep: 2) == "?", "dropped")
        #expect(log.droppedStepNames + log.stepNames.count == 31)
        // Lowering it drops at once; nil keeps everything from then on.
        log.retention = 2
        #expect(log.entries.map(\.text) == ["push item:29", "push item:30"])
        log.retention = nil
        for number in 31...40 { log.record(.push("item:\(number)")) }
        #expect(log.entries.count == 12 && log.count == 41)
    }

    @Test func entriesAreOrderedAndStampedWithTheirStep() {
        let log = EventLog()
        log.record(TestAppEvent.boot)
        log.beginStep("tap product")
        log.record(.push("product:p1"))
        log.record(TestAppEvent.marked("x"))
        log.beginStep("tap back")
        log.record(.pop("product:p1"))
        #expect(log.entries.map(\.index) == [0, 1, 2, 3])
        #expect(log.entries.map(\.step) == [0, 1, 1, 2])
        #expect(log.texts == ["boot", "push product:p1", "marked x", "pop product:p1"])
        #expect(log.step == 2)
        #expect(log.stepNames == ["launch", "tap product", "tap back"])
        #expect(log.name(ofStep: 1) == "tap product")
        #expect(log.name(ofStep: 3) == "?")
        #expect(log.name(ofStep: -1) == "?")
        #expect(log.entries[1].description == "push product:p1")
    }

    @Test func appEventsAreEqualByTheirWords() {
        #expect(NavEvent.app(TestAppEvent.marked("x")) == .app(TestAppEvent.marked("x")))
        #expect(NavEvent.app(TestAppEvent.marked("x")) != .app(TestAppEvent.marked("y")))
        #expect(Set([NavEvent.app(TestAppEvent.boot), .app(TestAppEvent.boot)]).count == 1)
    }

    @Test func theObserverSeesEveryEntryAsItIsRecorded() {
        let log = EventLog()
        var seen: [String] = []
        log.observer = { seen.append("\($0.index):\($0.text)") }
        log.record(.sessionCommit)
        log.record(.selectTab("home"))
        #expect(seen == ["0:session-commit", "1:select-tab home"])
    }

    /// The vocabulary is a public contract (scenarios match on it): each
    /// case renders exactly as documented in NavEvent.swift.
    @Test("each event renders in the documented vocabulary", arguments: Self.renderings)
    func vocabulary(_ event: NavEvent, _ text: String) {
        #expect(event.text == text)
        #expect(event.description == text)
    }

    /// `NavEvent.vocabulary` (what the scenario reference lists) names
    /// exactly the leading words the core's events render with.
    @Test func theDocumentedVocabularyCoversEveryCoreEvent() {
        let rendered = Set(
            Self.renderings.filter { if case .app = $0.0 { return false } else { return true } }
                .map { $0.1.split(separator: " ").first.map(String.init) ?? "" })
        let documented = Set(NavEvent.vocabulary.map { $0.form.split(separator: " ").first.map(String.init) ?? "" })
        #expect(rendered == documented)
    }

    static let renderings: [(NavEvent, String)] = [
        (NavEvent.deliver(.universal, "https://x/p"), "deliver universal https://x/p"),
        (.resolveProceed(RouteRequest("product", params: ["id": "p1"])), "resolve product:p1 proceed"),
        (.resolveGated(RouteRequest("cart"), "auth"), "resolve cart gated auth"),
        (.reject(kind: "malformed", input: "%zz"), "reject malformed %zz"),
        (.queue(RouteRequest("order", params: ["id": "7"])), "queue order:7"),
        (.dequeue(RouteRequest("order", params: ["id": "7"])), "dequeue order:7"),
        (.gate("auth", RouteRequest("cart")), "gate auth cart"),
        (.resume(RouteRequest("cart")), "resume cart"),
        (.drop(RouteRequest("cart")), "drop cart"),
        (.loopGuard(RouteRequest("cart"), "auth", count: 5), "loop-guard cart auth 5"),
        (.execute(step("track", id: "42"), .external), "execute track:42 external"),
        (.execute(step("home"), .internal), "execute home internal"),
        (.selectTab("orders"), "select-tab orders"),
        (.push("product:p1"), "push product:p1"),
        (.pop("product:p1"), "pop product:p1"),
        (.popTo("home"), "pop-to home"),
        (.setStack("home", ["home", "product:p1"]), "set-stack home home product:p1"),
        (.setStack("home", []), "set-stack home"),
        (.update("product:p2"), "update product:p2"),
        (.present("cart"), "present cart"),
        (.presentRejected("settings"), "present-rejected settings"),
        (.dismiss("cart"), "dismiss cart"),
        (.swipeCancelled("product:p1"), "swipe-cancelled product:p1"),
        (.willDisappear("product:p1"), "will-disappear product:p1"),
        (.sessionCommit, "session-commit"),
        (.sessionClear, "session-clear"),
        (.sessionExpire, "session-expire"),
        (.start("app/checkout"), "start app/checkout"),
        (.finish("app/checkout", .completed), "finish app/checkout completed"),
        (.finish("app/auth", .cancelled), "finish app/auth cancelled"),
        (.release("vm cart"), "release vm cart"),
        (.dealloc("cart"), "dealloc cart"),
        (.joinGate("auth"), "join-gate auth"),
        (.stash(.push, "{route=cart}"), "stash push {route=cart}"),
        (.cannotBuild("app/browse", step("cart")), "cannot-build app/browse cart"),
        (.noModalFlow(step("settings")), "no-modal-flow settings"),
        (.unsatisfiable("payment_method"), "unsatisfiable payment_method"),
        (.warning(PlatformWarning(.secondPresentation, "promo", "why")), "warning second-presentation promo"),
        (.sceneOpen(2), "scene-open 2"), (.sceneFocus(1), "scene-focus 1"), (.sceneClose(2), "scene-close 2"),
        (.sceneRestore(3), "scene-restore 3"),
        (.app(TestAppEvent.marked("anything")), "marked anything")
    ]

    @Test func requestsAndStepsAreLabelledByTheirPrimaryParam() {
        #expect(RouteStep("order", params: ["id": "7", "tab": "x"]).description == "order:7")
        #expect(RouteStep("category", params: ["slug": "b", "page": "2"]).description == "category:2", "first by name")
        #expect(RouteStep("home").primaryParam == nil)
        #expect(RouteRequest("promo", params: ["code": "X1"]).description == "promo:X1")
    }

    @Test func textsRenderedOnceStayTrueAsTheLogGrows() {
        let log = EventLog()
        log.record(.selectTab("home"))
        #expect(log.texts == ["select-tab home"])
        log.record(.selectTab("orders"))
        log.record(.selectTab("profile"))
        #expect(log.texts == log.entries.map(\.text))
        #expect(log.texts.count == 3)
    }
}
