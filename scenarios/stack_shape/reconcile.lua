-- When the target is already (partly) on screen, the result must be
-- indistinguishable from navigating there cleanly: reuse, never duplicate.

describe("reconcile", function()
  scenario("a product with other params is updated in place", function()
    deep_link("shop://product/p1")
    deep_link("shop://product/p2")
    expect_stack{ "home", "product:p2" }
    expect_events{ "resolve product:p2 proceed", "update product:p2" }
  end)

  -- Guards: the reconciler's pop-to branch (pure, in NavigationCore); no fault yet.
  scenario("an ancestor already on the stack is popped to", function()
    tap("product", "p1004")
    tap("reviews")
    deep_link("shop://product/p1004")
    expect_stack{ "home", "product:p1004" }
    expect_events{ "resolve product:p1004 proceed", "pop-to product:p1004" }
    expect_no_leaks()
  end)

  scenario("the same link twice never duplicates a screen", function()
    deep_link("shop://product/p1004")
    deep_link("shop://product/p1004")
    expect_stack{ "home", "product:p1004" }
  end)

  scenario("an external link never grafts a second home onto the stack", function()
    tap("category", "shoes")
    deep_link("shop://product/p1004")
    local home = stack()
    local homes = 0
    for _, id in ipairs(home) do if id == "home" then homes = homes + 1 end end
    assert(homes == 1, "expected one home at the bottom, got " .. table.concat(home, ", "))
    expect_stack{ "home", "product:p1004" }
  end)

  -- Guards: local pushes stay in the flow without a router round trip.
  scenario("in-app taps push within the browse flow", function()
    tap("category", "shoes")
    tap("product", "p1")
    tap("product", "p2")
    tap("reviews")
    expect_stack{ "home", "category:shoes", "product:p1", "product:p2", "reviews:p2" }
    expect_coordinators{ "app", "app/browse", "app/orders", "app/profile" }
  end)

  scenario("switching tabs tears nothing down", { launch = { logged_in = true } }, function()
    tap("product", "p1")
    deep_link("shop://orders/42")
    select_tab("home")
    select_tab("profile")
    select_tab("orders")
    expect_stack("home", { "home", "product:p1" })
    expect_stack("orders", { "orders", "order:42" })
    expect_coordinators{ "app", "app/browse", "app/orders", "app/orders/order", "app/profile" }
    expect_no_leaks()
  end)

  scenario("the snapshot shows every tab and the modal chain", { launch = { logged_in = true } }, function()
    deep_link("shop://orders/42")
    deep_link("shop://settings/notifications")
    local s = snapshot()
    assert(s.root == "main", "root is " .. tostring(s.root))
    assert(s.tab == "profile", "tab is " .. tostring(s.tab))
    assert(s.stacks.orders[2] == "order:42", "orders stack is " .. table.concat(s.stacks.orders, ", "))
    assert(s.modals[1][1] == "settings" and s.modals[1][2] == "settings_notifications", "modal chain")
  end)
end)
