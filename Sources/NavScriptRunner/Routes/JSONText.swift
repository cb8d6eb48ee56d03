import NavScript
import NavScriptRuntime

/// A strict JSON reader that keeps where every value is, so a manifest
/// check can say `routes.json:12:7` and `$.destinations[3].patterns[1]`.
/// (Foundation's parsers accept trailing commas and report no position.)
///
/// Lines and columns are 1-based. A column counts Unicode scalars, not
/// bytes or UTF-16 units: `"é"` is one column whichever way the file is
/// read, a tab is one column, and a scalar outside the BMP (an emoji) is
/// one where an editor counting UTF-16 says two. Scalars because they are
/// what a JSON text is made of, and the count needs no table of grapheme
/// rules; a manifest's keys and ids are ASCII in practice, where every
/// convention agrees.
package indirect enum JSONText: Sendable {
    case object([(key: String, value: JSONText, line: Int, column: Int)], line: Int, column: Int)
    case array([JSONText], line: Int, column: Int)
    case string(String, line: Int, column: Int)
    case number(Double, line: Int, column: Int)
    case bool(Bool, line: Int, column: Int)
    case null(line: Int, column: Int)

    package struct SyntaxError: Error, Sendable, CustomStringConvertible {
        package var line: Int
        package var column: Int
        package var reason: String
        package var description: String { "line \(line), column \(column): \(reason)" }
    }

    package var line: Int {
        switch self {
        case .object(_, let line, _), .array(_, let line, _), .string(_, let line, _), .number(_, let line, _),
            .bool(_, let line, _), .null(let line, _):
            return line
        }
    }

    package var column: Int {
        switch self {
        case .object(_, _, let column), .array(_, _, let column), .string(_, _, let column), .number(_, _, let column),
            .bool(_, _, let column), .null(_, let column):
            return column
        }
    }

    /// The value at `path` (`$.destinations[3].tab`, the paths the check
    /// reports), or, where the rest of the path is absent, the deepest
    /// value on the way: a problem about a key the manifest lacks is placed
    /// at the object that should hold it. With a repeated key the first
    /// counts, as for Foundation's `JSONDecoder`, which the check decodes with.
    package func value(at path: String) -> JSONText {
        var node = self
        var rest = path.hasPrefix("$") ? path.dropFirst() : Substring(path)
        while let first = rest.first {
            rest = rest.dropFirst()
            if first == "." {
                let key = rest.prefix { $0 != "." && $0 != "[" }
                rest = rest.dropFirst(key.count)
                guard case .object(let members, _, _) = node, let member = members.first(where: { $0.key == key }) else { return node }
                node = member.value
            } else if first == "[" {
                let digits = rest.prefix { $0 != "]" }
                rest = rest.dropFirst(digits.count + 1)
                guard case .array(let items, _, _) = node, let index = Int(digits), items.indices.contains(index) else { return node }
                node = items[index]
            } else {
                return node
            }
        }
        return node
    }

    /// The value of `key` when this is an object that has it (the first, if
    /// it repeats, as above).
    package func member(_ key: String) -> JSONText? {
        guard case .object(let members, _, _) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The JSON type's name, for messages.
    package var typeName: String {
        switch self {
        case .object: return "an object"
        case .array: return "an array"
        case .string: return "a string"
        case .number: return "a number"
        case .bool: return "a boolean"
        case .null: return "null"
        }
    }

    package static func parse(_ text: String) throws(SyntaxError) -> JSONText {
        var reader = Reader(bytes: Array(text.utf8))
        reader.skipSpace()
        let value = try reader.value()
        reader.skipSpace()
        guard reader.atEnd else { throw reader.error("unexpected text after the JSON value") }
        return value
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0
        var line = 1
        var column = 1

        var atEnd: Bool { index >= bytes.count }
        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        func error(_ reason: String) -> SyntaxError { SyntaxError(line: line, column: column, reason: reason) }

        mutating func advance() {
            if bytes[index] == UInt8(ascii: "\n") { line += 1; column = 1 } else if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }

        mutating func skipSpace() {
            while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { advance() }
        }

        mutating func expect(_ literal: String) throws(SyntaxError) {
            for byte in literal.utf8 {
                guard current == byte else { throw error("expected '\(literal)'") }
                advance()
            }
        }

        /// After an object member or array item: true after a `,` (another
        /// follows), false after the closing bracket; a trailing comma or
        /// anything else is an error.
        mutating func moreItems(closing: Character, in container: String) throws(SyntaxError) -> Bool {
            let close = closing.asciiValue!
            skipSpace()
            if current == UInt8(ascii: ",") {
                advance()
                skipSpace()
                if current == close { throw error("a trailing comma before '\(closing)'") }
                return true
            }
            guard current == close else { throw error("expected ',' or '\(closing)' in the \(container)") }
            advance()
            return false
        }

        /// Arrays and objects the reader is inside: a document nested deeper
        /// than any manifest is refused, not recursed into until the stack ends.
        var depth = 0
        static let depthLimit = 100

        mutating func value() throws(SyntaxError) -> JSONText {
            let (startLine, startColumn) = (line, column)
            let opens = current == UInt8(ascii: "{") || current == UInt8(ascii: "[")
            if opens {
                guard depth < Self.depthLimit else {
                    throw error("nested more than \(Self.depthLimit) levels deep: no route manifest is; the file is corrupt or not one")
                }
                depth += 1
            }
            defer { if opens { depth -= 1 } }
            guard let byte = current else { throw error("unexpected end of the file: a value is missing") }
            switch byte {
            case UInt8(ascii: "{"):
                advance()
                var members: [(key: String, value: JSONText, line: Int, column: Int)] = []
                skipSpace()
                if current == UInt8(ascii: "}") { advance(); return .object(members, line: startLine, column: startColumn) }
                while true {
                    skipSpace()
                    let (keyLine, keyColumn) = (line, column)
                    guard current == UInt8(ascii: "\"") else { throw error("expected a quoted key") }
                    let key = try string()
                    skipSpace()
                    guard current == UInt8(ascii: ":") else { throw error("expected ':' after the key \"\(key)\"") }
                    advance()
                    skipSpace()
                    members.append((key, try value(), keyLine, keyColumn))
                    if try moreItems(closing: "}", in: "object") { continue }
                    return .object(members, line: startLine, column: startColumn)
                }
            case UInt8(ascii: "["):
                advance()
                var items: [JSONText] = []
                skipSpace()
                if current == UInt8(ascii: "]") { advance(); return .array(items, line: startLine, column: startColumn) }
                while true {
                    skipSpace()
                    items.append(try value())
                    if try moreItems(closing: "]", in: "array") { continue }
                    return .array(items, line: startLine, column: startColumn)
                }
            case UInt8(ascii: "\""):
                return .string(try string(), line: startLine, column: startColumn)
            case UInt8(ascii: "t"): try expect("true"); return .bool(true, line: startLine, column: startColumn)
            case UInt8(ascii: "f"): try expect("false"); return .bool(false, line: startLine, column: startColumn)
            case UInt8(ascii: "n"): try expect("null"); return .null(line: startLine, column: startColumn)
            default:
                var text = ""
                while let byte = current, "+-0123456789.eE".utf8.contains(byte) {
                    text.append(Character(Unicode.Scalar(byte)))
                    advance()
                }
                guard !text.isEmpty, let number = Double(text) else { throw error("unexpected character") }
                return .number(number, line: startLine, column: startColumn)
            }
        }

        mutating func string() throws(SyntaxError) -> String {
            advance()
            var out: [UInt8] = []
            while let byte = current {
                switch byte {
                case UInt8(ascii: "\""):
                    advance()
                    return String(decoding: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    advance()
                    guard let escaped = current else { break }
                    advance()
                    switch escaped {
                    case UInt8(ascii: "n"): out.append(10)
                    case UInt8(ascii: "t"): out.append(9)
                    case UInt8(ascii: "r"): out.append(13)
                    case UInt8(ascii: "b"): out.append(8)
                    case UInt8(ascii: "f"): out.append(12)
                    case UInt8(ascii: "u"):
                        var hex = ""
                        for _ in 0..<4 {
                            guard let digit = current else { throw error("a short \\u escape") }
                            hex.append(Character(Unicode.Scalar(digit)))
                            advance()
                        }
                        guard let code = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(code) else {
                            throw error("an invalid \\u escape")
                        }
                        out += Array(String(Character(scalar)).utf8)
                    default: out.append(escaped)
                    }
                case 0..<0x20:
                    throw error("a control character inside a string")
                default:
                    out.append(byte)
                    advance()
                }
            }
            throw error("an unterminated string")
        }
    }
}
