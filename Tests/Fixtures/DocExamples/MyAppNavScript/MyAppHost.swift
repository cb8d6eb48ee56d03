// swift-format-ignore-file
// The README's "Test your own app" host and main, and the doc comments'
// host, driver and event examples, as they are written there: the
// DocExample tests check that every line of each snippet appears here in
// order, so the examples compile in every test build and cannot drift.
// Not formatted: it keeps the README's layout. `MyApp` is the notes
// fixture under the README's name (MyApp/MyApp.swift).
import MyApp
import NavigationCore
import NavScript
// Sources/MyAppNavScript/main.swift
import NavScriptCLI

struct MyAppHost: ScenarioHost {
    var engine: RoutingEngine
    init() throws { engine = try MyApp.loadEngine() }   // the app's: routes.json from Bundle.module (see NotesApp)

    var name: String { "MyApp" }
    var launchOptions: [LaunchOption] { [.boolean("signed_in", "signed in at start (default false)")] }
    var faults: [HostFault] { MyFault.allCases.map { HostFault(name: $0.rawValue, summary: $0.summary) } }
    var screens: [ScreenDeclaration] { MyApp.screens }   // the outputs your flows wire, listed per screen

    func launch(_ request: LaunchRequest) throws(HostError) -> any AppDriver {
        let app = MyApp(engine: engine, signedIn: request.bool("signed_in") ?? false,
                        faults: Set(request.faults.compactMap(MyFault.init(rawValue:))))
        if let link = request.link { _ = app.dispatcher.deliver(link, via: request.via) }   // launch{ url = … }
        return MyAppDriver(app)
    }

    var functions: [ScriptFunction] {
        [.verb("sign_in", documentation: "Submits the sign-in sheet on screen.", example: "sign_in()") { step in
            _ = try step.app(as: MyAppDriver.self).perform(.tap(output: "submit", args: [:]))
        }]
    }
}

final class MyAppDriver: NavigationDriver {
    let app: MyApp
    init(_ app: MyApp) { self.app = app; super.init(navigation: app.navigation) }
    override func deliver(_ input: EntryInput, via entry: EntryPoint) throws(HostError) -> LinkOutcome {
        LinkOutcome(app.dispatcher.deliver(input, via: entry))
    }
    override func relaunch(restore: Bool) throws(HostError) -> any AppDriver {   // restart()
        MyAppDriver(MyApp(engine: app.dispatcher.engine, signedIn: app.session.isLoggedIn, faults: app.faults,
                          restoring: restore ? app.navigation.state : nil))
    }
    override var coordinatorPaths: [String] { app.coordinatorPaths }   // the app's root flow's treePaths()
}

/// The one-line main of the README (here a function: this target is a library).
func runScenarios() -> Never {
NavScriptCLI.main(host: { try MyAppHost() })
}

// AppEvent's example: an app event of its own, and recording it.
enum MyAppEvent: AppEvent {
    case stash(EntryPoint, EntryInput)
    var text: String {
        switch self { case .stash(let entry, let input): return "stash \(entry) \(input)" }
    }
}

func recordStash(in log: EventLog) {
log.record(MyAppEvent.stash(.scheme, .url("myapp://item/7")))
}
