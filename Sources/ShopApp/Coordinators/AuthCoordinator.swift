import Dispatch
import NavigationCore

/// The reusable sign-in flow: login, then two-factor when the account has
/// it. Its whole contract is "authenticate, report completed or
/// cancelled" — it never learns what the user was trying to reach, which
/// is what lets the root, the profile tab and onboarding all present it.
///
/// Order is load-bearing: the session is committed *before* the flow
/// reports success, so whoever resumes a gate reads a logged-in context.
final class AuthCoordinator: ShopModalFlow {
    init(env: ShopEnvironment) {
        super.init(name: "auth", env: env)
    }

    /// Starts the flow as `parent`'s child, presents it unless it completed
    /// at once, and reports the result after its modal is gone. The flow is
    /// registered as the `auth` gate's, so a gated request arriving while
    /// it is up waits for it instead of presenting a second sign-in; when a
    /// sign-in is already up, nothing more is presented.
    static func run(from parent: FlowCoordinator, env: ShopEnvironment, completion: @escaping (FlowResult) -> Void) {
        guard let gates = env.gates, !env.has(.duplicateSignIn) else {
            return present(from: parent, env: env, completion: completion)
        }
        if gates.isSatisfying("auth") { return }
        gates.satisfy(
            "auth",
            start: { done in
                present(from: parent, env: env) { result in
                    completion(result)
                    done(result == .completed)
                }
            }, completion: { _ in })
    }

    private static func present(from parent: FlowCoordinator, env: ShopEnvironment, completion: @escaping (FlowResult) -> Void) {
        let auth = AuthCoordinator(env: env)
        auth.onFinish = { [weak parent, weak auth] result in
            guard let auth else { return }
            parent?.removeChild(auth)
            env.navigation.dismiss(auth.stack) { completion(result) }
        }
        parent.startChild(auth)
        guard !auth.isFinished else { return }
        auth.materialize([RouteStep("login")])
        auth.present(animated: true) { [weak auth] presented in
            if !presented { auth?.finish(.cancelled) }
        }
    }

    override func start() {
        super.start()
        // A sign-in already in flight (token issued, session not yet
        // committed) is resumed instead of asking again.
        if let token = env.auth.inFlightToken { complete(with: token) }
    }

    override func makeScreen(_ step: RouteStep) -> Screen {
        let screen = super.makeScreen(step)
        wireClose(screen)
        switch step.id {
        case "login":
            screen.setOutput("submit") { [weak self] _ in
                guard let self else { return }
                if self.env.account.twoFactorEnabled {
                    self.push(RouteStep("two_factor"))
                } else {
                    self.complete(with: self.env.auth.signIn())
                }
            }
        case "two_factor":
            screen.setOutput("submit") { [weak self] _ in
                guard let self else { return }
                if self.env.has(.mainThreadDeadlock) {
                    // The bug: block the main thread until a commit that is
                    // scheduled on the main thread signals. It never can.
                    let token = self.env.auth.signIn()
                    let committed = DispatchSemaphore(value: 0)
                    self.env.scheduler.schedule("commit session") { [env = self.env] in
                        env.session.commit(token: token)
                        committed.signal()
                    }
                    committed.wait()
                }
                self.complete(with: self.env.auth.signIn())
            }
        default:
            break
        }
        return screen
    }

    private func complete(with token: String) {
        if env.has(.commitAfterFinish) {
            // The bug: success is signalled first and the session is
            // persisted when the (asynchronous) keychain write lands.
            finish(.completed)
            env.scheduler.schedule(after: 500, "commit session") { [env] in
                env.session.commit(token: token)
                env.auth.didCommit(token)
            }
        } else {
            env.session.commit(token: token)
            env.auth.didCommit(token)
            finish(.completed)
        }
    }
}
