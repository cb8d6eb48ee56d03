import NavigationCore

/// The profile tab. Its own sign-in button presents the reusable auth flow
/// as this coordinator's child; settings and the edit sheet are modal
/// flows the root presents through the router.
final class ProfileCoordinator: ShopTabFlow {
    init(env: ShopEnvironment) {
        super.init(name: "profile", tab: "profile", root: "profile", env: env)
    }

    override func makeOwnScreen(_ step: RouteStep) -> Screen? {
        guard step.id == "profile" else { return nil }
        let screen = env.makeScreen(step, owner: self)
        screen.setOutput(.settings) { [weak self] _ in self?.env.sink(RouteRequest("settings")) }
        screen.setOutput(.profileEdit) { [weak self] _ in self?.env.sink(RouteRequest("profile_edit")) }
        screen.setOutput(.signIn) { [weak self] _ in self?.signIn() }
        return screen
    }

    private func signIn() {
        guard !env.session.isLoggedIn else { return }
        AuthCoordinator.run(from: self, env: env) { _ in }
    }
}
