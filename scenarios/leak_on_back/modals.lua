-- Modal flows own their stack; their screens must not own them back.
-- Dismissing one — by its close button or the user's swipe-down — must
-- release the flow, its screens and their view models.
local flows = require("flows")

scenario.each({
  { url = "shop://settings", screen = "settings" },
  { url = "shop://profile/edit", screen = "profile_edit" },
  { url = "shop://checkout", screen = "checkout_address" },
}, "swiping down $screen releases its flow", { launch = { logged_in = true } }, function(row)
  deep_link(row.url)
  expect_modal(row.screen)
  dismiss()
  expect_no_modal()
  expect_no_leaks()
end)

describe("closing a modal", function()
  scenario("checkout's close button releases the checkout flow", { launch = { logged_in = true } }, function()
    deep_link("shop://checkout")
    tap("continue")
    tap("close")
    expect_no_modal()
    expect_stack{ "home", "cart" }
    expect_coordinators{ "app", "app/browse", "app/browse/cart", "app/orders", "app/profile" }
    expect_events{ "finish app/checkout cancelled", "dismiss checkout_address", "dealloc app/checkout" }
    expect_no_leaks()
  end)

  scenario("settings keeps its flow while pages are popped inside it", { launch = { logged_in = true } }, function()
    deep_link("shop://settings")
    tap("settings_notifications")
    back()
    expect_screen("settings")
    expect_coordinators{ "app", "app/browse", "app/orders", "app/profile", "app/settings" }
    expect_no_leaks()
    tap("close")
    flows.expect_clean_main()
  end)

  scenario("the sign-in sheet dismissed by a swipe releases the auth flow", function()
    deep_link("shop://cart")
    expect_modal("login")
    dismiss()
    expect_no_modal()
    expect_events{ "finish app/auth cancelled", "drop cart" }
    expect_coordinators(flows.BASE_COORDINATORS)
    expect_no_leaks()
  end)
end)
