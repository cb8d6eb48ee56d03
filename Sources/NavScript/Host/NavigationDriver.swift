import NavigationCore

/// The ready-made ``AppDriver`` for an app whose screens live in a
/// ``SimulatedNavigation``: the built-in gestures go through a
/// ``SimulatedUser``; settling drains the app's scheduler (everything else
/// is ``WindowDriver``'s).
///
/// A host subclasses it and overrides what only the app knows: how a link
/// is delivered, the coordinator tree, restarting.
///
/// (Compiled as written: `Tests/Fixtures/DocExamples/MyAppNavScript/MyAppHost.swift`.)
/// ```swift
/// final class MyAppDriver: NavigationDriver {
///     let app: MyApp
///     init(_ app: MyApp) { self.app = app; super.init(navigation: app.navigation) }
///     override func deliver(_ input: EntryInput, via entry: EntryPoint) throws(HostError) -> LinkOutcome {
///         LinkOutcome(app.dispatcher.deliver(input, via: entry))
///     }
///     override var coordinatorPaths: [String] { app.coordinatorPaths }
/// }
/// ```
open class NavigationDriver: WindowDriver<SimulatedNavigation> {
    public init(navigation: SimulatedNavigation) {
        super.init(launchedWindow: navigation)
    }

    /// The navigation everything here acts on: the one the driver was made
    /// with. A driver of an app with several windows (``SceneDriving``)
    /// overrides it with the acting scene's.
    open var navigation: SimulatedNavigation { launchedWindow }

    public final override var window: SimulatedNavigation { navigation }

    /// The user's thumb on ``navigation``.
    public var user: SimulatedUser { SimulatedUser(navigation: navigation) }

    /// Every screen of every tab and modal, with its owner's path (a
    /// finished owner counts as none).
    open override var screenOwners: [ScreenOwner]? {
        // Read after every scenario: one pass, one array.
        var owners: [ScreenOwner] = []
        owners.reserveCapacity(16)
        func add(_ stack: NavigationStack) {
            for screen in stack.screens {
                owners.append(ScreenOwner(screen: screen.label, owner: screen.owner.flatMap { $0.isFinished ? nil : $0.path }))
            }
        }
        let navigation = self.navigation
        for stack in navigation.tabStacks { add(stack) }
        for modal in navigation.modals { add(modal.stack) }
        return owners
    }
}
