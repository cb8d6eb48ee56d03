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
        var line = JSONLine(capacity: utf8.count + 8)
        line.escaped(text)
        return line.text
    }
}
