-- Gated links arriving while a sign-in is already up wait for it: one
-- sign-in sheet, one auth coordinator, one session commit; on success the
-- links resume in arrival order (the last one decides where the user ends),
-- on cancel they are all dropped.

local function count(prefix)
  local n = 0
  for _, event in ipairs(events()) do
    if event == prefix or event:sub(1, #prefix + 1) == prefix .. " " then n = n + 1 end
  end
  return n
end

local function expect_one_sign_in()
  expect_modal("login")
  assert(#modals() == 1, "expected one sign-in sheet, got modals " .. table.concat(modals(), ", "))
  expect_coordinators{ "app", "app/browse", "app/orders", "app/profile", "app/auth" }
  assert(count("present login") == 1, "the sign-in sheet was presented " .. count("present login") .. " times")
end

describe("queued behind one sign-in", function()
  scenario("two gated links share one sign-in and the last one decides", function()
    assert(deep_link("shop://cart").status == "gated")
    assert(deep_link("shop://orders/7").status == "gated")
    expect_one_sign_in()
    login{}
    assert(count("session-commit") == 1, "the session was committed " .. count("session-commit") .. " times")
    expect_no_modal()
    expect_tab("orders")
    expect_stack{ "orders", "order:7" }
    expect_stack("home", { "home", "cart" })
    expect_events{ "gate auth cart", "gate auth order:7", "join-gate auth", "session-commit",
                   "resume cart", "resume order:7" }
  end)

  scenario("three gated links resume in arrival order", function()
    deep_link("shop://orders/7")
    deep_link("shop://cart")
    deep_link("shop://orders/8/track")
    expect_one_sign_in()
    login{}
    expect_stack{ "orders", "order:8", "tracking:8" }
    expect_stack("home", { "home", "cart" })
    expect_events{ "resume order:7", "resume cart", "resume tracking:8" }
    expect_no_leaks()
  end)

  scenario("cancelling the shared sign-in drops every waiting link", function()
    deep_link("shop://cart")
    deep_link("shop://orders/7")
    login{ cancel = true }
    expect_no_modal()
    expect_tab("home")
    expect_stack{ "home" }
    expect_events{ "finish app/auth cancelled", "drop cart", "drop order:7" }
    expect_no_leaks()
  end)

  scenario("a link arriving during session expiry's sign-in waits for it", { launch = { logged_in = true } }, function()
    expire_session()
    assert(deep_link("shop://orders/7").status == "gated")
    expect_one_sign_in()
    login{}
    expect_stack{ "orders", "order:7" }
    expect_no_modal()
    expect_no_leaks()
  end)

  -- Found by `navscript explore --seed 1`: a sign-in opened by a link was
  -- not the one gated links waited for, so they presented a second one.
  scenario("a sign-in opened by a link is the one gated links wait for", function()
    deep_link("shop://login")
    assert(deep_link("shop://cart").status == "gated")
    expect_one_sign_in()
    login{}
    expect_stack{ "home", "cart" }
    expect_no_modal()
  end)

  -- Found by `navscript explore --seed 7`: the profile tab's own sign-in
  -- was not the one a gated link waited for.
  scenario("a gated link waits for the sign-in the profile tab opened", function()
    select_tab("profile")
    tap("sign_in")
    assert(deep_link("shop://orders/7").status == "gated")
    expect_modals{ "login" }
    login{}
    expect_stack{ "orders", "order:7" }
    expect_no_modal()
    expect_event_count("session-commit", 1)
  end)

  scenario("a chained gate behind a shared sign-in still asks for the payment method",
    { launch = { payment_method = false } }, function()
    deep_link("shop://cart")
    deep_link("shop://checkout")
    expect_one_sign_in()
    login{}
    expect_modal("add_payment")
    tap("done")
    expect_modal("checkout_address")
    expect_stack("home", { "home", "cart" })
  end)
end)
