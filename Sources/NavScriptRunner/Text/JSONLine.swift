/// One JSON line built in a byte buffer: what a worker sends for every step
/// and every call. Why bytes: interpolating escaped strings built a String
/// per field and per escape (every `tap("…")` has quotes), which made the
/// messages of a long scenario cost a sixth of the worker's time.
struct JSONLine {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 160) { bytes.reserveCapacity(capacity) }

    /// Appends `text` as it is (JSON punctuation and keys).
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends bytes that already are JSON (a value written by hand elsewhere).
    mutating func json(_ value: [UInt8]) {
        bytes.append(contentsOf: value)
    }

    mutating func integer(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)  // a small string: no allocation
    }

    /// Appends `value` as Swift prints it (what JSONEncoder writes for a finite number).
    mutating func number(_ value: Double) {
        bytes.append(contentsOf: value.description.utf8)
    }

    /// Appends `text` as a JSON string: quoted, with quotes, backslashes and
    /// control characters escaped.
    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        escaped(text)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends `text`'s JSON string body (escaped, without quotes).
    mutating func escaped(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            var start = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                start = index + 1
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
                case UInt8(ascii: "\n"): bytes.append(UInt8(ascii: "n"))
                case UInt8(ascii: "\r"): bytes.append(UInt8(ascii: "r"))
                case UInt8(ascii: "\t"): bytes.append(UInt8(ascii: "t"))
                default:
                    let hex: StaticString = "0123456789abcdef"
                    hex.withUTF8Buffer { digits in
                        bytes.append(contentsOf: [
                            UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), digits[Int(byte >> 4)], digits[Int(byte & 0xF)]
                        ])
                    }
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
    }

    /// The line as text.
    var text: String { String(decoding: bytes, as: UTF8.self) }
}
