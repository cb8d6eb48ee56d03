import Foundation

/// What a worker wrote to its standard error, kept for the report of a
/// crash: the Swift runtime's trap line and the last lines written.
///
/// The trap line is kept apart as soon as it is complete: the stack dump
/// that follows a trap can be longer than the window of lines kept, and
/// the trap's message and place are what the report needs most.
package struct WorkerStderr {
    package init() {}

    /// The most kept of the end of the stream, in bytes.
    static let window = 4000

    private var buffer = ""
    /// A line not yet ended by a newline (chunks split lines anywhere).
    private var pending = ""

    /// The Swift runtime's trap line (`file.swift:52: Fatal error: …`), if
    /// the worker wrote one — or, from a release build's backtrace, the
    /// failure and the first frame in the app's own code, in the same shape.
    package var trapMessage: String? {
        if let fatalLine { return fatalLine }
        guard let failure = backtraceFailure else { return nil }
        guard let frame = appFrame else { return failure }
        return "\(frame.place): \(failure) (in \(frame.function))"
    }
    private var fatalLine: String?
    /// `Swift runtime failure: …` from the backtracer's headline.
    private var backtraceFailure: String?
    private var appFrame: (place: String, function: String)?

    /// The Swift runtime's first trap line in `text` (`Fatal error: …`,
    /// `Precondition failed: …`, a runtime failure), trimmed and capped.
    package static func trapLine(in text: some StringProtocol) -> String? {
        text.split(separator: "\n").first {
            ($0.contains("Fatal error") || $0.contains("runtime failure") || $0.contains("Precondition failed"))
                && !($0.first?.isWhitespace == true && $0.contains(" 0x"))  // a backtrace frame naming the failure
        }
        .map { String($0.trimmingCharacters(in: .whitespaces).prefix(300)) }
    }

    /// `  1     0x… ShopRouter.deliver(_:via:) + 2599 in navscript at /…/ShopRouter.swift:48:62`
    /// → (`ShopRouter.swift:48`, `ShopRouter.deliver(_:via:)`): a backtrace frame in the app's
    /// own code (not the runtime's, not compiler-generated).
    static func appFrame(_ line: Substring) -> (place: String, function: String)? {
        let trimmed = line.drop { $0 == " " }
        guard trimmed.first?.isNumber == true, !line.contains("[system]"), !line.contains("[thunk]"),
            let at = line.range(of: " at ", options: .backwards), let address = line.range(of: " 0x")
        else { return nil }
        let location = line[at.upperBound...]
        guard location.hasPrefix("/"), location.contains(".swift:") else { return nil }
        let parts = location.split(separator: ":")
        guard parts.count >= 2, let file = parts.first?.split(separator: "/").last else { return nil }
        var function = line[address.upperBound...].drop { $0 != " " }.dropFirst()
        if let offset = function.range(of: " + ") ?? function.range(of: " in ") { function = function[..<offset.lowerBound] }
        return ("\(file):\(parts[1])", String(function))
    }

    /// What a process wrote to standard error, read as a whole.
    package static func reading(_ text: String) -> WorkerStderr {
        var stderr = WorkerStderr()
        stderr.append(text.hasSuffix("\n") ? text : text + "\n")
        return stderr
    }

    mutating func append(_ text: String) {
        pending += text
        guard let lastNewline = pending.lastIndex(of: "\n") else {
            if pending.utf8.count > Self.window { pending = String(pending.suffix(Self.window)) }
            return
        }
        let complete = pending[...lastNewline]
        pending = String(pending[pending.index(after: lastNewline)...])
        if let trap = Self.trapLine(in: complete) {
            // The first trap told: a later one is the crash's consequence.
            if fatalLine == nil && backtraceFailure == nil {
                if trap.hasPrefix("*** ") {
                    backtraceFailure = String(trap.dropFirst(4).dropLast(trap.hasSuffix(" ***") ? 4 : 0))
                } else {
                    fatalLine = trap
                }
            }
        }
        if backtraceFailure != nil && appFrame == nil {
            appFrame = complete.split(separator: "\n").lazy.compactMap(Self.appFrame).first
        }
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
            // The backtracer's frame of its report (headline kept apart, as the trap message).
            let chrome = ["*** ", "Platform: ", "Thread ", "Backtrace took", "swift-runtime: ", "..."]
            return !isFrame && !trimmed.hasPrefix("Stack dump") && !trimmed.hasPrefix("Current stack trace")
                && !chrome.contains(where: { trimmed.hasPrefix($0) })
        }.suffix(8).map(String.init)
        if let trapMessage, !lines.contains(where: { $0.contains(trapMessage) }) { lines.insert(trapMessage, at: 0) }
        return lines.isEmpty ? "" : "worker stderr:\n" + lines.map { "  " + $0 }.joined(separator: "\n")
    }
}
