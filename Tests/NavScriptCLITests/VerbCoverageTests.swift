import Foundation
import Testing

/// Every driving verb, observer and expectation of the language reference, end to
/// end against the real ShopApp: each passes where the app behaves, the
/// step shows on the timeline, and each expectation also fails (as a
/// failure, at its own line) where the app does not match.
@Suite("language: every verb, observer and expectation")
struct VerbCoverageTests {
    static let verbs = #"""
        -- Every driving verb of the language reference, against the real ShopApp.
        local BASE = { "app", "app/browse", "app/orders", "app/profile" }

        describe("verbs", function()
          scenario("tap select_tab back", function()
            tap("category", "shoes")
            tap("product", { id = "p1" })
            tap("reviews")
            expect_stack{ "home", "category:shoes", "product:p1", "reviews:p1" }
            back()
            expect_screen("product:p1")
            select_tab("profile")
            expect_tab("profile")
            select_tab("home")
            expect_stack{ "home", "category:shoes", "product:p1" }
          end)

          scenario("back_swipe cancelled then not animated", { launch = { logged_in = true } }, function()
            deep_link("shop://orders/42")
            back_swipe{ cancel = true }
            expect_stack{ "orders", "order:42" }
            expect_events{ "swipe-cancelled order:42" }
            back_swipe{ cancel = false, animated = false }
            expect_stack{ "orders" }
            expect_coordinators(BASE)
            expect_no_leaks()
          end)

          scenario("back_swipe with defaults", { launch = { logged_in = true } }, function()
            deep_link("shop://orders/42/track")
            back_swipe{}
            expect_stack{ "orders", "order:42" }
          end)

          scenario("dismiss", { launch = { logged_in = true } }, function()
            deep_link("shop://settings")
            tap("settings_notifications")
            expect_screen("settings_notifications")
            dismiss()
            expect_no_modal()
            expect_coordinators(BASE)
            expect_no_leaks()
          end)

          scenario("deep_link via universal and settle false then settle", { launch = { logged_in = true } }, function()
            local first = deep_link("https://shop.example.com/orders/42", { via = "universal" })
            assert(first.status == "proceed" and first.destination == "order", "universal link: " .. tostring(first.status))
            expect_stack{ "orders", "order:42" }
            deep_link("shop://settings", { settle = false })
            local second = deep_link("shop://product/p1004", { settle = false })
            assert(second.status == "queued", "second link was " .. tostring(second.status))
            settle()
            expect_no_modal()
            expect_tab("home")
            expect_stack{ "home", "product:p1004" }
            expect_events{ "queue product:p1004", "dequeue product:p1004" }
          end)

          scenario("deep_link with a push payload and an activity", function()
            local pushed = deep_link({ route = "product/p9" })
            assert(pushed.status == "proceed", "push was " .. tostring(pushed.status))
            expect_stack{ "home", "product:p9" }
            deep_link({ activity_type = "com.shop.view", identifier = "category/shoes" }, { via = "spotlight" })
            expect_stack{ "home", "category:shoes" }
          end)

          scenario("login cancel then login", function()
            local gated = deep_link("shop://cart")
            assert(gated.status == "gated" and gated.precondition == "auth", "cart was " .. tostring(gated.status))
            login{ cancel = true }
            expect_no_modal()
            assert(session().logged_in == false, "still signed out")
            deep_link("shop://cart")
            login{}
            expect_stack{ "home", "cart" }
            assert(session().logged_in == true, "signed in")
          end)

          scenario("login from the app's own sign-in", function()
            login{}
            assert(session().logged_in == true, "signed in")
            expect_tab("profile")
          end)

          scenario("expire_session and logout", { launch = { logged_in = true } }, function()
            deep_link("shop://orders/42")
            expire_session()
            expect_modal("login")
            assert(session().logged_in == false, "the session expired")
            login{}
            assert(session().logged_in == true, "signed in again")
            logout()
            assert(session().logged_in == false, "signed out")
            expect_tab("home")
            expect_stack("orders", { "orders" })
            expect_coordinators(BASE)
            expect_no_leaks()
          end)

          scenario("restart with and without restore", { launch = { logged_in = true } }, function()
            deep_link("shop://orders/42/track")
            restart{ restore = true }
            expect_tab("orders")
            expect_stack{ "orders", "order:42", "tracking:42" }
            restart{ restore = false }
            expect_stack("orders", { "orders" })
            assert(session().logged_in, "the session survives a restart")
          end)

          scenario("launch with options and a cold-start link", function()
            launch{ logged_in = true, first_launch = false, two_factor = false, payment_method = true,
                    url = "https://shop.example.com/orders/42", via = "universal" }
            expect_tab("orders")
            expect_stack{ "orders", "order:42" }
          end)

          scenario("checkout outputs continue and pay", { launch = { logged_in = true } }, function()
            tap("cart")
            tap("checkout")
            expect_screen("checkout_address")
            tap("continue")
            tap("continue")
            expect_screen("checkout_confirm")
            tap("pay")
            expect_no_modal()
            expect_stack{ "orders", "order:1001" }
          end)

          scenario("promo settings_security and close outputs", { launch = { logged_in = true } }, function()
            tap("promo", { code = "SPRING24" })
            expect_stack{ "home", "promo:SPRING24" }
            deep_link("shop://settings")
            tap("settings_security")
            expect_screen("settings_security")
            tap("close")
            expect_no_modal()
            deep_link("shop://checkout")
            tap("close")
            expect_no_modal()
            expect_stack{ "home", "cart" }
            expect_no_leaks()
          end)
        end)

