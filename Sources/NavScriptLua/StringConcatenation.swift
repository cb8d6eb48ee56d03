extension String {
    /// `parts` joined into one string of the final size at once.
    ///
    /// Why: every step of a scenario builds a timeline line and a `file:line`
    /// location from several pieces, and interpolation appended them one by
    /// one, growing the string as it went. Here the pieces' UTF-8 bytes go
    /// into a stack buffer of the final size, then into the string.
    package init(concatenating parts: String...) {
        var total = 0
        for part in parts { total += part.utf8.count }
        self.init(assembling: total) { buffer in
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

    /// `source:line` (Lua's spelling of a position), the digits written in
    /// place: every step and every failure names its line.
    package init(source: String, line: Int) {
        guard line >= 0 else { self.init(concatenating: source, ":", String(line)); return }
        var digits = 1
        var rest = line / 10
        while rest > 0 { digits += 1; rest /= 10 }
        let count = source.utf8.count + 1 + digits
        self.init(assembling: count) { buffer in
            var source = source
            let offset = source.withUTF8 { bytes in
                if let base = bytes.baseAddress, !bytes.isEmpty {
                    UnsafeMutableRawPointer(buffer.baseAddress!).copyMemory(from: base, byteCount: bytes.count)
                }
                return bytes.count
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

    /// A string of exactly `count` bytes that `write` fills from pieces of
    /// other strings and ASCII, returning how many it wrote.
    ///
    /// Why not `String(unsafeUninitializedCapacity:initializingUTF8With:)`:
    /// it validates the result as UTF-8, which cost more than the copying
    /// (a timeline line with its arrow: ≈ 700 instructions of ≈ 2,900).
    /// Bytes copied whole from valid strings, plus ASCII, are valid by
    /// construction — which is the precondition `UTF8Span(unchecked:)`
    /// states — so both builders above skip the check. Callers must write
    /// every byte and never split a string's bytes.
    private init(assembling count: Int, _ write: (UnsafeMutableBufferPointer<UInt8>) -> Int) {
        guard count > 0 else { self = ""; return }
        self = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { buffer in
            let written = write(buffer)
            // Every byte must be written: the rest would be uninitialised memory.
            precondition(written == count, "assembled \(written) of \(count) bytes")
            let bytes = UnsafeBufferPointer(buffer)
            assert(String(validating: bytes, as: UTF8.self) != nil, "assembled bytes are not UTF-8")
            return String(copying: UTF8Span(unchecked: bytes.span))
        }
    }
}
