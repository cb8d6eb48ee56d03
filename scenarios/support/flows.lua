-- Shared steps for the shipped suite: require("flows") from any scenario.
-- Steps drive the app the way a user would; checks assert a whole state.
local flows = {}

--- The coordinators of a freshly launched main flow.
flows.BASE_COORDINATORS = { "app", "app/browse", "app/orders", "app/profile" }

--- Opens order `id` from the orders tab's list (gated: signs in if asked).
function flows.open_order(id)
  select_tab("orders")
  tap("order", { id = id })
end

--- Walks checkout from the address step to the confirmation step.
function flows.checkout_to_confirm()
  expect_screen("checkout_address")
  tap("continue")
  expect_screen("checkout_payment")
  tap("continue")
  expect_screen("checkout_confirm")
end

--- The app is back to a clean main flow: one screen per tab, no modal,
--- only the main coordinators alive, nothing leaked.
function flows.expect_clean_main()
  expect_no_modal()
  expect_stack("home", { "home" })
  expect_stack("orders", { "orders" })
  expect_stack("profile", { "profile" })
  expect_coordinators(flows.BASE_COORDINATORS)
  expect_no_leaks()
end

return flows
