scenario("the account is gated and opens after signing in", { tags = { "gate" } }, function()
  local outcome = deep_link("notes://account")
  assert(outcome.status == "gated", "expected a gate, got " .. outcome.status)
  expect_modal("sign_in")
  sign_in()
  assert(signed_in(), "the session should be committed")
  expect_no_modal()
  expect_stack{ "settings", "account" }
  expect_events{ "gate auth account", "session-commit", "finish app/auth completed", "resume account" }
end)

scenario("signed in, the account opens at once", { launch = { signed_in = true } }, function()
  select_tab("settings")
  tap("account")
  expect_stack{ "settings", "account" }
end)

scenario("closing the sign-in sheet drops the intent", function()
  deep_link("notes://account")
  tap("close")
  expect_no_modal()
  expect_events{ "gate auth account", "finish app/auth cancelled", "drop account" }
  expect_no_leaks()
end)
