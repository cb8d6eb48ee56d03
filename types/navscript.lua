---@meta navscript

-- navscript scenario API — LuaLS (lua-language-server) definitions.
--
-- This file is never run: it only describes, for the editor, the globals a
-- scenario file sees (DESIGN.md §5). The structural functions (`scenario`,
-- `scenario.each`, `describe`, `before_each`, `after_each`, `pending`,
-- `assert`) come from the Lua prelude in
-- Sources/NavScript/Runtime/ScenarioPrelude.swift; the verbs, observers and
-- expectations are Swift functions registered by
-- Sources/NavScript/Bindings/*.swift; `print` by ScenarioFile.swift.
-- Tests/NavScriptTests/LuaDefinitionsTests.swift fails when this file and
-- those registrations drift apart.
--
-- Every scenario runs against a fresh app; every file gets a fresh Lua state.
-- Outcomes: an `expect_*` mismatch, a failed `assert`, or a step the app
-- refuses (tapping an output the top screen does not have, `back()` with
-- nothing to pop…) is a *failure*; a Lua runtime error, `error(...)`, a bad
-- argument, or a verb used while the file loads is an *error*.
--
-- The sandbox (Sources/NavScript/Bridge/LuaSandbox.swift) removes, and this
-- file therefore does not declare: `os.execute`, `os.exit`, `os.remove`,
-- `os.rename`, `os.tmpname`, `os.getenv`, `os.setlocale`; `io.popen`,
-- `io.tmpfile`, `io.input`, `io.output`, `io.lines`, `io.read`, `io.close`,
-- `io.stdin`; `string.dump`; `package.loadlib`, `package.searchpath`, the C
-- searchers; and the whole `debug` library. It restricts: `io.open` is
-- read-only (`"r"`/`"rb"`) and confined to the suite, `io.write` goes to
-- stdout, `load` accepts text chunks only, `loadfile`/`dofile` are confined
-- to the suite, `setmetatable` refuses `__gc`, `xpcall` runs its handler
-- after unwinding, and `require` resolves only in `<suite>/support/`
-- (`require("flows")` loads `scenarios/support/flows.lua`). An instruction
-- budget and a memory cap stop runaway scripts (`--instruction-budget`,
-- `--memory-limit`).

-- ---------------------------------------------------------------------------
-- Vocabulary
-- ---------------------------------------------------------------------------

---How a link reaches the app.
---@alias navscript.EntryPoint
---| "scheme"    # a custom-scheme URL, `shop://product/p1004` (default for a URL string)
---| "universal" # a universal link, `https://shop.example.com/product/p1004`
---| "push"      # a push-notification payload (default for a table without `activity_type`)
---| "spotlight" # a Spotlight result / Handoff user activity (default for a table with `activity_type`)
---| "widget"    # a home-screen widget's tap URL

---Why the engine rejected a link (the kinds `expect_error` accepts).
---@alias navscript.ErrorKind
---| "malformed"         # not a link the app's scheme/hosts can parse
---| "unknown_route"     # well-formed, but no route matches
---| "validation_failed" # a route matched but a parameter failed validation

---What became of a delivered link.
---@alias navscript.LinkStatus
---| "proceed" # resolved; the app navigated to `destination`
---| "gated"   # a precondition (`precondition`) must be satisfied first; the intent waits
---| "error"   # rejected (`error`, `message`)
---| "queued"  # another link is still executing; this one runs after it
---| "stashed" # cold start: held until the root is ready

---The first-launch onboarding variant.
---@alias navscript.Experiment
---| "video_first"   # welcome → value_prop_video → sign_up → notifications_permission
---| "sign_up_first" # welcome → sign_up → profile_setup → notifications_permission
---| "minimal"       # welcome → notifications_permission (the default)

---A tab of the app.
---@alias navscript.Tab "home"|"orders"|"profile"|string

---A gate a destination can require.
---@alias navscript.Precondition "auth"|"payment_method"|string

---A screen (destination) id from routes.json.
---@alias navscript.ScreenId
---| "home"
---| "category"
---| "product"
---| "reviews"
---| "promo"
---| "cart"
---| "checkout_address"
---| "checkout_payment"
---| "checkout_confirm"
---| "add_payment"
---| "orders"
---| "order"
---| "tracking"
---| "profile"
---| "profile_edit"
---| "settings"
---| "settings_notifications"
---| "settings_security"
---| "login"
---| "two_factor"
---| "welcome"
---| "value_prop_video"
---| "sign_up"
---| "profile_setup"
---| "notifications_permission"
---| string

---A stack entry as expectations write it: `"id"` matches that screen with any
---parameters; `"id:primary-param"` (`"product:p1004"`, `"order:42"`) also
---matches its primary parameter (`id` when the route has one, otherwise the
---first parameter by name).
---@alias navscript.StackEntry navscript.ScreenId|string

-- ---------------------------------------------------------------------------
-- Option and result tables
-- ---------------------------------------------------------------------------

---Options of `launch{}` (and of a scenario's `launch =`). Unknown keys are
---refused with the list of accepted ones. Faults are not launch options:
---they are switched on by `navscript run --fault NAME` or `navscript mutate`.
---@class navscript.LaunchOptions
---@field logged_in? boolean           # signed in at start (default false)
---@field first_launch? boolean        # first launch: onboarding replaces the main UI (default false)
---@field experiment? navscript.Experiment # onboarding variant on a first launch (default "minimal")
---@field two_factor? boolean          # sign-in asks for a second factor (default false)
---@field payment_method? boolean      # the account has a payment method (default true)
---@field url? string|navscript.PushPayload # a cold-start link, stashed until the root is up (a table is a push payload)
---@field via? navscript.EntryPoint    # the entry point of `url` (default "scheme"; "push" for a table)

---Options after a scenario's name.
---@class navscript.ScenarioOptions
---@field tags? string|string[]           # for `--tags` / `--exclude-tags`
---@field launch? navscript.LaunchOptions # launch with these before the `before_each` hooks run

---Options of `deep_link`.
---@class navscript.LinkOptions
---@field via? navscript.EntryPoint # default: "scheme" for a URL, "push" for a payload, "spotlight" for an activity
---@field settle? boolean           # default true; false delivers without draining the scheduler

---Options of `expect_error`.
---@class navscript.ErrorOptions
---@field via? navscript.EntryPoint

---Options of `back_swipe`.
---@class navscript.BackSwipeOptions
---@field cancel? boolean   # lift the finger early: the swipe is cancelled (default false)
---@field animated? boolean # default true

---Options of `login`.
---@class navscript.LoginOptions
---@field cancel? boolean # close the sign-in screen instead of completing it (default false)

---Options of `restart`.
---@class navscript.RestartOptions
---@field restore? boolean # restore the navigation from the state-restoration archive (default true)

---A push-notification payload: a `route` relative to the scheme
---(`"product/p1004"`) or a full `url`; values are strings or integers.
---@class navscript.PushPayload
---@field route? string
---@field url? string
---@field [string] string|integer

---A Spotlight / Handoff user activity: `activity_type` plus either an
---`identifier` (a route relative to the scheme) or a `webpage_url`.
---@class navscript.Activity
---@field activity_type string
---@field identifier? string
---@field webpage_url? string
---@field [string] string|integer

---What `deep_link` accepts.
---@alias navscript.LinkInput string|navscript.PushPayload|navscript.Activity

---What became of a delivered link (the value `deep_link` returns).
---@class navscript.LinkOutcome
---@field status navscript.LinkStatus
---@field destination? navscript.ScreenId # the destination id (no parameters); absent for most errors and for "stashed"
---@field precondition? navscript.Precondition # "gated", and "error" with `error = "loop_guard"`
---@field error? navscript.ErrorKind|"loop_guard" # set when status is "error"; "loop_guard": re-gated past the bound
---@field message? string # a readable explanation of an error

---The whole navigation state.
---@class navscript.Snapshot
---@field root "main"|"onboarding"|string # the root flow
---@field tab navscript.Tab                 # the selected tab
---@field stacks table<string, string[]>    # every tab's stack, bottom to top, as labels (`"product:p1004"`)
---@field modals string[][]                 # the modal chain, outermost first; each modal is a stack of labels

---The signed-in state.
---@class navscript.Session
---@field logged_in boolean
---@field payment_method boolean

-- ---------------------------------------------------------------------------
-- Structure
-- ---------------------------------------------------------------------------

---Declares a scenario: `scenario(name, fn)` or `scenario(name, options, fn)`.
---The body runs later, once, against a fresh app, after the enclosing
---`before_each` hooks and before the `after_each` hooks; with
---`options.launch` the app is cold-started with those options first (a bad
---launch option is then an error of the scenario). The full name (enclosing
---`describe` names and `name`, space-separated) must be unique within the
---file, or the file fails to load. `name` must be a string, `options` a
---table, `fn` a function, else the file fails to load.
---@class navscript.Scenario
---@overload fun(name: string, fn: fun())
---@overload fun(name: string, options: navscript.ScenarioOptions, fn: fun())
scenario = {}

---Declares one scenario per row of `rows` (data-driven): the body receives
---the row. Each scenario is named from `name`, where `$key` is replaced by
---`row[key]` and `$#` by the row number; a name without placeholders gets
---` [n]` appended. A placeholder whose key the row lacks is left as is. The
---generated names must be unique within the file, like any scenario's.
---```lua
---scenario.each({ { url = "shop://cart" }, { url = "shop://orders/7" } },
---  "$url is gated when signed out", function(row)
---    assert(deep_link(row.url).status == "gated")
---  end)
---```
---@generic Row
---@param rows Row[]
---@param name string
---@param options navscript.ScenarioOptions
---@param fn fun(row: Row)
---@overload fun(rows: table[], name: string, fn: fun(row: any))
function scenario.each(rows, name, options, fn) end

---Groups scenarios: runs `fn` at once (while the file loads) so that the
---scenarios and hooks declared inside are prefixed with `name` and get the
---group's hooks. Groups nest. Do not drive the app in `fn` itself — verbs
---are only available inside scenarios and hooks.
---@param name string
---@param fn fun()
function describe(name, fn) end

---Registers a hook that runs before every scenario of the enclosing
---`describe` (or of the file, at the top level), outermost hooks first, after
---the scenario's `launch` options were applied. If a hook fails or errors,
---the scenario body is skipped (the `after_each` hooks still run).
---@param fn fun()
function before_each(fn) end

---Registers a hook that runs after every scenario of the enclosing
---`describe` (or of the file), innermost hooks first — also after a failure
---or an error, so it suits clean-up checks such as `expect_no_leaks()`. It is
---skipped only when the instruction budget is exhausted.
---@param fn fun()
function after_each(fn) end

---Declares a scenario that is not written yet: reported as skipped
---("pending"), never run. Its full name counts for uniqueness.
---@param name string
function pending(name) end

---Checks a condition. Unlike standard Lua, a false `value` is a scenario
---*failure* (an expectation, reported with the scenario's `file:line` and
---`message`, default "assertion failed!"), not an error; use `error(...)` to
---raise an error. Returns all its arguments when `value` is truthy.
---@generic T
---@param value T
---@param message? any
---@param ... any
---@return T
---@return any ...
function assert(value, message, ...) end

---Prints its arguments (tab-separated, converted like `tostring`) into the
---running scenario's report instead of the terminal: the JUnit
---`system-out` of every scenario, and the console report's block of a
---failed or errored scenario (after its timeline). Use it to inspect
---`events()`, `snapshot()`… while writing a scenario. Output printed while
---the file loads, outside any scenario, belongs to no scenario's report.
---@param ... any
function print(...) end

-- ---------------------------------------------------------------------------
-- Driving
-- ---------------------------------------------------------------------------

---Cold-starts a fresh app with `options` (defaults: signed out, not a first
---launch, payment method on file, no link). Use it first in a scenario to
---choose the starting state; without it, the first verb, observer or
---expectation launches the app with defaults. An optional `url` is a
---cold-start link delivered through `via` and stashed until the root is up.
---The app is settled afterwards. A value that is not a boolean, string or
---number is an error; an unknown option or experiment, or a value of the
---wrong kind, is a failure at this line (the host refuses the launch).
---@param options? navscript.LaunchOptions
function launch(options) end

---Fires output `output` of the top visible screen (`"product"`, `"order"`,
---`"sign_in"`, `"close"`, …), then settles. `args` is an id (`tap("product",
---"p1004")` is `{ id = "p1004" }`) or a table of params (strings, numbers or
---booleans). A screen without that output, or missing params, is a failure.
---@param output string
---@param args? string|integer|table<string, string|number|boolean>
function tap(output, args) end

---Selects tab `name` (as the user tapping the tab bar), then settles.
---An unknown tab is a failure naming the tabs.
---@param name navscript.Tab
function select_tab(name) end

---Taps the navigation bar's back button of the top visible stack, then
---settles. Fails when there is nothing to pop.
function back() end

---Performs an interactive back-swipe on the top visible stack, then settles.
---`cancel = true` lifts the finger early (the screen stays; the app sees
---`will-disappear` and `swipe-cancelled`); `animated = false` pops without a
---transition. Fails when there is nothing to pop.
---@param options? navscript.BackSwipeOptions
function back_swipe(options) end

---Swipes the top modal down (an interactive dismissal), then settles.
---Fails when no modal is presented.
function dismiss() end

---Delivers a link through an entry point and returns what became of it. A
---URL string goes through `"scheme"` by default, a table is a push payload
---(`{ route = "product/p1004" }`, default `"push"`) or, with
---`activity_type`, a user activity (default `"spotlight"`). A rejected link
---is not a failure: check the outcome (or use `expect_error`). With
---`settle = false` the scheduler is not drained, so a second link can arrive
---while this one still executes (it is then `"queued"`); call `settle()`
---before observing. An unknown `via` is an error.
---```lua
---local outcome = deep_link("shop://cart")
---assert(outcome.status == "gated" and outcome.precondition == "auth")
---```
---@param input navscript.LinkInput
---@param options? navscript.LinkOptions
---@return navscript.LinkOutcome outcome
function deep_link(input, options) end

---Completes the sign-in flow on screen (the login screen and, with
---`two_factor`, its second step), then settles; when no sign-in screen is
---on screen and the user is signed out, it first opens the app's own sign-in
---from the profile tab. With `cancel = true` it closes the sign-in screen
---instead. Fails when already signed in with no sign-in screen, when a
---modal covers the sign-in button, or (cancel) when no sign-in screen is shown.
---@param options? navscript.LoginOptions
function login(options) end

---Signs the user out through the app, then settles: the session is
---cleared and every flow is torn down and the main flows start afresh, so
---nothing of the signed-in session survives on a stack or in a modal.
function logout() end

---Expires the session (as a server-side expiry would), then settles: the
---app resets to the main flows and presents its sign-in screen; until the
---user signs in again, gated destinations are gated.
function expire_session() end

---Drains the app's virtual-time scheduler: transitions finish, async work
---(commits, deliveries) runs. Verbs already settle; use it after
---`deep_link(..., { settle = false })`. Fails if the app never goes idle.
function settle() end

---Cold-starts the same device again: the session and the payment method
---persist, it is not a first launch, and no link is delivered. With
---`restore = true` (the default) the navigation is restored from the
---state-restoration archive of the app being replaced; `restore = false`
---starts from the root. The new app is settled.
---@param options? navscript.RestartOptions
function restart(options) end

-- ---------------------------------------------------------------------------
-- Observing
-- ---------------------------------------------------------------------------

---Returns the id of the top visible screen (`"product"`, without
---parameters), or nil when nothing is on screen. For printing and custom
---checks; prefer `expect_screen` for assertions.
---@return navscript.ScreenId? id
function screen() end

---Returns a tab's stack, bottom to top, as screen ids without parameters
---(`{ "home", "product" }`); the selected tab by default. An unknown tab is
---an error. `snapshot().stacks` has the labels with parameters.
---@param tab? navscript.Tab
---@return navscript.ScreenId[] ids
function stack(tab) end

---Returns the selected tab's name.
---@return navscript.Tab
function tab() end

---Returns the ids of every presented modal screen, outermost modal first
---(each modal's own stack bottom to top), e.g.
---`{ "settings", "settings_security" }`; empty when none.
---@return navscript.ScreenId[] ids
function modals() end

---Returns the live coordinator tree as paths (`{ "app", "app/browse",
---"app/auth" }`), depth-first, parents before their children.
---@return string[] paths
function coordinators() end

---Returns the event log, oldest first, as the texts `expect_events` matches
---(see there for the vocabulary). Handy with `print` while writing a scenario.
---@return string[] events
function events() end

---Returns the whole navigation state: the root flow, the selected tab, every
---tab's stack and the modal chain, as labels (`"product:p1004"`).
---@return navscript.Snapshot
function snapshot() end

---Returns the signed-in state of the app.
---@return navscript.Session
function session() end

-- ---------------------------------------------------------------------------
-- Expectations (a mismatch is a failure with expected vs actual)
-- ---------------------------------------------------------------------------

---Expects a tab's stack, bottom to top, to be exactly `entries` (the selected
---tab by default; `expect_stack("orders", { "orders", "order:42" })` for
---another). Each entry is `"id"` (any parameters) or `"id:primary-param"`.
---The failure shows both stacks side by side. An unknown tab is an error.
---@param entries navscript.StackEntry[]
---@overload fun(tab: navscript.Tab, entries: navscript.StackEntry[])
function expect_stack(entries) end

---Expects the top visible screen to be `id` (`"id"` or `"id:primary-param"`).
---@param id navscript.StackEntry
function expect_screen(id) end

---Expects `name` to be the selected tab.
---@param name navscript.Tab
function expect_tab(name) end

---Expects the topmost presented modal to contain screen `id` (`"id"` or
---`"id:primary-param"`) anywhere in its stack — `expect_modal("login")`
---while `two_factor` is pushed on it passes. Fails when no modal is shown.
---@param id navscript.StackEntry
function expect_modal(id) end

---Expects no modal to be presented; the failure lists the modal chain.
function expect_no_modal() end

---Settles, then expects every screen and coordinator that left the
---navigation to have been deallocated; the failure lists what leaked.
function expect_no_leaks() end

---Expects the event log to contain `items` as an ordered subsequence (other
---events may come between). An item matches an event exactly or as its
---leading words: `"gate auth"` matches `"gate auth cart"`, `"push product"`
---matches `"push product:p1004"`, but `"push prod"` matches nothing. The
---failure shows which items matched (with event numbers), the first that did
---not, whether it happened earlier, and the events after the last match.
---
---The event vocabulary (the core's, `NavEvent.swift`); `<dest>`/`<screen>`
---are labels such as `product:p1004`, `<path>` coordinator paths:
---* `deliver <entry> <input>` — an input arrived at an entry point
---* `resolve <dest> proceed` / `resolve <dest> gated <precondition>`
---* `reject <kind> <input>` — kind `malformed`|`unknown_route`|`validation_failed`
---* `queue <dest>`, `dequeue <dest>` — waited for the link executing
---* `gate <precondition> <dest>` — the root was asked to satisfy a gate
---* `resume <dest>` — a satisfied gate re-dispatched its intent
---* `drop <dest>` — a cancelled gate dropped its intent
---* `loop-guard <dest> <precondition> <count>` — re-gated past the bound
---* `execute <dest> <source>` — source `external`|`internal`
---* `select-tab <tab>`, `push <screen>`, `pop <screen>`, `pop-to <screen>`,
---  `set-stack <tab> <screen>…`, `update <screen>`, `present <screen>`,
---  `dismiss <screen>`
---* `present-rejected <screen>` — UIKit refused a present mid-transition
---* `swipe-cancelled <screen>`, `will-disappear <screen>`
---* `session-commit`, `session-clear`, `session-expire`
---* `start <path>`, `finish <path> completed|cancelled`
---* `release <label>`, `dealloc <label>` — object lifecycle
---* `note <text>` — app-specific (`note stash <entry> <input>` for a
---  cold-start link)
---```lua
---expect_events{ "gate auth cart", "session-commit", "resume cart" }
---```
---@param items string[]
function expect_events(items) end

---Expects exactly these coordinators to be alive (order does not matter);
---the failure lists the missing and the unexpected ones.
---@param paths string[]
function expect_coordinators(paths) end

---Expects `url` (a `shop://` link) to give the same result through every
---listed entry point (all five by default): for each one, a fresh app is
---launched with the scenario's launch options (without its cold-start link),
---the link is delivered in that entry point's shape (universal link, push
---payload, activity…) and the outcome, tab, stack, modals and screen are
---compared with the first entry point's. The scenario's own app is left
---untouched. An unknown entry point is an error.
---@param url string
---@param entries? navscript.EntryPoint[]
function expect_same_outcome(url, entries) end

---Delivers `input` (like `deep_link`, settled) and expects it to be rejected
---with `kind`. Fails when it proceeds, is gated or gives another error; the
---failure shows the outcome and the engine's message. An unknown `kind` or
---`via` is an error (`"loop_guard"` is not accepted here: check
---`deep_link(...).error` instead).
---@param input navscript.LinkInput
---@param kind navscript.ErrorKind
---@param options? navscript.ErrorOptions
function expect_error(input, kind, options) end
