import NavScript
import NavigationCore
import WanderApp

/// Plugs Wander into navscript: launch options, the fault catalogue, and
/// Wander's own verbs (`sign_in`, `sign_out`) and observer (`signed_in`).
/// The gestures, the checks and SwiftUI's behaviour come from the toolkit.
public struct WanderHost: ScenarioHost {
    public var engine: RoutingEngine

    public init() throws {
        engine = try WanderApp.engine()
    }

    public var name: String { "Wander" }
    public var explorationActions: [String] { ["sign_in{}", "sign_in{ cancel = true }", "sign_out()"] }
    public var launchOptions: [LaunchOption] { [.boolean("signed_in", "signed in at start (default false)")] }
    public var faults: [HostFault] { WanderFault.allCases.map { HostFault(name: $0.rawValue, summary: $0.summary) } }
    public var screens: [ScreenDeclaration] { WanderApp.screens }

    public func launch(_ request: LaunchRequest) throws(HostError) -> any AppDriver {
        WanderDriver(
            WanderApp(
                engine: engine, signedIn: request.bool("signed_in") ?? false,
                faults: Set(request.faults.compactMap(WanderFault.init(rawValue:))),
                link: request.link.map { ($0, request.via) }))
    }

    public var functions: [ScriptFunction] {
        [
            .verb(
                "sign_in", parameters: [ScriptParameter("options", "wander.SignInOptions", optional: true)],
                documentation: "Submits (or, with `cancel = true`, closes) the sign-in sheet on screen.",
                example: "sign_in{ cancel = true }"
            ) { step in
                let cancel = (try step.arguments.optionalTable(1) ?? LuaTable())["cancel"].isTruthy
                step.description = cancel ? "sign_in{ cancel = true }" : "sign_in{}"
                let driver = try step.app(as: WanderDriver.self)
                guard driver.visibleDestination == "sign_in" else {
                    throw HostError("no sign-in sheet is on screen (visible: \(driver.visibleScreen ?? "nothing"))")
                }
                _ = try driver.perform(.tap(output: cancel ? "close" : "submit", args: [:]))
            },
            .verb(
                "sign_out",
                documentation: """
                    Signs out at once (no confirmation), as an expiry or another device would: every tab starts \
                    afresh on its root, and nothing stays presented (a sheet, an alert).
                    """,
                example: "sign_out()",
                ensures: """
                    assert(not signed_in(), "sign_out() left the session signed in")
                    expect_no_modal()
                    """
            ) { step in
                try step.app(as: WanderDriver.self).app.coordinator.signOut()
            },
            .observer(
                "signed_in", returns: ScriptReturn("boolean"), documentation: "Whether a session is stored.",
                example: "assert(signed_in())"
            ) { step in
                .boolean(try step.app(as: WanderDriver.self).app.session.isLoggedIn)
            }
        ]
    }

    public var types: [ScriptType] {
        [.fields("wander.SignInOptions", "Options of `sign_in`.", [.init("cancel", "boolean", "close the sheet instead")])]
    }
}

/// Drives one WanderApp for a scenario.
final class WanderDriver: SwiftUIDriver {
    let app: WanderApp

    init(_ app: WanderApp) {
        self.app = app
        super.init(window: app.window)
    }

    override func deliver(_ input: EntryInput, via entry: EntryPoint) throws(HostError) -> LinkOutcome {
        app.deliver(input, via: entry)
    }

    override func relaunch(restore: Bool) throws(HostError) -> any AppDriver {
        WanderDriver(app.relaunched(restore: restore))
    }

    override var coordinatorPaths: [String] { app.coordinator.coordinatorPaths }
    override var satisfiedPreconditions: Set<Precondition>? { app.session.isLoggedIn ? ["auth"] : [] }
    override var isIdle: Bool { super.isIdle && app.dispatcher.isIdle }
    override var pendingWork: [String] { super.pendingWork + app.dispatcher.pending.map { "dispatcher: \($0)" } }
}
