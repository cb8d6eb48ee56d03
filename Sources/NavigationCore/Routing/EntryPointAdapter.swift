/// Lifts what each entry point receives — scheme URLs, universal links,
/// push payloads, user activities, widget URLs — into a ``RouteLink``.
/// Deliberately thin: it decides nothing about routes, only about syntax,
/// so no door can grow a vocabulary or a policy of its own.
///
/// It never traps: every input either becomes a link or a
/// ``RouteError/malformed(input:reason:)`` / ``RouteError/unknownRoute(input:)``.
public struct EntryPointAdapter: Sendable {
    /// Inputs longer than this are refused before any parsing.
    public static let maximumLength = 2048

    public let scheme: String
    public let universalHosts: [String]
    /// `scheme://`, spelled once.
    private let schemePrefix: String
    /// ``universalHosts`` as bytes, compared with a link's host in place.
    private let universalHostBytes: [[UInt8]]

    public init(scheme: String, universalHosts: [String]) {
        self.scheme = scheme.lowercased()
        self.universalHosts = universalHosts.map { $0.lowercased() }
        schemePrefix = self.scheme + "://"
        universalHostBytes = self.universalHosts.map { Array($0.utf8) }
    }

    public init(manifest: RouteManifest) {
        self.init(scheme: manifest.scheme, universalHosts: manifest.universalHosts)
    }

    public func link(for input: EntryInput, via entry: EntryPoint) throws(RouteError) -> RouteLink {
        switch input {
        case .url(let url):
            switch entry {
            case .scheme, .widget: return try schemeLink(url, entry: entry)
            case .universal: return try universalLink(url, entry: entry)
            case .push, .spotlight: return try anyURL(url, entry: entry)
            }
        case .payload(let payload):
            if let route = payload["route"] { return try relativeLink(route, entry: entry) }
            if let url = payload["url"] { return try anyURL(url, entry: entry) }
            throw .malformed(input: input.description, reason: "the payload has neither a 'route' nor a 'url' key")
        case .activity(_, let info):
            if let url = info["webpage_url"] { return try universalLink(url, entry: entry) }
            if let identifier = info["identifier"] { return try relativeLink(identifier, entry: entry) }
            throw .malformed(input: input.description, reason: "the activity has neither a 'webpage_url' nor an 'identifier'")
        }
    }

    // MARK: - Shapes

    private func anyURL(_ url: String, entry: EntryPoint) throws(RouteError) -> RouteLink {
        Self.prefixLength("https://", of: url) != nil ? try universalLink(url, entry: entry) : try schemeLink(url, entry: entry)
    }

    private func schemeLink(_ url: String, entry: EntryPoint) throws(RouteError) -> RouteLink {
        try checkLength(url)
        guard let start = Self.prefixLength(schemePrefix, of: url) else {
            // An https link at a scheme-only door is the usual slip: say which door takes it.
            let hint = Self.prefixLength("https://", of: url) != nil ? " (an https:// link comes through a universal door)" : ""
            throw .malformed(input: url, reason: "expected a \(schemePrefix) link" + hint)
        }
        return try parse(url, from: start, entry: entry)
    }

    private func universalLink(_ url: String, entry: EntryPoint) throws(RouteError) -> RouteLink {
        try checkLength(url)
        guard let start = Self.prefixLength("https://", of: url) else {
            throw .malformed(input: url, reason: "expected an https:// universal link")
        }
        guard let hostEnd = universalHostEnd(of: url, from: start) else { throw .unknownRoute(input: url) }
        // An https link is a universal link whichever door delivered it
        // (Handoff, a push's url), so universal-only patterns apply to it.
        return try parse(url, from: hostEnd, entry: .universal)
    }

    private func relativeLink(_ route: String, entry: EntryPoint) throws(RouteError) -> RouteLink {
        try checkLength(route)
        return try parse(route, from: 0, entry: entry)
    }

