/// Issues session tokens. A token that has been issued but not yet
/// committed to the session is "in flight": an auth flow that starts while
/// one is in flight completes silently with it (resuming a sign-in), which
/// is harmless when the session is committed before the flow signals
/// success — and an endless loop when it is not.
final class AuthService {
    private var issued = 0
    private(set) var inFlightToken: String?

    func signIn() -> String {
        issued += 1
        let token = "token-\(issued)"
        inFlightToken = token
        return token
    }

    func didCommit(_ token: String) {
        if inFlightToken == token { inFlightToken = nil }
    }

    func forget() {
        inFlightToken = nil
    }
}
