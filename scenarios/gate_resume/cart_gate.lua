local flows = require("flows")

describe("cart gate", function()
  scenario("login commits the session before the gated cart resumes", function()
    launch{ logged_in = false }
    local outcome = deep_link("shop://cart")
    assert(outcome.status == "gated", "expected the cart to be gated")
    expect_modal("login")
    login{}
    expect_stack{ "home", "cart" }
    expect_events{ "gate auth cart", "session-commit", "finish app/auth completed", "resume cart", "resolve cart proceed" }
    expect_no_leaks()
  end)

  scenario("a cancelled login drops the intent", { tags = { "smoke" } }, function()
    deep_link("shop://cart")
    login{ cancel = true }
    expect_no_modal()
    expect_stack{ "home" }
    expect_events{ "gate auth cart", "drop cart" }
  end)

  -- Guards: require() of support steps and launch options in a scenario header
  -- (the example the README quotes); no fault covers a signed-in order open.
  scenario("opening an order signed in", { launch = { logged_in = true } }, function()
    flows.open_order(42)
    expect_stack("orders", { "orders", "order:42" })
    expect_screen("order")
  end)
end)
