import Foundation
import NavigationCore
import WanderPlaces
import WanderProfile
import WanderTrips

/// Wander, composed and running headless: the composition root — the only
/// place that sees every module. It merges the modules' routes into one
/// manifest and engine, wires the session, the dispatcher and the app
/// coordinator, and builds the window as the app's root view does: which
/// key path each stack, the tab view, the sheet and the alert bind, and
/// which destinations each stack registers.
public final class WanderApp {
    public let log = EventLog()
    public let scheduler = Scheduler()
    public let tracker: LifecycleTracker
    public let session: SessionStore
    public let coordinator: AppCoordinator
    public let dispatcher: RouteDispatcher
    public let window: SwiftUINavigation
    public let faults: Set<WanderFault>
    /// Screen views the profile stack's binding reports (its analytics).
    public private(set) var screenViews: [String] = []

    public static func manifest() -> RouteManifest {
        RouteManifest(
            scheme: "wander", universalHosts: ["wander.example.org"],
            tabs: [PlacesModule.tab, TripsModule.tab, ProfileModule.tab], preconditions: ["auth"],
            destinations: PlacesModule.routes + TripsModule.routes + ProfileModule.routes)
    }

    /// Every module's screens with the outputs their views wire.
    public static var screens: [ScreenDeclaration] { PlacesModule.screens + TripsModule.screens + ProfileModule.screens }

    public static func engine() throws -> RoutingEngine {
        try RoutingEngine(manifest: manifest())
    }

    public init(
        engine: RoutingEngine, signedIn: Bool = false, faults: Set<WanderFault> = [],
        link: (EntryInput, EntryPoint)? = nil, restoring archive: PathArchive? = nil
    ) {
        self.faults = faults
        tracker = LifecycleTracker(log: log)
        session = SessionStore(log: log, token: signedIn ? "token" : nil)
        let scheduler = self.scheduler
        let window = SwiftUINavigation(log: log, tracker: tracker, scheduler: scheduler)
        self.window = window
        coordinator = AppCoordinator(
            session: session, gates: GateSatisfier(log: log), faults: faults, log: log,
            whenShown: { [weak window] work in window?.whenShown(work) })
        let session = self.session
        dispatcher = RouteDispatcher(engine: engine, root: coordinator, log: log) {
            RouteContext(satisfied: session.isLoggedIn ? ["auth"] : [])
        }
        let dispatcher = self.dispatcher
        coordinator.trips.send = { [weak dispatcher] request in _ = dispatcher?.dispatch(request, source: .internal) }
        if let archive { restore(archive) }
        buildWindow()
        window.render()
        if let (input, entry) = link { deliver(input, via: entry) }
    }

    /// An entry point hands over a link.
    @discardableResult
    public func deliver(_ input: EntryInput, via entry: EntryPoint) -> LinkOutcome {
        LinkOutcome(dispatcher.deliver(input, via: entry))
    }

    // MARK: - The window (what the root view binds)

