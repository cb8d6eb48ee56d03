-- Gates are results that carry the intent to resume; the intent is
-- re-resolved against a fresh context after each gate, so a second
-- precondition (a payment method) surfaces after the first (sign-in).
local flows = require("flows")

describe("checkout", function()
  scenario("asks for sign-in, then a payment method, then opens", {
    launch = { logged_in = false, payment_method = false },
  }, function()
    local outcome = deep_link("shop://checkout")
    assert(outcome.status == "gated" and outcome.precondition == "auth", "checkout is gated by auth first")
    login{}
    expect_modal("add_payment")
    tap("done")
    expect_modal("checkout_address")
    expect_stack("home", { "home", "cart" })
    expect_events{ "gate auth checkout_address", "session-commit", "resume checkout_address",
                   "gate payment_method checkout_address", "resume checkout_address", "resolve checkout_address proceed" }
    expect_no_leaks()
  end)

  -- Guards: a cancelled second gate drops the intent (cancel-resumes only
  -- touches the sign-in gate).
  scenario("cancelling the payment method drops the checkout", {
    launch = { logged_in = true, payment_method = false },
  }, function()
    tap("cart")
    tap("checkout")
    expect_modal("add_payment")
    tap("close")
    expect_no_modal()
    expect_stack{ "home", "cart" }
    expect_events{ "gate payment_method checkout_address", "drop checkout_address" }
  end)

  scenario("paying hands the new order over to the orders tab", { launch = { logged_in = true } }, function()
    tap("cart")
    tap("checkout")
    flows.checkout_to_confirm()
    tap("pay")
    expect_no_modal()
    expect_tab("orders")
    expect_stack{ "orders", "order:1001" }
    expect_coordinators{ "app", "app/browse", "app/browse/cart", "app/orders", "app/orders/order", "app/profile" }
    expect_no_leaks()
  end)
end)
