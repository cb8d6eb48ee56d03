-- Untrusted input that has no destination is rejected with the same kind
-- of error whatever door it comes through — and never crashes.
local links = require("links")

-- Guards: parsing and validation live in the engine (NavigationCore), which no
-- ShopApp fault switches off, so most rows kill no fault today; the push rows
-- kill push-own-vocabulary. They stay because "never crash, reject the same way
-- everywhere" is the property a new entry point most easily breaks.
local BAD = {
  { path = "product/%zz", kind = "malformed" },
  { path = "product/%ff%fe", kind = "malformed" },
  { path = "nowhere", kind = "unknown_route" },
  { path = "product/p1004/extra/segments", kind = "unknown_route" },
  { path = "product/P1004", kind = "validation_failed" },
  { path = "orders/abc", kind = "validation_failed" },
  { path = "promo/x", kind = "validation_failed" },
}

scenario.each(links.for_every_entry_point(BAD), "$path via $via is rejected as $kind", function(row)
  expect_error(links.shaped(row.path, row.via), row.kind, { via = row.via })
  expect_stack{ "home" }
  expect_no_modal()
end)

scenario("a link that is not a URL at all is malformed", function()
  expect_error("product/p1004", "malformed")
  expect_error("ftp://shop/product/p1004", "malformed")
  expect_events{ "reject malformed product/p1004", "reject malformed ftp://shop/product/p1004" }
end)

scenario("a universal link to another host is an unknown route", function()
  expect_error("https://evil.example.com/product/p1004", "unknown_route", { via = "universal" })
end)

scenario("a very long link is refused before parsing", function()
  expect_error("shop://product/" .. string.rep("p", 3000), "malformed")
end)

-- Guards: a value exactly as long as its parameter allows is accepted (an
-- off-by-one `>=` in the length check refused it as validation_failed).
scenario("a value of exactly its parameter's maximum length is accepted", { launch = { logged_in = true } }, function()
  deep_link("shop://promo/ABCDEFGHIJKL")
  expect_stack{ "home", "promo:ABCDEFGHIJKL" }
  deep_link("shop://orders/123456789")
  expect_stack{ "orders", "order:123456789" }
end)

-- Guards: a percent-escape in lowercase hex is the same link (a decoder that
-- knew only uppercase refused `%6f` as malformed).
scenario("a percent-escape in lowercase hex decodes like uppercase", function()
  deep_link("shop://category/sh%6fes")
  expect_stack{ "home", "category:shoes" }
  deep_link("shop://category/sh%6Fes")
  expect_stack{ "home", "category:shoes" }
end)
