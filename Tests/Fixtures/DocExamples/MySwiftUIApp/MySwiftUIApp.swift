// swift-format-ignore-file
// The README's "Test a SwiftUI app" examples and SwiftUIDriver's doc
// example, as they are written there: the DocExample tests check that
// every line of each snippet appears here in order, so they compile in
// every test build. Not formatted: it keeps the README's layout. Around
// them, the smallest @Observable app they bind.
import NavigationCore
import NavScript
import NavScriptCLI
import Observation

/// A value a home path holds, as a team's `NavigationStack(path:)` would.
struct HomeRoute: Hashable { let id: String }

/// What a sheet or an alert is presented for.
struct Presented: Identifiable { let id: String }

enum AppTab: Hashable { case home, profile }

@Observable final class HomeModel {
    var path: [HomeRoute] = []
    var details: [String] = []
    func model(for route: HomeRoute) -> AnyObject { ItemModel(route.id) }
    func showDetails(_ route: HomeRoute) { details.append(route.id) }
}

final class ItemModel {
    let id: String
    init(_ id: String) { self.id = id }
}

@Observable final class ProfileModel { var path: [String] = [] }

/// The app's coordinator state, as SwiftUI binds it; `window` is the
/// headless window its root view would be.
@Observable final class MyApp {
    var home = HomeModel()
    var profile = ProfileModel()
    var tab = AppTab.home
    var sheet: Presented?
    var alert: Presented?
    @ObservationIgnored var window: SwiftUINavigation!
    @ObservationIgnored let engine: RoutingEngine

    init(engine: RoutingEngine) {
        self.engine = engine
        let log = EventLog()
        let tracker = LifecycleTracker(log: log)
        window = makeWindow(for: self, log: log, tracker: tracker, scheduler: Scheduler())
    }

    func sheetDismissed() {}

    /// A team's RoutingEngine/RouteDispatcher would resolve and execute the link; the example only needs its type.
    func deliver(_ input: EntryInput, via entry: EntryPoint) -> LinkOutcome { LinkOutcome(status: .proceed, destination: "home") }

    func relaunched(restore: Bool) -> MyApp { MyApp(engine: engine) }
}

/// The root view's body, headless.
func makeWindow(for app: MyApp, log: EventLog, tracker: LifecycleTracker, scheduler: Scheduler) -> SwiftUINavigation {
    let window = SwiftUINavigation(log: log, tracker: tracker, scheduler: scheduler)
    let home = window.makeStack("home", path: ViewBinding(app.home, \.path), root: Screen("home"))
    home.navigationDestination(for: HomeRoute.self) { route in        // as the view registers it
        let screen = Screen("item", params: ["id": route.id])
        screen.viewModel = app.home.model(for: route)                 // what the view holds
        screen.setOutput("details") { _ in app.home.showDetails(route) }
        return screen
    }
    let profile = window.makeStack("profile", path: ViewBinding(app.profile, \.path), root: Screen("profile"))
    window.showTabs(
        selection: ViewBinding(app, \.tab), [(.home, home), (.profile, profile)],
        presenters: [
            .sheet(item: ViewBinding(app, \.sheet), onDismiss: { app.sheetDismissed() }) { sheet in
                .screen(Screen(DestinationID(sheet.id)))               // or .stack(a stack of its own)
            },
            .alert(item: ViewBinding(app, \.alert)) { alert in Screen(DestinationID(alert.id)) },
        ])
    return window
}

final class MyDriver: SwiftUIDriver {
    let app: MyApp
    init(_ app: MyApp) { self.app = app; super.init(window: app.window) }
    override func deliver(_ input: EntryInput, via entry: EntryPoint) throws(HostError) -> LinkOutcome {
        app.deliver(input, via: entry)                            // your RoutingEngine/RouteDispatcher
    }
    override func relaunch(restore: Bool) throws(HostError) -> any AppDriver { MyDriver(app.relaunched(restore: restore)) }
}

struct MyHost: ScenarioHost {
    var engine: RoutingEngine
    init() throws { engine = try RoutingEngine(manifest: RouteManifest(scheme: "my", universalHosts: [], tabs: ["home", "profile"], preconditions: [], destinations: [RouteDefinition("home", tab: "home", flow: "home"), RouteDefinition("profile", tab: "profile", flow: "profile")])) }
    var name: String { "MySwiftUIApp" }
    var launchOptions: [LaunchOption] { [] }
    var faults: [HostFault] { [] }
    func launch(_ request: LaunchRequest) throws(HostError) -> any AppDriver { MyDriver(MyApp(engine: engine)) }
}

/// The README's main (here a function: this target is a library).
func runScenarios() -> Never {
// main.swift
NavScriptCLI.main(host: { try MyHost() })
}
