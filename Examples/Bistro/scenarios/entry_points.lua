-- Entry points: every door agrees, bad input is rejected the same way,
-- and a cold-start link waits for the app to be ready.
describe("entry points", function()
  scenario("a tracking link is gated the same way through every door", function()
    expect_same_outcome("bistro://track?order=7")
    expect_same_outcome("bistro://orders/7/track")
  end)

  scenario("a restaurant link lands the same way through every door", function()
    expect_same_outcome("bistro://r/luigi")
  end)

  scenario("an order link lands the same way through every door signed in", { launch = { signed_in = true } }, function()
    expect_same_outcome("bistro://orders/7")
  end)

  -- Guards: parsing and validation live in the engine (NavigationCore), which no
  -- Bistro fault touches; these pin the module vocabularies the manifest merges.
  scenario.each({
    { input = "other://orders/7", kind = "malformed" },
    { input = "bistro://nowhere", kind = "unknown_route" },
    { input = "bistro://orders/abc", kind = "validation_failed" },
    { input = "bistro://r/X!", kind = "validation_failed" },
  }, "$input is rejected as $kind", function(row)
    expect_error(row.input, row.kind)
    expect_tab("catalog")
  end)

  scenario("a cold-start link waits until onboarding has finished",
    { launch = { first_launch = true, url = "bistro://r/luigi" } }, function()
    expect_modal("welcome")
    tap("continue")
    tap("allow")
    expect_no_modal()
    expect_stack{ "restaurants", "restaurant:luigi" }
    expect_events{ "stash scheme bistro://r/luigi", "finish app/onboarding completed", "deliver scheme bistro://r/luigi" }
  end)

  scenario("a cold-start link to an order asks to sign in", { launch = { url = "bistro://orders/7" } }, function()
    expect_modal("sign_in")
    sign_in{}
    expect_stack{ "orders", "order:7" }
  end)
end)
