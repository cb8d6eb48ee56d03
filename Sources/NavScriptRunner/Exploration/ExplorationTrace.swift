import Foundation
import NavScript
import NavScriptRuntime

/// What an exploration is doing, written as it happens to a file another
/// process reads: each fresh app (a walk, or a replay while shrinking)
/// starts a segment, and each line of Lua is written before it runs. Why:
/// a crash takes the exploring process down with everything it held, and a
/// hang never returns — the supervising `explore` reads the last segment
/// to know the steps that led there, and whether steps still come.
///
/// Unbuffered on purpose (one `write` per record, about a microsecond): what
/// a crash must not lose cannot sit in a buffer. Only the segment under
/// way is kept — each fresh app empties the file — so an exploration of an
/// hour does not fill the disk, and a record that starts a step and has no
/// end after it is one the app has not returned from (a hang, if it stays
/// so).
public final class ExplorationTrace: Sendable {
    private let file: AppendOnlyFile

    /// Creates (or truncates) `path` for the trace; nil when it cannot be written.
    package init?(path: String) {
        guard let file = AppendOnlyFile(path: path) else { return nil }
        self.file = file
    }

    /// A fresh app: the lines that follow start from its launch (the file keeps only them).
    func startSegment() {
        file.truncate()
        write("W\n")
    }

    /// A line about to run.
    func step(_ line: String) {
        write("S " + (line.contains("\n") ? line.replacingOccurrences(of: "\n", with: " ") : line) + "\n")
    }

    /// The last line ran and returned.
    func stepEnded() { write("E\n") }

    /// The last line ran but is not part of the walk (the app refused it); it returned too.
    func dropLast() { write("X\n") }

    /// Whether a trace's text ends inside a step: a line started and did not return.
    package static func endsInsideAStep(_ text: Substring) -> Bool {
        text.split(separator: "\n", omittingEmptySubsequences: true).last?.first == "S"
    }

    /// A trace that cannot be written costs the supervisor only its steps.
    private func write(_ text: String) { file.append(text) }

    /// The lines of the last segment of a trace's text: the steps since
    /// the last fresh app, without those it refused — the last one (that
    /// was running when the process stopped) included.
    package static func lastSegment(of text: String) -> [String] {
        var lines: [String] = []
        for record in text.split(separator: "\n", omittingEmptySubsequences: true) {
            switch record.first {
            case "W": lines = []
            case "S": lines.append(String(record.dropFirst(2)))
            case "X": if !lines.isEmpty { lines.removeLast() }
            default: break
            }
        }
        return lines
    }
}
