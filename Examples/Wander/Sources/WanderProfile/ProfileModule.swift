import NavigationCore
import Observation

/// A profile screen as the profile stack's path holds it.
public enum ProfileRoute: String, Hashable, Codable, Sendable {
    case badges
}

/// A settings screen as the settings sheet's path holds it.
public enum SettingsRoute: String, Hashable, Codable, Sendable {
    case about
    case payment
}

/// The profile module: the profile tab, the settings sheet with a stack of
/// its own, and the sign-in sheet's screen. Signing in and out go through
/// the actions the app hands it.
public enum ProfileModule {
    public static let tab: TabID = "profile"

    public static var routes: [RouteDefinition] {
        [
            RouteDefinition("profile", tab: tab, flow: "profile", patterns: [RoutePattern("profile")]),
            RouteDefinition("badges", parent: "profile", flow: "profile", patterns: [RoutePattern("profile/badges")]),
            RouteDefinition("settings", parent: "profile", flow: "settings", presentation: .modal, patterns: [RoutePattern("settings")]),
            RouteDefinition("about", parent: "settings", flow: "settings", patterns: [RoutePattern("settings/about")]),
            RouteDefinition(
                "payment", parent: "settings", flow: "settings", preconditions: ["auth"],
                patterns: [RoutePattern("settings/payment")])
        ]
    }

    /// The outputs each of the module's screens may offer, as its views wire
    /// them (the sign-in sheet and the sign-out alert included).
    public static var screens: [ScreenDeclaration] {
        [
            ScreenDeclaration("profile", [.badges, .settings, "sign_out"]),
            ScreenDeclaration("badges", []),
            ScreenDeclaration("settings", [.about, "payment", .close]),
            ScreenDeclaration("about", [.close]),
            ScreenDeclaration("payment", [.close]),
            ScreenDeclaration("sign_in", ["submit", .close]),
            ScreenDeclaration("confirm_sign_out", ["sign_out", "cancel"])
        ]
    }
}

extension ScreenOutput {
    static let badges = ScreenOutput("badges", opens: "badges")
    static let settings = ScreenOutput("settings", opens: "settings")
    static let about = ScreenOutput("about", opens: "about")
}

/// The profile tab's coordinator.
@Observable
public final class ProfileCoordinator {
    public var path: [ProfileRoute] = []
    /// The settings sheet's own path.
    public var settingsPath: [SettingsRoute] = []

    public init() {}
}

/// What the profile module's views ask the app for.
public struct ProfileActions {
    public var openSettings: () -> Void
    public var closeSettings: () -> Void
    public var askToSignOut: () -> Void
    public var openPayment: () -> Void

    public init(
        openSettings: @escaping () -> Void, closeSettings: @escaping () -> Void, askToSignOut: @escaping () -> Void,
        openPayment: @escaping () -> Void
    ) {
        self.openSettings = openSettings
        self.closeSettings = closeSettings
        self.askToSignOut = askToSignOut
        self.openPayment = openPayment
    }
}

/// The sign-in sheet's view model: the sheet's state for as long as it is up.
public final class SignInModel {
    public var email = ""
    public init() {}
}

/// The module's destinations, as its views show them.
public enum ProfileDestinations {
    public static func register(on stack: PathStack) {
        stack.navigationDestination(for: ProfileRoute.self) { route in Screen(DestinationID(route.rawValue)) }
    }

    public static func root(coordinator: ProfileCoordinator, actions: ProfileActions) -> Screen {
        let screen = Screen("profile")
        screen.setOutput(.badges) { [weak coordinator] _ in coordinator?.path.append(.badges) }
        screen.setOutput(.settings) { _ in actions.openSettings() }
        screen.setOutput("sign_out") { _ in actions.askToSignOut() }
        return screen
    }

    /// The settings sheet's stack content: its root and its destinations.
    public static func registerSettings(on stack: PathStack, coordinator: ProfileCoordinator) {
        stack.navigationDestination(for: SettingsRoute.self) { route in
            let screen = Screen(DestinationID(route.rawValue))
            screen.setOutput(.close) { [weak coordinator] _ in coordinator?.settingsPath.removeLast() }
            return screen
        }
    }

    public static func settingsRoot(coordinator: ProfileCoordinator, actions: ProfileActions) -> Screen {
        let screen = Screen("settings")
        screen.setOutput(.about) { [weak coordinator] _ in coordinator?.settingsPath.append(.about) }
        screen.setOutput("payment") { _ in actions.openPayment() }
        screen.setOutput(.close) { _ in actions.closeSettings() }
        return screen
    }

    /// The sign-in sheet: submit or close.
    public static func signIn(model: SignInModel, submit: @escaping () -> Void, close: @escaping () -> Void) -> Screen {
        let screen = Screen("sign_in")
        screen.viewModel = model
        screen.setOutput("submit") { _ in submit() }
        screen.setOutput(.close) { _ in close() }
        return screen
    }

    /// The sign-out confirmation alert: its buttons.
    public static func confirmSignOut(signOut: @escaping () -> Void) -> Screen {
        let screen = Screen("confirm_sign_out")
        screen.setOutput("sign_out") { _ in signOut() }
        screen.setOutput("cancel") { _ in }
        return screen
    }
}
