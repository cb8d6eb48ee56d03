-- Deep links must land on the manifest's canonical ancestry, whatever was
-- on screen before: from a cold start, a deep stack, another tab, a modal.

describe("deep link", function()
  scenario("from a cold start lands on the canonical product stack", {
    launch = { url = "shop://product/p1004" },
  }, function()
    expect_tab("home")
    expect_stack{ "home", "product:p1004" }
    expect_events{ "stash", "start app/browse", "deliver scheme shop://product/p1004", "resolve product:p1004 proceed" }
  end)

  scenario("from a cold start through a universal link builds the orders stack", {
    launch = { logged_in = true, url = "https://shop.example.com/orders/42/track", via = "universal" },
  }, function()
    expect_tab("orders")
    expect_stack{ "orders", "order:42", "tracking:42" }
    expect_stack("home", { "home" })
  end)

  scenario("from a deep stack resets to the canonical ancestry", function()
    tap("category", "shoes")
    tap("product", "p1")
    tap("reviews")
    expect_stack{ "home", "category:shoes", "product:p1", "reviews:p1" }
    deep_link("shop://promo/SPRING24")
    expect_stack{ "home", "promo:SPRING24" }
    expect_no_leaks()
  end)

  scenario("into another tab leaves the first tab's stack alone", { launch = { logged_in = true } }, function()
    tap("product", "p7")
    deep_link("shop://orders/42/track")
    expect_tab("orders")
    expect_stack{ "orders", "order:42", "tracking:42" }
    expect_stack("home", { "home", "product:p7" })
  end)

  scenario("under a modal dismisses the modal first", { launch = { logged_in = true } }, function()
    deep_link("shop://settings")
    expect_modal("settings")
    deep_link("shop://product/p1004")
    expect_no_modal()
    expect_tab("home")
    expect_stack{ "home", "product:p1004" }
    expect_events{ "deliver scheme shop://product/p1004", "dismiss settings", "finish app/settings cancelled", "select-tab home" }
    expect_no_leaks()
  end)

  -- Guards: canonical ancestry through a modal (push inside the modal stack).
  scenario("to a settings page presents the modal with its own stack over profile", { launch = { logged_in = true } }, function()
    deep_link("shop://settings/security")
    expect_tab("profile")
    expect_stack{ "profile" }
    expect_modal("settings")
    assert(#modals() == 2 and modals()[2] == "settings_security", "settings_security is pushed inside the settings modal")
    expect_screen("settings_security")
  end)

  scenario("to checkout builds the cart under the checkout modal", { launch = { logged_in = true } }, function()
    deep_link("shop://checkout")
    expect_stack("home", { "home", "cart" })
    expect_modal("checkout_address")
    expect_coordinators{ "app", "app/browse", "app/browse/cart", "app/orders", "app/profile", "app/checkout" }
  end)
end)

describe("modal ordering", function()
  scenario("selects the tab before presenting the modal", { launch = { logged_in = true } }, function()
    expect_tab("home")
    deep_link("shop://settings")
    expect_events{ "execute settings external", "select-tab profile", "present settings" }
  end)

  scenario("dismisses a stale modal before presenting the new one", { launch = { logged_in = true } }, function()
    deep_link("shop://checkout")
    deep_link("shop://settings")
    expect_modal("settings")
    expect_tab("profile")
    expect_events{ "dismiss checkout_address", "select-tab profile", "present settings" }
    expect_no_leaks()
  end)
end)
