-- Restoration: the tab and every path come back from the Codable archive,
-- whatever type a path element is.
describe("restoration", function()
  scenario("a restored app has its places path, guide included", function()
    tap("place", "lisbon")
    tap("guide")
    restart{ restore = true }
    expect_stack{ "places", "place:lisbon", "guide:lisbon" }
  end)

  scenario("a restored app has its trips path and tab", { launch = { signed_in = true } }, function()
    deep_link("wander://trips/9/booking")
    local before = snapshot()
    restart{ restore = true }
    expect_snapshot{ tab = before.tab, stacks = before.stacks }
    expect_tab("trips")
  end)

  scenario("a restart without restoration starts on the places root", { launch = { signed_in = true } }, function()
    deep_link("wander://trips/9")
    restart{ restore = false }
    expect_tab("places")
    expect_snapshot{ stacks = { trips = { "trips" }, places = { "places" } } }
  end)

  scenario("a restored profile path keeps its badges", function()
    select_tab("profile")
    tap("badges")
    restart{ restore = true }
    expect_tab("profile")
    expect_stack{ "profile", "badges" }
  end)
end)
