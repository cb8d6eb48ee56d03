/// What became of one delivered link, as data an app hands back to whoever
/// delivered it (a test, the scenario language's `deep_link`).
public struct LinkOutcome: Hashable, Sendable, CustomStringConvertible {
    /// What happened to the link. The raw values are what scenarios see
    /// (`deep_link(…).status`) and are stable.
    public enum Status: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        /// Resolved; the app navigated to the destination.
        case proceed
        /// A precondition must be satisfied first; the intent waits.
        case gated
        /// Rejected (see ``LinkOutcome/error``).
        case error
        /// Another link is still executing; this one runs after it.
        case queued
        /// Cold start: held until the root is ready.
        case stashed

        public var description: String { rawValue }
    }

    public var status: Status
    public var destination: String?
    public var precondition: String?
    /// The error kind: `malformed`, `unknown_route`, `validation_failed`, `loop_guard`.
    public var error: String?
    public var message: String?

    public init(
        status: Status, destination: String? = nil, precondition: String? = nil,
        error: String? = nil, message: String? = nil
    ) {
        self.status = status
        self.destination = destination
        self.precondition = precondition
        self.error = error
        self.message = message
    }

    public init(_ outcome: RouteDispatcher.Outcome) {
        switch outcome {
        case .proceed(let target):
            self.init(status: .proceed, destination: target.leaf?.id.rawValue)
        case .gated(let precondition, let resume):
            self.init(status: .gated, destination: resume.destination.rawValue, precondition: precondition.rawValue)
        case .queued(let request):
            self.init(status: .queued, destination: request.destination.rawValue)
        case .rejected(let error):
            self.init(status: .error, error: error.kind, message: error.description)
        case .loopGuard(let request, let precondition):
            self.init(
                status: .error, destination: request.destination.rawValue, precondition: precondition.rawValue,
                error: "loop_guard", message: "\(request) gated by \(precondition) too many times")
        }
    }

    /// `{ status=gated, destination=cart, precondition=auth }`
    public var description: String {
        var parts = ["status=\(status)"]
        if let destination { parts.append("destination=\(destination)") }
        if let precondition { parts.append("precondition=\(precondition)") }
        if let error { parts.append("error=\(error)") }
        return "{ " + parts.joined(separator: ", ") + " }"
    }
}
