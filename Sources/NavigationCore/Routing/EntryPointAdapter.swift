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

    public init(scheme: String, universalHosts: [String]) {
        self.scheme = scheme.lowercased()
        self.universalHosts = universalHosts.map { $0.lowercased() }
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
        Self.strip("https://", from: url) != nil ? try universalLink(url, entry: entry) : try schemeLink(url, entry: entry)
    }

    private func schemeLink(_ url: String, entry: EntryPoint) throws(RouteError) -> RouteLink {
        try checkLength(url)
        let prefix = scheme + "://"
        guard let rest = Self.strip(prefix, from: url) else {
            throw .malformed(input: url, reason: "expected a \(prefix) link")
        }
        return try parse(url, rest: rest, entry: entry)
    }

    private func universalLink(_ url: String, entry: EntryPoint) throws(RouteError) -> RouteLink {
        try checkLength(url)
        guard let rest = Self.strip("https://", from: url) else {
            throw .malformed(input: url, reason: "expected an https:// universal link")
        }
        let hostEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let host = rest[rest.startIndex..<hostEnd].lowercased()
        guard universalHosts.contains(host) else { throw .unknownRoute(input: url) }
        // An https link is a universal link whichever door delivered it
        // (Handoff, a push's url), so universal-only patterns apply to it.
        return try parse(url, rest: rest[hostEnd...], entry: .universal)
    }

    private func relativeLink(_ route: String, entry: EntryPoint) throws(RouteError) -> RouteLink {
        try checkLength(route)
        return try parse(route, rest: Substring(route), entry: entry)
    }

    // MARK: - Syntax

    private func checkLength(_ input: String) throws(RouteError) {
        if input.utf8.count > Self.maximumLength {
            throw .malformed(input: input, reason: "longer than \(Self.maximumLength) bytes")
        }
        if input.isEmpty { throw .malformed(input: input, reason: "empty input") }
    }

    private func parse(_ raw: String, rest: Substring, entry: EntryPoint) throws(RouteError) -> RouteLink {
        // ASCII input (every real link) is checked and split by bytes: the
        // same answers as the scalar check and the Character-based split,
        // which it avoids because grapheme breaking dominated the cost of a
        // resolve. Other input keeps the Character semantics (a combining
        // mark after a separator joins it).
        let ascii = rest.utf8.allSatisfy { $0 < 0x80 }
        let bad: UInt32? = ascii
            ? rest.utf8.first(where: { $0 < 0x21 || $0 == 0x7F }).map(UInt32.init)
            : rest.unicodeScalars.first(where: { $0.value < 0x21 || $0.value == 0x7F })?.value
        if let bad {
            throw .malformed(input: raw, reason: "contains the control or space character U+\(String(bad, radix: 16, uppercase: true))")
        }
        func split(_ text: Substring, _ separator: Character, maxSplits: Int = .max,
                   omittingEmpty: Bool = true) -> [Substring] {
            ascii ? Self.splitASCII(text, separator.asciiValue!, maxSplits: maxSplits, omittingEmpty: omittingEmpty)
                : text.split(separator: separator, maxSplits: maxSplits, omittingEmptySubsequences: omittingEmpty)
        }
        let withoutFragment = ascii ? rest[..<(rest.utf8.firstIndex(of: UInt8(ascii: "#")) ?? rest.endIndex)]
            : rest.prefix { $0 != "#" }
        let parts = split(withoutFragment, "?", maxSplits: 1, omittingEmpty: false)
        var path: [String] = []
        for component in split(parts[0], "/") {
            path.append(try decode(component, raw: raw, plusIsSpace: false))
        }
        var query: [String: String] = [:]
        if parts.count > 1 {
            for item in split(parts[1], "&") {
                let kv = split(item, "=", maxSplits: 1, omittingEmpty: false)
                let key = try decode(kv[0], raw: raw, plusIsSpace: true).lowercased()
                let value = kv.count > 1 ? try decode(kv[1], raw: raw, plusIsSpace: true) : ""
                if query[key] == nil { query[key] = value }
            }
        }
        if path.isEmpty && query.isEmpty { throw .unknownRoute(input: raw) }
        return RouteLink(entry: entry, path: path, query: query, raw: raw)
    }

    private func decode(_ text: Substring, raw: String, plusIsSpace: Bool) throws(RouteError) -> String {
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

    /// `text.split(separator:maxSplits:omittingEmptySubsequences:)` for
    /// ASCII `text` and an ASCII separator, by bytes.
    static func splitASCII(_ text: Substring, _ separator: UInt8, maxSplits: Int, omittingEmpty: Bool) -> [Substring] {
        var pieces: [Substring] = []
        var start = text.startIndex
        var index = text.startIndex
        let utf8 = text.utf8
        while index < text.endIndex, pieces.count < maxSplits {
            if utf8[index] == separator {
                if !omittingEmpty || start < index { pieces.append(text[start..<index]) }
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        if !omittingEmpty || start < text.endIndex { pieces.append(text[start..<text.endIndex]) }
        return pieces
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 48...57: return byte - 48
        case 65...70: return byte - 55
        case 97...102: return byte - 87
        default: return nil
        }
    }

    /// `text` after an ASCII `prefix` compared case-insensitively, scalar by
    /// scalar (never by `Character`, so a combining mark cannot shift it).
    private static func strip(_ prefix: String, from text: String) -> Substring? {
        // By bytes: an ASCII scalar is its byte, and a byte of a non-ASCII
        // scalar (>= 0x80) never equals an ASCII one.
        let bytes = text.utf8
        var index = bytes.startIndex
        for expected in prefix.utf8 {
            guard index < bytes.endIndex else { return nil }
            let actual = bytes[index]
            guard actual < 0x80, (65...90).contains(actual) ? actual + 32 == expected : actual == expected else { return nil }
            index = bytes.index(after: index)
        }
        return Substring(text.unicodeScalars[index...])
    }

    private static func lower(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        (65...90).contains(scalar.value) ? Unicode.Scalar(scalar.value + 32)! : scalar
    }
}
