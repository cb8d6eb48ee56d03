import NavScript
import NavScriptRuntime

/// A word of a POSIX shell command line, quoted only when it needs to be:
/// the replay commands reports and explorations print are pasted into a
/// terminal as they are.
enum ShellWord {
    /// A word as a POSIX shell reads it back unchanged.
    static func quoted(_ word: String) -> String {
        let plain = word.allSatisfy { $0.isLetter || $0.isNumber || "-_./:=,@".contains($0) }
        return plain && !word.isEmpty ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
