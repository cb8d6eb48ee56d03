import NavScript
import NavScriptRuntime

/// JSON string bodies written by hand, where an encoder per value would cost
/// more than the work it describes (a worker's per-step messages, the HTML
/// report's embedded data).
enum JSONString {
    /// A JSON string body: quotes, backslashes and control characters
    /// escaped. Most timeline lines need none of it, and are returned as
    /// they are after one pass over their bytes.
    static func escaped(_ text: String) -> String {
        let utf8 = text.utf8
        let needsEscaping =
            utf8.withContiguousStorageIfAvailable { bytes in
                bytes.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
            } ?? utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
        guard needsEscaping else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count + 8)
        let hex = Array("0123456789abcdef".utf8)
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "\n"): out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\r"): out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case UInt8(ascii: "\t"): out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20:
                out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
