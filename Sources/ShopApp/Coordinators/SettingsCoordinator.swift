import NavigationCore

/// Settings: a modal over the profile tab with its own stack. Security
/// needs auth, so it is asked of the router rather than pushed directly.
final class SettingsCoordinator: ShopModalFlow {
    init(env: ShopEnvironment) {
        super.init(name: "settings", env: env)
    }

    override func makeScreen(_ step: RouteStep) -> Screen {
        let screen = super.makeScreen(step)
        wireClose(screen)
        if step.id == "settings" {
            screen.setOutput(.settingsNotifications) { [weak self] _ in
                self?.push(RouteStep("settings_notifications"))
            }
            screen.setOutput(.settingsSecurity) { [weak self] _ in
                self?.env.sink(RouteRequest("settings_security"))
            }
        }
        return screen
    }
}

/// The profile edit sheet (auth).
final class ProfileEditCoordinator: ShopModalFlow {
    init(env: ShopEnvironment) {
        super.init(name: "profile_edit", env: env)
    }

    override func makeScreen(_ step: RouteStep) -> Screen {
        let screen = super.makeScreen(step)
        wireClose(screen)
        screen.setOutput("done") { [weak self] _ in self?.finish(.completed) }
        return screen
    }
}
