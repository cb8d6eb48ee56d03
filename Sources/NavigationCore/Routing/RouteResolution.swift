/// What the engine knows about the user's situation, built fresh for every
/// resolution pass so a gate re-evaluated after login sees the new session.
public struct RouteContext: Hashable, Sendable {
    public var satisfied: Set<Precondition>

    public init(satisfied: Set<Precondition> = []) { self.satisfied = satisfied }
}

/// The engine's verdict for input that has a destination. A gate is a
/// successful resolution with a prerequisite, carrying the intent to resume.
public enum RouteResolution: Hashable, Sendable, CustomStringConvertible {
    case proceed(Target)
    case gated(Precondition, resume: RouteRequest)

    public var description: String {
        switch self {
        case .proceed(let target): return "proceed \(target)"
        case .gated(let precondition, let resume): return "gated \(precondition) resume \(resume)"
        }
    }
}
