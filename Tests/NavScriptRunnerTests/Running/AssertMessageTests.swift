import Testing

@testable import NavScriptRunner
@testable import NavScriptRuntime

/// A failed `assert` is a failure whatever its message does: one whose
/// message cannot be shown (its `__tostring`, `__len` or `__index` raises,
/// returns no string, or yields) used to raise an ordinary error instead,
/// which a `pcall` swallowed — the scenario passed.
@Suite("assert with a message that cannot be shown")
struct AssertMessageTests {
    @Test(arguments: [
        ("setmetatable({}, { __tostring = function() error('boom') end })", "boom"),
        ("setmetatable({}, { __tostring = function() return nil end })", "'__tostring' must return a string"),
        ("setmetatable({}, { __len = function() error('len') end })", "len"),
        ("{ setmetatable({}, { __len = function() return 1 end, __index = function() error('idx') end }) }", "idx"),
        ("setmetatable({}, { __len = function() return {} end })", "bad 'for' limit")
    ])
    func theFailureIsKeptWhateverCatchesTheError(message: String, says: String) throws {
        let results = try runSource(
            """
            scenario("caught", function()
              pcall(assert, false, \(message))
            end)
            scenario("in a coroutine", function()
              pcall(coroutine.wrap(function() assert(false, \(message)) end))
            end)
            """
        ).results
        for result in results {
            #expect(result.outcome == .failed(.expectation), "\(result.name): \(result.outcome) \(result.message)")
            #expect(result.message.contains("assertion failed (its message could not be shown: "), "\(result.message)")
            #expect(result.message.contains(says), "\(result.message)")
            #expect(!result.message.contains("navscript:"), "no place inside navscript's own code: \(result.message)")
        }
    }

    @Test func aMessageThatYieldsIsSaidAsSuch() throws {
        let result = try #require(
            try runSource(
                """
                scenario("yields", function()
                  local message = setmetatable({}, { __tostring = function() coroutine.yield() return "x" end })
                  pcall(coroutine.wrap(function() assert(false, message) end))
                end)
                """
            ).results.first)
        #expect(result.outcome == .failed(.expectation))
        #expect(result.message.hasSuffix("assertion failed (its message could not be shown: attempt to yield across a C-call boundary)"))
    }
}
