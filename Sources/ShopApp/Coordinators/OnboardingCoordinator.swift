import NavigationCore

/// The onboarding experiment a first launch is enrolled in.
public enum OnboardingExperiment: String, CaseIterable, Hashable, Sendable, Codable {
    /// welcome → value_prop_video → sign_up → notifications_permission
    case videoFirst = "video_first"
    /// welcome → sign_up → profile_setup → notifications_permission
    case signUpFirst = "sign_up_first"
    /// welcome → notifications_permission
    case minimal

    /// The screens after `welcome`, in order.
    var steps: [DestinationID] {
        switch self {
        case .videoFirst: return ["value_prop_video", "sign_up", "notifications_permission"]
        case .signUpFirst: return ["sign_up", "profile_setup", "notifications_permission"]
        case .minimal: return ["notifications_permission"]
        }
    }
}

/// First-launch onboarding, presented full screen over the main flow and
/// branching by experiment. Signing up commits a session; "sign in" on the
/// welcome screen presents the reusable auth flow as this flow's child.
final class OnboardingCoordinator: ShopModalFlow {
    init(env: ShopEnvironment) {
        super.init(name: "onboarding", env: env)
    }

    override func makeScreen(_ step: RouteStep) -> Screen {
        let screen = super.makeScreen(step)
        let sequence = env.experiment.steps
        if step.id == "notifications_permission" {
            screen.setOutput("done") { [weak self] _ in self?.finish(.completed) }
            return screen
        }
        let next =
            step.id == "welcome"
            ? sequence.first
            : sequence.firstIndex(of: step.id).flatMap {
                sequence.indices.contains($0 + 1) ? sequence[$0 + 1] : nil
            }
        screen.setOutput("continue") { [weak self] _ in
            guard let self else { return }
            if step.id == "sign_up" && !self.env.session.isLoggedIn {
                let token = self.env.auth.signIn()
                self.env.session.commit(token: token)
                self.env.auth.didCommit(token)
            }
            if let next { self.push(RouteStep(next)) } else { self.finish(.completed) }
        }
        if step.id == "welcome" {
            screen.setOutput(.signIn) { [weak self] _ in
                guard let self, !self.env.session.isLoggedIn else { return }
                AuthCoordinator.run(from: self, env: self.env) { _ in }
            }
        }
        if step.id == "value_prop_video" {
            screen.setOutput("skip") { [weak self] _ in self?.push(RouteStep("notifications_permission")) }
        }
        return screen
    }
}
