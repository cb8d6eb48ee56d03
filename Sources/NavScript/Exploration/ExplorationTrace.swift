import Foundation

/// What an exploration is doing, written as it happens to a file another
/// process reads: each fresh app (a walk, or a replay while shrinking)
/// starts a segment, and each line of Lua is written before it runs. Why:
/// a crash takes the exploring process down with everything it held, and a
/// hang never returns — the supervising `explore` reads the last segment
/// to know the steps that led there, and whether steps still come.
///
/// Unbuffered on purpose (one `write` per line, a few microseconds): what
/// a crash must not lose cannot sit in a buffer.
public final class ExplorationTrace: Sendable {
    private let file: AppendOnlyFile

    /// Creates (or truncates) `path` for the trace; nil when it cannot be written.
    public init?(path: String) {
        guard let file = AppendOnlyFile(path: path) else { return nil }
        self.file = file
    }

    /// A fresh app: the lines that follow start from its launch.
    func startSegment() { write("W\n") }

    /// A line about to run.
    func step(_ line: String) {
        write("S " + (line.contains("\n") ? line.replacingOccurrences(of: "\n", with: " ") : line) + "\n")
    }

    /// The last line ran but is not part of the walk (the app refused it).
    func dropLast() { write("X\n") }

    /// A trace that cannot be written costs the supervisor only its steps.
    private func write(_ text: String) { file.append(text) }

    /// The lines of the last segment of a trace's text: the steps since
    /// the last fresh app, without those it refused — the last one (that
    /// was running when the process stopped) included.
    public static func lastSegment(of text: String) -> [String] {
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
