/// Lua source text written by navscript: reproducers, `debugDescription`s.
package enum LuaSource {
    /// A Lua string literal that reads back as `text`.
    package static func string(_ text: String) -> String {
        literal(text.utf8, keepingHighBytes: true)
    }

    /// A double-quoted Lua literal of `bytes`. Quotes, backslashes and
    /// control bytes are escaped; bytes of 0x80 and above are kept as they
    /// are when they form valid UTF-8 (`keepingHighBytes`), else escaped.
    /// Decimal escapes always have three digits: Lua reads up to three, so
    /// `\1` followed by the character `2` would read back as byte 12.
    static func literal(_ bytes: some Sequence<UInt8>, keepingHighBytes: Bool) -> String {
        var out: [UInt8] = [UInt8(ascii: "\"")]
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), byte]
            case UInt8(ascii: "\n"): out += Array(#"\n"#.utf8)
            case UInt8(ascii: "\r"): out += Array(#"\r"#.utf8)
            case UInt8(ascii: "\t"): out += Array(#"\t"#.utf8)
            case 0x20..<0x7F: out.append(byte)
            case 0x80... where keepingHighBytes: out.append(byte)
            default:
                out.append(UInt8(ascii: "\\"))
                out += [byte / 100, byte / 10 % 10, byte % 10].map { UInt8(ascii: "0") + $0 }
            }
        }
        out.append(UInt8(ascii: "\""))
        return String(decoding: out, as: UTF8.self)
    }
}
