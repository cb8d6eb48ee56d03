-- Windows: each scene has its own tabs, stacks, modals and coordinators;
-- opening, focusing and closing one leaves the others as they were.
local flows = require("flows")

describe("windows", function()
  scenario("a new window opens in front with its own stacks", function()
    deep_link("shop://product/p1004")
    local second = open_scene{}
    assert(second == 2, "the second window is scene 2, got " .. tostring(second))
    expect_scenes{ 1, 2, foreground = 2 }
    expect_stack{ "home" }
    in_scene(1, function() expect_stack{ "home", "product:p1004" } end)
  end)

  scenario("each window has its own coordinator tree", function()
    open_scene{}
    expect_coordinators(flows.BASE_COORDINATORS)
    in_scene(1, function() expect_coordinators(flows.BASE_COORDINATORS) end)
  end)

  scenario("acting in a window does not bring it to the front", function()
    open_scene{}
    in_scene(1, function()
      select_tab("profile")
      expect_tab("profile")
    end)
    expect_scenes{ 1, 2, foreground = 2 }
    expect_tab("home")
  end)

  scenario("focusing a window brings it to the front and verbs act on it", function()
    open_scene{}
    focus_scene(1)
    expect_scenes{ 1, 2, foreground = 1 }
    deep_link("shop://product/p7")
    expect_stack{ "home", "product:p7" }
    in_scene(2, function() expect_stack{ "home" } end)
    expect_events{ "scene-open 2", "scene-focus 1" }
  end)

  scenario("closing a window releases everything it showed", function()
    open_scene{}
    deep_link("shop://product/p1004")
    tap("reviews")
    close_scene(2)
    expect_scenes{ 1, foreground = 1 }
    expect_events{ "scene-close 2", "scene-focus 1", "release product:p1004" }
    expect_no_leaks()
  end)

  scenario("closing a background window leaves the front one as it is", function()
    open_scene{}
    focus_scene(1)
    deep_link("shop://product/p1004")
    close_scene(2)
    expect_scenes{ 1, foreground = 1 }
    expect_stack{ "home", "product:p1004" }
    expect_no_leaks()
  end)

  -- With three windows the order of focus matters (with two, either rule picks the other):
  -- closing the front one brings back the one in front most recently before it.
  scenario("closing the front window of three brings back the one focused most recently", function()
    open_scene{}
    open_scene{}
    close_scene(3)
    expect_scenes{ 1, 2, foreground = 2 }
    focus_scene(1)
    close_scene(1)
    expect_scenes{ 2, foreground = 2 }
  end)

  scenario("a closed window's number is not reused", function()
    open_scene{}
    close_scene(2)
    local third = open_scene{}
    assert(third == 3, "the next window is scene 3, got " .. tostring(third))
    expect_scenes{ 1, 3, foreground = 3 }
  end)
end)
