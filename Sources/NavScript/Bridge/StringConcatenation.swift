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

    /// `source:line` (Lua's spelling of a position) in one allocation, the
    /// digits written in place: every step and every failure names its line.
    init(source: String, line: Int) {
        guard line >= 0 else { self.init(concatenating: source, ":", String(line)); return }
        var digits = 1
        var rest = line / 10
        while rest > 0 { digits += 1; rest /= 10 }
        let count = source.utf8.count + 1 + digits
        self.init(unsafeUninitializedCapacity: count) { buffer in
            var offset = 0
            var source = source
            source.withUTF8 { bytes in
                if let base = bytes.baseAddress, !bytes.isEmpty {
                    UnsafeMutableRawPointer(buffer.baseAddress!).copyMemory(from: base, byteCount: bytes.count)
                }
                offset = bytes.count
            }
            buffer[offset] = UInt8(ascii: ":")
            var value = line
            var position = count - 1
            repeat {
                buffer[position] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
                position -= 1
            } while value > 0
            return count
        }
    }
}
