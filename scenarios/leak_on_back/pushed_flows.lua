-- A child flow pushed on a tab (an order, the cart) must be released when
-- its first screen leaves the stack — however the user leaves it. UIKit
-- only tells the coordinator through the navigation delegate.
local flows = require("flows")

describe("leaving a pushed flow", function()
  before_each(function()
    launch{ logged_in = true }
    flows.open_order(42)
    expect_coordinators{ "app", "app/browse", "app/orders", "app/orders/order", "app/profile" }
  end)

  scenario("with the back button releases the order flow", function()
    back()
    expect_stack{ "orders" }
    expect_coordinators(flows.BASE_COORDINATORS)
    expect_no_leaks()
    expect_events{ "pop order:42", "finish app/orders/order cancelled", "dealloc app/orders/order" }
  end)

  scenario("with a back-swipe releases the order flow", function()
    back_swipe{}
    expect_stack{ "orders" }
    expect_coordinators(flows.BASE_COORDINATORS)
    expect_no_leaks()
  end)

  scenario("with a non-animated pop releases the order flow", function()
    back_swipe{ animated = false }
    expect_stack{ "orders" }
    expect_coordinators(flows.BASE_COORDINATORS)
    expect_no_leaks()
  end)

  -- Leaks are judged after every step: a sign-out that tears every flow
  -- down later does not hide the one the swipe left behind.
  scenario("with a back-swipe leaks nothing even when a sign-out follows", function()
    back_swipe{}
    expect_stack{ "orders" }
    logout()
    expect_no_leaks()
  end)

  scenario("with a cancelled swipe tears nothing down", function()
    back_swipe{ cancel = true }
    expect_screen("order:42")
    expect_events{ "will-disappear order:42", "swipe-cancelled order:42" }
    expect_coordinators{ "app", "app/browse", "app/orders", "app/orders/order", "app/profile" }
    tap("tracking")
    expect_stack{ "orders", "order:42", "tracking:42" }
  end)

  -- Guards against over-eager pop detection (a pop inside a child flow must not
  -- tear the child down); no fault models that direction yet.
  scenario("from tracking back to the order keeps the order flow", function()
    tap("tracking")
    back()
    expect_stack{ "orders", "order:42" }
    expect_coordinators{ "app", "app/browse", "app/orders", "app/orders/order", "app/profile" }
    expect_no_leaks()
  end)

  scenario("two levels at once with a deep link releases everything replaced", function()
    tap("tracking")
    deep_link("shop://orders")
    expect_stack{ "orders" }
    expect_coordinators(flows.BASE_COORDINATORS)
    expect_no_leaks()
  end)
end)

scenario("backing out of the cart releases the cart flow", { launch = { logged_in = true } }, function()
  tap("cart")
  expect_coordinators{ "app", "app/browse", "app/browse/cart", "app/orders", "app/profile" }
  back_swipe{}
  expect_stack{ "home" }
  expect_coordinators(flows.BASE_COORDINATORS)
  expect_no_leaks()
end)
