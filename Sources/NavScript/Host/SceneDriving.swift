import NavigationCore

/// An ``AppDriver`` for an app with several windows (scenes on iPad and
/// Mac): each scene has its own navigation, root flow and router; the
/// engine and the session are shared.
///
/// Everything ``AppDriver`` says — the gestures, `state`, the visible
/// screen, the coordinator tree — is about the *acting* scene: the one in
/// the foreground, or the one a scenario names with `in_scene(n, fn)`
/// (the runtime sets ``actingScene`` for the length of `fn`). What is the
/// app's, not a window's — the event log, leaks, the scheduler — is shared.
/// A driver that does not adopt this protocol has one window.
///
/// As with ``AppDriver/perform(_:)``, each user action here — opening,
/// focusing, closing a window, a link opened in one — begins a step of the
/// event log before it does anything, and nothing here settles.
public protocol SceneDriving: AppDriver {
    /// The open scenes' numbers (1 is the window the app launched with), in
    /// opening order.
    var sceneNumbers: [Int] { get }
    /// The scene in the foreground: where a push notification or a
    /// widget's tap goes.
    var foregroundScene: Int { get }
    /// The scene the gestures and observers of ``AppDriver`` act on when
    /// it is not the one in front; nil: the one in front (whichever that is).
    var actingScene: Int? { get set }
    /// The user opens a new window, in front; with `activity`, the window
    /// opens for it (a Handoff or Spotlight activity, delivered to the new
    /// scene). Returns the scene's number and the activity's outcome.
    func openScene(with activity: EntryInput?, via entry: EntryPoint) throws(HostError) -> (scene: Int, outcome: LinkOutcome?)
    /// Brings scene `number` to the foreground.
    func focusScene(_ number: Int) throws(HostError)
    /// Closes scene `number`: its flows are torn down, its screens released.
    func closeScene(_ number: Int) throws(HostError)
    /// A link the system handed to scene `number` (a scheme or universal
    /// link opened in that window), without settling.
    func deliver(_ input: EntryInput, via entry: EntryPoint, toScene number: Int) throws(HostError) -> LinkOutcome
    /// What scene `number` shows, nil for a scene that is not open.
    func state(ofScene number: Int) -> NavigationState?
}

extension SceneDriving {
    /// Runs `body` with scene `number` acting, and the acting scene restored after.
    public func acting<T>(in number: Int?, _ body: () throws -> T) rethrows -> T {
        let previous = actingScene
        actingScene = number
        defer { actingScene = previous }
        return try body()
    }
}
