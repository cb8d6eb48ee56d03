/// One URL shape that leads to a destination, written as a template:
/// `product/:id`, `orders/:id/track`, `deeplink?product=:id`. Aliases are
/// simply more patterns on the same destination; `entries` restricts a
/// pattern to some entry points (`products/:id` for universal links only).
public struct RoutePattern: Hashable, Sendable, Codable, CustomStringConvertible {
    public enum Segment: Hashable, Sendable {
        case literal(String)
        case param(String)
    }

    public let template: String
    /// The entry points this pattern is valid for; nil means all of them.
    public let entries: Set<EntryPoint>?
    public let path: [Segment]
    /// Required query items, in template order.
    public let query: [(key: String, value: Segment)]

    public init(_ template: String, entries: Set<EntryPoint>? = nil) {
        self.template = template
        self.entries = entries
        let parts = template.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        path = parts[0].split(separator: "/").map { Self.segment(Substring($0)) }
        if parts.count > 1 {
            query = parts[1].split(separator: "&").map { item in
                let kv = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return (String(kv[0]).lowercased(), kv.count > 1 ? Self.segment(kv[1]) : .literal(""))
            }
        } else {
            query = []
        }
    }

    private static func segment(_ text: Substring) -> Segment {
        text.hasPrefix(":") ? .param(String(text.dropFirst())) : .literal(String(text).lowercased())
    }

    /// Parameter names the template captures.
    public var parameterNames: [String] {
        (path + query.map(\.value)).compactMap { if case .param(let n) = $0 { n } else { nil } }
    }

    /// The template with parameter names erased: two patterns with the same
    /// shape would match the same links, which the manifest rejects.
    var shape: String {
        let p = path.map { if case .literal(let l) = $0 { l } else { ":" } }.joined(separator: "/")
        let q = query.map { "\($0.key)=" + { if case .literal(let l) = $0 { l } else { ":" } }($0.value) }
            .sorted().joined(separator: "&")
        return q.isEmpty ? p : p + "?" + q
    }

    public func applies(to entry: EntryPoint) -> Bool { entries?.contains(entry) ?? true }

    /// Captured parameters when `link` has this shape, nil otherwise.
    public func match(_ link: RouteLink) -> [String: String]? {
        guard applies(to: link.entry), link.path.count == path.count else { return nil }
        // Literals first: most patterns tried fail on one, before any
        // dictionary of captures is built.
        for (segment, component) in zip(path, link.path) {
            if case .literal(let literal) = segment, !Self.matches(literal, component) { return nil }
        }
        for (key, segment) in query {
            guard let value = link.query[key] else { return nil }
            if case .literal(let literal) = segment, !Self.matches(literal, value) { return nil }
        }
        var captured: [String: String] = [:]
        for (segment, component) in zip(path, link.path) {
            if case .param(let name) = segment { captured[name] = component }
        }
        for (key, segment) in query {
            if case .param(let name) = segment { captured[name] = link.query[key] }
        }
        return captured
    }

    /// Whether `text` is the (lowercase) `literal` ignoring case, without
    /// lowercasing a copy when both are ASCII (most links).
    static func matches(_ literal: String, _ text: String) -> Bool {
        var literalBytes = literal.utf8.makeIterator()
        for byte in text.utf8 {
            guard byte < 0x80 else { return literal == text.lowercased() }
            let lowered = byte >= 65 && byte <= 90 ? byte + 32 : byte
            guard literalBytes.next() == lowered else { return false }
        }
        return literalBytes.next() == nil
    }

    public var description: String {
        entries.map { "\(template) [\($0.map(\.rawValue).sorted().joined(separator: ","))]" } ?? template
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.template == rhs.template && lhs.entries == rhs.entries
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(template)
        hasher.combine(entries)
    }

    enum CodingKeys: String, CodingKey { case path, entries }

    /// Decodes either a bare template string (all entry points) or
    /// `{"path": "...", "entries": ["universal"]}`.
    public init(from decoder: Decoder) throws {
        if let template = try? decoder.singleValueContainer().decode(String.self) {
            self.init(template)
            return
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let entries = try c.decodeIfPresent([EntryPoint].self, forKey: .entries)
        self.init(try c.decode(String.self, forKey: .path), entries: entries.map(Set.init))
    }

    public func encode(to encoder: Encoder) throws {
        if let entries {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(template, forKey: .path)
            try c.encode(entries.map(\.rawValue).sorted(), forKey: .entries)
        } else {
            var c = encoder.singleValueContainer()
            try c.encode(template)
        }
    }
}
