import NavigationCore

/// The seam between the scenario language and an app. NavScript drives any
/// headless app built on NavigationCore through these two protocols — it
/// never imports the app — so a team plugs its own app in by writing one
/// host (launch options, faults, app verbs) and a one-line main over
/// `NavScriptCLI`:
///
/// (Compiled as written: `Tests/Fixtures/DocExamples/MyAppNavScript/MyAppHost.swift`.)
/// ```swift
/// struct MyAppHost: ScenarioHost {
///     var engine: RoutingEngine
///     init() throws { engine = try MyApp.loadEngine() }
///     var name: String { "MyApp" }
///     var launchOptions: [LaunchOption] { [.boolean("signed_in", "signed in at start (default false)")] }
///     var faults: [HostFault] { MyFault.allCases.map { HostFault(name: $0.rawValue, summary: $0.summary) } }
///     func launch(_ request: LaunchRequest) throws(HostError) -> any AppDriver {
///         let app = MyApp(engine: engine, signedIn: request.bool("signed_in") ?? false,
///                         faults: Set(request.faults.compactMap(MyFault.init(rawValue:))))
///         if let link = request.link { _ = app.dispatcher.deliver(link, via: request.via) }
///         return MyAppDriver(app)
///     }
/// }
/// ```
///
/// Everything else has a default derived from the route manifest: the
/// entry points, how a link is spelled at each of them, the flow graph.
public protocol ScenarioHost: Sendable {
    /// Short name shown in reports and messages (`MyApp`).
    var name: String { get }
    /// The `launch{}` options this host understands. The runtime checks a
    /// scenario's options against them (unknown names, wrong types, values
    /// outside a list) before ``launch(_:)`` sees the request; `url` and
    /// `via` (a cold-start link) are the runtime's own.
    var launchOptions: [LaunchOption] { get }
    /// The app's injectable faults, for `--fault` and `navscript mutate`.
    var faults: [HostFault] { get }
    /// The engine behind the app's entry points (for `routes`, `graph`,
    /// `types`), and the one ``launch(_:)`` builds the app with: settable, so
    /// `--manifest FILE` can run the same host with another manifest.
    var engine: RoutingEngine { get set }
    /// The doors the app has; `expect_same_outcome` tries these by default.
    var entryPoints: [EntryPoint] { get }
    /// Verbs and observers the app adds to the language (``ScriptFunction/verb(_:parameters:documentation:example:perform:)``).
    var functions: [ScriptFunction] { get }
    /// Types the host's functions name in their LuaLS definitions.
    var types: [ScriptType] { get }
    /// The outputs each screen may offer a `tap` — the app's own list of the
    /// `ScreenOutput` values its flows wire — for editor types, lint, the
    /// graph and `routes check`. A tap fails when the screen wires an output
    /// its declaration leaves out; none declared: nothing is checked.
    /// Declaring screens declares them all — a sheet a gate presents too —
    /// because event items are then checked against them: a screen that is
    /// no destination, no declared screen and not in the log is a typo
    /// (`expect_no_event("present zzz")` could never fail).
    var screens: [ScreenDeclaration] { get }
    /// The app's own events (``AppEvent``), documented with `expect_events`.
    var events: [EventDeclaration] { get }
    /// Lines of Lua `navscript explore` may run as steps, for the host's
    /// own verbs (`login{ cancel = true }`). Default: each driving verb
    /// whose parameters are all optional, called without arguments.
    var explorationActions: [String] { get }

    /// Cold-starts a fresh app. `request.options` were already checked
    /// against ``launchOptions``; `request.faults` against ``faults``.
    func launch(_ request: LaunchRequest) throws(HostError) -> any AppDriver

    /// How `entry` would deliver the link spelled `url` (a URL with the
    /// app's scheme): the same intent through another door.
    func input(for url: String, via entry: EntryPoint) -> EntryInput

    /// The app's flow graph (for `navscript graph`). Default: from the
    /// manifest and ``screens``; a host adds its root-flow swaps.
    func flowGraph() -> FlowGraph

    /// This host with its engine built from `manifest` instead of the app's
    /// own (`--manifest FILE`: a server-driven manifest tried before rollout).
    /// The default sets ``engine``; a host whose app reads the manifest from
    /// somewhere else implements it.
    func replacingManifest(_ manifest: RouteManifest) throws(HostError) -> any ScenarioHost
}

