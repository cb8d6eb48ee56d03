extension String {
    /// `parts` joined into one string with a single allocation.
    ///
    /// Why: every step of a scenario builds a timeline line and a `file:line`
    /// location from several pieces, and interpolation appended them one by
    /// one, growing the string as it went. Here the pieces' UTF-8 bytes are
    /// copied once into storage of the final size.
    init(concatenating parts: String...) {
        var total = 0
        for part in parts { total += part.utf8.count }
        guard total > 0 else { self = ""; return }
        self.init(unsafeUninitializedCapacity: total) { buffer in
            var offset = 0
            for var part in parts {
                part.withUTF8 { bytes in
                    guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
                    UnsafeMutableRawPointer(buffer.baseAddress! + offset).copyMemory(from: base, byteCount: bytes.count)
                    offset += bytes.count
                }
            }
            return offset
        }
    }
}
