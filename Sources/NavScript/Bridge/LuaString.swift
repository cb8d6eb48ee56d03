/// A Lua string: raw bytes, not text.
///
/// Why bytes: Lua strings may hold embedded zeros and invalid UTF-8, and a
/// scenario may legitimately pass such data through the bridge. Keeping the
/// bytes makes the Swift ⇄ Lua round-trip lossless; `string` offers the
/// lossy text view most callers want.
public struct LuaString: Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible, CustomDebugStringConvertible
{
    /// The exact bytes of the Lua string.
    public var bytes: [UInt8]

    /// The UTF-8 bytes of `string`.
    public init(_ string: String) { bytes = Array(string.utf8) }

    /// Any bytes, including zeros and invalid UTF-8.
    public init<Bytes: Sequence>(bytes: Bytes) where Bytes.Element == UInt8 { self.bytes = Array(bytes) }

    public init(stringLiteral value: String) { self.init(value) }

    /// Lossy text view: invalid UTF-8 sequences become U+FFFD.
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    /// The text when the bytes are valid UTF-8, else nil (never lossy).
    public var validUTF8: String? {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.utf8.elementsEqual(bytes) ? text : nil
    }

    /// Number of bytes (Lua's `#s`).
    public var count: Int { bytes.count }

    /// The bytes as one block (the synthesized conformance combined them one
    /// at a time, which was visible in every table lookup by name).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(bytes.count)
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    public var description: String { string }

    /// A Lua-style quoted literal with escapes for control and non-UTF-8 bytes.
    public var debugDescription: String {
        LuaSource.literal(bytes, keepingHighBytes: validUTF8 != nil)
    }
}
