-- Stack shape: every stack follows its bound path, one write per change,
-- and links land on the destination's canonical stack.
local wander = require("wander")

describe("places", function()
  scenario("a place and its guide are pushed on the places stack", function()
    tap("place", "lisbon")
    tap("guide")
    expect_stack{ "places", "place:lisbon", "guide:lisbon" }
    expect_events{ "push place:lisbon", "push guide:lisbon" }
  end)

  scenario("a guide link lands on its canonical stack in one update", function()
    tap("place", "porto")
    local before = mark()
    deep_link("wander://places/lisbon/guide")
    expect_stack{ "places", "place:lisbon", "guide:lisbon" }
    expect_event_count("set-stack", 1, before)
    wander.no_warnings(before)
  end)

  scenario("a link to a place from another tab selects places and resets its stack", function()
    select_tab("trips")
    deep_link("wander://p/sintra")
    expect_tab("places")
    expect_stack{ "places", "place:sintra" }
  end)

  scenario("the guide's own close button pops it", function()
    tap("place", "lisbon")
    tap("guide")
    tap("close")
    expect_stack{ "places", "place:lisbon" }
    expect_no_leaks()
  end)
end)

describe("trips", function()
  scenario("a trip link twice keeps the same screen", { launch = { signed_in = true } }, function()
    deep_link("wander://trips/7")
    local before = mark()
    deep_link("wander://trips/7")
    expect_stack{ "trips", "trip:7" }
    expect_no_event("release trip:7", before)
    wander.no_warnings(before)
  end)

  scenario("a booking link shows the trip under it", { launch = { signed_in = true } }, function()
    deep_link("wander://trips/3/booking")
    expect_stack{ "trips", "trip:3", "booking:3" }
    tap("done")
    expect_stack{ "trips" }
    expect_no_leaks()
  end)

  scenario("a trip tapped in the list while signed in opens at once", { launch = { signed_in = true } }, function()
    select_tab("trips")
    tap("trip", "12")
    expect_stack{ "trips", "trip:12" }
    tap("book")
    expect_stack{ "trips", "trip:12", "booking:12" }
  end)
end)

describe("profile", function()
  scenario("badges are pushed and the profile tab keeps them across tabs", function()
    select_tab("profile")
    tap("badges")
    select_tab("places")
    select_tab("profile")
    expect_stack{ "profile", "badges" }
  end)
end)
