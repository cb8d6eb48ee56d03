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

    /// The other shapes in which `entry` carries the same link: a push
    /// payload's `url` (the scheme link, and the universal link), a Handoff
    /// activity's `webpage_url` (the universal link). None for a door that
    /// takes only a URL, or a URL not spelled with the app's scheme.
    ///
    /// Why: an https link that arrives in a notification or a Handoff reaches
    /// the app through the same door as one spelled as a route, and a parser
    /// that treats it differently (skips a gate, lands elsewhere) hid behind
    /// checks that only ever sent the route.
    public func otherShapes(for url: String, via entry: EntryPoint) -> [(change: String, input: EntryInput)] {
        let prefix = scheme + "://"
        guard url.count >= prefix.count, url.prefix(prefix.count).lowercased() == prefix else { return [] }
        let route = String(url.dropFirst(prefix.count))
        let universal = universalHost.map { "https://\($0)/" + route }
        switch entry {
        case .scheme, .widget, .universal:
            return []
        case .push:
            return [("as the payload's url", .payload(["url": url]))]
                + (universal.map { [("as the payload's url, a universal link", .payload(["url": $0]))] } ?? [])
        case .spotlight:
            return universal.map { [("as a Handoff's webpage_url", .activity(type: activityType, userInfo: ["webpage_url": $0]))] } ?? []
        }
    }
}
