-- Leak on back: the system back button and the swipe write the path; the
-- coordinator must let go of what it kept for the screens that left.
describe("back", function()
  scenario("back from a place releases the place and its model", function()
    tap("place", "lisbon")
    back()
    expect_stack{ "places" }
    expect_events{ "release place:lisbon", "release place:lisbon view-model" }
    expect_no_leaks()
  end)

  scenario("a back-swipe from a place releases its model", function()
    tap("place", "evora")
    back_swipe{}
    expect_stack{ "places" }
    expect_no_leaks()
  end)

  scenario("a cancelled swipe keeps the place and writes nothing", function()
    tap("place", "evora")
    local before = mark()
    back_swipe{ cancel = true }
    expect_stack{ "places", "place:evora" }
    expect_events_since(before, { "will-disappear place:evora", "swipe-cancelled place:evora" })
    expect_no_event("warning", before)
  end)

  scenario("swiping back twice through a guide empties the stack", function()
    tap("place", "faro")
    tap("guide")
    back_swipe{}
    back_swipe{}
    expect_stack{ "places" }
    expect_no_leaks()
  end)

  scenario("a back-swipe on the profile stack is stored in its path", function()
    select_tab("profile")
    tap("badges")
    back_swipe{}
    expect_stack{ "profile" }
    select_tab("places")
    select_tab("profile")
    expect_stack{ "profile" }
  end)

  scenario("back from a guide keeps the place and its model", function()
    tap("place", "lisbon")
    tap("guide")
    back()
    expect_stack{ "places", "place:lisbon" }
    expect_no_event("release place:lisbon view-model")
    expect_no_leaks()
  end)
end)
