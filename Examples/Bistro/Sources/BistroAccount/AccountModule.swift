import NavigationCore

/// The account module: the account tab, the settings modal with its own
/// stack, the reusable sign-in flow and first-launch onboarding. Signing in
/// and out reach the session through closures the app hands it.
public enum AccountModule {
    public static let tab: TabID = "account"

    public static var routes: [RouteDefinition] {
        [
            RouteDefinition("account", tab: tab, flow: "account", patterns: [RoutePattern("account")]),
            RouteDefinition(
                "settings", parent: "account", flow: "settings", presentation: .modal,
                patterns: [RoutePattern("settings")]),
            RouteDefinition(
                "notifications", parent: "settings", flow: "settings",
                patterns: [RoutePattern("settings/notifications")]),
            RouteDefinition("privacy", parent: "settings", flow: "settings", patterns: [RoutePattern("settings/privacy")]),
            RouteDefinition(
                "addresses", parent: "settings", flow: "settings", preconditions: ["auth"],
                patterns: [RoutePattern("settings/addresses")]),
            RouteDefinition("sign_in", parent: "account", flow: "auth", presentation: .modal, patterns: [RoutePattern("sign-in")]),
            RouteDefinition("welcome", parent: "account", flow: "onboarding", presentation: .modal),
            RouteDefinition("location", parent: "welcome", flow: "onboarding")
        ]
    }

    /// The outputs each of the module's screens may offer, as its flows wire
    /// them (`sign_in` and `sign_out` of the account tab: one at a time).
    public static var screens: [ScreenDeclaration] {
        [
            ScreenDeclaration("account", [.settings, "sign_in", "sign_out"]),
            ScreenDeclaration("settings", [.close, .notifications, .privacy, .addresses]),
            ScreenDeclaration("notifications", [.close]), ScreenDeclaration("privacy", [.close]),
            ScreenDeclaration("addresses", [.close]),
            ScreenDeclaration("sign_in", [.close, "submit"]),
            ScreenDeclaration("welcome", ["continue", "sign_in"]),
            ScreenDeclaration("location", ["allow", "skip"])
        ]
    }
}

/// The account module's outputs whose tap alone decides where it lands: a
/// tap must show that destination (explore checks it).
extension ScreenOutput {
    static let settings = ScreenOutput("settings", opens: "settings")
    static let notifications = ScreenOutput("notifications", opens: "notifications")
    static let privacy = ScreenOutput("privacy", opens: "privacy")
    static let addresses = ScreenOutput("addresses", opens: "addresses")
}

/// What the account module needs from the app: the session, and a way to
/// send intents that need the engine's policy.
public struct AccountServices {
    public var isSignedIn: () -> Bool
    /// Stores a new session (the keychain write).
    public var commitSession: () -> Void
    public var signOut: () -> Void
    public var send: (RouteRequest) -> Void
    /// Bug switch: the sign-in flow reports success before the session is stored.
    public var signalsBeforeCommit = false
    /// Bug switch: the settings flow ignores the swipe-down it is told about.
    public var settingsIgnoresSwipe = false
    /// Runs work later on the app's main queue (the keychain write).
    public var later: (@escaping () -> Void) -> Void
    /// The app's `auth` gate: a sign-in the module presents is the one gated
    /// links wait for (nil: the module presents its own).
    public var gates: () -> GateSatisfier? = { nil }

    public init(
        isSignedIn: @escaping () -> Bool, commitSession: @escaping () -> Void, signOut: @escaping () -> Void,
        send: @escaping (RouteRequest) -> Void, later: @escaping (@escaping () -> Void) -> Void
    ) {
        self.isSignedIn = isSignedIn
        self.commitSession = commitSession
        self.signOut = signOut
        self.send = send
        self.later = later
    }
}

/// The account tab. Its own sign-in button presents the reusable sign-in
/// flow as this flow's child.
public final class AccountFlow: TabFlow {
    let services: AccountServices

    public init(navigation: SimulatedNavigation, services: AccountServices) {
        self.services = services
        super.init(name: "account", tab: AccountModule.tab, root: "account", navigation: navigation)
    }

    public override func makeOwnScreen(_ step: RouteStep) -> Screen? {
        guard step.id == "account" else { return nil }
        let screen = Screen(step.id, params: step.params)
        navigation.tracker.track(screen, label: screen.label, kind: .screen)
        screen.setOutput(.settings) { [weak self] _ in self?.services.send(RouteRequest("settings")) }
        SignInFlow.wireOutput(of: screen, from: self, navigation: navigation, services: services)
        screen.setOutput("sign_out") { [weak self] _ in self?.services.signOut() }
        return screen
    }
}

/// Settings, a modal with its own stack. Addresses need sign-in, so they are
/// asked of the app rather than pushed.
public final class SettingsFlow: ModalFlow {
    let services: AccountServices

