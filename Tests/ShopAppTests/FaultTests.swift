import NavigationCore
import Testing

@testable import ShopApp

/// For every fault: the same scenario run on the healthy app and with the
/// fault on. The symptom must appear only with the fault — proof that the
/// fault really changes the app's behaviour and that the healthy app is
/// free of it.
@Suite struct FaultTests {
    /// Runs `scenario` on a fresh app and returns whether the symptom showed.
    typealias Symptom = @Sendable (_ faults: Set<Fault>) throws -> Bool

    static let symptoms: [Fault: Symptom] = [
        .commitAfterFinish: { faults in
            let app = try launch(faults: faults)
            try app.link("shop://cart")
            try app.login()
            try app.settle()
            return app.screen != "cart" && app.eventTexts.contains { $0.hasPrefix("loop-guard cart auth") }
        },
        .noPopDetection: { faults in
            let app = try launch(loggedIn: true, faults: faults)
            try app.link("shop://orders/42")
            try app.backSwipe()
            try app.settle()
            return app.leaks.contains { $0.label == "app/orders/order" }
        },
        .animatedPopOnly: { faults in
            let app = try launch(loggedIn: true, faults: faults)
            try app.link("shop://orders/42")
            try app.backSwipe(animated: false)
            try app.settle()
            return app.coordinatorPaths.contains("app/orders/order") && !app.leaks.isEmpty
        },
        .strongBackReference: { faults in
            let app = try launch(loggedIn: true, faults: faults)
            try app.link("shop://settings")
            try app.dismiss()
            try app.settle()
            return app.leaks.contains { $0.label == "app/settings" }
        },
        .teardownOnDisappear: { faults in
            let app = try launch(loggedIn: true, faults: faults)
            try app.link("shop://orders/42")
            try app.backSwipe(cancel: true)
            try app.settle()
            try app.tapSettled("tracking")
            return app.screen == "order:42" && !app.coordinatorPaths.contains("app/orders/order")
        },
        .cancelResumes: { faults in
            let app = try launch(faults: faults)
            try app.link("shop://cart")
            try app.login(cancel: true)
            try app.settle()
            return app.screen == "login" && app.eventTexts.contains("resume cart")
        },
        .cachedDestination: { faults in
            let app = try launch(faults: faults, paymentMethod: false)
            try app.link("shop://checkout")
            try app.login()
            try app.settle()
            return app.screen == "checkout_address" && !app.hasPaymentMethod
        },
        .duplicateSignIn: { faults in
            let app = try launch(faults: faults)
            try app.link("shop://cart")
            try app.link("shop://orders/7")
            let sheets = app.state.modals.count
            try app.login()
            try app.settle()
            let commits = app.eventTexts.filter { $0 == "session-commit" }.count
            return sheets == 2 || commits > 1 || app.screen != "order:7"
        },
        .universalLinkSkipsGate: { faults in
            let app = try launch(faults: faults)
            let outcome = try app.link("https://shop.example.com/cart", via: .universal)
            return outcome.status == .proceed && app.screen == "cart" && !app.isLoggedIn
        },
        .pushOwnVocabulary: { faults in
            let app = try launch(faults: faults)
            let outcome = app.deepLink(.payload(["route": "p/p1004"]), via: .push)
            try app.settle()
            return outcome.error == .unknownRoute && app.screen == "home"
        },
        .graftExternalLink: { faults in
            let app = try launch(faults: faults)
            try app.link("shop://category/shoes")
            try app.link("shop://product/p1004")
            return app.stack("home").filter { $0 == "home" }.count > 1
                && app.stack("home").suffix(2) == ["home", "product:p1004"]
        },
        .unserializedDispatch: { faults in
            let app = try launch(loggedIn: true, faults: faults)
            app.deepLink(.url("shop://settings"))
            app.deepLink(.url("shop://product/p1004"))
            app.deepLink(.url("shop://orders/42"))
            try app.settle()
            return app.state.selectedTab != "orders"
        },
        .logoutKeepsStacks: { faults in
            let app = try launch(loggedIn: true, faults: faults)
            try app.link("shop://orders/42")
            try app.link("shop://settings")
            try app.logout()
            try app.settle()
            return app.modalRoots == ["settings"] && app.stack("orders") == ["orders", "order:42"]
        },
        .presentBeforeTab: { faults in
            let app = try launch(loggedIn: true, faults: faults)
            try app.link("shop://checkout")
            try app.link("shop://settings")
            return app.state.modals.isEmpty && app.eventTexts.contains("present settings")
        },
        // The scene races: two windows, one session.
        .signOutOneScene: { faults in
            let app = try launch(loggedIn: true, faults: faults)
            try app.link("shop://orders/42")
            _ = app.openScene()
            try app.logout()
            try app.settle()
            return app.state(ofScene: 1)?.stack("orders") == [RouteStep("orders"), RouteStep("order", params: ["id": "42"])]
        },
        .expiryForegroundOnly: { faults in
            let app = try launch(loggedIn: true, faults: faults)
            try app.link("shop://orders/42")
            _ = app.openScene()
            try app.expireSession()
            try app.settle()
            return app.state(ofScene: 1)?.stack("orders").count == 2
        },
        .linkToForegroundScene: { faults in
            let app = try launch(loggedIn: true, faults: faults)
            _ = app.openScene()
            _ = try app.receive(.url("shop://orders/42"), via: .scheme, inScene: 1)
            try app.settle()
            return app.state(ofScene: 1)?.selectedTab != "orders" && app.state.selectedTab == "orders"
        },
        .sceneCopiesSession: { faults in
            let app = try launch(loggedIn: true, faults: faults)
            _ = app.openScene()
            try app.focusScene(1)
            try app.logout()
            let outcome = try app.receive(.url("shop://orders/42"), via: .scheme, inScene: 2)
            try app.settle()
            return outcome.status == .proceed && !app.isLoggedIn
        },
        .restoreCrossesScenes: { faults in
            let app = try launch(loggedIn: true, faults: faults)
            try app.link("shop://orders/42")
            _ = app.openScene()
            try app.link("shop://product/p1004")
            let next = try app.relaunched(restore: true)
            try next.settle()
            return next.state(ofScene: 2)?.selectedTab == "orders"
        },
        .signInOneScene: { faults in
            let app = try launch(loggedIn: true, faults: faults)
            try app.expireSession()
            try app.link("shop://orders/42")
            _ = app.openScene()
            try app.login()
            try app.settle()
            return app.state(ofScene: 1)?.modals.isEmpty == false
        },
        .onboardingDoneAtLaunch: { faults in
            let app = try launch(LaunchOptions(firstLaunch: true, faults: faults))
            let next = try app.relaunched(restore: true)
            try next.settle()
            _ = next.receive(.url("shop://profile"), via: .scheme)
            try next.settle()
            return next.rootFlow == "main"
        },
        .universalHostCaseSensitive: { faults in
            let app = try launch(loggedIn: true, faults: faults)
            let outcome = try app.receive(.url("https://SHOP.EXAMPLE.COM/orders/42"), via: .universal, inScene: 1)
            try app.settle()
            return outcome.status == .error
        },
        .closedSceneKept: { faults in
            let app = try launch(faults: faults)
            _ = app.openScene()
            try app.link("shop://product/p1004")
            try app.closeScene(2)
            try app.settle()
            return !app.leaks.isEmpty
        }
    ]

    /// Process-fatal faults (a trap, a hang) are proven from outside, by the
    /// CLI's worker isolation tests in NavScriptCLITests.
    static let inProcessFaults = Fault.allCases.filter { !$0.isProcessFatal }

    @Test func everyFaultHasASymptomTest() {
        #expect(Set(Self.symptoms.keys) == Set(Self.inProcessFaults))
        #expect(Fault.allCases.filter(\.isProcessFatal) == [.forceUnwrapCrash, .mainThreadDeadlock])
    }

    @Test(arguments: inProcessFaults)
    func faultShowsItsSymptomAndTheHealthyAppDoesNot(fault: Fault) throws {
        let symptom = try #require(Self.symptoms[fault])
        #expect(try symptom([]) == false, "the healthy app shows the symptom of \(fault)")
        #expect(try symptom([fault]) == true, "\(fault) does not show its symptom")
    }

    @Test(arguments: Fault.allCases)
    func everyFaultIsDocumented(fault: Fault) {
        #expect(fault.summary.count > 40)
        #expect(Fault(rawValue: fault.rawValue) == fault)
    }
}
