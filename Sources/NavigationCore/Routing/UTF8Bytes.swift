/// The byte-level pieces the resolver's fast paths share: links, patterns
/// and parameter values are compared as UTF-8 bytes while they are ASCII
/// (every real link), and by `Character` otherwise.
extension UInt8 {
    /// An ASCII upper-case letter lower-cased; any other byte as it is.
    var asciiLowercased: UInt8 { self >= 65 && self <= 90 ? self + 32 : self }
}

extension String {
    /// Runs `body` over the string's UTF-8 bytes in place. A native string
    /// always has them contiguous; `withUTF8` (mutating, and measurably
    /// slower on this path) is only the fallback for one that does not.
    func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        var text = self
        return try text.withUTF8(body)
    }
}
