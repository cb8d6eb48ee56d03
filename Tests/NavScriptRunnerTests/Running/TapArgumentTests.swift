import Testing

@testable import NavScriptRunner
@testable import NavScriptRuntime

/// An id given as a number: a whole one is the id (7.0 as 7, as Lua's
/// math.tointeger reads it), anything else is a wrong argument that says so
/// — "string or table expected, got number" hid that numbers are accepted.
@Suite("tap with an id given as a number")
struct TapArgumentTests {
    @Test func aWholeNumberIsTheIdAndAnythingElseIsSaid() throws {
        let results = try runSource(
            """
            scenario("whole", { launch = { signed_in = true } }, function() tap("note", 7.0) expect_screen("note:7") end)
            scenario("nan", { launch = { signed_in = true } }, function() tap("note", 0/0) end)
            scenario("fraction", { launch = { signed_in = true } }, function() tap("note", 7.5) end)
            scenario("whole in a table", { launch = { signed_in = true } }, function() tap("note", { id = 7.0 }) expect_screen("note:7") end)
            """
        ).results
        #expect(results[0].status == .passed, "\(results[0].message)")
        #expect(results[3].status == .passed, "the table form reads 7.0 as 7 too: \(results[3].message)")
        #expect(results[1].message.contains("bad argument #2 to 'tap' (an id given as a number must be a whole number, got nan)"))
        #expect(results[2].message.contains("must be a whole number, got 7.5"), "\(results[2].message)")
    }
}
