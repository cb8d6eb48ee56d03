/// Why the engine could not produce a destination. Only genuine failures
/// live here: a route that needs a login first is a successful resolution
/// (``RouteResolution/gated(_:resume:)``), not an error.
public enum RouteError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The input cannot be read as a link at all (bad scheme, bad encoding, too long).
    case malformed(input: String, reason: String)
    /// The input is a well-formed link that no route of the manifest matches.
    case unknownRoute(input: String)
    /// A route matched but a parameter failed its declared validation.
    case validationFailed(destination: DestinationID, parameter: String, value: String, reason: String)

    /// The stable kind name scripts match on: `malformed`, `unknown_route`, `validation_failed`.
    public var kind: String {
        switch self {
        case .malformed: return "malformed"
        case .unknownRoute: return "unknown_route"
        case .validationFailed: return "validation_failed"
        }
    }

    public var description: String {
        switch self {
        case .malformed(let input, let reason):
            return "malformed: \(Self.clip(input)): \(reason)"
        case .unknownRoute(let input):
            return "unknown_route: no route matches \(Self.clip(input))"
        case .validationFailed(let destination, let parameter, let value, let reason):
            return "validation_failed: \(destination).\(parameter) = \(Self.clip(value)): \(reason)"
        }
    }

    /// Keeps hostile inputs from flooding logs and reports.
    static func clip(_ text: String) -> String {
        text.count > 80 ? String(text.prefix(77)) + "..." : text
    }
}
