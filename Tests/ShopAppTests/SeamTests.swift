import Foundation
import NavigationCore
import Testing

@testable import ShopApp

/// Integration tests over the composed app, one group per seam where
/// navigation bugs live.
@Suite struct StackShapeTests {
    @Test func coldStartLinkIsStashedUntilTheRootIsUp() throws {
        let app = try launch(LaunchOptions(url: .url("shop://product/p1004")))
        #expect(app.stack("home") == ["home", "product:p1004"])
        let stash = try #require(app.eventIndex("stash"))
        let start = try #require(app.eventIndex("start app/profile"))
        let deliver = try #require(app.eventIndex("deliver scheme"))
        #expect(stash < start && start < deliver)
    }

    @Test func externalLinkFromADeepStackResetsToCanonicalAncestry() throws {
        let app = try launch()
        try app.tapSettled("category", ["id": "shoes"])
        try app.tapSettled("product", ["id": "p1"])
        try app.tapSettled("reviews")
        #expect(app.stack("home") == ["home", "category:shoes", "product:p1", "reviews:p1"])
        try app.link("shop://promo/SPRING24")
        #expect(app.stack("home") == ["home", "promo:SPRING24"])
        #expect(app.leaks.isEmpty)
    }

    @Test func externalLinkToAProductOffItsCanonicalPathResetsTheStack() throws {
        let app = try launch()
        try app.tapSettled("category", ["id": "shoes"])
        try app.tapSettled("product", ["id": "p1"])
        try app.tapSettled("reviews")
        try app.link("shop://product/p1004")
        #expect(app.stack("home") == ["home", "product:p1004"])
        #expect(!app.eventTexts.contains("update product:p1004"))
    }

    @Test func linkIntoAnotherTabKeepsTheFirstTabIntact() throws {
        let app = try launch(loggedIn: true)
        try app.tapSettled("product", ["id": "p7"])
        try app.link("shop://orders/42/track")
        #expect(app.state.selectedTab == "orders")
        #expect(app.stack("orders") == ["orders", "order:42", "tracking:42"])
        #expect(app.stack("home") == ["home", "product:p7"])
    }

    @Test func linkUnderAModalDismissesItFirst() throws {
        let app = try launch(loggedIn: true)
        try app.link("shop://settings")
        #expect(app.modalRoots == ["settings"])
        try app.link("shop://product/p1004")
        #expect(app.state.modals.isEmpty)
        #expect(app.stack("home") == ["home", "product:p1004"])
        #expect(!app.coordinatorPaths.contains("app/settings"))
    }

    @Test func sameProductWithOtherParamsUpdatesInPlace() throws {
        let app = try launch()
        try app.link("shop://product/p1")
        let pushes = app.eventTexts.filter { $0.hasPrefix("set-stack") || $0.hasPrefix("push") }.count
        try app.link("shop://product/p2")
        #expect(app.stack("home") == ["home", "product:p2"])
        #expect(app.eventTexts.contains("update product:p2"))
        #expect(app.eventTexts.filter { $0.hasPrefix("set-stack") || $0.hasPrefix("push") }.count == pushes)
    }

    @Test func ancestorAlreadyPresentIsPoppedTo() throws {
        let app = try launch()
        try app.tapSettled("product", ["id": "p1004"])
        try app.tapSettled("reviews")
        try app.link("shop://product/p1004")
        #expect(app.stack("home") == ["home", "product:p1004"])
        #expect(app.eventTexts.contains("pop-to product:p1004"))
    }

    @Test func repeatedLinkDoesNotDuplicateScreens() throws {
        let app = try launch()
        try app.link("shop://product/p1004")
        try app.link("shop://product/p1004")
        #expect(app.stack("home") == ["home", "product:p1004"])
    }
}

@Suite struct LeakOnBackTests {
    @Test(arguments: [("back", false, true), ("swipe", false, true), ("swipe-not-animated", false, false)])
    func leavingAPushedFlowReleasesItsCoordinator(how: String, cancel: Bool, animated: Bool) throws {
        let app = try launch(loggedIn: true)
        try app.link("shop://orders/42")
        #expect(app.coordinatorPaths.contains("app/orders/order"))
        if how == "back" { try app.back() } else { try app.backSwipe(cancel: cancel, animated: animated) }
        try app.settle()
        #expect(app.stack("orders") == ["orders"])
        #expect(!app.coordinatorPaths.contains("app/orders/order"))
        #expect(app.leaks.isEmpty)
        #expect(app.eventTexts.contains("dealloc app/orders/order"))
    }

