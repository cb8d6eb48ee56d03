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
    /// ``entries`` as one bit per door (all bits when nil): a link's door is
    /// checked against every pattern tried, and hashing it into the set
    /// cost more than the rest of the check.
    let entryBits: UInt8

    public init(_ template: String, entries: Set<EntryPoint>? = nil) {
        self.template = template
        self.entries = entries
        entryBits = entries.map { $0.reduce(0) { $0 | Self.bit($1) } } ?? .max
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

    /// The template with each `:name` placeholder that `values` has replaced
    /// by its value, as written otherwise (`product/:id` with `id = p1`:
    /// `product/p1`); a placeholder runs to the first character that cannot
    /// be in a name, so `:id` is never found inside `:idx`.
    public func filled(with values: [String: String]) -> String {
        var result = ""
        var rest = Substring(template)
        while let colon = rest.firstIndex(of: ":") {
            result += rest[..<colon]
            let name = rest[rest.index(after: colon)...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            result += name.isEmpty ? ":" : values[String(name)] ?? ":" + name  // a bare `:` is text
            rest = rest[name.endIndex...]
        }
        return result + rest
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

    public func applies(to entry: EntryPoint) -> Bool { entryBits & Self.bit(entry) != 0 }

    private static func bit(_ entry: EntryPoint) -> UInt8 {
        switch entry {
        case .scheme: 1
        case .universal: 2
        case .push: 4
        case .spotlight: 8
        case .widget: 16
        }
    }

    /// Captured parameters when `link` has this shape, nil otherwise.
    public func match(_ link: RouteLink) -> RouteParams? {
        Self.match(link, path: path, query: query, entryBits: entryBits)
    }

    /// ``match(_:)`` on a pattern's parts: the engine keeps them apart
    /// from the pattern, since reaching them through a stored pattern
    /// copied (retained and released) all of its fields.
    static func match(
        _ link: RouteLink, path: [Segment], query: [(key: String, value: Segment)],
        entryBits: UInt8
    ) -> RouteParams? {
        guard entryBits & bit(link.entry) != 0, link.path.count == path.count else { return nil }
        // Literals first: most patterns tried fail on one, before any
        // capture is kept. By index, and the query only when there is one:
        // iterators over the two arrays retained and released them for
        // every pattern tried.
        let components = link.path
        for index in path.indices {
            if case .literal(let literal) = path[index], !matches(literal, components[index]) { return nil }
        }
        if !query.isEmpty {
            for (key, segment) in query {
                guard let value = link.query[key] else { return nil }
                if case .literal(let literal) = segment, !matches(literal, value) { return nil }
            }
        }
        var captured = RouteParams()
        for index in path.indices {
            if case .param(let name) = path[index] { captured[name] = components[index] }
        }
        if !query.isEmpty {
            for (key, segment) in query {
                if case .param(let name) = segment, let value = link.query[key] { captured[name] = value }
            }
        }
        return captured
    }

    /// Whether `text` is the (lowercase) `literal` ignoring case, without
    /// lowercasing a copy when `text` is ASCII (every real link).
    static func matches(_ literal: String, _ text: String) -> Bool {
        if literal == text { return true }  // most links are lowercase already
        // Over contiguous bytes: stepping a small string's UTF-8 view index
        // by index cost more than the rest of a match.
        let ascii: Bool? = text.withUTF8Bytes { textBytes in
            literal.withUTF8Bytes { literalBytes in
                var position = 0
                for byte in textBytes {
                    guard byte < 0x80 else { return nil }
                    guard position < literalBytes.count, literalBytes[position] == byte.asciiLowercased else { return false }
                    position += 1
                }
                return position == literalBytes.count
            }
        }
        return ascii ?? (literal == text.lowercased())
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
