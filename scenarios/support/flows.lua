-- Shared steps for the shipped suite. require("flows") from any scenario.
local flows = {}

--- Opens order `id` on the orders tab through the app's own list.
function flows.open_order(id)
  select_tab("orders")
  tap("order", { id = id })
end

return flows
