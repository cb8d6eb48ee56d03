-- First launch shows onboarding, branched by experiment; every branch ends
-- in the main flow, and a link that came with the launch waits for it.
local flows = require("flows")

--- Taps through onboarding, returning the screens seen in order.
local function walk_onboarding()
  local seen = {}
  while snapshot().root == "onboarding" and #seen < 8 do
    local id = screen()
    seen[#seen + 1] = id
    tap(id == "notifications_permission" and "done" or "continue")
  end
  return table.concat(seen, " > ")
end

scenario.each({
  { experiment = "video_first", path = "welcome > value_prop_video > sign_up > notifications_permission" },
  { experiment = "sign_up_first", path = "welcome > sign_up > profile_setup > notifications_permission" },
  { experiment = "minimal", path = "welcome > notifications_permission" },
}, "the $experiment branch ends in the main flow", function(row)
  launch{ first_launch = true, experiment = row.experiment }
  expect_modal("welcome")
  local path = walk_onboarding()
  assert(path == row.path, "onboarding went " .. path)
  expect_no_modal()
  expect_coordinators(flows.BASE_COORDINATORS)
  expect_no_leaks()
end)

-- Guards: the sign_up_first branch commits a session; no fault yet.
scenario("signing up during onboarding signs the user in", function()
  launch{ first_launch = true, experiment = "sign_up_first" }
  walk_onboarding()
  assert(session().logged_in, "sign-up committed a session")
end)

scenario("a cold-start link waits until onboarding has finished", function()
  launch{ first_launch = true, url = "shop://product/p1004" }
  expect_modal("welcome")
  expect_stack("home", { "home" })
  walk_onboarding()
  expect_stack{ "home", "product:p1004" }
  expect_events{ "stash", "finish app/onboarding completed", "deliver scheme shop://product/p1004" }
end)

scenario("a restart during onboarding starts it again, still holding links", function()
  launch{ first_launch = true }
  restart{}
  expect_modal("welcome")
  local outcome = deep_link("shop://profile")
  assert(outcome.status == "stashed", "a link during the restarted onboarding was " .. outcome.status)
  expect_modal("welcome")
  walk_onboarding()
  expect_stack("profile", { "profile" })
end)

-- Guards: auth is reusable from a third parent (onboarding); no fault yet.
scenario("the welcome screen's sign-in presents auth as onboarding's child", function()
  launch{ first_launch = true }
  tap("sign_in")
  expect_modal("login")
  expect_coordinators{ "app", "app/browse", "app/orders", "app/profile", "app/onboarding", "app/onboarding/auth" }
  login{}
  expect_modal("welcome")
  assert(session().logged_in, "signed in from onboarding")
end)
