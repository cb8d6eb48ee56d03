import Foundation
import NavScript
import NavigationCore

/// The notes app's host: one launch option, two faults, two verbs and one
/// observer of its own. Everything else comes from the toolkit.
public struct NotesHost: ScenarioHost {
    public var engine: RoutingEngine

    public init() throws {
        // For the CLI tests of an app whose setup fails: an invalid manifest, a resource missing.
        switch ProcessInfo.processInfo.environment["NOTES_HOST_FAILS"] {
        case "manifest": _ = try RoutingEngine(manifest: RouteManifest.load(json: Data(#"{"tabs": ["notes"], "destinations": []}"#.utf8)))
        case "resource": throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: "routes.json"])
        default: break
        }
        engine = try NotesApp.loadEngine()
    }

    public var name: String { "NotesApp" }
    public var launchOptions: [LaunchOption] { [.boolean("signed_in", "signed in at start (default false)")] }
    public var entryPoints: [EntryPoint] { [.scheme, .universal, .push] }
    public var faults: [HostFault] {
        // For the CLI tests of an app that declares no faults.
        if ProcessInfo.processInfo.environment["NOTES_HOST_FAULTS"] == "none" { return [] }
        return NotesFault.allCases.map { HostFault(name: $0.rawValue, summary: $0.summary) }
    }
    public var screens: [ScreenDeclaration] { NotesApp.screens }

    public func launch(_ request: LaunchRequest) throws(HostError) -> any AppDriver {
        if ProcessInfo.processInfo.environment["NOTES_HOST_FAILS"] == "launch" { throw HostError("keychain unavailable") }
        let app = NotesApp(
            engine: engine, signedIn: request.bool("signed_in") ?? false,
            faults: Set(request.faults.compactMap(NotesFault.init(rawValue:))))
        if let link = request.link { _ = app.dispatcher.deliver(link, via: request.via) }
        return NotesDriver(app)
    }

    public var functions: [ScriptFunction] {
        [
            .verb("sign_in", documentation: "Submits the sign-in sheet on screen.", example: "sign_in()") { step in
                let driver = try step.app(as: NotesDriver.self)
                guard driver.navigation.visibleScreen?.destination == "sign_in" else {
                    throw HostError("no sign-in sheet is on screen")
                }
                _ = try driver.perform(.tap(output: "submit", args: [:]))
            },
            .verb(
                "sync_notes", parameters: [ScriptParameter("seconds", "number")],
                documentation:
                    "Syncs the notes with the server, synchronously: the app is busy for `seconds` (a slow call, for tests "
                    + "of the time limit).",
                example: "sync_notes(0.1)"
            ) { step in
                _ = try step.app(as: NotesDriver.self)
                let seconds = try step.arguments.number(1)
                let until = Date().addingTimeInterval(seconds)
                while Date() < until { usleep(1_000) }
            },
            .observer(
                "signed_in", returns: ScriptReturn("boolean"), documentation: "Whether the session is committed.",
                example: "assert(signed_in())"
            ) { step in
                .boolean(try step.app(as: NotesDriver.self).app.session.isLoggedIn)
            }
        ]
    }
}

/// Drives one NotesApp for a scenario.
final class NotesDriver: NavigationDriver {
    let app: NotesApp

    init(_ app: NotesApp) {
        self.app = app
        super.init(navigation: app.navigation)
    }

    override func deliver(_ input: EntryInput, via entry: EntryPoint) throws(HostError) -> LinkOutcome {
        LinkOutcome(app.dispatcher.deliver(input, via: entry))
    }

    override func relaunch(restore: Bool) throws(HostError) -> any AppDriver {
        NotesDriver(
            NotesApp(
                engine: app.dispatcher.engine, signedIn: app.session.isLoggedIn, faults: app.faults,
                restoring: restore ? app.navigation.state : nil))
    }

    override var coordinatorPaths: [String] { app.coordinatorPaths }
    override var isIdle: Bool { super.isIdle && app.dispatcher.isIdle }
    override var pendingWork: [String] { super.pendingWork + app.dispatcher.pending.map { "dispatcher: \($0)" } }
    override var satisfiedPreconditions: Set<Precondition>? { app.session.isLoggedIn ? ["auth"] : [] }
}

/// The Notes app as another host would declare it, for tests of what a host's declarations change:
/// no screens declared, and the events and functions given.
public struct NotesVariantHost: ScenarioHost {
    public var base: NotesHost
    public var name: String
    public var events: [EventDeclaration]
    /// Made when asked (a function holds closures, and a host is Sendable).
    private let makeFunctions: @Sendable () -> [ScriptFunction]
    public var functions: [ScriptFunction] { makeFunctions() }

    public init(
        _ base: NotesHost, name: String = "NotesVariant", events: [EventDeclaration] = [],
        functions: @escaping @Sendable () -> [ScriptFunction] = { [] }
    ) {
        self.base = base
        self.name = name
        self.events = events
        self.makeFunctions = functions
    }

    public var engine: RoutingEngine {
        get { base.engine }
        set { base.engine = newValue }
    }
    public var launchOptions: [LaunchOption] { [] }
    public var faults: [HostFault] { [] }
    public func launch(_ request: LaunchRequest) throws(HostError) -> any AppDriver { try base.launch(request) }
}
