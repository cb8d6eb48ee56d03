import NavScript
import NavScriptRuntime

/// A word of a POSIX shell command line, quoted only when it needs to be:
/// the replay commands reports and explorations print are pasted into a
/// terminal as they are.
enum ShellWord {
    /// A word as a POSIX shell reads it back unchanged. One holding a
    /// control character (an ESC in a file's name) is spelled with bash's
    /// `$'…\x1b…'`: the raw byte would be dropped by a report (XML cannot
    /// hold it) or act on the terminal, and the command would name another file.
    static func quoted(_ word: String) -> String {
        let plain = word.allSatisfy { $0.isLetter || $0.isNumber || "-_./:=,@".contains($0) }
        if plain && !word.isEmpty { return word }
        guard word.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        var spelled = "$'"
        for scalar in word.unicodeScalars {
            switch scalar {
            case "\\": spelled += "\\\\"
            case "'": spelled += "\\'"
            case _ where scalar.properties.generalCategory == .control:
                // Control characters are all below U+0100: two hex digits.
                spelled += "\\x" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
            default: spelled.unicodeScalars.append(scalar)
            }
        }
        return spelled + "'"
    }
}