        describe("observers", function()
          scenario("screen stack tab modals coordinators events snapshot session", { launch = { logged_in = true } }, function()
            tap("product", "p7")
            assert(screen() == "product", "screen() is " .. tostring(screen()))
            assert(tab() == "home", "tab() is " .. tostring(tab()))
            local s = stack()
            assert(#s == 2 and s[1] == "home" and s[2] == "product", "stack() is " .. table.concat(s, ","))
            deep_link("shop://settings/security")
            local m = modals()
            assert(#m == 2 and m[1] == "settings" and m[2] == "settings_security", "modals() is " .. table.concat(m, ","))
            local home = stack("home")
            assert(#home == 2 and home[2] == "product", "stack('home') is " .. table.concat(home, ","))
            local c = coordinators()
            assert(c[1] == "app" and c[#c] == "app/settings", "coordinators() is " .. table.concat(c, ","))
            local e = events()
            assert(#e > 0 and e[1] == "start app" and e[#e] == "present settings", "events() is " .. table.concat(e, ","))
            local snap = snapshot()
            assert(snap.root == "main" and snap.tab == "profile", "snapshot root/tab")
            assert(snap.stacks.home[2] == "product:p7" and snap.stacks.orders[1] == "orders", "snapshot stacks")
            assert(snap.modals[1][1] == "settings" and snap.modals[1][2] == "settings_security", "snapshot modal chain")
            local who = session()
            assert(who.logged_in == true and who.payment_method == true, "session()")
          end)
        end)

        describe("expectations", function()
          scenario("expect_stack expect_screen expect_tab expect_modal expect_no_modal", { launch = { logged_in = true } }, function()
            expect_no_modal()
            deep_link("shop://orders/42/track")
            expect_stack{ "orders", "order:42", "tracking" }
            expect_stack("home", { "home" })
            expect_screen("tracking")
            expect_tab("orders")
            deep_link("shop://checkout")
            expect_modal("checkout_address")
            expect_stack("home", { "home", "cart" })
          end)

          scenario("expect_events as an ordered subsequence", function()
            deep_link("shop://cart")
            login{}
            expect_events{ "gate auth cart", "session-commit", "resume cart", "resolve cart" }
          end)

          scenario("expect_coordinators and expect_no_leaks", { launch = { logged_in = true } }, function()
            deep_link("shop://orders/42")
            expect_coordinators{ "app", "app/browse", "app/orders", "app/orders/order", "app/profile" }
            back()
            expect_coordinators(BASE)
            expect_no_leaks()
          end)

          scenario("expect_same_outcome", { launch = { logged_in = true } }, function()
            expect_same_outcome("shop://orders/42/track", { "scheme", "universal", "push", "spotlight", "widget" })
            expect_same_outcome("shop://cart")
          end)

          scenario("expect_error of every kind", function()
            expect_error("shop://product/%zz", "malformed")
            expect_error("shop://nowhere", "unknown_route")
            expect_error("shop://product/P1004", "validation_failed")
            expect_error({ route = "nowhere" }, "unknown_route", { via = "push" })
            expect_stack{ "home" }
          end)
        end)
        """#

    /// A scenario of `verbs` and the timeline steps it must show (proof the
    /// verb really ran, not just that nothing failed).
    static let cases: [(scenario: String, steps: [String])] = [
        (
            "verbs tap select_tab back",
            [
                #"tap("category", id=shoes)"#, #"tap("product", id=p1)"#, #"tap("reviews")"#,
                "back()", #"select_tab("profile")"#
            ]
        ),
        (
            "verbs back_swipe cancelled then not animated",
            [
                "back_swipe{ cancel = true, animated = true }",
                "back_swipe{ cancel = false, animated = false }"
            ]
        ),
        ("verbs back_swipe with defaults", ["back_swipe{ cancel = false, animated = true }"]),
        ("verbs dismiss", ["dismiss()"]),
        (
            "verbs deep_link via universal and settle false then settle",
            [#"deep_link("https://shop.example.com/orders/42", via universal) → proceed"#, "→ queued"]
        ),
        ("verbs deep_link with a push payload and an activity", ["via push) → proceed", "via spotlight) → proceed"]),
        ("verbs login cancel then login", ["login{ cancel = true }", "login{}"]),
        ("verbs login from the app's own sign-in", ["login{}"]),
        ("verbs expire_session and logout", ["expire_session()", "login{}", "logout()"]),
        ("verbs restart with and without restore", ["restart{ restore = true }", "restart{ restore = false }"]),
        ("verbs launch with options and a cold-start link", ["launch{ first_launch = false, logged_in = true"]),
        ("verbs checkout outputs continue and pay", [#"tap("checkout")"#, #"tap("continue")"#, #"tap("pay")"#]),
        (
            "verbs promo settings_security and close outputs",
            [#"tap("promo", code=SPRING24)"#, #"tap("settings_security")"#, #"tap("close")"#]
        ),
        ("observers screen stack tab modals coordinators events snapshot session", [#"tap("product", id=p7)"#]),
        ("expectations expect_stack expect_screen expect_tab expect_modal expect_no_modal", ["deep_link(\"shop://checkout\""]),
        ("expectations expect_events as an ordered subsequence", ["login{}"]),
        ("expectations expect_coordinators and expect_no_leaks", ["back()"]),
        ("expectations expect_same_outcome", ["launch{ logged_in = true }"]),
        ("expectations expect_error of every kind", [])
    ]

    static func exactly(_ name: String) -> String {
        "^" + name.map { "\\^$.|?*+()[]{}".contains($0) ? "\\\($0)" : String($0) }.joined() + "$"
    }

    @Test(arguments: cases)
    func passesAgainstShopApp(scenario: String, steps: [String]) throws {
        let fixture = try Fixture(["suite/verbs.lua": Self.verbs])
        let (output, junit) = try fixture.runWithJUnit(["--filter", Self.exactly(scenario), "suite"])
        #expect(junit.caseNames == [scenario], "the filter selects exactly the scenario\n\(junit.raw)")
        #expect(output.status == 0, "\(output)")
        #expect(junit.outcome(scenario) == "passed", "\(output)")
        let timeline = junit.testcase(scenario)?.child("system-out")?.text ?? ""
        for step in steps {
            #expect(timeline.contains(step), "the timeline shows \(step)\n\(timeline)")
        }
    }

    @Test func everyScenarioOfTheFixtureIsCovered() throws {
        let fixture = try Fixture(["suite/verbs.lua": Self.verbs])
        let (output, junit) = try fixture.runWithJUnit(["suite"])
        #expect(output.status == 0, "\(output)")
        #expect(Set(junit.caseNames) == Set(Self.cases.map(\.scenario)), "\(junit.caseNames)")
        // Every name of the §5 contract appears in the fixture.
        let contract = [
            "launch", "tap", "select_tab", "back", "back_swipe", "dismiss", "deep_link", "login", "logout",
            "expire_session", "settle", "restart", "screen", "stack", "tab", "modals", "coordinators",
            "events", "snapshot", "session", "expect_stack", "expect_screen", "expect_tab", "expect_modal",
            "expect_no_modal", "expect_no_leaks", "expect_events", "expect_coordinators",
            "expect_same_outcome", "expect_error"
        ]
        for name in contract {
            #expect(Self.verbs.contains(try Regex("\\b\(name)\\s*[({]")), "the fixture calls \(name)")
        }
    }

    /// Each expectation where the app does not match: a failure (not an
    /// error), at the expectation's own line, with expected and actual.
    static let mismatches = #"""
        scenario("expect_stack", function()
          tap("product", "p1")
          expect_stack{ "home", "cart" } -- @mismatch
        end)
        scenario("expect_stack of a tab", function()
          expect_stack("orders", { "orders", "order" }) -- @mismatch
        end)
        scenario("expect_screen", function()
          expect_screen("cart") -- @mismatch
        end)
        scenario("expect_tab", function()
          expect_tab("orders") -- @mismatch
        end)
        scenario("expect_modal", function()
          expect_modal("settings") -- @mismatch
        end)
        scenario("expect_no_modal", function()
          deep_link("shop://settings")
          expect_no_modal() -- @mismatch
        end)
        scenario("expect_events", function()
          expect_events{ "start app", "never-happens" } -- @mismatch
        end)
        scenario("expect_coordinators", function()
          expect_coordinators{ "app", "app/browse" } -- @mismatch
        end)
        scenario("expect_error", function()
          expect_error("shop://product/p1", "malformed") -- @mismatch
        end)
        -- The leaks invariant would name the leak at back() first: allowed, so the expectation speaks.
        scenario("expect_no_leaks", { launch = { logged_in = true }, allow = { leaks = "expect_no_leaks says it" } }, function()
          deep_link("shop://orders/42")
          back()
          expect_no_leaks() -- @mismatch
        end)
        scenario("expect_same_outcome", function()
          expect_same_outcome("shop://cart", { "scheme", "universal" }) -- @mismatch
        end)
        """#

    /// (scenario, what the message must say, the faults that make the app misbehave)
    static let mismatchCases: [(scenario: String, says: [String], faults: [String])] = [
        ("expect_stack", [#"stack of tab 'home' is { "home", "product:p1" }, expected { "home", "cart" }"#], []),
        ("expect_stack of a tab", ["stack of tab 'orders'", #"expected { "orders", "order" }"#], []),
        ("expect_screen", ["'home'", "'cart'"], []),
        ("expect_tab", ["'home'", "'orders'"], []),
        ("expect_modal", ["no modal is presented", "'settings'"], []),
        ("expect_no_modal", ["a modal is presented", "settings"], []),
        ("expect_events", ["'never-happens' not found"], []),
        ("expect_coordinators", ["live coordinators differ", "app/orders"], []),
        ("expect_error", ["expected error malformed", "proceed"], []),
        ("expect_no_leaks", ["leaked", "app/orders/order"], ["no-pop-detection"]),
        // No modal through one door: `modals {}`, not a bare word.
        ("expect_same_outcome", ["shop://cart", "scheme", "universal", "+ universal: modals {}"], ["universal-link-skips-gate"])
    ]

    @Test(arguments: mismatchCases)
    func failsWhereTheAppDoesNotMatch(scenario: String, says: [String], faults: [String]) throws {
        let fixture = try Fixture(["suite/mismatch.lua": Self.mismatches])
        let faultArguments = faults.flatMap { ["--fault", $0] }
        let (output, junit) = try fixture.runWithJUnit(faultArguments + ["--filter", Self.exactly(scenario), "suite"])
        #expect(output.status == 1, "\(output)")
        #expect(junit.caseNames == [scenario], "\(junit.raw)")
        let failure = try #require(junit.testcase(scenario)?.child("failure"), "a failure, not an error\n\(junit.raw)")
        let message = failure["message"] ?? ""
        let lines = Self.mismatches.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0.contains("scenario(\"\(scenario)\"") })
        let line = try #require(lines[start...].firstIndex { $0.contains("@mismatch") }) + 1
        #expect(message.hasPrefix("suite/mismatch.lua:\(line): "), "the expectation's own line: \(message)")
        for fragment in says {
            #expect((message + "\n" + failure.text).contains(fragment), "\(scenario) says \(fragment)\n\(message)\n\(failure.text)")
        }
        #expect(output.stdout.contains("FAIL suite/mismatch.lua:\(start + 1)  \(scenario)"), "\(output)")

        if !faults.isEmpty {
            // Without the fault the app behaves and the expectation holds.
            let (clean, _) = try fixture.runWithJUnit(["--filter", Self.exactly(scenario), "suite"], junit: "clean.xml")
            #expect(clean.status == 0, "\(clean)")
        }
    }

    @Test func expectErrorRecordsItsStepAtTheScenarioLine() throws {
        let fixture = try Fixture(["suite/mismatch.lua": Self.mismatches])
        let (_, junit) = try fixture.runWithJUnit(["--filter", "^expect_error$", "suite"])
        // (The scenario fails: its timeline is in the failure's body.)
        let timeline = junit.testcase("expect_error")?.child("failure")?.text ?? ""
        #expect(timeline.contains(#"expect_error("shop://product/p1", via scheme)"#), "\(timeline)")
        let line = Lua.line(of: #"expect_error("shop://product/p1""#, in: Self.mismatches)
        #expect(timeline.contains(#"suite/mismatch.lua:\#(line)  expect_error("#), "\(timeline)")
    }

    /// An http(s) link given without `via` goes through the universal door:
    /// through the scheme door, which refuses every web link as malformed,
    /// `expect_error(webLink, "malformed")` passed for a link the app takes.
    @Test func aWebLinkWithoutViaGoesThroughTheUniversalDoor() throws {
        let fixture = try Fixture([
            "suite/web.lua": #"""
            scenario("a web link", { launch = { logged_in = true } }, function()
              local outcome = deep_link("https://shop.example.com/products/p1")
              assert(outcome.status == "proceed" and outcome.destination == "product", outcome.status)
            end)
            scenario("its refusal", function() expect_error("https://shop.example.com/products/p1", "malformed") end)
            scenario("at launch", { launch = { logged_in = true, url = "HTTPS://shop.example.com/products/p1" } }, function()
              expect_screen("product:p1")
            end)
            scenario("through the scheme door", function()
              expect_error("https://shop.example.com/products/p1", "malformed", { via = "scheme" })
            end)
            """#
        ])
        let (output, junit) = try fixture.runWithJUnit(["suite"])
        #expect(output.status == 1, "\(output)")
        #expect(junit.outcome("a web link") == "passed", "\(junit.raw)")
        #expect(junit.outcome("its refusal") == "failure", "\(junit.raw)")
        #expect(junit.outcome("at launch") == "passed", "\(junit.raw)")
        #expect(junit.outcome("through the scheme door") == "passed", "\(junit.raw)")
    }
}
