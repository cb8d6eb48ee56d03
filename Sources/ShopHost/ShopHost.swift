import NavScript
import NavigationCore
import ShopApp

/// Plugs ShopApp into the scenario language: its launch options, its fault
/// catalogue and its own verbs (`login`, `logout`, `expire_session`) and
/// observer (`session`). This is the only place the two meet: NavScript
/// knows the host protocols, ShopApp knows nothing of Lua.
public struct ShopHost: ScenarioHost {
    public var engine: RoutingEngine

    public init() throws {
        engine = try ShopApplication.loadEngine()
    }

    public var name: String { "ShopApp" }

    public var launchOptions: [LaunchOption] {
        [
            .boolean("logged_in", "signed in at start (default false)"),
            .boolean("first_launch", "first launch: onboarding replaces the main UI (default false)"),
            .oneOf(
                "experiment", OnboardingExperiment.allCases.map(\.rawValue),
                "onboarding variant on a first launch (default \"minimal\")"),
            .boolean("two_factor", "sign-in asks for a second factor (default false)"),
            .boolean("payment_method", "the account has a payment method (default true)")
        ]
    }

    public var faults: [HostFault] { Fault.allCases.map { HostFault(name: $0.rawValue, summary: $0.summary) } }

    public func launch(_ request: LaunchRequest) throws(HostError) -> any AppDriver {
        var options = LaunchOptions(faults: Set(request.faults.compactMap(Fault.init(rawValue:))))
        options.loggedIn = request.bool("logged_in") ?? options.loggedIn
        options.firstLaunch = request.bool("first_launch") ?? options.firstLaunch
        options.twoFactor = request.bool("two_factor") ?? options.twoFactor
        options.paymentMethod = request.bool("payment_method") ?? options.paymentMethod
        options.experiment = request.string("experiment").flatMap(OnboardingExperiment.init(rawValue:))
        options.url = request.link
        options.via = request.via
        do {
            return ShopAppDriver(try ShopApplication(options: options, engine: engine))
        } catch {
            throw HostError("ShopApp failed to launch: \(error)")
        }
    }

    public var functions: [ScriptFunction] { ShopVerbs.functions }

    /// The root-flow swaps: onboarding (three experiment branches) hands
    /// over to the main flows; logout and session expiry swap them afresh.
    public func flowGraph() -> FlowGraph {
        var swaps: [(from: String, to: String, label: String)] = OnboardingExperiment.allCases.map {
            ("welcome", "home", "experiment \($0.rawValue), then done")
        }
        swaps.append(("profile", "home", "logout: every flow swapped"))
        swaps.append(("home", "login", "session expiry: flows swapped, sign in"))
        return FlowGraph(
            manifest: engine.manifest, screens: screens, swaps: swaps,
            gates: ["auth": "login", "payment_method": "add_payment"])
    }
    public var explorationActions: [String] { ["login{}", "login{ cancel = true }", "logout()", "expire_session()"] }
    public var types: [ScriptType] { ShopVerbs.types }
    public var screens: [ScreenDeclaration] { ShopScreens.declarations }
    public var events: [EventDeclaration] {
        [EventDeclaration("widget-opens-order <id>", "the widget's quick path opened an order")]
    }
}

/// Drives one ShopApplication on behalf of a scenario — every window of it:
/// the gestures and observers act on the acting window.
final class ShopAppDriver: NavigationDriver, SceneDriving {
    let app: ShopApplication

    init(_ app: ShopApplication) {
        self.app = app
        super.init(navigation: app.navigation)
    }

    override var navigation: SimulatedNavigation { app.navigation }

    override func deliver(_ input: EntryInput, via entry: EntryPoint) throws(HostError) -> LinkOutcome {
        app.receive(input, via: entry)
    }

    // MARK: - Windows

    var sceneNumbers: [Int] { app.sceneNumbers }
    var foregroundScene: Int { app.foregroundScene }
    var actingScene: Int? {
        get { app.actingScene }
        set { app.actingScene = newValue }
    }

    func openScene(with activity: EntryInput?, via entry: EntryPoint) throws(HostError) -> (scene: Int, outcome: LinkOutcome?) {
        let (number, outcome) = app.openScene(with: activity, via: entry)
        return (number, outcome)
    }

    func focusScene(_ number: Int) throws(HostError) {
        do { try app.focusScene(number) } catch { throw HostError(error.message) }
    }

    func closeScene(_ number: Int) throws(HostError) {
        do { try app.closeScene(number) } catch { throw HostError(error.message) }
    }

    func deliver(_ input: EntryInput, via entry: EntryPoint, toScene number: Int) throws(HostError) -> LinkOutcome {
        app.log.beginStep("deep_link \(input) via \(entry) in scene \(number)")
        do { return try app.receive(input, via: entry, inScene: number) } catch { throw HostError(error.message) }
    }

    func state(ofScene number: Int) -> NavigationState? { app.state(ofScene: number) }

    override var isIdle: Bool { super.isIdle && app.isRoutingIdle }
    override var pendingWork: [String] { super.pendingWork + app.routingPending }

    override var satisfiedPreconditions: Set<Precondition>? {
        var satisfied: Set<Precondition> = []
        if app.isLoggedIn { satisfied.insert("auth") }
        if app.hasPaymentMethod { satisfied.insert("payment_method") }
        return satisfied
    }

    override func relaunch(restore: Bool) throws(HostError) -> any AppDriver {
        do {
            return ShopAppDriver(try app.relaunched(restore: restore))
        } catch {
            throw HostError("ShopApp failed to relaunch: \(error)")
        }
    }

    override var coordinatorPaths: [String] { app.coordinatorPaths }
    override var rootFlow: String { app.rootFlow }
}
