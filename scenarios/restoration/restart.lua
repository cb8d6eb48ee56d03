-- State restoration: a cold start rebuilds the same tabs, stacks and
-- modals through the coordinators, from route ids and params alone.

local function render(s)
  local parts = { "root=" .. s.root, "tab=" .. s.tab }
  for _, tab in ipairs({ "home", "orders", "profile" }) do
    parts[#parts + 1] = tab .. "=" .. table.concat(s.stacks[tab], ",")
  end
  for i, modal in ipairs(s.modals) do parts[#parts + 1] = "modal" .. i .. "=" .. table.concat(modal, ",") end
  return table.concat(parts, " ")
end

-- Guards: restoration of every tab and the modal chain; no fault yet.
scenario("restart restores tabs, stacks and modals", { launch = { logged_in = true } }, function()
  deep_link("shop://orders/42/track")
  deep_link("shop://product/p9")
  deep_link("shop://settings/security")
  local before = render(snapshot())
  restart{ restore = true }
  local after = render(snapshot())
  assert(after == before, "restored " .. after .. "\nexpected " .. before)
  expect_coordinators{ "app", "app/browse", "app/orders", "app/orders/order", "app/profile", "app/settings" }
end)

scenario("restored flows work like navigated ones", { launch = { logged_in = true } }, function()
  deep_link("shop://orders/42")
  restart{ restore = true }
  expect_stack{ "orders", "order:42" }
  tap("tracking")
  expect_stack{ "orders", "order:42", "tracking:42" }
  back()
  back()
  expect_stack{ "orders" }
  expect_no_leaks()
end)

-- Guards: a cold start without an archive is clean; no fault yet.
scenario("restart without restoration starts clean but keeps the session", { launch = { logged_in = true } }, function()
  deep_link("shop://orders/42")
  restart{ restore = false }
  expect_stack("orders", { "orders" })
  expect_tab("home")
  assert(session().logged_in, "the session survives a cold start")
end)
