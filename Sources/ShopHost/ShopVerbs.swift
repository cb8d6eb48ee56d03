import NavScript
import NavigationCore
import ShopApp

/// ShopApp's contributions to the scenario language: signing in and out,
/// session expiry, and reading the session.
enum ShopVerbs {
    static var functions: [ScriptFunction] {
        [
            .verb(
                "login", parameters: [ScriptParameter("options", "shop.LoginOptions", optional: true)],
                documentation: """
                    Completes the sign-in flow on screen (the login screen and, with `two_factor`, its second \
                    step), then settles; when no sign-in screen is on screen and the user is signed out, it \
                    first opens the app's own sign-in from the profile tab. With `cancel = true` it closes the \
                    sign-in screen instead. Fails when already signed in with no sign-in screen, when a modal \
                    covers the sign-in button, or (cancel) when no sign-in screen is shown.
                    """,
                example: "login{ cancel = true }"
            ) { step in
                let options = try step.arguments.optionalTable(1) ?? LuaTable()
                let cancel = options["cancel"].isTruthy
                step.description = cancel ? "login{ cancel = true }" : "login{}"
                try shop(step) { app throws(ShopError) in try app.login(cancel: cancel) }
            },
            .verb(
                "logout",
                documentation: """
                    Signs the user out through the app, then settles: the session is cleared, every flow is \
                    torn down and the main flows start afresh, so nothing of the signed-in session survives \
                    on a stack or in a modal. Fails when already signed out.
                    """,
                example: "logout()",
                // Every tab at its root and no modal — unless the reset delivered a link a cold start held
                // (it then leads where that link goes).
                ensures: """
                    assert(not session().logged_in, "logout() left the session signed in")
                    local log, cleared, delivered = events(), 0, false
                    for i, e in ipairs(log) do if e == "session-clear" then cleared = i end end
                    for i = cleared + 1, #log do if log[i]:match("^deliver ") then delivered = true end end
                    local now = snapshot()
                    assert(delivered or #now.modals == 0, "logout() left a modal up")
                    for tab, entries in pairs(now.stacks) do
                      assert(delivered or #entries == 1, "logout() left the " .. tab .. " tab at " .. table.concat(entries, " > "))
                    end
                    """
            ) { step in
                try shop(step) { app throws(ShopError) in try app.logout() }
            },
            .verb(
                "expire_session",
                documentation: """
                    Expires the session (as a server-side expiry would), then settles: the app resets to the \
                    main flows and presents its sign-in screen; until the user signs in again, gated \
                    destinations are gated. Fails when signed out (there is no session).
                    """,
                example: "expire_session()",
                ensures: """
                    assert(not session().logged_in, "expire_session() left the session signed in")
                    in_scene(scenes().foreground or 1, function() expect_modal("login") end)
                    """
            ) { step in
                try shop(step) { app throws(ShopError) in try app.expireSession() }
            },
            .observer(
                "session", returns: ScriptReturn("shop.Session"),
                documentation: "Returns the signed-in state of the app.",
                example: "assert(session().logged_in)"
            ) { step in
                let app = try step.app(as: ShopAppDriver.self).app
                return .table(["logged_in": .boolean(app.isLoggedIn), "payment_method": .boolean(app.hasPaymentMethod)])
            }
        ]
    }

    static var types: [ScriptType] {
        [
            .fields(
                "shop.LoginOptions", "Options of `login`.",
                [
                    .init("cancel", "boolean", "close the sign-in screen instead of completing it (default false)")
                ]),
            .fields(
                "shop.Session", "The signed-in state.",
                [
                    .init("logged_in", "boolean", optional: false),
                    .init("payment_method", "boolean", optional: false)
                ])
        ]
    }

    /// Runs `body` on the ShopApplication, turning its refusals into host errors.
    private static func shop(_ step: ScriptStep, _ body: (ShopApplication) throws(ShopError) -> Void) throws {
        let app = try step.app(as: ShopAppDriver.self).app
        do { try body(app) } catch { throw HostError(error.message) }
    }
}