    /// Where the host that starts at UTF-8 offset `start` ends — at the
    /// first `/`, `?` or `#` *character* (a combining mark after one joins
    /// it, so it does not end the host) — when it is one of
    /// ``universalHosts`` (ignoring case); nil when it is not.
    private func universalHostEnd(of url: String, from start: Int) -> Int? {
        // By bytes while the host and the byte after it are ASCII (then
        // bytes are characters); anything else goes by `Character`.
        // nil: only Characters can tell; .some(nil): a host that is not ours.
        let ascii: Int?? = url.withUTF8Bytes { bytes -> Int?? in
            var end = start
            while end < bytes.count {
                let byte = bytes[end]
                if byte >= 0x80 { return nil }
                if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
                end += 1
            }
            if end + 1 < bytes.count && bytes[end + 1] >= 0x80 { return nil }
            let host = UnsafeBufferPointer(rebasing: bytes[start..<end])
            let known = universalHostBytes.contains { candidate in
                candidate.count == host.count && zip(candidate, host).allSatisfy { $0 == $1.asciiLowercased }
            }
            return .some(known ? end : nil)
        }
        if let ascii { return ascii }
        let (host, end) = Self.hostByCharacter(of: url, from: start)
        return universalHosts.contains(host) ? end : nil
    }

    /// The host and where it ends, by `Character`, for links that are not plain ASCII there.
    private static func hostByCharacter(of url: String, from start: Int) -> (host: String, end: Int) {
        let rest = Substring(url.unicodeScalars[url.utf8.index(url.startIndex, offsetBy: start)...])
        let hostEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        return (rest[rest.startIndex..<hostEnd].lowercased(), url.utf8.distance(from: url.startIndex, to: hostEnd))
    }

    // MARK: - Syntax

    private func checkLength(_ input: String) throws(RouteError) {
        if input.utf8.count > Self.maximumLength {
            throw .malformed(input: input, reason: "longer than \(Self.maximumLength) bytes")
        }
        if input.isEmpty { throw .malformed(input: input, reason: "empty input") }
    }

    /// Parses `raw` from UTF-8 offset `start` (just after what was stripped:
    /// always the boundary of a scalar).
    private func parse(_ raw: String, from start: Int, entry: EntryPoint) throws(RouteError) -> RouteLink {
        let ascii: Result<RouteLink, RouteError>? = raw.withUTF8Bytes { all in
            Self.parseASCII(UnsafeBufferPointer(rebasing: all[start...]), raw: raw, entry: entry)
        }
        switch ascii {
        case .success(let link)?: return link
        case .failure(let error)?: throw error
        case nil:
            let rest = Substring(raw.unicodeScalars[raw.utf8.index(raw.startIndex, offsetBy: start)...])
            return try parseScalars(raw, rest: rest, entry: entry)
        }
    }

    /// The parse of an ASCII link (every real one), in one pass over its
    /// bytes with no intermediate arrays; nil when `bytes` are not all
    /// ASCII. The same answers as ``parseScalars(_:rest:entry:)``, which a
    /// test checks over random inputs. Why: this was most of a resolve.
    static func parseASCII(
        _ bytes: UnsafeBufferPointer<UInt8>, raw: String,
        entry: EntryPoint
    ) -> Result<RouteLink, RouteError>? {
        var firstBad: UInt8?
        var fragment = bytes.count
        var question = -1
        var slashes = 0  // before the query: at most one component more than these
        for (index, byte) in bytes.enumerated() {
            if byte >= 0x80 { return nil }
            if firstBad == nil && (byte < 0x21 || byte == 0x7F) { firstBad = byte }
            if index < fragment {
                if byte == UInt8(ascii: "#") {
                    fragment = index
                } else if byte == UInt8(ascii: "?") && question < 0 {
                    question = index
                } else if byte == UInt8(ascii: "/") && question < 0 {
                    slashes += 1
                }
            }
        }
        if let bad = firstBad {
            return .failure(
                .malformed(input: raw, reason: "contains the control or space character U+\(String(bad, radix: 16, uppercase: true))"))
        }
        let pathEnd = question >= 0 ? question : fragment
        do {
            var path: [String] = []
            path.reserveCapacity(slashes + 1)
            var start = 0
            for index in 0...pathEnd where index == pathEnd || bytes[index] == UInt8(ascii: "/") {
                if index > start {
                    path.append(try decodeASCII(UnsafeBufferPointer(rebasing: bytes[start..<index]), raw: raw, plusIsSpace: false))
                }
                start = index + 1
            }
            var query: [String: String] = [:]
            if question >= 0 {
                start = question + 1
                for index in start...fragment where index == fragment || bytes[index] == UInt8(ascii: "&") {
                    if index > start {
                        let item = UnsafeBufferPointer(rebasing: bytes[start..<index])
                        let equals = item.firstIndex(of: UInt8(ascii: "=")) ?? item.endIndex
                        let key = try decodeASCII(UnsafeBufferPointer(rebasing: item[..<equals]), raw: raw, plusIsSpace: true).lowercased()
                        let value =
                            equals < item.endIndex
                            ? try decodeASCII(UnsafeBufferPointer(rebasing: item[(equals + 1)...]), raw: raw, plusIsSpace: true) : ""
                        if query[key] == nil { query[key] = value }
                    }
                    start = index + 1
                }
            }
            if path.isEmpty && query.isEmpty { return .failure(.unknownRoute(input: raw)) }
            return .success(RouteLink(entry: entry, path: path, query: query, raw: raw))
        } catch {
            return .failure(error)
        }
    }

