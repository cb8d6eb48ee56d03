import Foundation

/// What a worker wrote to its standard error, kept for the report of a
/// crash: the Swift runtime's trap line and the last lines written.
///
/// The trap line is kept apart as soon as it is complete: the stack dump
/// that follows a trap can be longer than the window of lines kept, and
/// the trap's message and place are what the report needs most.
package struct WorkerStderr {
    /// The most kept of the end of the stream, in bytes.
    static let window = 4000

    private var buffer = ""
    /// A line not yet ended by a newline (chunks split lines anywhere).
    private var pending = ""

    /// The Swift runtime's trap line (`file.swift:52: Fatal error: …`), if
    /// the worker wrote one.
    private(set) var trapMessage: String?

    /// The Swift runtime's last trap line in `text` (`Fatal error: …`,
    /// `Precondition failed: …`, a runtime failure), trimmed and capped.
    package static func trapLine(in text: some StringProtocol) -> String? {
        text.split(separator: "\n").last {
            $0.contains("Fatal error") || $0.contains("runtime failure") || $0.contains("Precondition failed")
        }
        .map { String($0.trimmingCharacters(in: .whitespaces).prefix(300)) }
    }

    mutating func append(_ text: String) {
        pending += text
        guard let lastNewline = pending.lastIndex(of: "\n") else {
            if pending.utf8.count > Self.window { pending = String(pending.suffix(Self.window)) }
            return
        }
        let complete = pending[...lastNewline]
        pending = String(pending[pending.index(after: lastNewline)...])
        if let trap = Self.trapLine(in: complete) { trapMessage = trap }
        buffer += complete
        if buffer.utf8.count > Self.window {
            // Cut at a line's start, so no kept line is a fragment.
            let tail = buffer.suffix(Self.window)
            buffer = String(tail.firstIndex(of: "\n").map { tail[tail.index(after: $0)...] } ?? tail)
        }
    }

    /// The end of what the worker wrote — a trap's message, without the raw
    /// stack dump that follows it.
    var tail: String {
        var lines = (buffer + pending).split(separator: "\n", omittingEmptySubsequences: true).filter { line in
            let trimmed = line.drop { $0 == " " }
            let isFrame = trimmed.first?.isNumber == true && trimmed.contains("0x")
            return !isFrame && !trimmed.hasPrefix("Stack dump") && !trimmed.hasPrefix("Current stack trace")
        }.suffix(8).map(String.init)
        if let trapMessage, !lines.contains(where: { $0.contains(trapMessage) }) { lines.insert(trapMessage, at: 0) }
        return lines.isEmpty ? "" : "worker stderr:\n" + lines.map { "  " + $0 }.joined(separator: "\n")
    }
}
