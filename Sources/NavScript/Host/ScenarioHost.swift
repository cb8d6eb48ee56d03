import NavigationCore

/// The seam between the scenario language and an app. NavScript drives any
/// headless app built on NavigationCore through these two protocols — it
/// never imports the app — so a team plugs its own core in by writing one
/// host (see `ShopHost` in the `navscript` executable).
public protocol ScenarioHost: Sendable {
    /// Short name shown in reports (`ShopApp`).
    var name: String { get }
    /// The `launch{}` keys this host understands, for error messages and docs.
    var launchOptionNames: [String] { get }
    /// The app's injectable faults, for `--fault` and `navscript mutate`.
    var faults: [HostFault] { get }
    /// The engine behind the app's entry points (for `navscript routes`).
    var engine: RoutingEngine { get }

    /// Cold-starts a fresh app. Unknown options or faults are a
    /// ``HostError`` naming what is accepted.
    func launch(_ options: LaunchRequest) throws(HostError) -> any ScenarioApp

    /// How `entry` would deliver the link spelled `url` (a `shop://…` URL):
    /// the same intent through another door, for `expect_same_outcome`.
    func input(for url: String, via entry: EntryPoint) -> EntryInput

    /// The coordinator/flow graph as Graphviz DOT (for `navscript graph`).
    func flowGraph() -> String
}

/// One fault the host can inject.
public struct HostFault: Hashable, Sendable, Codable {
    public var name: String
    public var summary: String

    public init(name: String, summary: String) {
        self.name = name
        self.summary = summary
    }
}

/// What a scenario asked `launch{}` for, already checked for types.
public struct LaunchRequest: Hashable, Sendable {
    /// Launch options by their Lua names (`logged_in = true`, `experiment = "minimal"`).
    public var options: [String: LaunchValue]
    /// The cold-start link, if any, and its entry point.
    public var link: EntryInput?
    public var via: EntryPoint
    public var faults: [String]

    public init(options: [String: LaunchValue] = [:], link: EntryInput? = nil, via: EntryPoint = .scheme,
                faults: [String] = []) {
        self.options = options
        self.link = link
        self.via = via
        self.faults = faults
    }
}

/// A launch option's value: the scripting language's scalars.
public enum LaunchValue: Hashable, Sendable, CustomStringConvertible {
    case bool(Bool)
    case string(String)
    case number(Double)

    public var description: String {
        switch self {
        case .bool(let value): return String(value)
        case .string(let value): return "\"\(value)\""
        case .number(let value): return String(value)
        }
    }
}

/// One running app. Every call is synchronous; ``settle()`` drains the
/// app's virtual-time scheduler.
public protocol ScenarioApp: AnyObject {
    func perform(_ action: AppAction) throws(HostError) -> LinkOutcome?
    func settle() throws(HostError)
    /// A fresh app as after a cold start of the same device.
    func relaunch(restore: Bool) throws(HostError) -> any ScenarioApp

    var state: NavigationState { get }
    /// The label of the top visible screen (`product:p1004`).
    var visibleScreen: String? { get }
    var coordinatorPaths: [String] { get }
    var events: [String] { get }
    /// The current user step number (advanced by every action).
    var step: Int { get }
    /// `main`, or the name of a flow that replaces it (`onboarding`).
    var rootFlow: String { get }
    var session: [String: LaunchValue] { get }
    var leaks: [LifecycleTracker.Leak] { get }
}

/// A user action, as the scenario verbs spell them.
public enum AppAction: Hashable, Sendable {
    case tap(output: String, args: [String: String])
    case selectTab(String)
    case back
    case backSwipe(cancel: Bool, animated: Bool)
    case dismiss
    case deepLink(EntryInput, via: EntryPoint)
    case login(cancel: Bool)
    case logout
    case expireSession
}

/// A host refused an action: the message says what was wrong and what is
/// possible instead; scenarios report it at the calling line.
public struct HostError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
