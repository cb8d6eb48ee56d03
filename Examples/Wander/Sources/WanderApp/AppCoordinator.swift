import NavigationCore
import Observation
import WanderPlaces
import WanderProfile
import WanderTrips

/// The tab bar's selection.
public enum AppTab: String, Hashable, Codable, Sendable {
    case places
    case trips
    case profile
}

/// The app's one sheet at a time.
public enum AppSheet: String, Hashable, Sendable, Identifiable {
    case settings
    case signIn = "sign_in"
    public var id: String { rawValue }
}

/// The app's alerts.
public enum AppAlert: String, Hashable, Sendable, Identifiable {
    case confirmSignOut = "confirm_sign_out"
    public var id: String { rawValue }
}

/// The application layer's coordinator: the tab selection, the sheet and
/// the alert the window binds, the feature coordinators, and the root of
/// link execution — targets from the engine become one write per bound
/// value — and of the `auth` gate, satisfied by the sign-in sheet.
@Observable
public final class AppCoordinator: RootCoordinating {
    public var tab: AppTab = .places
    public var sheet: AppSheet?
    /// Only used with the second-sheet-modifier bug: sign-in's own item.
    public var signInSheet: AppSheet?
    public var alert: AppAlert?

    @ObservationIgnored public let places = PlacesCoordinator()
    @ObservationIgnored public let trips = TripsCoordinator()
    @ObservationIgnored public let profile = ProfileCoordinator()
    /// The sign-in sheet's model while sign-in runs.
    @ObservationIgnored public private(set) var signIn: SignInModel?
    @ObservationIgnored private var pendingSignIn: ((Bool) -> Void)?
    @ObservationIgnored let session: SessionStore
    @ObservationIgnored let gates: GateSatisfier
    @ObservationIgnored let faults: Set<WanderFault>
    @ObservationIgnored let log: EventLog
    /// Runs work once the window has shown what this turn wrote (the next
    /// turn of the run loop, after any presentation transition).
    @ObservationIgnored let whenShown: (@escaping () -> Void) -> Void

    init(
        session: SessionStore, gates: GateSatisfier, faults: Set<WanderFault>, log: EventLog,
        whenShown: @escaping (@escaping () -> Void) -> Void
    ) {
        self.log = log
        self.whenShown = whenShown
        self.session = session
        self.gates = gates
        self.faults = faults
        places.evictsOnlyOnOwnBack = faults.contains(.modelCacheNeverEvicted)
        places.resetsInTwoWrites = faults.contains(.linkTwoWrites)
        trips.freshIdentities = faults.contains(.routeFreshIdentity)
    }

    // MARK: - Links

    /// Executes a target as one write per bound value. The dispatcher's
    /// next request waits until the window has shown this one: two links
    /// resumed together would otherwise write the same path twice in one
    /// frame, and a sheet asked for mid-dismissal would have to wait.
    public func execute(_ target: Target, source: RouteSource, completion: @escaping () -> Void) {
        defer { whenShown(completion) }
        if let leaf = target.leaf { log.record(.execute(leaf, source)) }
        guard let tab = AppTab(rawValue: target.tab.rawValue) else { return }
        let run = Array(target.baseRun.dropFirst())
        switch tab {
        case .places: places.reset(to: run.compactMap(PlacesModule.pathValue(for:)))
        case .trips: trips.reset(to: run)
        case .profile: profile.path = run.compactMap { ProfileRoute(rawValue: $0.id.rawValue) }
        }
        if let modal = target.modals.first, modal.first?.id == "settings" {
            profile.settingsPath = modal.dropFirst().compactMap { SettingsRoute(rawValue: $0.id.rawValue) }
            if sheet != .settings { sheet = .settings }
        } else if sheet != nil {
            sheet = nil
        }
        if alert != nil { alert = nil }
        if self.tab != tab { self.tab = tab }
    }

    // MARK: - The auth gate

    public func satisfy(_ precondition: Precondition, completion: @escaping (Bool) -> Void) {
        guard precondition == "auth" else { return completion(false) }
        guard !session.isLoggedIn else { return completion(true) }
        gates.satisfy("auth", start: { [weak self] done in self?.startSignIn(done) }, completion: completion)
    }

    private func startSignIn(_ done: @escaping (Bool) -> Void) {
        pendingSignIn = done
        signIn = SignInModel()
        // One presentation at a time: a confirmation on screen gives way.
        if alert != nil { alert = nil }
        if faults.contains(.secondSheetModifier) {
            signInSheet = .signIn
        } else {
            sheet = .signIn
        }
    }

    /// The sheet's submit button: the session is stored, then the sheet goes;
    /// the gated link resumes once it has gone (``signInDismissed()``).
    public func signInSubmitted() {
        session.commit(token: "token")
        if faults.contains(.resumeBeforeDismiss) {
            // The bug: resume first, then close "the sheet" — whatever the resumed link put there.
            signInDismissed()
            sheet = nil
            return
        }
        closeSignIn()
        if faults.contains(.onDismissNotClearing) { signInDismissed() }
    }

    /// The sheet's close button.
    public func signInClosed() {
        closeSignIn()
        if faults.contains(.onDismissNotClearing) { signInDismissed() }
    }

    private func closeSignIn() {
        if faults.contains(.secondSheetModifier) { signInSheet = nil } else if sheet == .signIn { sheet = nil }
    }

    /// The sheet's `onDismiss`: when sign-in is no longer asked for (a
    /// button, a swipe, a link replaced it), sign-in has ended. A settings
    /// sheet replaced by sign-in is dismissed too; sign-in goes on then.
    public func sheetDismissed() {
        guard signIn != nil, sheet != .signIn, signInSheet == nil else { return }
        signInDismissed()
    }

    /// Sign-in has ended: its model goes and the gate hears the session.
    public func signInDismissed() {
        let done = pendingSignIn
        pendingSignIn = nil
        signIn = nil
        done?(session.isLoggedIn)
    }

    // MARK: - Signing out

    public func askToSignOut() { alert = .confirmSignOut }

    /// Every module starts afresh on its root, on the places tab, with nothing presented — also
    /// when the sign-out comes from elsewhere (an expiry, another device) while an alert is up.
    public func signOut() {
        session.clear()
        places.path = []
        trips.path = []
        profile.path = []
        profile.settingsPath = []
        if sheet != nil { sheet = nil }
        if alert != nil && !faults.contains(.signOutKeepsAlert) { alert = nil }
        if tab != .places { tab = .places }
    }

    /// The live coordinators, parents first.
    public var coordinatorPaths: [String] {
        ["app", "app/places", "app/trips", "app/profile"] + (signIn == nil ? [] : ["app/sign_in"])
    }
}
