/// What became of one delivered link, as data an app hands back to whoever
/// delivered it (a test, the scenario language's `deep_link`).
public struct LinkOutcome: Hashable, Sendable {
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

    /// Why a link was rejected. The raw values are what scenarios see
    /// (`deep_link(…).error`, `expect_error(…, kind)`) and are stable.
    public enum Rejection: String, Hashable, Sendable, CaseIterable {
        /// The input cannot be read as a link (``RouteError/malformed(input:reason:)``).
        case malformed
        /// No route matches it (``RouteError/unknownRoute(input:)``).
        case unknownRoute = "unknown_route"
        /// A parameter failed its validation (``RouteError/validationFailed(destination:parameter:value:reason:)``).
        case validationFailed = "validation_failed"
        /// A gate re-gated the request until the dispatcher's loop guard stopped it.
        case loopGuard = "loop_guard"

        public init(_ error: RouteError) {
            switch error {
            case .malformed: self = .malformed
            case .unknownRoute: self = .unknownRoute
            case .validationFailed: self = .validationFailed
            }
        }
    }

    public var status: Status
    public var destination: DestinationID?
    public var precondition: Precondition?
    public var error: Rejection?
    /// What went wrong, in words (a rejection's reason).
    public var message: String?

    public init(
        status: Status, destination: DestinationID? = nil, precondition: Precondition? = nil,
        error: Rejection? = nil, message: String? = nil
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
            self.init(status: .proceed, destination: target.leaf?.id)
        case .gated(let precondition, let resume):
            self.init(status: .gated, destination: resume.destination, precondition: precondition)
        case .queued(let request):
            self.init(status: .queued, destination: request.destination)
        case .rejected(let error):
            self.init(status: .error, error: Rejection(error), message: error.description)
        case .loopGuard(let request, let precondition):
            self.init(
                status: .error, destination: request.destination, precondition: precondition,
                error: .loopGuard, message: "\(request) gated by \(precondition) too many times")
        }
    }
}
