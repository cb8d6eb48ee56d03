import NavScript
import NavScriptRuntime

/// Text handling shared by the reporters.
///
/// Why it exists: scenario names, messages and printed output come from Lua,
/// so they may hold ANSI colour sequences, control bytes and U+FFFD from
/// lossily decoded invalid UTF-8. The JUnit file must stay valid XML 1.0 and
/// the console must not be driven by stray escape sequences, so every string
/// passes through `clean` first. Number and date formatting is done by hand
/// with integer arithmetic so that the output never depends on the locale.
package enum ReportText {
    // MARK: Cleaning

    /// Removes terminal escape sequences (introduced by ESC: CSI such as `ESC[31m`,
    /// OSC such as hyperlinks, and two-character escapes) entirely, and spells out every
    /// other character XML 1.0 forbids or a terminal would interpret: C0
    /// controls other than tab, newline and carriage return, DEL and C1
    /// controls as `\u{0}`, U+FFFE and U+FFFF as `<U+FFFE>` — dropped, a
    /// value holding one read as another. Everything else, including U+FFFD,
    /// is kept.
    ///
    /// Lone surrogates cannot occur: a Swift `String` holds Unicode scalars.
    static func clean(_ text: String) -> String {
        // Fast path: most strings are plain.
        if !text.unicodeScalars.contains(where: { !isPlain($0) }) { return text }

        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar.value {
            case 0x1B:
                let end = endOfEscape(scalars, from: index + 1)
                if end == index + 1 {
                    // No sequence a terminal acts on: the ESC is spelled, what follows it kept (`\u{1B}p1004`).
                    out.append(contentsOf: spelling(of: scalar).unicodeScalars)
                }
                index = end
            // A C1 control (U+009B, U+009D…) is a character of the text, not a sequence a UTF-8 terminal
            // acts on: spelled with the rest, as every other control — read as CSI, `\u{9B}Vok` lost its V.
            default:
                if isAllowed(scalar) {
                    out.append(scalar)
                } else {
                    // Spelled, not dropped: `"p1004\0"` shown as `p1004` read as another value.
                    out.append(contentsOf: spelling(of: scalar).unicodeScalars)
                }
                index += 1
            }
        }
        return String(out)
    }

    /// `text` on one line, its control characters written as a regular expression
    /// would (`\n`, `\t`, `\x{1b}`): a listing keeps one scenario per line, and a name
    /// copied from it into `--filter` still selects the scenario.
    package static func escapingControls(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            // A written backslash is spelled too: `a\tb` (a tab) and `a\\tb` (a backslash, a t) were one line.
            case "\\": out += "\\\\"
            default:
                if scalar.properties.generalCategory == .control {
                    out += "\\x{" + String(scalar.value, radix: 16) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// A file's path as the console and `list` show it: on one line, its
    /// control characters written out (`fn/n\nl.lua`), its invisible characters by
    /// name. Why: a file named with a newline split its progress and FAIL
    /// lines in two, and a problem matcher read `FAIL fn/n` with no line.
    package static func pathForTerminal(_ path: String) -> String {
        showingInvisibles(escapingControls(path))
    }

    /// `clean`, then line endings normalised to `\n` (a lone `\r` would make
    /// a terminal overwrite the line).
    static func cleanForTerminal(_ text: String) -> String {
        let cleaned = showingInvisibles(clean(text))
        guard cleaned.unicodeScalars.contains("\r") else { return cleaned }
        let scalars = Array(cleaned.unicodeScalars)
        var out = String.UnicodeScalarView()
        for (index, scalar) in scalars.enumerated() {
            if scalar == "\r" {
                // `\r\n` keeps its `\n`; a lone `\r` becomes one.
                if index + 1 < scalars.count, scalars[index + 1] == "\n" { continue }
                out.append("\n")
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// The explicit bidirectional formatting characters (embeddings,
    /// overrides, isolates and their terminators), and the other characters
    /// nothing draws (a zero-width space, a soft hyphen, a word joiner, a
    /// byte-order mark) and the spaces that look like U+0020 (a no-break
    /// space: `<U+A0>`), written as `<U+202E>`.
    ///
    /// Why: they are valid text, so `clean` keeps them, but shown raw they
    /// reorder what follows them on the line or vanish — a failure message
    /// could make a terminal or a browser display text other than what it
    /// holds ("no screen 'cart'; did you mean 'cart'?"). The console and the
    /// HTML report show them by name; JUnit and JSON, which tools read rather
    /// than people, keep them as they are. The joiners and selectors that
    /// build emoji (U+200C, U+200D, variation selectors, tags) are drawn as
    /// part of them, and right-to-left text is written with U+200E and
    /// U+200F: they stay.
    static func showingInvisibles(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isInvisible) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isInvisible(scalar) {
                out.append(contentsOf: "<U+\(String(scalar.value, radix: 16, uppercase: true))>".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x202A...0x202E, 0x2066...0x2069: return true  // bidi controls
        // Part of emoji; and the left-to-right and right-to-left marks, which right-to-left text is written with.
        case 0x200C...0x200F, 0xFE00...0xFE0F, 0xE0020...0xE007F, 0xE0100...0xE01EF: return false
        case 0x00...0x9F: return false  // controls: `clean` spells them
        // A space other than U+0020 (a no-break space, a thin or ideographic space) is drawn as one:
        // "expected 'home '" beside an actual 'home' would read as a trailing space.
        default: return scalar.properties.isDefaultIgnorableCodePoint || scalar.properties.generalCategory == .spaceSeparator
        }
    }

    private static func isPlain(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20...0x7E, 0x0A: return true
        case 0xA0...0xD7FF, 0xE000...0xFFFD, 0x10000...: return true
        default: return false
        }
    }

    /// How ``clean(_:)`` and ``VisibleText`` show a character no report can hold: as `Expectation.spelled` does.
    static func spelling(of scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return scalar.properties.generalCategory == .control ? "\\u{\(hex)}" : "<U+\(hex)>"
    }

    /// XML 1.0 `Char`, minus the controls a report has no use for (DEL, C1).
    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: return true
        case 0x20...0x7E: return true
        case 0xA0...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    /// Index just past the escape sequence whose ESC was at `start - 1`.
    private static func endOfEscape(_ s: [Unicode.Scalar], from start: Int) -> Int {
        guard start < s.count else { return start }
        switch s[start].value {
        case 0x5B:  // '[' CSI
            return endOfControlSequence(s, from: start + 1)
        case 0x5D, 0x50, 0x58, 0x5E, 0x5F:  // ']' OSC, 'P' DCS, 'X' SOS, '^' PM, '_' APC
            return endOfControlString(s, from: start + 1)
        case 0x20...0x2F:  // nF escape: intermediates, then one final byte
            var index = start
            while index < s.count, (0x20...0x2F).contains(s[index].value) { index += 1 }
            if index < s.count, (0x30...0x7E).contains(s[index].value) { index += 1 }
            return index
        case 0x37, 0x38, 0x3D, 0x3E, 0x44, 0x45, 0x48, 0x4D, 0x4E, 0x4F, 0x5A, 0x5C, 0x63:
            // The two-character escapes terminals act on (ESC 7, ESC 8, ESC =, ESC >, ESC D, ESC E, ESC H,
            // ESC M, ESC N, ESC O, ESC Z, ESC \, ESC c); any other letter after an ESC is text (`\27p1004`
            // lost its p).
            return start + 1
        default:  // a bare ESC, or one before text: spelled by the caller
            return start
        }
    }

    /// CSI: parameter bytes, intermediate bytes, one final byte. One that
    /// never reaches its final byte is no sequence: only its `ESC [` goes,
    /// the text after it stays.
    private static func endOfControlSequence(_ s: [Unicode.Scalar], from start: Int) -> Int {
        var index = start
        while index < s.count, (0x30...0x3F).contains(s[index].value) { index += 1 }
        while index < s.count, (0x20...0x2F).contains(s[index].value) { index += 1 }
        guard index < s.count, (0x40...0x7E).contains(s[index].value) else { return start }
        return index + 1
    }

    /// Longest control string taken as one (an OSC hyperlink's URL fits).
    static let controlStringLimit = 2_048

    /// OSC/DCS/…: everything up to BEL, `ESC \` or ST (U+009C). One with no
    /// terminator on its line (or within ``controlStringLimit``) is no
    /// sequence: only its introducer goes, so a stray `ESC ]` cannot eat
    /// the rest of a message.
    private static func endOfControlString(_ s: [Unicode.Scalar], from start: Int) -> Int {
        var index = start
        while index < s.count, index - start <= controlStringLimit {
            switch s[index].value {
            case 0x07, 0x9C: return index + 1
            case 0x1B:
                return index + 1 < s.count && s[index + 1] == "\\" ? index + 2 : start
            case 0x0A: return start
            default: index += 1
            }
        }
        return start
    }

    // MARK: Caps

    /// The most of one scenario's output a report carries, from each end.
    /// Why: XML readers refuse a text node over 10 MB unless told otherwise
    /// (libxml2, so xmllint and every tool built on it). A scenario's own
    /// output is capped as it prints (``BoundedOutput``); this also holds
    /// what the file printed while it loaded, shown with its first scenario.
    package static let outputLimit = TextCap.output

    /// `output`, or its first and last ``outputLimit``/2 bytes around a line saying how much was left out.
    /// A scenario's output comes capped already (``BoundedOutput``: its two
    /// halves and the line between them a little over the limit), cut again
    /// here only when it is more than that — and a line saying what an
    /// earlier cut left out counts as what it says: a second cut that
    /// dropped it said "66 bytes left out" where 2 MB were.
    package static func capped(_ output: String) -> String {
        let bytes = output.utf8.count
        guard bytes > outputLimit + cutLineRoom else { return output }
        let half = outputLimit / 2
        // Cut on line boundaries where possible, and never inside a character: a cut byte
        // sequence would decode as U+FFFD and throw the count of what was left out off.
        var headBytes = Array(output.utf8.prefix(half))
        while let last = headBytes.last, last & 0xC0 == 0x80 { headBytes.removeLast() }  // continuation bytes
        if let last = headBytes.last, last >= 0xC0 { headBytes.removeLast() }  // a lead whose rest was cut
        var tailBytes = ArraySlice(output.utf8.suffix(half))
        while let first = tailBytes.first, first & 0xC0 == 0x80 { tailBytes.removeFirst() }
        var head = String(decoding: headBytes, as: UTF8.self)
        var tail = String(decoding: tailBytes, as: UTF8.self)
        if let end = head.lastIndex(of: "\n") { head = String(head[...end]) }
        if let start = tail.firstIndex(of: "\n") { tail = String(tail[tail.index(after: start)...]) }
        var left = bytes - head.utf8.count - tail.utf8.count
        let middle = String(decoding: output.utf8.dropFirst(head.utf8.count).dropLast(tail.utf8.count), as: UTF8.self)
        for earlier in middle.matches(of: /… \(([0-9]+) bytes of output left out here\) …\n?/) {
            left += (Int(earlier.1) ?? 0) - earlier.0.utf8.count
        }
        return head + "… (\(left) bytes of output left out here) …\n" + tail
    }

    /// Room for the line a cut leaves (`… (2041442 bytes of output left out here) …`).
    static let cutLineRoom = 128

    /// `… 199,500 steps left out here (…) …`: the line a report shows
    /// where a long timeline kept no steps (it keeps the first and last few
    /// hundred, so a 200,000-step scenario's report stays readable by
    /// xmllint and CI reporters; the `--json` stream has every step).
    package static func stepsLeftOut(_ timeline: Timeline) -> String {
        "… \(timeline.omitted) steps left out here (the report keeps the first \(timeline.head.count) and the last "
            + "\(timeline.tail.count); the --json stream has them all) …"
    }

    // MARK: XML escaping

    /// Cleaned text safe inside an attribute value in double or single
    /// quotes; newline, tab and carriage return become character references
    /// so that attribute-value normalisation does not turn them into spaces.
    package static func xmlAttribute(_ text: String) -> String {
        escapeXML(clean(text), inAttribute: true)
    }

    /// Cleaned text safe as element content. `\r` becomes `&#13;` so that
    /// line-end normalisation by the parser does not lose it.
    static func xmlText(_ text: String) -> String {
        escapeXML(clean(text), inAttribute: false)
    }

    private static func escapeXML(_ text: String, inAttribute: Bool) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\r": out += "&#13;"
            case "\n" where inAttribute: out += "&#10;"
            case "\t" where inAttribute: out += "&#9;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    // MARK: Locale-independent formatting

    /// Seconds with exactly three decimals and a '.' separator, e.g.
    /// `0.041`. Negative, NaN and infinite values print as `0.000`.
    static func seconds(_ value: Double) -> String {
        guard value.isFinite, value > 0 else { return "0.000" }
        // 1e12 s is far beyond any run; the clamp keeps the conversion safe.
        let millis = UInt64((min(value, 1e12) * 1000).rounded())
        let fraction = millis % 1000
        let padding = fraction < 10 ? "00" : fraction < 100 ? "0" : ""
        return "\(millis / 1000).\(padding)\(fraction)"
    }

    /// `YYYY-MM-DDTHH:MM:SS` in UTC, no zone suffix (the JUnit convention),
    /// from seconds since 1970-01-01T00:00:00Z. Out-of-range values are
    /// clamped to years 0001…9999 so the result always fits the pattern.
    static func utcTimestamp(secondsSince1970 value: Double) -> String {
        let minimum = -62_135_596_800.0  // 0001-01-01T00:00:00
        let maximum = 253_402_300_799.0  // 9999-12-31T23:59:59
        let clamped = value.isFinite ? min(max(value.rounded(.down), minimum), maximum) : 0
        let total = Int64(clamped)
        var days = total / 86_400
        var secondOfDay = total % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)

        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T"
            + "\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay % 3600 / 60, 2)):\(pad(secondOfDay % 60, 2))"
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