    public init(navigation: SimulatedNavigation, services: AccountServices) {
        self.services = services
        super.init(name: "settings", navigation: navigation)
    }

    public override func makeScreen(_ step: RouteStep) -> Screen {
        let screen = Screen(step.id, params: step.params)
        navigation.tracker.track(screen, label: screen.label, kind: .screen)
        wireClose(screen)
        if step.id == "settings" {
            screen.setOutput(.notifications) { [weak self] _ in self?.push(RouteStep("notifications")) }
            screen.setOutput(.privacy) { [weak self] _ in self?.push(RouteStep("privacy")) }
            screen.setOutput(.addresses) { [weak self] _ in self?.services.send(RouteRequest("addresses")) }
        }
        return screen
    }

    public override func modalDidDismissInteractively(_ stack: NavigationStack) {
        // The bug: the swipe-down is heard and ignored, so the flow outlives its modal.
        if services.settingsIgnoresSwipe { return }
        super.modalDidDismissInteractively(stack)
    }
}

/// The reusable sign-in flow: authenticate, report completed or cancelled.
/// It never learns what the user was trying to reach. The session is stored
/// *before* it reports success, so a resumed gate sees a signed-in user.
public final class SignInFlow: ModalFlow {
    let services: AccountServices

    public init(navigation: SimulatedNavigation, services: AccountServices) {
        self.services = services
        super.init(name: "auth", navigation: navigation)
    }

    /// Presents the flow as `parent`'s child and reports its result once its
    /// modal is gone — as the app's `auth` gate flow, so gated links arriving
    /// meanwhile wait for it; nothing when a sign-in is already up.
    public static func run(
        from parent: FlowCoordinator, navigation nav: SimulatedNavigation, services: AccountServices,
        completion: @escaping (FlowResult) -> Void
    ) {
        guard let gates = services.gates() else {
            return present(from: parent, navigation: nav, services: services, completion: completion)
        }
        if gates.isSatisfying("auth") { return }
        gates.satisfy(
            "auth",
            start: { done in
                present(from: parent, navigation: nav, services: services) { result in
                    completion(result)
                    done(result == .completed)
                }
            }, completion: { _ in })
    }

    /// Wires a screen's `sign_in` output: starts the flow from `parent`
    /// unless the user is signed in already.
    static func wireOutput(
        of screen: Screen, from parent: FlowCoordinator, navigation: SimulatedNavigation,
        services: AccountServices
    ) {
        screen.setOutput("sign_in") { [weak parent, weak navigation] _ in
            guard let parent, let navigation, !services.isSignedIn() else { return }
            run(from: parent, navigation: navigation, services: services) { _ in }
        }
    }

    private static func present(
        from parent: FlowCoordinator, navigation nav: SimulatedNavigation,
        services: AccountServices, completion: @escaping (FlowResult) -> Void
    ) {
        let flow = SignInFlow(navigation: nav, services: services)
        flow.onFinish = { [weak parent, weak flow] result in
            guard let flow else { return }
            parent?.removeChild(flow)
            nav.dismiss(flow.stack) { completion(result) }
        }
        parent.startChild(flow)
        flow.materialize([RouteStep("sign_in")])
        flow.present(animated: true) { [weak flow] shown in if !shown { flow?.finish(.cancelled) } }
    }

    public override func makeScreen(_ step: RouteStep) -> Screen {
        let screen = Screen(step.id, params: step.params)
        navigation.tracker.track(screen, label: screen.label, kind: .screen)
        wireClose(screen)
        screen.setOutput("submit") { [weak self] _ in self?.submit() }
        return screen
    }

    private func submit() {
        if services.signalsBeforeCommit {
            // The bug: success first, the keychain write lands later.
            finish(.completed)
            services.later(services.commitSession)
        } else {
            services.commitSession()
            finish(.completed)
        }
    }
}

/// First-launch onboarding: welcome (with its own sign-in), then the
/// location permission. It replaces the main UI until it completes.
public final class OnboardingFlow: ModalFlow {
    let services: AccountServices

    public init(navigation: SimulatedNavigation, services: AccountServices) {
        self.services = services
        super.init(name: "onboarding", navigation: navigation)
    }

    public override func makeScreen(_ step: RouteStep) -> Screen {
        let screen = Screen(step.id, params: step.params)
        navigation.tracker.track(screen, label: screen.label, kind: .screen)
        if step.id == "welcome" {
            screen.setOutput("continue") { [weak self] _ in self?.push(RouteStep("location")) }
            SignInFlow.wireOutput(of: screen, from: self, navigation: navigation, services: services)
        } else {
            screen.setOutput("allow") { [weak self] _ in self?.finish(.completed) }
            screen.setOutput("skip") { [weak self] _ in self?.finish(.completed) }
        }
        return screen
    }
}
