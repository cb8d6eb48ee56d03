-- Entry points aim at a window: a link opens in the window the system gave
-- it; a push notification or a widget's tap goes to the one in front; a
-- Handoff activity may open a window of its own.
describe("links and windows", function()
  scenario("a link opened in a background window lands there", { launch = { logged_in = true } }, function()
    open_scene{}
    local outcome = deep_link("shop://orders/42", { scene = 1 })
    assert(outcome.status == "proceed", "the link was " .. outcome.status)
    in_scene(1, function()
      expect_tab("orders")
      expect_stack{ "orders", "order:42" }
    end)
    expect_tab("home")
    expect_stack{ "home" }
  end)

  scenario("a push notification goes to the window in front", { launch = { logged_in = true } }, function()
    open_scene{}
    deep_link({ route = "orders/42" })
    expect_stack{ "orders", "order:42" }
    in_scene(1, function() expect_tab("home") end)
  end)

  scenario("a widget's tap goes to the window in front", { launch = { logged_in = true } }, function()
    open_scene{}
    focus_scene(1)
    deep_link("shop://orders/42", { via = "widget" })
    expect_stack{ "orders", "order:42" }
    in_scene(2, function() expect_tab("home") end)
  end)

  scenario("a Handoff activity opens a window of its own", function()
    local number, outcome = open_scene{ url = { activity_type = "shop.link", identifier = "product/p1004" } }
    assert(number == 2 and outcome.status == "proceed", "opened scene " .. tostring(number))
    expect_stack{ "home", "product:p1004" }
    in_scene(1, function() expect_stack{ "home" } end)
  end)

  scenario("a gated link in a background window asks to sign in there", function()
    open_scene{}
    deep_link("shop://cart", { scene = 1 })
    in_scene(1, function() expect_modal("login") end)
    expect_no_modal()
  end)
end)
