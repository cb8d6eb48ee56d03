import Testing

@testable import NavigationCore

/// Records what a coordinator would learn from the stack's delegate, without
/// retaining any screen (a strong reference here would itself be a leak).
final class StackSpy: NavigationStackDelegate {
    struct Call: Equatable, CustomStringConvertible {
        let shown: String
        let from: String?
        /// nil when there is no `from`; otherwise whether it is still on the stack.
        let fromStillInStack: Bool?

        /// The coordinator's pop test: a `from` that left the stack.
        var isPop: Bool { fromStillInStack == false }
        var description: String { "\(shown) from \(from ?? "nil") \(fromStillInStack.map { $0 ? "(in)" : "(gone)" } ?? "")" }
    }

    var calls: [Call] = []

    func navigationStack(_ stack: NavigationStack, didShow screen: Screen, from: Screen?) {
        calls.append(
            Call(
                shown: screen.label, from: from?.label,
                fromStillInStack: from.map { f in stack.screens.contains { $0 === f } }))
    }
}

@Suite("NavigationStack: pop detection")
struct NavigationStackTests {
    let world = World()
    let spy = StackSpy()
    var stack: NavigationStack { world.nav.stack("home") }

    init() {
        world.nav.stack("home").delegate = spy
        world.push([step("home"), step("product", id: "p1")], on: "home")
    }

    @Test func pushReportsFromStillInTheStack() {
        #expect(
            spy.calls == [
                .init(shown: "home", from: nil, fromStillInStack: nil),
                .init(shown: "product:p1", from: "home", fromStillInStack: true)
            ])
        #expect(!spy.calls.contains { $0.isPop })
    }

    @Test func backButtonPopReportsFromNoLongerInTheStack() throws {
        spy.calls = []
        let mark = world.log.entries.count
        try world.nav.backButton()
        #expect(spy.calls == [.init(shown: "home", from: "product:p1", fromStillInStack: false)])
        #expect(spy.calls.last?.isPop == true)
        #expect(stack.screens.map(\.label) == ["home"])
        #expect(
            world.events(since: mark) == [
                "will-disappear product:p1", "pop product:p1", "release product:p1",
                "dealloc product:p1"
            ])
    }

    @Test func completedBackSwipeIsAPopToo() throws {
        spy.calls = []
        try world.nav.backSwipe(cancel: false)
        #expect(spy.calls == [.init(shown: "home", from: "product:p1", fromStillInStack: false)])
        #expect(stack.screens.count == 1)
    }

    @Test func cancelledSwipeKeepsTheScreenAndReportsFromStillInTheStack() throws {
        var willDisappear = 0
        stack.top?.onWillDisappear = { willDisappear += 1 }
        let shown = ObjectIdentifier(try #require(stack.top))
        spy.calls = []
        let mark = world.log.entries.count

        try world.nav.backSwipe(cancel: true)

        #expect(willDisappear == 1, "UIKit fires viewWillDisappear even for a swipe the user cancels")
        #expect(spy.calls == [.init(shown: "product:p1", from: "product:p1", fromStillInStack: true)])
        #expect(spy.calls.last?.isPop == false)
        #expect(stack.screens.map(\.label) == ["home", "product:p1"])
        #expect(stack.top.map(ObjectIdentifier.init) == shown, "the very same screen, not a rebuilt one")
        #expect(world.events(since: mark) == ["will-disappear product:p1", "swipe-cancelled product:p1"])
        #expect(!world.tracker.hasLeft(try #require(stack.top)))
        #expect(world.tracker.leaks().isEmpty)
    }

    @Test func nonAnimatedPopReportsNoFrom() throws {
        spy.calls = []
        let popped = stack.pop(animated: false)
        #expect(popped?.label == "product:p1")
        #expect(spy.calls == [.init(shown: "home", from: nil, fromStillInStack: nil)])
        // Hence "from == nil" must not be read as "not a pop": the stack shrank.
        #expect(stack.screens.count == 1)
        #expect(world.tracker.hasLeft(try #require(popped)))
    }

    @Test func nonAnimatedSwipeAndPushReportNoFromEither() throws {
        spy.calls = []
        try stack.backSwipe(cancel: false, animated: false)
        stack.push(world.screen("product", ["id": "p2"]), animated: false)
        #expect(spy.calls.map(\.from) == [nil, nil])
    }

    @Test func backButtonAtTheRootIsAnError() throws {
        _ = stack.pop()
        #expect(throws: NavigationError.nothingToPop(screen: "home")) { try world.nav.backButton() }
        #expect(throws: NavigationError.nothingToPop(screen: "home")) { try world.nav.backSwipe(cancel: true) }
        #expect(stack.pop() == nil)
        #expect(stack.screens.count == 1)
    }

    @Test func popToReportsTheOldTopAndReleasesEverythingAbove() throws {
        world.push([step("reviews", id: "p1"), step("category", ["slug": "x"])], on: "home")
        spy.calls = []
        let mark = world.log.entries.count
        stack.pop(to: "product")
        #expect(stack.screens.map(\.label) == ["home", "product:p1"])
        #expect(spy.calls == [.init(shown: "product:p1", from: "category:x", fromStillInStack: false)])
        let after = world.decisions(since: mark)
        #expect(after.events == ["pop-to product:p1", "release category:x", "release reviews:p1"])
        #expect(after.deallocated == ["category:x", "reviews:p1"])
        // Popping to the top, or to something absent, does nothing.
        stack.pop(to: "product")
        stack.pop(to: "nowhere")
        #expect(spy.calls.count == 1)
    }

    @Test func setScreensKeepsReusedInstancesAndReleasesTheRest() throws {
        let home = try #require(stack.root)
        let homeID = ObjectIdentifier(home)
        spy.calls = []
        stack.setScreens([home, world.screen("category", ["slug": "x"])])
        #expect(stack.root.map(ObjectIdentifier.init) == homeID)
        #expect(world.log.texts.suffix(3) == ["set-stack home home category:x", "release product:p1", "dealloc product:p1"])
        #expect(spy.calls == [.init(shown: "category:x", from: "product:p1", fromStillInStack: false)])
        #expect(!world.tracker.hasLeft(home))
    }

    @Test func removeAllReleasesEveryScreenWithoutATransition() {
        spy.calls = []
        stack.removeAll()
        #expect(stack.screens.isEmpty)
        #expect(spy.calls.isEmpty)
        #expect(world.tracker.leaks().isEmpty)
        let after = world.decisions()
        #expect(after.events.suffix(2) == ["release product:p1", "release home"])
        #expect(after.deallocated == ["product:p1", "home"])
    }
}
