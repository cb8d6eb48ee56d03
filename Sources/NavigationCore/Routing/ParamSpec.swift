/// A typed, validated route parameter. Validation lives in the manifest so
/// that every entry point rejects the same bad value in the same way.
public struct ParamSpec: Hashable, Sendable, Codable {
    public enum Kind: String, Hashable, Sendable, Codable {
        case string
        /// Decimal digits only, fitting in 64 bits.
        case integer
    }

    public var name: String
    public var kind: Kind
    /// A regular expression the whole value must match.
    public var pattern: String?
    public var minLength: Int?
    public var maxLength: Int?

    public init(
        _ name: String, kind: Kind = .string, pattern: String? = nil,
        minLength: Int? = nil, maxLength: Int? = nil
    ) {
        self.name = name
        self.kind = kind
        self.pattern = pattern
        self.minLength = minLength
        self.maxLength = maxLength
    }

    enum CodingKeys: String, CodingKey { case name, kind, pattern, minLength = "min_length", maxLength = "max_length" }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        kind = try c.decodeIfPresent(Kind.self, forKey: .kind) ?? .string
        pattern = try c.decodeIfPresent(String.self, forKey: .pattern)
        minLength = try c.decodeIfPresent(Int.self, forKey: .minLength)
        maxLength = try c.decodeIfPresent(Int.self, forKey: .maxLength)
    }
}

/// A ``ParamSpec`` with its pattern compiled once, at manifest load. A
/// class: every check walks a route's params, and copying this struct out
/// of the list retained and released each of its fields.
final class CompiledParam: @unchecked Sendable {
    // `Regex` is immutable once built; the engine never mutates it.
    let spec: ParamSpec
    /// `spec.name`, kept apart: reading it through the spec copied the spec.
    let name: String
    let regex: Regex<AnyRegexOutput>?
    /// The pattern without `Regex`, when it is of the common kind.
    let simple: SimplePattern?

    init(_ spec: ParamSpec) throws {
        self.spec = spec
        name = spec.name
        self.regex = try spec.pattern.map { try Regex($0) }
        self.simple = spec.pattern.flatMap(SimplePattern.init)
    }

    /// Characters, as a user counts them. For ASCII (nearly every value)
    /// that is the bytes less one per CR LF pair, counted in place; the
    /// grapheme walk of `String.count` cost more than the rest of a check.
    static func characterCount(_ value: String) -> Int {
        let ascii: Int? = value.withUTF8Bytes { bytes -> Int? in
            var pairs = 0
            var previous: UInt8 = 0
            for byte in bytes {
                if byte >= 0x80 { return nil }
                if previous == 13 && byte == 10 { pairs += 1 }
                previous = byte
            }
            return bytes.count - pairs
        }
        return ascii ?? value.count
    }

    /// Returns why `value` is invalid, or nil when it is acceptable.
    func problem(with value: String) -> String? {
        if value.isEmpty { return "must not be empty" }
        if spec.minLength != nil || spec.maxLength != nil {
            let length = Self.characterCount(value)
            if let min = spec.minLength, length < min { return "shorter than \(min) characters" }
            if let max = spec.maxLength, length > max { return "longer than \(max) characters" }
        }
        if spec.kind == .integer,
            !(value.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } && Int64(value) != nil)
        {
            return "expected an integer"
        }
        guard spec.pattern != nil else { return nil }
        // The simple matcher first; `Regex` (copied to call, so retained) only when it cannot answer.
        let matches = simple?.wholeMatch(value) ?? (regex.map { (try? $0.wholeMatch(in: value)) != nil } ?? true)
        return matches ? nil : "does not match \(spec.pattern ?? "")"
    }
}
