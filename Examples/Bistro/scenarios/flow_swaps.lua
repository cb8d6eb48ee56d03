-- Flow swaps: sign-out, expiry and restarts leave nothing stale behind.
local bistro = require("bistro")

describe("flow swaps", function()
  scenario("signing out resets every module", { launch = { signed_in = true } }, function()
    deep_link("bistro://orders/7/track")
    deep_link("bistro://r/luigi")
    sign_out()
    assert(not signed_in())
    expect_tab("catalog")
    expect_stack{ "restaurants" }
    expect_stack("orders", { "orders" })
    expect_coordinators(bistro.base)
    expect_no_leaks()
  end)

  scenario("signing out from another tab comes back to the catalog", { launch = { signed_in = true } }, function()
    deep_link("bistro://orders/7")
    expect_tab("orders")
    sign_out()
    expect_tab("catalog")
    expect_stack{ "restaurants" }
  end)

  scenario("finishing onboarding hands the app to its main flow", { launch = { first_launch = true } }, function()
    expect_modal("welcome")
    assert(snapshot().root == "onboarding", "a first launch starts in onboarding")
    tap("continue")
    expect_screen("location")
    tap("allow")
    expect_no_modal()
    assert(snapshot().root == "main", "onboarding is over: the main flow is the root, not " .. snapshot().root)
  end)

  scenario("signing out with settings open dismisses it", { launch = { signed_in = true } }, function()
    deep_link("bistro://settings/addresses")
    sign_out()
    expect_no_modal()
    expect_coordinators(bistro.base)
    expect_no_leaks()
  end)

  scenario("session expiry mid-order returns to a clean app and asks to sign in", { launch = { signed_in = true } }, function()
    deep_link("bistro://orders/7")
    expire_session()
    expect_modal("sign_in")
    expect_stack("orders", { "orders" })
    sign_in{}
    expect_coordinators(bistro.base)
    expect_no_leaks()
  end)

  scenario("a restart restores every tab's stack", { launch = { signed_in = true } }, function()
    deep_link("bistro://orders/7/track")
    deep_link("bistro://r/luigi/menu")
    restart{}
    expect_tab("catalog")
    expect_stack{ "restaurants", "restaurant:luigi", "menu:luigi" }
    expect_stack("orders", { "orders", "order:7", "tracking:7" })
  end)

  scenario("a restart without restoration starts at the roots", { launch = { signed_in = true } }, function()
    deep_link("bistro://orders/7")
    restart{ restore = false }
    expect_tab("catalog")
    expect_stack("orders", { "orders" })
  end)

  scenario("a restart signed out does not restore what needs sign-in", function()
    deep_link("bistro://r/luigi")
    restart{}
    expect_stack{ "restaurants", "restaurant:luigi" }
    expect_no_modal()
  end)

  -- Found by `bistro-navscript explore`: a restart dropped the sign-in sheet
  -- and the onboarding it had archived.
  scenario("a restart restores a sign-in sheet that was up", function()
    deep_link("bistro://orders/7")
    restart{}
    expect_modals{ "sign_in" }
  end)

  scenario("a restart restores onboarding that was up", { launch = { first_launch = true } }, function()
    restart{}
    expect_modals{ "welcome" }
  end)
end)
