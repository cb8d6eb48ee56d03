-- The same route as each entry point delivers it: a scheme or widget URL,
-- a universal link, a push payload, a Spotlight activity.
local links = {}

links.ENTRY_POINTS = { "scheme", "universal", "push", "spotlight", "widget" }

--- `path` (e.g. "product/p1004") shaped for entry point `via`.
function links.shaped(path, via)
  if via == "scheme" or via == "widget" then
    return "shop://" .. path
  elseif via == "universal" then
    return "https://shop.example.com/" .. path
  elseif via == "push" then
    return { route = path }
  elseif via == "spotlight" then
    return { activity_type = "com.shop.view", identifier = path }
  end
  error("unknown entry point " .. tostring(via), 2)
end

--- One row per (row, entry point) pair, for scenario.each.
function links.for_every_entry_point(rows)
  local out = {}
  for _, row in ipairs(rows) do
    for _, via in ipairs(links.ENTRY_POINTS) do
      local copy = { via = via }
      for k, v in pairs(row) do copy[k] = v end
      out[#out + 1] = copy
    end
  end
  return out
end

return links
