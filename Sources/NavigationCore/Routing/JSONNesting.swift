import Foundation

/// How deep a JSON document nests, found by a flat scan before any decoder
/// sees it: Foundation's decoder recurses once per level, so a hostile or
/// corrupt file thousands of levels deep would overflow the stack and take
/// the process down instead of being refused.
enum JSONNesting {
    /// Deeper than any manifest or archive this package writes or reads
    /// (they nest a handful of levels).
    static let limit = 100

    /// The line where `data` first nests deeper than ``limit`` (nil: it
    /// does not). Brackets inside strings do not count.
    static func lineTooDeep(in data: Data) -> Int? {
        var depth = 0
        var line = 1
        var inString = false
        var escaped = false
        for byte in data {
            if byte == UInt8(ascii: "\n") { line += 1 }
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > limit { return line }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return nil
    }

    /// The message for a document nested too deep at `line`.
    static func tooDeep(line: Int) -> String {
        "the JSON nests more than \(limit) levels deep (line \(line)): no route manifest or restoration archive does; the file is corrupt or not one"
    }
}
