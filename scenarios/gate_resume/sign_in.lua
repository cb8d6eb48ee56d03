-- The reusable auth flow: login, two-factor, cancel, and the three
-- parents that present it (the root's gate, the profile tab, onboarding).
local flows = require("flows")

describe("sign-in", function()
  scenario("an in-app tap on a gated destination resumes after login", function()
    tap("product", "p1")
    tap("cart")
    expect_modal("login")
    login{}
    expect_stack{ "home", "cart" }
    expect_events{ "resolve cart gated auth", "gate auth cart", "session-commit", "resume cart" }
  end)

  scenario("opening an order from the list signs in first", function()
    flows.open_order(42)
    expect_modal("login")
    login{}
    expect_stack{ "orders", "order:42" }
  end)

  scenario("a two-factor account asks for the second step", { launch = { two_factor = true } }, function()
    deep_link("shop://orders/42")
    tap("submit")
    expect_screen("two_factor")
    expect_modal("login")
    tap("submit")
    expect_no_modal()
    expect_stack{ "orders", "order:42" }
    expect_no_leaks()
  end)

  scenario("cancelling at two-factor drops the intent", { launch = { two_factor = true } }, function()
    deep_link("shop://orders/42")
    tap("submit")
    login{ cancel = true }
    expect_no_modal()
    assert(session().logged_in == false, "still signed out")
    expect_stack("orders", { "orders" })
    expect_events{ "finish app/auth cancelled", "drop order:42" }
  end)

  scenario("the profile tab's own sign-in presents auth as its child", function()
    login{}
    expect_tab("profile")
    assert(session().logged_in, "signed in")
    expect_events{ "start app/profile/auth", "session-commit", "finish app/profile/auth completed" }
    expect_coordinators(flows.BASE_COORDINATORS)
    expect_no_leaks()
  end)

  scenario("a gated settings page resumes inside the settings modal", function()
    deep_link("shop://settings")
    tap("settings_security")
    expect_modal("login")
    login{}
    expect_screen("settings_security")
    expect_modal("settings")
    expect_no_leaks()
  end)

  scenario("a universal link is gated exactly like the scheme link", function()
    local outcome = deep_link("https://shop.example.com/cart", { via = "universal" })
    assert(outcome.status == "gated", "universal cart link was " .. outcome.status)
    expect_modal("login")
    expect_stack{ "home" }
  end)
end)