    private func buildWindow() {
        let app = coordinator
        let places = window.makeStack(
            "places", path: ViewBinding(app.places, \.path), root: PlacesDestinations.root(coordinator: app.places))
        PlacesDestinations.register(on: places, coordinator: app.places, registersGuides: !faults.contains(.guideUnregistered))

        let trips = window.makeStack("trips", path: ViewBinding(app.trips, \.path), root: TripsDestinations.root(coordinator: app.trips))
        TripsDestinations.register(on: trips, coordinator: app.trips)

        let actions = ProfileActions(
            // The settings button opens the sheet at its root: the path a link or the user left it on
            // (kept by the model after the sheet went) would reopen it deep, a gated page among them.
            openSettings: { [weak app] in
                guard let app else { return }
                if !app.profile.settingsPath.isEmpty { app.profile.settingsPath = [] }
                app.sheet = .settings
            },
            closeSettings: { [weak app] in app?.sheet = nil },
            askToSignOut: { [weak app] in app?.askToSignOut() },
            openPayment: { [weak self] in _ = self?.dispatcher.dispatch(RouteRequest("payment"), source: .internal) })
        let profile = window.makeStack(
            "profile", path: profilePathBinding(), root: ProfileDestinations.root(coordinator: app.profile, actions: actions))
        ProfileDestinations.register(on: profile)

        // A sheet's content is built each time it is presented, and goes with it.
        let window = self.window
        let settings = { () -> PathStack in
            let stack = window.makeStack(
                "settings", path: ViewBinding(app.profile, \.settingsPath),
                root: ProfileDestinations.settingsRoot(coordinator: app.profile, actions: actions))
            ProfileDestinations.registerSettings(on: stack, coordinator: app.profile)
            return stack
        }

        // The bug (on-dismiss-not-clearing): no onDismiss; the buttons clean up instead.
        let onDismiss: (() -> Void)? = faults.contains(.onDismissNotClearing) ? nil : { [weak app] in app?.sheetDismissed() }
        let signInSheet = { [weak app] (_: AppSheet) -> PresentedContent in
            .screen(
                ProfileDestinations.signIn(
                    model: app?.signIn ?? SignInModel(), submit: { app?.signInSubmitted() }, close: { app?.signInClosed() }))
        }
        var presenters: [Presenter] = [
            .sheet(item: ViewBinding(app, \.sheet), onDismiss: onDismiss) { sheet in
                switch sheet {
                case .settings: return .stack(settings())
                case .signIn: return signInSheet(sheet)
                }
            },
            .alert(item: ViewBinding(app, \.alert)) { _ in
                ProfileDestinations.confirmSignOut { [weak app] in app?.signOut() }
            }
        ]
        if faults.contains(.secondSheetModifier) {
            presenters.insert(.sheet(item: ViewBinding(app, \.signInSheet), onDismiss: onDismiss, content: signInSheet), at: 1)
        }
        window.showTabs(
            selection: ViewBinding(app, \.tab), [(.places, places), (.trips, trips), (.profile, profile)], presenters: presenters)
    }

    /// The profile stack reports every screen view to analytics through a
    /// custom binding.
    private func profilePathBinding() -> ViewBinding<[ProfileRoute]> {
        let profile = coordinator.profile
        let dropsBack = faults.contains(.bindingDropsBack)
        return ViewBinding(
            get: { profile.path },
            set: { [weak self] new in
                if new.count > profile.path.count, let last = new.last { self?.screenViews.append(last.rawValue) }
                // The bug: only pushes were meant to be "tracked", and only they are stored.
                if !dropsBack || new.count > profile.path.count { profile.path = new }
            })
    }

    // MARK: - Restoration

    /// The destination types a restored path can hold.
    private var registry: PathRegistry {
        var registry = PathRegistry()
        registry.register(PlacesRoute.self)
        registry.register(GuideRoute.self)
        registry.register(ProfileRoute.self)
        if !faults.contains(.restoreRegistryMissesTrips) { registry.register(TripsRoute.self) }
        return registry
    }

    /// The navigation to restore on the next cold start.
    public var archive: PathArchive {
        PathArchive(
            tab: coordinator.tab.rawValue,
            paths: [
                "places": registry.encode(coordinator.places.path),
                "trips": registry.encode(coordinator.trips.path.map(AnyHashable.init)),
                "profile": registry.encode(coordinator.profile.path.map(AnyHashable.init))
            ])
    }

    private func restore(_ archive: PathArchive) {
        let registry = self.registry
        coordinator.tab = AppTab(rawValue: archive.tab) ?? .places
        coordinator.places.path = registry.decode(archive.paths["places"] ?? [])
        if session.isLoggedIn {
            coordinator.trips.path = registry.decode(archive.paths["trips"] ?? []).compactMap { $0.base as? TripsRoute }
        }
        coordinator.profile.path = registry.decode(archive.paths["profile"] ?? []).compactMap { $0.base as? ProfileRoute }
    }

    /// A cold start of the same device: the session persists; with
    /// `restore` the navigation comes back from this app's archive.
    public func relaunched(restore: Bool) -> WanderApp {
        // Through the archive's bytes, as the real app writes it to disk.
        let data = try? JSONEncoder().encode(archive)
        let archive = restore ? data.flatMap { try? JSONDecoder().decode(PathArchive.self, from: $0) } : nil
        return WanderApp(engine: dispatcher.engine, signedIn: session.isLoggedIn, faults: faults, restoring: archive)
    }
}
