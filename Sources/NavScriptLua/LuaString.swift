/// A Lua string: raw bytes, not text.
///
/// Why bytes: Lua strings may hold embedded zeros and invalid UTF-8, and a
/// scenario may legitimately pass such data through the bridge. Keeping the
/// bytes makes the Swift ⇄ Lua round-trip lossless; `string` offers the
/// lossy text view most callers want.
public struct LuaString: Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible, CustomDebugStringConvertible
{
    /// Valid UTF-8 (nearly every Lua string) is kept as the `String` it
    /// reads as; anything else as its bytes. Why: a string crossing the
    /// bridge was copied into an array and then decoded into a `String`
    /// each time a binding read it — two allocations and a validation per
    /// argument and per table key. Either way the value is its bytes:
    /// equality and hashing compare bytes, never canonical equivalence.
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
        set { storage = Self.storage(newValue) }
    }

    /// The UTF-8 bytes of `string`.
    public init(_ string: String) { storage = .text(string) }

    /// Any bytes, including zeros and invalid UTF-8.
    public init<Bytes: Sequence>(bytes: Bytes) where Bytes.Element == UInt8 {
        storage = Self.storage(Array(bytes))
    }

    public init(stringLiteral value: String) { self.init(value) }

    /// A copy of the bytes at `buffer` (the bridge's path for every string read from Lua).
    init(copying buffer: UnsafeRawBufferPointer) {
        storage = Self.storage(buffer)
    }

    private static func storage<Bytes: Collection>(_ bytes: Bytes) -> Storage where Bytes.Element == UInt8 {
        // ASCII (nearly every string a scenario passes) decodes exactly, and
        // checking for it is far cheaper than a validating decode.
        let isASCII =
            bytes.withContiguousStorageIfAvailable { buffer in
                buffer.allSatisfy { $0 < 0x80 }
            } ?? bytes.allSatisfy { $0 < 0x80 }
        if isASCII { return .text(String(decoding: bytes, as: UTF8.self)) }
        if let text = String(validating: bytes, as: UTF8.self) { return .text(text) }
        return .raw(Array(bytes))
    }

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

    /// The bytes as one contiguous block, without copying them.
    public func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        switch storage {
        case .text(var text): return try text.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
        case .raw(let bytes): return try bytes.withUnsafeBytes(body)
        }
    }

    public static func == (lhs: LuaString, rhs: LuaString) -> Bool {
        // Text is never equal to raw bytes: raw storage holds invalid UTF-8 only.
        switch (lhs.storage, rhs.storage) {
        case (.text(let a), .text(let b)):
            guard a.utf8.count == b.utf8.count else { return false }
            return a.utf8.withContiguousStorageIfAvailable { x in
                b.utf8.withContiguousStorageIfAvailable { y in x.elementsEqual(y) }
            }.flatMap { $0 } ?? a.utf8.elementsEqual(b.utf8)
        case (.raw(let a), .raw(let b)): return a == b
        default: return false
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
