/// The logged-in state. Committing is an explicit, logged step because its
/// order relative to "login finished" is exactly what decides whether a
/// re-dispatched gate passes or loops.
public final class SessionStore {
    public private(set) var token: String?
    public var isLoggedIn: Bool { token != nil }
    /// Called after the session is cleared by expiry (not by a logout the app asked for).
    /// One handler: an app with several windows adds one per scene with
    /// ``observeExpiry(_:)`` instead — setting this from each scene leaves
    /// only the last scene told.
    public var onExpire: (() -> Void)?
    private var expiryObservers: [() -> Void] = []
    private var commitObservers: [() -> Void] = []
    private let log: EventLog

    public init(log: EventLog, token: String? = nil) {
        self.log = log
        self.token = token
    }

    /// Persists the session; from now on contexts read logged-in.
    public func commit(token: String) {
        self.token = token
        log.record(.sessionCommit)
        for observer in commitObservers { observer() }
    }

    /// Ends the session at the user's request.
    public func clear() {
        token = nil
        log.record(.sessionClear)
    }

    /// Ends the session from the server side (token expired), then tells the app.
    public func expire() {
        token = nil
        log.record(.sessionExpire)
        onExpire?()
        for observer in expiryObservers { observer() }
    }

    /// Adds a handler run after every expiry, after ``onExpire`` (one per
    /// scene of an app with several windows).
    public func observeExpiry(_ observer: @escaping () -> Void) {
        expiryObservers.append(observer)
    }

    /// Adds a handler run after every commit. Why: with several windows, a
    /// sign-in in one answers the sign-in another still shows (for an
    /// expired session, or a gated link) — left up, it asks a signed-in
    /// user to sign in, and the links waiting on it wait for that.
    public func observeCommit(_ observer: @escaping () -> Void) {
        commitObservers.append(observer)
    }
}
