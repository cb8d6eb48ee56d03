/// A Lua string: raw bytes, not text.
///
/// Why bytes: Lua strings may hold embedded zeros and invalid UTF-8, and a
/// scenario may legitimately pass such data through the bridge. Keeping the
/// bytes makes the Swift ⇄ Lua round-trip lossless; `string` offers the
/// lossy text view most callers want.
public struct LuaString: Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible, CustomDebugStringConvertible
{
    /// Valid UTF-8 is kept as a `String` (short ones need no allocation, and
    /// `string` is free); anything else as its bytes. Why: every string that
    /// crosses the bridge is one of these, and a `[UInt8]` per string (then
    /// a `String` made from it) was a visible share of a call's cost.
    private enum Storage: Sendable {
        case text(String)
        case raw([UInt8])
    }

    private var storage: Storage

    /// The exact bytes of the Lua string.
    public var bytes: [UInt8] {
        get {
            switch storage {
            case .text(let text): return Array(text.utf8)
            case .raw(let bytes): return bytes
            }
        }
        set { self = LuaString(bytes: newValue) }
    }

    /// The UTF-8 bytes of `string`.
    public init(_ string: String) { storage = .text(string) }

    /// Any bytes, including zeros and invalid UTF-8.
    public init<Bytes: Sequence>(bytes: Bytes) where Bytes.Element == UInt8 {
        let array = Array(bytes)
        storage = String(validating: array, as: UTF8.self).map(Storage.text) ?? .raw(array)
    }

    /// The bytes at `buffer` (copied), without an intermediate array when they are valid UTF-8.
    init(copying buffer: UnsafeRawBufferPointer) {
        storage = String(validating: buffer, as: UTF8.self).map(Storage.text) ?? .raw(Array(buffer))
    }

    public init(stringLiteral value: String) { self.init(value) }

    /// Lossy text view: invalid UTF-8 sequences become U+FFFD.
    public var string: String {
        switch storage {
        case .text(let text): return text
        case .raw(let bytes): return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// The text when the bytes are valid UTF-8, else nil (never lossy).
    public var validUTF8: String? {
        if case .text(let text) = storage { return text }
        return nil
    }

    /// Number of bytes (Lua's `#s`).
    public var count: Int {
        switch storage {
        case .text(let text): return text.utf8.count
        case .raw(let bytes): return bytes.count
        }
    }

    /// Calls `body` with the bytes in one contiguous block (no copy for
    /// native strings and raw bytes).
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        switch storage {
        case .text(var text): return try text.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
        case .raw(let bytes): return try bytes.withUnsafeBytes(body)
        }
    }

    /// Equal bytes, whichever way each side is stored.
    public static func == (lhs: LuaString, rhs: LuaString) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case (.text(let a), .text(let b)): return a.utf8.count == b.utf8.count && a.utf8.elementsEqual(b.utf8)
        case (.raw(let a), .raw(let b)): return a == b
        default: return false   // valid UTF-8 is always stored as text, anything else never is
        }
    }

    /// The bytes as one block (the synthesized conformance combined them one
    /// at a time, which was visible in every table lookup by name).
    public func hash(into hasher: inout Hasher) {
        withBytes { buffer in
            hasher.combine(buffer.count)
            hasher.combine(bytes: buffer)
        }
    }

    public var description: String { string }

    /// A Lua-style quoted literal with escapes for control and non-UTF-8 bytes.
    public var debugDescription: String {
        LuaSource.literal(bytes, keepingHighBytes: validUTF8 != nil)
    }
}
