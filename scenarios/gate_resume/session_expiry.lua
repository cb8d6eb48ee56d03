-- Session expiry is a flow swap: everything of the signed-in session goes,
-- and the user is asked to sign in again.
local flows = require("flows")

describe("session expiry", function()
  scenario("mid-checkout swaps flows and asks to sign in", { launch = { logged_in = true } }, function()
    deep_link("shop://checkout")
    tap("continue")
    expire_session()
    expect_modal("login")
    expect_stack("home", { "home" })
    expect_coordinators{ "app", "app/browse", "app/orders", "app/profile", "app/auth" }
    expect_events{ "session-expire", "finish app/checkout cancelled", "present login" }
    expect_no_leaks()
  end)

  scenario("signing in again returns to a clean signed-in app", { launch = { logged_in = true } }, function()
    flows.open_order(42)
    expire_session()
    login{}
    assert(session().logged_in, "signed in again")
    flows.expect_clean_main()
  end)

  -- Guards: expiry really clears the session the engine reads; no fault yet.
  scenario("the cart is gated again after expiry", { launch = { logged_in = true } }, function()
    expire_session()
    login{ cancel = true }
    local outcome = deep_link("shop://cart")
    assert(outcome.status == "gated", "cart after expiry was " .. outcome.status)
  end)
end)
