-- Found by `navscript explore --seed 3 --fault no-pop-detection` against ShopApp.
-- Property: invariant 'leaks'.
-- Shrunk from 9 steps to 3.
-- invariant 'leaks' violated after step 5: 1 object leaked

scenario("explore seed 3: invariant 'leaks'", function()
  deep_link("shop://wallet/add", { via = "widget" })
  tap("submit")
  deep_link("shop://p/p093854", { via = "widget", settle = false }) deep_link("shop://wallet/add", { via = "widget" })
  -- the invariant 'leaks' is checked after the scenario
end)
