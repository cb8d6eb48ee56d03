import Testing

@testable import NavigationCore

@Suite("Scenes: the windows an app has open")
struct SceneSetTests {
    final class Window {
        let number: Int
        init(_ number: Int) { self.number = number }
    }

    @Test func windowsOpenInFrontWithNumbersThatAreNotReused() throws {
        let log = EventLog()
        let scenes = SceneSet(log: log, first: Window(1))
        #expect(scenes.numbers == [1] && scenes.foreground == 1)
        let second = scenes.open { Window($0) }
        #expect(second == 2 && scenes.foreground == 2 && scenes.foregroundScene.number == 2)
        try scenes.close(2)
        let third = scenes.open { Window($0) }
        #expect(third == 3, "a closed window's number is not reused")
        #expect(scenes.numbers == [1, 3])
        #expect(log.texts == ["scene-open 2", "scene-close 2", "scene-focus 1", "scene-open 3"])
    }

    @Test func closingTheFrontWindowHandsTheFrontToTheOneFocusedBefore() throws {
        let log = EventLog()
        let scenes = SceneSet(log: log, first: Window(1))
        scenes.open { Window($0) }
        scenes.open { Window($0) }
        try scenes.focus(2)
        try scenes.focus(3)
        try scenes.close(3)
        #expect(scenes.foreground == 2, "2 was focused after 1")
        try scenes.close(1)
        #expect(scenes.foreground == 2, "closing a background window leaves the front as it is")
        #expect(log.texts.suffix(3) == ["scene-close 3", "scene-focus 2", "scene-close 1"])
    }

    @Test func focusingTheFrontWindowLogsNothing() throws {
        let log = EventLog()
        let scenes = SceneSet(log: log, first: Window(1))
        try scenes.focus(1)
        #expect(log.texts.isEmpty)
    }

    @Test func anUnknownWindowAndTheLastWindowAreRefused() {
        let scenes = SceneSet(log: EventLog(), first: Window(1))
        #expect(throws: SceneError.lastScene(1)) { try scenes.close(1) }
        #expect(throws: SceneError.noSuchScene(4, open: [1])) { try scenes.focus(4) }
        #expect(throws: SceneError.noSuchScene(4, open: [1])) { try scenes.close(4) }
        #expect(SceneError.lastScene(1).description.contains("open another first"))
        #expect(scenes.scene(2) == nil)
    }

    /// A restored run's windows come back under the numbers they had, and a later window gets a
    /// number none of that run's windows had: the first window's number and the next are given,
    /// a restored window reopens under its own, a number in use is not taken twice.
    @Test func restoredWindowsKeepTheirNumbers() {
        final class W {}
        let scenes = SceneSet(log: EventLog(), first: W(), number: 2, next: 5)
        #expect(scenes.numbers == [2] && scenes.foreground == 2)
        #expect(scenes.open(restoring: 3) { _ in W() } == 3)
        #expect(scenes.open(restoring: 3) { _ in W() } == 5, "3 is open: the next number")
        #expect(scenes.open { _ in W() } == 6)
        #expect(scenes.numbers == [2, 3, 5, 6])
        #expect(SceneSet(log: EventLog(), first: W()).open { _ in W() } == 2)
    }

    @Test func everyExpiryObserverHearsAnExpiry() {
        let log = EventLog()
        let session = SessionStore(log: log, token: "t")
        var heard: [String] = []
        session.onExpire = { heard.append("app") }
        session.observeExpiry { heard.append("scene 1") }
        session.observeExpiry { heard.append("scene 2") }
        session.expire()
        #expect(heard == ["app", "scene 1", "scene 2"])
        #expect(!session.isLoggedIn)
    }

    @Test func everyCommitObserverHearsACommitAfterItIsLogged() {
        let log = EventLog()
        let session = SessionStore(log: log)
        var heard: [String] = []
        session.observeCommit { heard.append("scene 1: \(session.isLoggedIn) \(log.texts.last ?? "")") }
        session.observeCommit { heard.append("scene 2") }
        session.commit(token: "t")
        #expect(heard == ["scene 1: true session-commit", "scene 2"])
        session.clear()
        session.expire()
        #expect(heard.count == 2, "only commits")
    }
}
