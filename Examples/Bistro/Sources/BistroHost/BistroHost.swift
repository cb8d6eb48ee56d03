import BistroApp
import NavScript
import NavigationCore

/// Plugs Bistro into navscript: launch options, the fault catalogue, and
/// Bistro's own verbs (`sign_in`, `sign_out`, `expire_session`) and
/// observer (`signed_in`). Everything else comes from the toolkit.
public struct BistroHost: ScenarioHost {
    public var engine: RoutingEngine

    public init() throws {
        engine = try BistroApp.engine()
    }

    public var name: String { "Bistro" }
    public var entryPoints: [EntryPoint] { [.scheme, .universal, .push] }
    public var explorationActions: [String] { ["sign_in{}", "sign_in{ cancel = true }", "sign_out()", "expire_session()"] }
    public var launchOptions: [LaunchOption] {
        [
            .boolean("signed_in", "signed in at start (default false)"),
            .boolean("first_launch", "first launch: onboarding replaces the main UI (default false)")
        ]
    }
    public var faults: [HostFault] { BistroFault.allCases.map { HostFault(name: $0.rawValue, summary: $0.summary) } }
    public var screens: [ScreenDeclaration] { BistroApp.screens }

    public func launch(_ request: LaunchRequest) throws(HostError) -> any AppDriver {
        BistroDriver(
            BistroApp(
                engine: engine, signedIn: request.bool("signed_in") ?? false,
                firstLaunch: request.bool("first_launch") ?? false,
                faults: Set(request.faults.compactMap(BistroFault.init(rawValue:))),
                link: request.link.map { ($0, request.via) }))
    }

    public var functions: [ScriptFunction] {
        [
            .verb(
                "sign_in", parameters: [ScriptParameter("options", "bistro.SignInOptions", optional: true)],
                documentation: "Submits (or, with `cancel = true`, closes) the sign-in sheet on screen.",
                example: "sign_in{ cancel = true }"
            ) { step in
                let cancel = (try step.arguments.optionalTable(1) ?? LuaTable())["cancel"].isTruthy
                step.description = cancel ? "sign_in{ cancel = true }" : "sign_in{}"
                let driver = try step.app(as: BistroDriver.self)
                guard driver.navigation.visibleScreen?.destination == "sign_in" else {
                    throw HostError("no sign-in sheet is on screen (visible: \(driver.visibleScreen ?? "nothing"))")
                }
                _ = try driver.perform(.tap(output: cancel ? "close" : "submit", args: [:]))
            },
            .verb(
                "sign_out", documentation: "Signs out: every module starts afresh on its root, on the catalog tab.",
                example: "sign_out()",
                // Unless the reset delivered a link a cold start held: it then leads where that link goes.
                ensures: """
                    assert(not signed_in(), "sign_out() left the session signed in")
                    local log, reset, delivered = events(), 0, false
                    for i, e in ipairs(log) do if e == "session-clear" then reset = i end end
                    for i = reset + 1, #log do if log[i]:match("^deliver ") then delivered = true end end
                    local now = snapshot()
                    assert(delivered or now.tab == "catalog", "sign_out() left the app on the " .. now.tab .. " tab")
                    assert(delivered or #now.modals == 0, "sign_out() left a modal up")
                    for tab, entries in pairs(now.stacks) do
                      assert(delivered or #entries == 1, "sign_out() left the " .. tab .. " tab at " .. table.concat(entries, " > "))
                    end
                    """
            ) { step in
                try step.app(as: BistroDriver.self).app.signOut()
            },
            .verb(
                "expire_session", documentation: "Expires the session: the app resets and asks to sign in again.",
                example: "expire_session()"
            ) { step in
                try step.app(as: BistroDriver.self).app.session.expire()
            },
            .observer(
                "signed_in", returns: ScriptReturn("boolean"), documentation: "Whether a session is stored.",
                example: "assert(signed_in())"
            ) { step in
                .boolean(try step.app(as: BistroDriver.self).app.session.isLoggedIn)
            }
        ]
    }

    public var types: [ScriptType] {
        [.fields("bistro.SignInOptions", "Options of `sign_in`.", [.init("cancel", "boolean", "close the sheet instead")])]
    }
}

/// Drives one BistroApp for a scenario.
final class BistroDriver: NavigationDriver {
    let app: BistroApp

    init(_ app: BistroApp) {
        self.app = app
        super.init(navigation: app.navigation)
    }

    override func deliver(_ input: EntryInput, via entry: EntryPoint) throws(HostError) -> LinkOutcome {
        app.deliver(input, via: entry)
    }

    override func relaunch(restore: Bool) throws(HostError) -> any AppDriver {
        BistroDriver(app.relaunched(restore: restore))
    }

    override var coordinatorPaths: [String] { app.coordinatorPaths }
    override var rootFlow: String { app.isOnboarding ? "onboarding" : "main" }
    override var satisfiedPreconditions: Set<Precondition>? { app.session.isLoggedIn ? ["auth"] : [] }
    override var isIdle: Bool { super.isIdle && app.dispatcher.isIdle }
    override var pendingWork: [String] { super.pendingWork + app.dispatcher.pending.map { "dispatcher: \($0)" } }
}