    @Test func cancelledSwipeTearsNothingDown() throws {
        let app = try launch(loggedIn: true)
        try app.link("shop://orders/42")
        try app.backSwipe(cancel: true)
        try app.settle()
        #expect(app.screen == "order:42")
        #expect(app.coordinatorPaths.contains("app/orders/order"))
        try app.tapSettled("tracking")
        #expect(app.screen == "tracking:42")
    }

    @Test func swipingDownAModalReleasesItsFlow() throws {
        let app = try launch(loggedIn: true)
        try app.link("shop://settings")
        try app.tapSettled("settings_notifications")
        try app.dismiss()
        try app.settle()
        #expect(app.state.modals.isEmpty)
        #expect(!app.coordinatorPaths.contains("app/settings"))
        #expect(app.leaks.isEmpty)
        #expect(app.eventTexts.contains("dealloc app/settings"))
    }
}

@Suite struct GateResumeTests {
    @Test func loginCommitsTheSessionBeforeTheGateResumes() throws {
        let app = try launch()
        let outcome = try app.link("shop://cart")
        #expect(outcome.status == .gated && outcome.precondition == "auth")
        #expect(app.screen == "login")
        try app.login()
        try app.settle()
        #expect(app.screen == "cart")
        let commit = try #require(app.eventIndex("session-commit"))
        let finish = try #require(app.eventIndex("finish app/auth completed"))
        let resume = try #require(app.eventIndex("resume cart"))
        #expect(commit < finish && finish < resume)
        #expect(app.leaks.isEmpty)
    }

    @Test func chainedGatesAuthThenPaymentMethod() throws {
        let app = try launch(paymentMethod: false)
        try app.link("shop://checkout")
        try app.login()
        try app.settle()
        #expect(app.screen == "add_payment")
        try app.tapSettled("done")
        #expect(app.screen == "checkout_address")
        #expect(app.stack("home") == ["home", "cart"])
        let gates = app.eventTexts.filter { $0.hasPrefix("gate ") }
        #expect(gates == ["gate auth checkout_address", "gate payment_method checkout_address"])
    }

    @Test func cancelledLoginDropsTheIntent() throws {
        let app = try launch()
        try app.link("shop://cart")
        try app.login(cancel: true)
        try app.settle()
        #expect(app.state.modals.isEmpty)
        #expect(app.screen == "home")
        #expect(app.eventTexts.contains("drop cart"))
        #expect(!app.eventTexts.contains("resume cart"))
    }

    @Test func twoFactorIsAskedWhenTheAccountHasIt() throws {
        let app = try launch(twoFactor: true)
        try app.link("shop://orders/42")
        try app.tapSettled("submit")
        #expect(app.screen == "two_factor")
        try app.tapSettled("submit")
        #expect(app.stack("orders") == ["orders", "order:42"])
    }

    @Test func loginWithoutAGateUsesTheAppsOwnSignIn() throws {
        let app = try launch()
        try app.login()
        try app.settle()
        #expect(app.isLoggedIn)
        #expect(app.state.selectedTab == "profile")
        #expect(app.eventTexts.contains("start app/profile/auth"))
    }

    @Test func sessionExpiryMidCheckoutSwapsFlowsAndAsksToSignIn() throws {
        let app = try launch(loggedIn: true)
        try app.link("shop://checkout")
        try app.tapSettled("continue")
        try app.expireSession()
        try app.settle()
        #expect(app.modalRoots == ["login"])
        #expect(app.stack("home") == ["home"])
        #expect(!app.coordinatorPaths.contains("app/checkout"))
        #expect(app.leaks.isEmpty)
    }

    @Test func finishingCheckoutHandsOffToTheNewOrder() throws {
        let app = try launch(loggedIn: true)
        try app.link("shop://checkout")
        try app.tapSettled("continue")
        try app.tapSettled("continue")
        try app.tapSettled("pay")
        #expect(app.state.selectedTab == "orders")
        #expect(app.stack("orders") == ["orders", "order:1001"])
        #expect(app.state.modals.isEmpty)
        #expect(app.leaks.isEmpty)
    }
}

@Suite struct EntryPointTests {
    static func input(_ path: String, for entry: EntryPoint) -> EntryInput {
        switch entry {
        case .scheme, .widget: return .url("shop://\(path)")
        case .universal: return .url("https://shop.example.com/\(path)")
        case .push: return .payload(["route": path])
        case .spotlight: return .activity(type: "com.shop.view", userInfo: ["identifier": path])
        }
    }