extension ScenarioHost {
    public var entryPoints: [EntryPoint] { EntryPoint.allCases }
    public var functions: [ScriptFunction] { [] }
    public var types: [ScriptType] { [] }
    public var screens: [ScreenDeclaration] { [] }
    public var events: [EventDeclaration] { [] }
    public var explorationActions: [String] {
        functions.filter { $0.category == .driving && $0.parameters.allSatisfy(\.isOptional) }.map { "\($0.name)()" }
    }

    /// The manifest's spelling: its scheme and first universal host.
    public func input(for url: String, via entry: EntryPoint) -> EntryInput {
        EntryLinkSpelling(manifest: engine.manifest).input(for: url, via: entry)
    }

    public func flowGraph() -> FlowGraph {
        FlowGraph(manifest: engine.manifest, screens: screens)
    }

    public func replacingManifest(_ manifest: RouteManifest) throws(HostError) -> any ScenarioHost {
        var host = self
        do { host.engine = try RoutingEngine(manifest: manifest) } catch { throw HostError("\(error)") }
        return host
    }
}

/// One event of an app's own vocabulary, for the reference and for the
/// check that an event item can match at all.
public struct EventDeclaration: Hashable, Sendable {
    /// How it reads (`widget-opens-order <id>`): its first word, then one
    /// placeholder per word. A last `<input>` or `<label>` may hold spaces,
    /// and a last placeholder ending in `…` (`<screen>…`) repeats; any other
    /// placeholder is one word, so an item with more words than the form
    /// could never match and is an error.
    public var form: String
    public var meaning: String

    public init(_ form: String, _ meaning: String) {
        self.form = form
        self.meaning = meaning
    }
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

    public init(
        options: [String: LaunchValue] = [:], link: EntryInput? = nil, via: EntryPoint = .scheme,
        faults: [String] = []
    ) {
        self.options = options
        self.link = link
        self.via = via
        self.faults = faults
    }

    /// A boolean option's value, if the scenario set it.
    public func bool(_ name: String) -> Bool? {
        if case .bool(let value)? = options[name] { return value }
        return nil
    }

    /// A string option's value, if the scenario set it.
    public func string(_ name: String) -> String? {
        if case .string(let value)? = options[name] { return value }
        return nil
    }

