-- Entry points: the same link means the same thing through every door.
describe("entry points", function()
  scenario("a place link has one outcome through every entry point", function()
    expect_same_outcome("wander://places/lisbon/guide")
  end)

  scenario("a gated trip link is gated through every entry point", function()
    expect_same_outcome("wander://trips/7/booking")
  end)

  scenario("a settings link has one outcome through every entry point", function()
    expect_same_outcome("wander://settings/about")
  end)

  scenario("a cold-start link lands once the window is up", { launch = { url = "wander://p/lisbon" } }, function()
    expect_stack{ "places", "place:lisbon" }
  end)

  scenario("malformed and unknown links are rejected", function()
    expect_error("wander://places/UPPER", "validation_failed")
    expect_error("wander://nowhere", "unknown_route")
    expect_error("wander://trips/abc", "validation_failed")
  end)
end)