    @Test(arguments: [
        "product/p1004", "p/p1004", "deeplink?product=p1004", "orders/42/track", "settings/security", "cart", "category/shoes"
    ])
    func everyEntryPointReachesTheSameState(path: String) throws {
        var states: [EntryPoint: NavigationState] = [:]
        var outcomes: [EntryPoint: LinkOutcome] = [:]
        for entry in EntryPoint.allCases {
            let app = try launch(loggedIn: true)
            outcomes[entry] = app.deepLink(Self.input(path, for: entry), via: entry)
            try app.settle()
            states[entry] = app.state
        }
        #expect(Set(states.values).count == 1, "\(states)")
        #expect(Set(outcomes.values).count == 1, "\(outcomes)")
    }

    @Test(arguments: ["product/P1004", "orders/abc", "promo/x", "nowhere", "product/p1004/%zz"])
    func badInputIsRejectedTheSameWayEverywhere(path: String) throws {
        var kinds: Set<String> = []
        for entry in EntryPoint.allCases {
            let app = try launch()
            let outcome = app.deepLink(Self.input(path, for: entry), via: entry)
            #expect(outcome.status == .error)
            kinds.insert(outcome.error?.rawValue ?? "none")
        }
        #expect(kinds.count == 1, "\(kinds)")
    }
}

@Suite struct FlowSwapTests {
    /// As `login` is refused when signed in, signing out or expiring a
    /// session is refused when there is none: the app offers neither then.
    @Test func signingOutOrExpiringWithoutASessionIsRefused() throws {
        let app = try launch(loggedIn: false)
        #expect(throws: ShopError("logout(): already signed out; the app shows no sign-out")) { try app.logout() }
        #expect(throws: ShopError("expire_session(): signed out, so there is no session to expire")) { try app.expireSession() }
        let signedIn = try launch(loggedIn: true)
        try signedIn.expireSession()
        try signedIn.settle()
        #expect(throws: ShopError.self) { try signedIn.expireSession() }
    }

    @Test(arguments: ["home", "orders", "profile"])
    func logoutFromAnyTabWithAModalOpenResetsEverything(tab: String) throws {
        let app = try launch(loggedIn: true)
        try app.link("shop://orders/42")
        try app.selectTab(tab)
        try app.link("shop://settings")
        try app.logout()
        try app.settle()
        #expect(!app.isLoggedIn)
        #expect(app.state.modals.isEmpty)
        #expect(app.state.selectedTab == "home")
        for tab: TabID in ["home", "orders", "profile"] { #expect(app.state.stack(tab).count == 1) }
        #expect(app.coordinatorPaths == ["app", "app/browse", "app/orders", "app/profile"])
        #expect(app.leaks.isEmpty)
    }

    @Test(arguments: OnboardingExperiment.allCases)
    func onboardingBranchesEndInTheMainFlow(experiment: OnboardingExperiment) throws {
        let app = try launch(LaunchOptions(firstLaunch: true, experiment: experiment, url: .url("shop://product/p1004")))
        #expect(app.rootFlow == "onboarding")
        var seen: [String] = []
        while let screen = app.screen, app.rootFlow == "onboarding", seen.count < 6 {
            seen.append(screen)
            try app.tapSettled(screen == "notifications_permission" ? "done" : "continue")
        }
        #expect(seen == ["welcome"] + experiment.steps.map(\.rawValue))
        #expect(app.rootFlow == "main")
        #expect(app.stack("home") == ["home", "product:p1004"])
        #expect(app.leaks.isEmpty)
    }

    @Test func restartRestoresTabsStacksAndModals() throws {
        let app = try launch(loggedIn: true)
        try app.link("shop://orders/42/track")
        try app.link("shop://product/p9")
        try app.link("shop://settings/security")
        let restored = try app.relaunched(restore: true)
        try restored.settle()
        #expect(restored.state == app.state)
        let fresh = try app.relaunched(restore: false)
        try fresh.settle()
        #expect(fresh.stack("orders") == ["orders"])
    }

    @Test func archiveRoundTripsThroughBytes() throws {
        let app = try launch(loggedIn: true)
        try app.link("shop://orders/42/track")
        let data = try app.archive().encoded()
        #expect(try RestorationArchive.decode(data) == app.archive())
    }
}
