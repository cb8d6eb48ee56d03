-- Logout is a flow swap: nothing of the signed-in session may survive on a
-- stack, in a modal or in a coordinator — from whichever tab it happens.
local flows = require("flows")

-- A modal covers the tab bar, so each row's modal is opened from the tab
-- its link selects (a thumb cannot switch tabs under a modal).
scenario.each({
  { tab = "home", modal = "shop://checkout" },
  { tab = "profile", modal = "shop://settings" },
  { tab = "profile", modal = "shop://settings/security" },
}, "logging out from the $tab tab with $modal open resets everything", { launch = { logged_in = true } }, function(row)
  deep_link("shop://orders/42/track")
  deep_link("shop://product/p1004")
  deep_link(row.modal)
  expect_tab(row.tab)
  logout()
  assert(session().logged_in == false, "signed out")
  expect_tab("home")
  flows.expect_clean_main()
end)

scenario("logout releases the signed-in flows", { launch = { logged_in = true } }, function()
  flows.open_order(42)
  tap("tracking")
  logout()
  expect_events{ "session-clear", "dealloc app/orders/order", "start app/browse" }
  expect_coordinators(flows.BASE_COORDINATORS)
  expect_no_leaks()
end)

scenario("after logout the cart is gated again", { launch = { logged_in = true } }, function()
  tap("cart")
  expect_stack{ "home", "cart" }
  logout()
  tap("cart")
  expect_modal("login")
  expect_stack{ "home" }
end)