    /// A number option's value, if the scenario set it.
    public func number(_ name: String) -> Double? {
        if case .number(let value)? = options[name] { return value }
        return nil
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

/// One running app, as a scenario drives it. ``NavigationDriver``
/// implements most of it for an app built on `SimulatedNavigation`.
///
/// The contract:
/// - **Steps.** Every user action opens a new step of the app's event log
///   before it does anything (`EventLog.beginStep`), so events, releases
///   and leaks name the step that caused them; ``step`` is its number.
/// - **Settling.** ``perform(_:)`` does not drain the scheduler; the
///   runtime calls ``settle()`` after each verb (a `deep_link` with
///   `settle = false` leaves work pending on purpose). `settle` throws when
///   the app never goes idle.
/// - **Restarting.** ``relaunch(restore:)`` is a cold start of the same
///   device: what the app persists (the context, say) survives, it is not a
///   first launch, no link is delivered; with `restore` the navigation is
///   restored from the archive of the app being replaced, without it the
///   app starts at its root.
/// - **Observing.** Everything else is read-only and cheap: the runtime
///   reads it after every step for the timeline.
public protocol AppDriver: AnyObject {
    /// Performs one built-in user action; a link's outcome for `deepLink`.
    /// A ``HostError`` means the action is impossible on the current screen.
    func perform(_ action: AppAction) throws(HostError) -> LinkOutcome?
    func settle() throws(HostError)
    /// A fresh app as after a cold start of the same device.
    func relaunch(restore: Bool) throws(HostError) -> any AppDriver

    var state: NavigationState { get }
    /// The selected tab — read after every step for the timeline, so an app
    /// can answer without building the whole ``state`` (the default does).
    var selectedTab: TabID { get }
    /// The label of the top visible screen (`item:7`).
    var visibleScreen: String? { get }
    /// The destination of the top visible screen (`item`), for checks run on
    /// every tap; the default reads it from ``state``.
    var visibleDestination: DestinationID? { get }
    /// The live coordinator tree as paths (`app`, `app/catalog`), parents first.
    var coordinatorPaths: [String] { get }
    /// The app's event log: every decision and side effect, typed. The
    /// runtime reads facts from the events themselves (a cold-start link
    /// delivered, a loop guard), and scenarios read them as text (``events``).
    var eventLog: EventLog { get }
    /// The current user step number (advanced by every action).
    var step: Int { get }
    /// `main`, or the name of a flow that replaces it (`onboarding`).
    var rootFlow: String { get }
    var leaks: [LifecycleTracker.Leak] { get }
    /// Whether nothing is pending (no transition, no scheduled work).
    var isIdle: Bool { get }
    /// What is pending, one line each (`scheduled: present login`,
    /// `dispatcher: queued orders (external)`), for the `idle` invariant's
    /// report: which work was stranded, not only that some was.
    var pendingWork: [String] { get }
    /// The outputs the top visible screen really has, as the app wired them
    /// (what a thumb could tap, with the parameters a tap carries).
    var visibleOutputs: [ScreenOutput] { get }
    /// Every screen on screen with the path of the flow that owns it (nil:
    /// none), for the `flow_ownership` invariant; nil when the app cannot tell.
    var screenOwners: [ScreenOwner]? { get }
    /// What the platform warned of so far (SwiftUI's runtime warnings), for
    /// the `platform_warnings` invariant; none on a platform that has none.
    var platformWarnings: [PlatformWarning] { get }
    /// The preconditions that hold now (signed in: `auth`), for the
    /// `gated_screens` invariant; nil when the app does not say.
    var satisfiedPreconditions: Set<Precondition>? { get }
}

extension AppDriver {
    public var selectedTab: TabID { state.selectedTab }
    public var visibleDestination: DestinationID? { state.visible?.id }
    /// The event log as scenarios read it (`events()`, `expect_events`),
    /// oldest first: the events the log keeps (see ``EventLog/retention``).
    public var events: [String] { eventLog.texts }
    /// How many events the app recorded, kept or not: where a mark is.
    public var eventCount: Int { eventLog.count }
    /// How many of the oldest events the log no longer keeps.
    public var eventsDropped: Int { eventLog.droppedCount }
    /// The kept events from position `mark` on (counted from the app's
    /// first event), and how many events after `mark` the log no longer keeps.
    public func events(since mark: Int) -> (texts: ArraySlice<String>, dropped: Int) {
        let log = eventLog
        let texts = log.texts
        let dropped = max(0, log.droppedCount - mark)
        return (texts[min(texts.count, max(0, mark - log.droppedCount))...], dropped)
    }
    /// The first `loop-guard …` event, for the `loop_guard` invariant checked
    /// after every scenario (kept by the log as recorded: no search).
    public var loopGuardEvent: String? { eventLog.firstLoopGuard?.text }
    public var isIdle: Bool { true }
    public var pendingWork: [String] { [] }
    public var screenOwners: [ScreenOwner]? { nil }
    public var visibleOutputs: [ScreenOutput] { [] }
    public var platformWarnings: [PlatformWarning] { [] }
    public var satisfiedPreconditions: Set<Precondition>? { nil }
}

/// A screen on screen and the coordinator path of the flow that owns it.
public struct ScreenOwner: Hashable, Sendable {
    public var screen: String
    public var owner: String?

    public init(screen: String, owner: String?) {
        self.screen = screen
        self.owner = owner
    }
}

/// A user action of the built-in verbs; hosts add their own as script functions.
public enum AppAction: Hashable, Sendable {
    case tap(output: String, args: [String: String])
    case selectTab(String)
    case back
    case backSwipe(cancel: Bool, animated: Bool)
    case dismiss
    case deepLink(EntryInput, via: EntryPoint)
}

/// A host refused an action: the message says what was wrong and what is
/// possible instead; scenarios report it at the calling line.
public struct HostError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }

    /// Any error of a gesture as the host's: a ``NavigationError``'s words
    /// (what the screen did not allow), a host error as it is, else its text.
    public static func from(_ error: any Error) -> HostError {
        switch error {
        case let host as HostError: return host
        case let navigation as NavigationError: return HostError(navigation.description)
        default: return HostError("\(error)")
        }
    }
}
