-- Shared steps for Bistro's scenarios.
local bistro = {}

--- The coordinators of a signed-in or signed-out app at rest.
bistro.base = { "app", "app/catalog", "app/orders", "app/account" }

--- Opens a restaurant from the catalog's list.
function bistro.open_restaurant(id)
  tap("restaurant", id)
  expect_screen("restaurant:" .. id)
end

--- Counts the events that are `text` or start with `text` and a space.
function bistro.count(text)
  local n = 0
  for _, event in ipairs(events()) do
    if event == text or event:sub(1, #text + 1) == text .. " " then n = n + 1 end
  end
  return n
end

return bistro
