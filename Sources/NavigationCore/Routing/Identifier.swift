/// A string identifier made distinct per kind, so a tab can never be passed
/// where a destination is expected even though both are spelled as plain
/// names in manifests, URLs and scenario scripts.
public struct Identifier<Kind>: RawRepresentable, Hashable, Comparable, Sendable, Codable,
    ExpressibleByStringLiteral, CustomStringConvertible
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public init(from decoder: Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Lets dictionaries keyed by identifiers (a state's stacks by tab) encode
/// as JSON objects with sorted keys, so archives are byte-stable.
extension Identifier: CodingKeyRepresentable {
    public var codingKey: CodingKey { AnyKey(stringValue: rawValue) }
    public init?<T: CodingKey>(codingKey: T) { self.init(rawValue: codingKey.stringValue) }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

public enum DestinationKind {}
public enum TabKind {}
public enum PreconditionKind {}

/// Names one place the app can show (`product`, `order`, `settings`).
public typealias DestinationID = Identifier<DestinationKind>
/// Names one tab of the tab bar (`home`, `orders`, `profile`).
public typealias TabID = Identifier<TabKind>
/// Names a requirement a route may have before it can be shown (`auth`,
/// `payment_method`). Evaluated by the engine, satisfied by the root coordinator.
public typealias Precondition = Identifier<PreconditionKind>
