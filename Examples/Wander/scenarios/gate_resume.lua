-- Gate and resume: the sign-in sheet commits before anything resumes; a
-- cancel, a close or a swipe-down drops the intent and lets go of sign-in.
local wander = require("wander")

describe("sign-in", function()
  scenario("a trip link waits for sign-in, which commits before it resumes", function()
    local outcome = deep_link("wander://trips/7")
    assert(outcome.status == "gated" and outcome.precondition == "auth", "trip link was " .. outcome.status)
    expect_modal("sign_in")
    sign_in{}
    expect_no_modal()
    expect_tab("trips")
    expect_stack{ "trips", "trip:7" }
    expect_events{ "gate auth trip:7", "session-commit", "dismiss sign_in", "resume trip:7" }
    expect_no_leaks()
  end)

  scenario("a cancelled sign-in drops the intent and lets go of sign-in", function()
    deep_link("wander://trips/7/booking")
    sign_in{ cancel = true }
    expect_no_modal()
    expect_tab("places")
    expect_events{ "gate auth booking:7", "drop booking:7" }
    expect_coordinators(wander.base)
    assert(not signed_in())
  end)

  scenario("a swiped-down sign-in drops the intent and lets go of sign-in", function()
    deep_link("wander://trips/7")
    dismiss()
    expect_no_modal()
    expect_events{ "drop trip:7" }
    expect_coordinators(wander.base)
    expect_no_leaks()
  end)

  scenario("after a swiped-down sign-in the next gated link asks again", function()
    deep_link("wander://trips/7")
    dismiss()
    deep_link("wander://trips/8")
    expect_modal("sign_in")
    sign_in{}
    expect_stack{ "trips", "trip:8" }
  end)

  scenario("two gated links share one sign-in sheet and the last one decides", function()
    deep_link("wander://trips/7")
    deep_link("wander://trips/8/booking")
    assert(#modals() == 1, "one sheet, got " .. table.concat(modals(), ", "))
    sign_in{}
    assert(wander.count("session-commit") == 1, "committed once")
    expect_events{ "join-gate auth", "resume trip:7", "resume booking:8" }
    expect_stack{ "trips", "trip:8", "booking:8" }
  end)

  scenario("a trip tapped while signed out asks to sign in first", function()
    select_tab("trips")
    tap("trip", "5")
    expect_modal("sign_in")
    sign_in{}
    expect_stack{ "trips", "trip:5" }
  end)

  scenario("a payment link resumes into the settings sheet after sign-in has gone", function()
    deep_link("wander://settings/payment")
    expect_modal("sign_in")
    local before = mark()
    sign_in{}
    expect_modal("settings")
    expect_tab("profile")
    expect_events_since(before, { "dismiss sign_in", "resume payment", "present settings" })
    wander.no_warnings(before)
    expect_screen("payment")
  end)

  scenario("a gated link over the settings sheet replaces it with sign-in", function()
    select_tab("profile")
    tap("settings")
    deep_link("wander://trips/4")
    expect_modals{ "sign_in" }
    sign_in{}
    expect_no_modal()
    expect_stack{ "trips", "trip:4" }
  end)

  scenario("payment from the settings sheet asks to sign in and comes back to it", function()
    select_tab("profile")
    tap("settings")
    tap("payment")
    expect_modals{ "sign_in" }
    sign_in{}
    expect_modal("settings")
    expect_screen("payment")
  end)
end)
