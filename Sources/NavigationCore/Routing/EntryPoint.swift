/// The doors external input comes through. Each door has its own delivery
/// shape but all of them feed the same engine, which is what keeps their
/// behaviour consistent.
public enum EntryPoint: String, CaseIterable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// A custom-scheme URL (`myapp://item/7`).
    case scheme
    /// A universal link (`https://myapp.example.com/item/7`).
    case universal
    /// A push-notification payload carrying a route.
    case push
    /// A Spotlight result or Handoff user activity.
    case spotlight
    /// A home-screen widget's tap URL.
    case widget

    public var description: String { rawValue }
}

/// Untrusted input exactly as an entry point receives it, before any parsing.
public enum EntryInput: Hashable, Sendable, CustomStringConvertible {
    /// A URL string (scheme links, universal links, widget URLs).
    case url(String)
    /// A push payload: string keys and values, e.g. `["route": "product/p1004"]`.
    case payload([String: String])
    /// A user activity: its type and user info, e.g. a `webpage_url` or an `identifier`.
    case activity(type: String, userInfo: [String: String])

    public var description: String {
        switch self {
        case .url(let url): return url
        case .payload(let payload): return "{" + Self.render(payload) + "}"
        case .activity(let type, let info): return "activity \(type) {" + Self.render(info) + "}"
        }
    }

    private static func render(_ dictionary: [String: String]) -> String {
        dictionary.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
    }
}
