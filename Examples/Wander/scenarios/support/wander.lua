-- Shared steps for Wander's scenarios.
local wander = {}

--- The coordinators of the app at rest.
wander.base = { "app", "app/places", "app/trips", "app/profile" }

--- Counts the events that are `text` or start with `text` and a space.
function wander.count(text)
  local n = 0
  for _, event in ipairs(events()) do
    if event == text or event:sub(1, #text + 1) == text .. " " then n = n + 1 end
  end
  return n
end

--- Asserts that SwiftUI warned of nothing since `since` (a mark()).
function wander.no_warnings(since)
  expect_no_event("warning", since)
end

return wander
