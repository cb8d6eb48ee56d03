import Foundation
import Testing

/// What a scenario passes that a function cannot use is an error at its
/// line — a misspelt option, a table of the wrong shape, an extra argument,
/// a mark past the log — never read as absent, which made the scenario test
/// something else and pass.
@Suite("argument checks")
struct ArgumentCheckTests {
    @Test(arguments: [
        (
            #"tap("category", "shoes") back_swipe{ cancle = true }"#,
            "bad argument #1 to 'back_swipe' (unknown option 'cancle'; did you mean 'cancel'? navscript.BackSwipeOptions has: cancel, animated)"
        ),
        (#"deep_link("shop://cart", { vai = "universal" })"#, "bad argument #2 to 'deep_link' (unknown option 'vai'; did you mean 'via'?"),
        (#"restart{ restor = false }"#, "bad argument #1 to 'restart' (unknown option 'restor'; did you mean 'restore'?"),
        (#"expect_error("shop://x", "unknown_route", { vai = "scheme" })"#, "bad argument #3 to 'expect_error' (unknown option 'vai'"),
        (
            #"deep_link("shop://cart") login{ cancell = true }"#,
            "bad argument #1 to 'login' (unknown option 'cancell'; did you mean 'cancel'? shop.LoginOptions"
        ),
        (#"back_swipe{ cancel = "yes" }"#, "option 'cancel' must be a boolean (boolean), got string"),
        (
            #"expect_snapshot{ tabs = "orders" }"#,
            "unknown field 'tabs'; did you mean 'tab'? navscript.SnapshotExpectation has: root, tab, stacks, modals"
        ),
        (#"expect_snapshot{ tab = 5 }"#, "field 'tab' must be a string (navscript.Tab), got number"),
        (#"expect_snapshot{}"#, "an empty snapshot compares nothing: give root, tab, stacks or modals"),
        (#"expect_snapshot{ stacks = {} }"#, "bad argument #1 to 'expect_snapshot' (stacks = {} compares no stack"),
        (#"expect_snapshot{ modals = { {} } }"#, "modals[1] is empty: a modal shows at least one screen (no modal: modals = {})"),
        (#"expect_stack({ "home" }, "nonsense")"#, "bad argument #2 to 'expect_stack' (expect_stack{ … } takes the list alone"),
        (
            #"expect_same_outcome("shop://cart", { "scheme", "scheme" })"#,
            "bad argument #2 to 'expect_same_outcome' ('scheme' is listed twice"
        ),
        (#"expect_snapshot{ stacks = { home = { "home", 7 } } }"#, "stacks.home must list screens as strings, got a number"),
        (#"expect_tab("home", "orders")"#, "bad argument #2 to 'expect_tab' (expect_tab takes at most 1 argument, got 2)"),
        (
            #"local m = mark() expect_events(m, { "launch" })"#,
            "expect_events takes at most 1 argument, got 2; to check only the events after a mark, use expect_events_since(mark, { … })"
        ),
        (#"tap("product", "p1", "extra")"#, "bad argument #3 to 'tap' (tap takes at most 2 arguments, got 3)"),
        (#"expect_no_event("start", 9999)"#, "bad argument #2 to 'expect_no_event' (mark 9999 is not in the event log"),
        (#"expect_events_since(mark() + 100, { "x" })"#, "bad argument #1 to 'expect_events_since' (mark"),
        (#"expect_event_count("launch", -1)"#, "a count of events cannot be negative, got -1"),
        (
            #"tap("category", "shoes") local m = mark() launch{} deep_link("shop://cart") expect_no_event("gate auth", m)"#,
            "was taken at suite/a.lua:2, in the event log of an app that a later launch or restart replaced; take a new mark() after it"
        ),
        (
            #"local m = mark() restart{} expect_events_since(m, { "push" })"#,
            "bad argument #1 to 'expect_events_since' (mark 7 was taken at suite/a.lua:2"
        ),
        (#"expect_no_event("")"#, "an empty item matches no event"),
        (#"expect_modal("")"#, "an empty name is no screen"),
        (#"expect_screen("order:")"#, "'order:' has an empty parameter"),
        (#"expect_screen(":7")"#, "':7' has an empty id"),
        (#"expect_stack{ "home", "" }"#, "bad argument #1 to 'expect_stack' (item 2: an empty name is no screen"),
        (#"expect_modals{ "login:" }"#, "bad argument #1 to 'expect_modals' (item 1: 'login:' has an empty parameter"),
        (#"expect_snapshot{ stacks = { home = { "" } } }"#, "(stacks.home: an empty name is no screen"),
        (#"expect_tab("order")"#, "expect_tab: unknown tab 'order'; did you mean 'orders'? tabs are: home, orders, profile"),
        (
            #"expect_snapshot{ stacks = { ordrs = { "orders" } } }"#,
            "expect_snapshot: unknown tab 'ordrs'; did you mean 'orders'? tabs are: home, orders, profile"
        ),
        (
            #"deep_link("shop://cart") expect_no_event("presnt login")"#,
            "bad argument #1 to 'expect_no_event' (no event starts with 'presnt', so this can never match; did you mean 'present'?"
        ),
        (
            #"deep_link("shop://cart") expect_event_count("gate auth crt", 0)"#,
            "bad argument #1 to 'expect_event_count' (the app has no destination 'crt'; did you mean 'cart'?)"
        ),
        (#"expect_events{ "launch", "" }"#, "item 2 is empty"),
        (#"expect_events{}"#, "bad argument #1 to 'expect_events' (no events listed, and an empty list is in every log"),
        (#"expect_events_since(mark(), {})"#, "bad argument #2 to 'expect_events_since' (no events listed"),
        // A mark variable never assigned: the anchored check ran over the whole log and passed.
        (
            #"local m tap("category", "shoes") expect_events_since(m, { "launch" })"#,
            "bad argument #1 to 'expect_events_since' (number expected, got nil: take a mark with mark()"
        ),
        // A screen far from every name the app has (the host declares its screens): the check
        // could never fail and passed (only a near name was called a typo).
        (
            #"deep_link("shop://cart") expect_no_event("present zzz")"#,
            "bad argument #1 to 'expect_no_event' (the app has no screen 'zzz' (not a destination, a declared screen or in the log); screens are: add_payment, cart,"
        ),
        (#"deep_link("shop://cart") expect_event_count("present log", 0)"#, "the app has no screen 'log'"),
        (
            #"deep_link("shop://cart") local m = mark() expect_event_count("present login", 1, mrak)"#,
            "bad argument #3 to 'expect_event_count' (number expected, got nil: take a mark with mark()"
        ),
        (
            #"expect_events{ first = "launch" }"#,
            #"bad argument #1 to 'expect_events' (must be a list of strings ({ "a", "b" }), but it has the key "first""#
        ),
        (
            #"expect_stack{ "home", nil, "category:shoes" }"#,
            "bad argument #1 to 'expect_stack' (must be a list of strings without holes: item 2 is nil but item 3 is not"
        ),
        (#"expect_coordinators{ "app", main = "app/main" }"#, "bad argument #1 to 'expect_coordinators' (must be a list of strings"),
        (#"expect_same_outcome("shop://cart", { "scheme" })"#, "1 entry point compare nothing"),
        (#"launch{ via = "push" }"#, "launch option 'via' names the door of the cold-start link, but there is no 'url' to carry"),
        (
            #"expect_same_outcome("shop://cart", nil, { rejected = "yes" })"#,
            #"bad argument #3 to 'expect_same_outcome' ('rejected' is true (every entry point must reject the link) or "allowed" (they need only agree), not 'yes')"#
        ),
        (
            #"expect_same_outcome("https://shop.example.com/cart")"#,
            "a link with the app's scheme expected (shop://…), got 'https://shop.example.com/cart'"
        )
    ])
    func aMistakeIsAnErrorAtItsLine(call: String, expected: String) throws {
        let fixture = try Fixture(["suite/a.lua": "scenario(\"mistake\", function()\n  \(call)\nend)\n"])
        let (output, junit) = try fixture.runWithJUnit(["suite"])
        #expect(output.status == 1, "\(output)")
        let error = junit.testcase("mistake")?.child("error")
        #expect(error?["message"]?.contains("suite/a.lua:2: ") == true, "\(junit.raw)")
        #expect(error?["message"]?.contains(expected) == true, "\(error?["message"] ?? junit.raw)")
    }

    /// A failed check naming a screen the app has no name for says which one it is close to:
    /// read as the app's fault otherwise. A verb of another app lists this app's own.
    @Test(arguments: [
        (#"expect_screen("hoem")"#, "failure", "('hoem' is no screen of the app; did you mean 'home'?)"),
        (#"expect_stack{ "home", "categroy:shoes" }"#, "failure", "('categroy' is no screen of the app; did you mean 'category'?)"),
        (#"expect_modal("logn")"#, "failure", "('logn' is no screen of the app; did you mean 'login'?)"),
        (
            #"sign_in()"#, "error",
            "'sign_in' is not a function of the language or of ShopApp, whose own are: expire_session, login, logout, session"
        )
    ])
    func aNameTheAppDoesNotHaveIsNamed(call: String, outcome: String, says: String) throws {
        let fixture = try Fixture(["suite/a.lua": "scenario(\"mistake\", function()\n  \(call)\nend)\n"])
        let (output, junit) = try fixture.runWithJUnit(["suite"])
        #expect(output.status == 1, "\(output)")
        #expect(junit.testcase("mistake")?.child(outcome)?["message"]?.contains(says) == true, "\(junit.raw)")
    }

    /// What the checks let through: declared options, an overload's extra
    /// parameter, Lua's trailing nils, a snapshot compared with itself.
    /// A mark kept across scenarios (in a support module's own state: the file's variables are put
    /// back before each scenario) belongs to the scenario that took it: another scenario's app has
    /// other events, so using it there is an error, not a check of the wrong ones.
    @Test func aMarkFromAnotherScenarioIsRefused() throws {
        let fixture = try Fixture([
            "suite/support/keep.lua": "local value\nreturn { set = function(v) value = v end, get = function() return value end }\n",
            "suite/a.lua": """
            local keep = require("keep")
            scenario("takes a mark", function()
              tap("category", "shoes")
              keep.set(mark())
            end)
            scenario("uses it", function()
              tap("category", "shoes")
              tap("product", "p1")
              expect_no_event("gate auth", keep.get())
            end)
            scenario("from the start is always fine", function()
              expect_no_event("gate auth", 0)
            end)
            """
        ])
        let output = try fixture.run(["run", "suite", "--in-process"])
        #expect(output.status == 1 && output.stdout.contains("2 passed, 0 failed, 1 errors"), "\(output)")
        #expect(output.stdout.contains("was not returned by mark() in this scenario"), "\(output)")
    }

    @Test func wellFormedCallsPass() throws {
        let fixture = try Fixture([
            "suite/a.lua": #"""
            scenario("fine", function()
              local start = mark()
              tap("category", "shoes")
              back_swipe{ cancel = true, animated = false }
              expect_stack("home", { "home", "category:shoes" })
              expect_tab("home", nil)
              expect_events_since(start, { "push category" })
              expect_no_event("present", start)
              expect_event_count("push category", 1, 0)
              deep_link("shop://cart", { via = "scheme", settle = true })
              local saved = snapshot()
              expect_snapshot(saved)
              expect_snapshot{ modals = { "login" } }
              expect_snapshot{ modals = { { "login" } }, tab = "home" }
              login{ cancel = true }
              restart{ restore = false }
            end)
            """#
        ])
        let output = try fixture.run(["run", "suite"])
        #expect(output.status == 0, "\(output)")
    }

    /// `snapshot()` gives one list per modal; `expect_snapshot` compares
    /// such a list modal by modal, so an extra or missing modal fails.
    @Test func modalsPerModalAreComparedModalByModal() throws {
        let fixture = try Fixture([
            "suite/a.lua": #"""
            scenario("no modal up", function()
              expect_snapshot{ modals = { { "login" } } }
            end)
            """#
        ])
        let (output, junit) = try fixture.runWithJUnit(["suite"])
        #expect(output.status == 1, "\(output)")
        let failure = junit.testcase("no modal up")?.child("failure")
        #expect(failure?["message"]?.contains("the navigation state differs in modals") == true, "\(junit.raw)")
    }

    /// A refused step shows the call as written on the timeline, and an
    /// assert's table message its contents, not an address.
    @Test func refusalsAndMessagesShowWhatWasWritten() throws {
        let fixture = try Fixture([
            "suite/a.lua": #"""
            scenario("refused tap", function() tap("promo", { code = "x" }) end)
            scenario("table message", function() assert(nil, { code = 5 }) end)
            """#
        ])
        let (output, junit) = try fixture.runWithJUnit(["suite"])
        #expect(output.status == 1, "\(output)")
        #expect(output.stdout.contains(#"tap("promo", {code = "x"}) ✗ output 'promo' of 'home'"#), "\(output)")
        #expect(junit.testcase("table message")?.child("failure")?["message"] == "suite/a.lua:2: {code = 5}", "\(junit.raw)")
    }
}
