-- Leak on back: whatever takes a screen away, its flow goes with it.
local bistro = require("bistro")

describe("leaving", function()
  scenario("a restaurant with the back button releases its flow", function()
    bistro.open_restaurant("luigi")
    back()
    expect_coordinators(bistro.base)
    expect_no_leaks()
  end)

  scenario("a menu and its restaurant with back-swipes releases everything", function()
    bistro.open_restaurant("luigi")
    tap("menu")
    back_swipe{}
    expect_coordinators{ "app", "app/catalog", "app/catalog/restaurant", "app/orders", "app/account" }
    back_swipe{}
    expect_coordinators(bistro.base)
    expect_no_leaks()
  end)

  scenario("a cancelled swipe tears nothing down", function()
    bistro.open_restaurant("luigi")
    back_swipe{ cancel = true }
    expect_screen("restaurant:luigi")
    expect_coordinators{ "app", "app/catalog", "app/catalog/restaurant", "app/orders", "app/account" }
    tap("menu")
    expect_screen("menu:luigi")
  end)

  scenario("a restaurant with a non-animated pop releases its flow", function()
    bistro.open_restaurant("luigi")
    back_swipe{ animated = false }
    expect_coordinators(bistro.base)
    expect_no_leaks()
  end)

  scenario("an order with the back button releases the order flow", { launch = { signed_in = true } }, function()
    deep_link("bistro://orders/7")
    back()
    expect_stack{ "orders" }
    expect_coordinators(bistro.base)
    expect_no_leaks()
  end)

  -- Guards: the close button path of a modal flow (the swipe path has a fault).
  scenario("settings closed with its button releases the settings flow", function()
    deep_link("bistro://settings")
    tap("close")
    expect_no_modal()
    expect_coordinators(bistro.base)
    expect_no_leaks()
  end)

  scenario("settings swiped down releases the settings flow", function()
    deep_link("bistro://settings/notifications")
    dismiss()
    expect_no_modal()
    expect_coordinators(bistro.base)
    expect_no_leaks()
  end)

  scenario("the sign-in sheet swiped down drops the intent and releases the auth flow", function()
    deep_link("bistro://orders/7")
    dismiss()
    expect_no_modal()
    expect_events{ "gate auth order:7", "finish app/auth cancelled", "drop order:7" }
    expect_coordinators(bistro.base)
    expect_no_leaks()
  end)
end)
