-- Dispatch is serialized: a link arriving while another is still executing
-- waits its turn. Interleaving them reconciles against a stale snapshot.

scenario("links arriving mid-flight run in order and the last one wins", { launch = { logged_in = true } }, function()
  deep_link("shop://settings", { settle = false })
  local second = deep_link("shop://product/p1004", { settle = false })
  assert(second.status == "queued", "second link was " .. second.status)
  deep_link("shop://orders/42")
  expect_tab("orders")
  expect_stack{ "orders", "order:42" }
  expect_no_modal()
  expect_events{ "queue product:p1004", "dequeue product:p1004", "dequeue order:42" }
  expect_no_leaks()
end)

-- Guards: a queued link is planned against the state its predecessor left
-- (modal roots match, so it reconciles inside the modal); no fault yet.
scenario("a queued link sees the state its predecessor produced", { launch = { logged_in = true } }, function()
  deep_link("shop://checkout", { settle = false })
  deep_link("shop://checkout/payment", { settle = false })
  settle()
  expect_modal("checkout_address")
  expect_screen("checkout_payment")
  expect_coordinators{ "app", "app/browse", "app/browse/cart", "app/orders", "app/profile", "app/checkout" }
end)

scenario("a link while sign-in is on screen abandons the gated intent", function()
  deep_link("shop://cart")
  expect_modal("login")
  deep_link("shop://product/p1004")
  expect_no_modal()
  expect_stack{ "home", "product:p1004" }
  expect_events{ "gate auth cart", "finish app/auth cancelled", "drop cart" }
  expect_no_leaks()
end)

-- Guards: every link queued behind one that does not execute (a gated one
-- brings up the sign-in) still runs. A dispatcher that dequeued one link per
-- finished execution left the last one queued for ever (an independent fault
-- trial's slip: `if` for `while` in RouteDispatcher).
scenario("a gated link dequeued mid-flight does not strand the links queued behind it", function()
  deep_link("shop://settings", { settle = false })
  deep_link("shop://cart", { settle = false })
  deep_link("shop://promo/SPRING24")
  expect_no_modal()
  expect_stack{ "home", "promo:SPRING24" }
end)
