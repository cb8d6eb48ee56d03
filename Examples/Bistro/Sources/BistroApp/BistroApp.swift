import BistroAccount
import BistroCatalog
import BistroOrders
import Foundation
import NavigationCore

/// Bistro, composed and running headless: the composition root — the only
/// place that sees every module. It merges the modules' routes into one
/// manifest and one engine, wires the session, the dispatcher and the
/// root, and hands the modules the closures they talk through.
public final class BistroApp {
    public let log = EventLog()
    public let scheduler = Scheduler()
    public let tracker: LifecycleTracker
    public let navigation: SimulatedNavigation
    public let session: SessionStore
    public let dispatcher: RouteDispatcher
    public let faults: Set<BistroFault>
    let root: BistroRoot
    private let readyGate: ReadyGate
    private var nextOrder = 100

    /// The manifest: every module's routes under one scheme.
    public static func manifest() -> RouteManifest {
        RouteManifest(
            scheme: "bistro", universalHosts: ["bistro.example.org"],
            tabs: [CatalogModule.tab, OrdersModule.tab, AccountModule.tab], preconditions: ["auth"],
            destinations: CatalogModule.routes + OrdersModule.routes + AccountModule.routes)
    }

    public static func engine() throws -> RoutingEngine {
        try RoutingEngine(manifest: manifest())
    }

    /// Every module's screens with the outputs their flows wire.
    public static var screens: [ScreenDeclaration] { CatalogModule.screens + OrdersModule.screens + AccountModule.screens }

    public init(
        engine: RoutingEngine, signedIn: Bool = false, firstLaunch: Bool = false,
        faults: Set<BistroFault> = [], link: (EntryInput, EntryPoint)? = nil, restoring: NavigationState? = nil
    ) {
        self.faults = faults
        tracker = LifecycleTracker(log: log)
        navigation = SimulatedNavigation(tabs: engine.manifest.tabs, log: log, tracker: tracker, scheduler: scheduler)
        session = SessionStore(log: log, token: signedIn ? "token" : nil)
        readyGate = ReadyGate(log: log)
        let (session, scheduler) = (self.session, self.scheduler)
        // The modules talk through closures; the wiring fills them in once
        // everything exists (weakly: the app owns its parts).
        let wiring = Wiring()
        var services = AccountServices(
            isSignedIn: { session.isLoggedIn },
            commitSession: { session.commit(token: "token") },
            signOut: { wiring.signOut() },
            send: { wiring.send($0) },
            later: { work in scheduler.schedule(after: 200, "keychain write", work) })
        services.signalsBeforeCommit = faults.contains(.signalBeforeCommit)
        services.settingsIgnoresSwipe = faults.contains(.settingsIgnoresSwipe)
        if !faults.contains(.signInPerLink) { services.gates = { wiring.gates } }
        root = BistroRoot(navigation: navigation, services: services, faults: faults) { wiring.placeOrder($0) }
        root.isSignedIn = { session.isLoggedIn }
        wiring.gates = root.gates
        dispatcher = RouteDispatcher(engine: engine, root: root, log: log) {
            RouteContext(satisfied: session.isLoggedIn ? ["auth"] : [])
        }
        let dispatcher = self.dispatcher
        wiring.send = { [weak dispatcher] request in _ = dispatcher?.dispatch(request, source: .internal) }
        wiring.placeOrder = { [weak self] _ in self?.placeOrder() }
        wiring.signOut = { [weak self] in self?.signOut() }
        session.onExpire = { [weak self] in self?.sessionExpired() }
        root.onReady = { [weak self] in
            guard let self else { return }
            self.readyGate.open { input, entry in self.deliver(input, via: entry) }
        }
        root.start(firstLaunch: firstLaunch, restoring: restoring)
        if let (input, entry) = link { deliver(input, via: entry) }
    }

    /// An entry point hands over a link.
    @discardableResult
    public func deliver(_ input: EntryInput, via entry: EntryPoint) -> LinkOutcome {
        if !faults.contains(.linkBeforeOnboarding), readyGate.hold(input, via: entry) { return LinkOutcome(status: .stashed) }
        if faults.contains(.pushOwnParser), entry == .push, case .payload(let payload) = input {
            // The bug: the push handler predates the catalog's aliases.
            log.record(.deliver(entry, input.description))
            guard let route = payload["route"], route.hasPrefix("restaurants/"), !route.dropFirst(12).contains("/") else {
                let error = RouteError.unknownRoute(input: input.description)
                log.record(.reject(kind: error.kind, input: input.description))
                return LinkOutcome(.rejected(error))
            }
            return LinkOutcome(
                dispatcher.dispatch(
                    RouteRequest("restaurant", params: ["id": String(route.dropFirst(12))]),
                    source: .external))
        }
        if faults.contains(.ordersParserSkipsGate), case .url(let url) = input,
            let request = OrdersModule.quickTrackingRequest(url), let target = try? dispatcher.engine.target(for: request)
        {
            // The bug: the orders module's quick path executes its own parse.
            log.record(.deliver(entry, input.description))
            root.execute(target, source: .external) {}
            return LinkOutcome(.proceed(target))
        }
        return LinkOutcome(dispatcher.deliver(input, via: entry))
    }

    /// The dish's "order" button: a new order, shown on the orders tab.
    private func placeOrder() {
        nextOrder += 1
        let request = RouteRequest("order", params: ["id": String(nextOrder)])
        if faults.contains(.orderHandoffSkipsGate), let target = try? dispatcher.engine.target(for: request) {
            // The bug: "we just placed it, of course the user may see it".
            root.execute(target, source: .internal) {}
            return
        }
        dispatcher.dispatch(request, source: .internal)
    }

    /// A cold start of the same device: the session persists; with
    /// `restore` the navigation comes back from this app's archive.
    public func relaunched(restore: Bool) -> BistroApp {
        // The bug (restart-always-restores): the archive is read whatever the setting.
        let archive = restore || faults.contains(.restartAlwaysRestores) ? navigation.state : nil
        return BistroApp(engine: dispatcher.engine, signedIn: session.isLoggedIn, faults: faults, restoring: archive)
    }

    public func signOut() {
        session.clear()
        root.resetModules()
    }

    private func sessionExpired() {
        root.resetModules()
        root.satisfy("auth") { _ in }
    }

    public var coordinatorPaths: [String] { root.treePaths() }
    public var isOnboarding: Bool { root.isOnboarding }
}

/// The closures modules talk through, filled in by the composition root.
private final class Wiring {
    var send: (RouteRequest) -> Void = { _ in }
    var signOut: () -> Void = {}
    var placeOrder: (String) -> Void = { _ in }
    weak var gates: GateSatisfier?
}