    /// An ASCII component as text: the bytes themselves unless they hold a
    /// percent-escape (or, in a query, a `+`), which ``decode(_:raw:plusIsSpace:)`` handles.
    private static func decodeASCII(
        _ bytes: UnsafeBufferPointer<UInt8>, raw: String,
        plusIsSpace: Bool
    ) throws(RouteError) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        guard bytes.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) }) else {
            return text
        }
        return try decode(Substring(text), raw: raw, plusIsSpace: plusIsSpace)
    }

    /// The parse of any link, by `Character` (a combining mark after a
    /// separator joins it, so it does not separate).
    func parseScalars(_ raw: String, rest: Substring, entry: EntryPoint) throws(RouteError) -> RouteLink {
        if let bad = rest.unicodeScalars.first(where: { $0.value < 0x21 || $0.value == 0x7F })?.value {
            throw .malformed(input: raw, reason: "contains the control or space character U+\(String(bad, radix: 16, uppercase: true))")
        }
        let withoutFragment = rest.prefix { $0 != "#" }
        let parts = withoutFragment.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var path: [String] = []
        for component in parts[0].split(separator: "/") {
            path.append(try Self.decode(component, raw: raw, plusIsSpace: false))
        }
        var query: [String: String] = [:]
        if parts.count > 1 {
            for item in parts[1].split(separator: "&") {
                let kv = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let key = try Self.decode(kv[0], raw: raw, plusIsSpace: true).lowercased()
                let value = kv.count > 1 ? try Self.decode(kv[1], raw: raw, plusIsSpace: true) : ""
                if query[key] == nil { query[key] = value }
            }
        }
        if path.isEmpty && query.isEmpty { throw .unknownRoute(input: raw) }
        return RouteLink(entry: entry, path: path, query: query, raw: raw)
    }

    private static func decode(_ text: Substring, raw: String, plusIsSpace: Bool) throws(RouteError) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) }) else {
            return String(text)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(Self.hex), let low = iterator.next().flatMap(Self.hex) else {
                    throw .malformed(input: raw, reason: "bad percent-escape in '\(RouteError.clip(String(text)))'")
                }
                bytes.append(high << 4 | low)
            } else if plusIsSpace && byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else {
                bytes.append(byte)
            }
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw .malformed(input: raw, reason: "percent-escapes decode to invalid UTF-8")
        }
        if decoded.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw .malformed(input: raw, reason: "percent-escapes decode to a control character")
        }
        return decoded
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 48...57: return byte - 48
        case 65...70: return byte - 55
        case 97...102: return byte - 87
        default: return nil
        }
    }

    /// The UTF-8 length of an ASCII `prefix` that `text` starts with,
    /// compared case-insensitively; nil when it does not start with it.
    /// By bytes: an ASCII scalar is its byte, and a byte of a non-ASCII
    /// scalar (>= 0x80) never equals an ASCII one, so a match always ends
    /// on a scalar boundary.
    private static func prefixLength(_ prefix: String, of text: String) -> Int? {
        // Over the bytes in place: stepping a small string's UTF-8 view
        // index by index cost more than the rest of the parse.
        text.withUTF8Bytes { bytes in
            prefix.withUTF8Bytes { expected in
                guard bytes.count >= expected.count,
                    zip(bytes, expected).allSatisfy({ $0.asciiLowercased == $1 })
                else { return nil }
                return expected.count
            }
        }
    }
}
