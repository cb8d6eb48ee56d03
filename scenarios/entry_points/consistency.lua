-- Same intent, different door: every entry point must reach the same
-- outcome and the same navigation state, through the one engine.
local links = require("links")

-- The canonical product row kills no fault on its own (push-own-vocabulary only
-- knows this one shape); it is the baseline the alias rows are compared with.
scenario.each({
  { url = "shop://product/p1004", family = "product" },
  { url = "shop://p/p1004", family = "product alias p/" },
  { url = "shop://deeplink?product=p1004", family = "product query alias" },
  { url = "shop://product/p1004/reviews", family = "reviews" },
  { url = "shop://category/shoes", family = "category" },
  { url = "shop://promo/SPRING24", family = "promo" },
  { url = "shop://orders", family = "orders" },
  { url = "shop://orders/42", family = "order" },
  { url = "shop://orders/42/track", family = "tracking" },
  { url = "shop://profile", family = "profile" },
  { url = "shop://profile/edit", family = "profile edit" },
  { url = "shop://settings", family = "settings" },
  { url = "shop://settings/security", family = "settings security" },
  { url = "shop://checkout", family = "checkout" },
}, "every entry point agrees on $family signed in", { launch = { logged_in = true } }, function(row)
  expect_same_outcome(row.url, links.ENTRY_POINTS)
end)

-- Every URL parser reads a scheme or host in capitals, or a percent-encoded
-- letter, as the same link: each door that takes a URL must too.
scenario.each({
  { url = "shop://orders/42", family = "an order" },
  { url = "shop://product/p1004/reviews", family = "reviews" },
}, "equivalent spellings of $family agree through every URL door", { launch = { logged_in = true } }, function(row)
  expect_same_outcome(row.url, { "scheme", "universal", "widget" }, { spellings = true })
end)

scenario.each({
  { url = "shop://cart", family = "cart" },
  { url = "shop://orders/42/track", family = "tracking" },
  { url = "shop://checkout", family = "checkout" },
  { url = "shop://settings/security", family = "settings security" },
}, "every entry point gates $family the same way signed out", function(row)
  expect_same_outcome(row.url, links.ENTRY_POINTS)
end)

describe("aliases", function()
  scenario.each({
    { url = "shop://product/p1004" },
    { url = "shop://p/p1004" },
    { url = "shop://deeplink?product=p1004" },
    { url = "https://shop.example.com/products/p1004", via = "universal" },
    { url = "https://shop.example.com/p/p1004", via = "universal" },
  }, "$url reaches product p1004", function(row)
    local outcome = deep_link(row.url, { via = row.via or "scheme" })
    assert(outcome.status == "proceed" and outcome.destination == "product", "outcome was " .. outcome.status)
    expect_stack{ "home", "product:p1004" }
  end)

  scenario("a push payload may carry a full URL", function()
    deep_link({ url = "shop://orders" }, { via = "push" })
    expect_tab("orders")
  end)

  scenario("a Handoff activity carries a web page URL", function()
    deep_link({ activity_type = "NSUserActivityTypeBrowsingWeb", webpage_url = "https://shop.example.com/products/p7" })
    expect_stack{ "home", "product:p7" }
  end)
end)

-- A link the engine must refuse is refused through every door alike: a door
-- that skipped the check the scheme link enforces would open it.
scenario.each({
  { url = "shop://product/P1004", family = "a product id its pattern refuses" },
  { url = "shop://orders/4x2", family = "an order id that is no number" },
}, "every entry point refuses $family", { launch = { logged_in = true } }, function(row)
  expect_same_outcome(row.url, links.ENTRY_POINTS, { rejected = true })
end)
