import NavigationCore

/// The ready-made ``AppDriver`` for a SwiftUI app whose window is a
/// ``SwiftUINavigation``: the built-in gestures write the team's bound
/// state as SwiftUI does; settling renders the pending frame and drains
/// the scheduler; SwiftUI's warnings are read from the window (everything
/// else is ``WindowDriver``'s).
///
/// A host subclasses it and overrides what only the app knows: how a link
/// is delivered, the coordinator tree, restarting.
///
/// (Compiled as written: `Tests/Fixtures/DocExamples/MySwiftUIApp/MySwiftUIApp.swift`.)
/// ```swift
/// final class MyDriver: SwiftUIDriver {
///     let app: MyApp
///     init(_ app: MyApp) { self.app = app; super.init(window: app.window) }
///     override func deliver(_ input: EntryInput, via entry: EntryPoint) throws(HostError) -> LinkOutcome {
///         app.deliver(input, via: entry)
///     }
/// }
/// ```
open class SwiftUIDriver: WindowDriver<SwiftUINavigation> {
    public init(window: SwiftUINavigation) {
        super.init(launchedWindow: window)
    }
}
