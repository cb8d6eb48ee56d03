import NavigationCore
import Testing

@testable import ShopApp

/// ShopApp's windows: each its own navigation and router, one session.
@Suite("ShopApp: windows")
struct SceneTests {
    @Test func aWindowOpensInFrontAndTheAPIActsOnTheActingOne() throws {
        let app = try launch(loggedIn: true)
        try app.link("shop://orders/42")
        let (number, outcome) = app.openScene()
        #expect(number == 2 && outcome == nil)
        #expect(app.sceneNumbers == [1, 2] && app.foregroundScene == 2)
        #expect(app.state.stack("orders").count == 1, "the new window starts at its roots")
        app.actingScene = 1
        #expect(app.state.stack("orders").count == 2)
        app.actingScene = nil
        try app.closeScene(2)
        #expect(app.sceneNumbers == [1] && app.foregroundScene == 1)
        try app.settle()
        #expect(app.leaks.isEmpty)
    }

    @Test func aDispatcherMidExecutionIsNotIdleUntilSettled() throws {
        let app = try launch(loggedIn: true)
        app.deepLink(.url("shop://settings"))
        #expect(!app.isRoutingIdle, "the settings sheet is still presenting: the link is executing")
        try app.settle()
        #expect(app.isRoutingIdle)
    }

    @Test func theLastWindowCannotBeClosed() throws {
        let app = try launch()
        #expect(throws: ShopError.self) { try app.closeScene(1) }
        #expect(throws: ShopError.self) { try app.focusScene(3) }
    }
}
