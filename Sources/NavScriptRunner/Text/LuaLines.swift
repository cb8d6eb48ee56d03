/// Lines of a scenario file numbered as Lua numbers them: `\n`, `\r`,
/// `\r\n` and `\n\r` each end one line.
///
/// Why: Lua (and so `list`, failure places and reports) counts a bare `\r`
/// as a line break, while splitting on `\n` does not. A file with classic
/// Mac line ends was one line to `run file:LINE` and to lint, and one stray
/// `\r` inside a long string shifted every line after it — `file:LINE`
/// then ran the scenario above the one meant.
package enum LuaLines {
    /// `bytes` with each line break written as one `\n`.
    package static func unifyingBreaks(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(UInt8(ascii: "\r")) else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            guard byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") else {
                out.append(byte)
                continue
            }
            out.append(UInt8(ascii: "\n"))
            // The other one of the pair right after it belongs to the same break.
            if index < bytes.count, bytes[index] != byte, bytes[index] == UInt8(ascii: "\n") || bytes[index] == UInt8(ascii: "\r") {
                index += 1
            }
        }
        return out
    }

    /// The lines of `bytes`, without their breaks; a last line break ends
    /// the last line (it starts no empty one).
    package static func lines(of bytes: [UInt8]) -> [String] {
        let unified = unifyingBreaks(bytes)
        var lines = unified.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        if unified.last == UInt8(ascii: "\n") { lines.removeLast() }
        return lines
    }
}
