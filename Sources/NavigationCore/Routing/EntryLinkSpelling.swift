/// Spells one intent — a link written with the app's own scheme
/// (`myapp://item/7`) — the way each entry point would deliver it: the
/// universal link on the manifest's first universal host, a push payload
/// carrying the route, a user activity carrying it as its identifier, the
/// widget's tap URL.
///
/// The inverse of ``EntryPointAdapter``, derived from the same manifest, so
/// entry-point consistency checks (the same link through every door gives
/// the same outcome) work for any app without a hard-coded scheme or host.
public struct EntryLinkSpelling: Sendable {
    public let scheme: String
    public let universalHost: String?
    /// The activity type user activities carry; the adapter reads only
    /// their identifier or web page URL.
    public let activityType: String

    public init(scheme: String, universalHosts: [String], activityType: String? = nil) {
        self.scheme = scheme.lowercased()
        self.universalHost = universalHosts.first?.lowercased()
        self.activityType = activityType ?? "\(scheme.lowercased()).link"
    }

    public init(manifest: RouteManifest) {
        self.init(scheme: manifest.scheme, universalHosts: manifest.universalHosts)
    }

    /// How `entry` delivers `url`. A URL that is not spelled with the app's
    /// scheme is passed through unchanged (it is that door's problem to
    /// reject it), as is a universal link for an app without universal hosts.
    public func input(for url: String, via entry: EntryPoint) -> EntryInput {
        let prefix = scheme + "://"
        guard url.count >= prefix.count, url.prefix(prefix.count).lowercased() == prefix else { return .url(url) }
        let route = String(url.dropFirst(prefix.count))
        switch entry {
        case .scheme, .widget:
            return .url(url)
        case .universal:
            guard let universalHost else { return .url(url) }
            return .url("https://\(universalHost)/" + route)
        case .push:
            return .payload(["route": route])
        case .spotlight:
            return .activity(type: activityType, userInfo: ["identifier": route])
        }
    }
}
