local steps = {}

function steps.open_note(id)
  tap("note", id)
  expect_screen("note:" .. id)
end

return steps
