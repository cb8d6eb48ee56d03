local steps = require("steps")

scenario("opening a note pushes it on the notes tab", function()
  steps.open_note("7")
  expect_stack{ "notes", "note:7" }
end)

scenario("backing out of a note releases it", function()
  steps.open_note("7")
  back()
  expect_stack{ "notes" }
  expect_no_leaks()
end)

scenario.each({ { link = "notes://note/12" }, { link = "notes://n/12" } }, "$link opens note 12", function(row)
  deep_link(row.link)
  expect_stack{ "notes", "note:12" }
end)

scenario("a note link gives the same outcome through every entry point", function()
  expect_same_outcome("notes://note/3")
end)

scenario("a non-numeric note id is rejected", function()
  expect_error("notes://note/abc", "validation_failed")
end)
