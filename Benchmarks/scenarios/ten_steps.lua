-- The benchmark's representative scenario: ten steps (launch, two taps, a
-- back, a gated deep link, sign-in, a cross-tab deep link and three
-- expectations). bench drives exactly the same steps from Swift through
-- ShopApplication (Sources/bench/ScenarioBenchmarks.swift) and compares.
scenario("browse, get gated at the cart, sign in, track an order", function()
  launch{ logged_in = false }
  tap("category", "shoes")
  tap("product", "p1")
  back()
  local outcome = deep_link("shop://cart")
  assert(outcome.status == "gated", "expected the cart to be gated")
  login{}
  deep_link("shop://orders/42/track")
  expect_stack{ "orders", "order:42", "tracking:42" }
  expect_events{ "gate auth cart", "session-commit", "resume cart", "resolve tracking:42 proceed" }
  expect_no_leaks()
end)
