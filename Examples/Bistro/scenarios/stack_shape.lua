-- Stack shape: every path builds the canonical stack, whatever was there.
local bistro = require("bistro")

describe("stack shape", function()
  -- Guards: in-module pushes and the pushed restaurant flow's place in the tree.
  scenario("tapping through the catalog builds restaurants, restaurant, menu", function()
    bistro.open_restaurant("luigi")
    tap("menu")
    expect_stack{ "restaurants", "restaurant:luigi", "menu:luigi" }
    expect_coordinators{ "app", "app/catalog", "app/catalog/restaurant", "app/orders", "app/account" }
  end)

  scenario.each({ { link = "bistro://r/luigi" }, { link = "bistro://restaurants/luigi" } },
    "$link opens the restaurant on its canonical stack", function(row)
    deep_link(row.link)
    expect_tab("catalog")
    expect_stack{ "restaurants", "restaurant:luigi" }
  end)

  -- Guards: each output opens what it names, with the values tapped.
  scenario("searching shows the results for the query", function()
    tap("search", { q = "pizza" })
    expect_stack{ "restaurants", "search:pizza" }
  end)

  scenario("tracking an order opens its tracking", { launch = { signed_in = true } }, function()
    select_tab("orders")
    tap("order", "7")
    tap("track")
    expect_stack{ "orders", "order:7", "tracking:7" }
  end)

  scenario("each settings row opens its own page", function()
    select_tab("account")
    tap("settings")
    tap("privacy")
    expect_screen("privacy")
    back()
    tap("notifications")
    expect_screen("notifications")
  end)

  scenario("a menu link builds the whole path", function()
    deep_link("bistro://restaurants/luigi/menu")
    expect_stack{ "restaurants", "restaurant:luigi", "menu:luigi" }
  end)

  -- Guards: the reconciler keeps the shared prefix and releases what it replaced.
  scenario("an external link replaces a deep stack with its canonical path", function()
    bistro.open_restaurant("luigi")
    tap("menu")
    deep_link("bistro://r/mario")
    expect_stack{ "restaurants", "restaurant:mario" }
    expect_no_leaks()
  end)

  scenario("a link to another tab leaves the catalog stack as it was", { launch = { signed_in = true } }, function()
    bistro.open_restaurant("luigi")
    deep_link("bistro://orders/7")
    expect_tab("orders")
    expect_stack("catalog", { "restaurants", "restaurant:luigi" })
  end)

  scenario("a search link pushes the search on the list", function()
    deep_link("bistro://search?q=pizza")
    expect_stack{ "restaurants", "search:pizza" }
  end)

  scenario.each({ { link = "bistro://orders/7/track" }, { link = "bistro://o/7/track" }, { link = "bistro://track?order=7" } },
    "$link builds orders, order, tracking", { launch = { signed_in = true } }, function(row)
    deep_link(row.link)
    expect_stack{ "orders", "order:7", "tracking:7" }
  end)

  -- Guards: a modal chain two screens deep from one link.
  scenario("a settings link presents settings with its own stack", function()
    deep_link("bistro://settings/privacy")
    expect_tab("account")
    expect_modal("privacy")
    assert(#modals() == 2 and modals()[1] == "settings", "expected settings > privacy, got " .. table.concat(modals(), ", "))
    expect_stack{ "account" }
  end)

  scenario("placing an order hands it over to the orders tab", { launch = { signed_in = true } }, function()
    bistro.open_restaurant("luigi")
    tap("menu")
    tap("order")
    expect_tab("orders")
    expect_stack{ "orders", "order:101" }
    expect_stack("catalog", { "restaurants", "restaurant:luigi", "menu:luigi" })
  end)
end)
