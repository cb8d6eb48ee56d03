import Foundation
import NavScript
import NavScriptRuntime

/// `--json FILE|-`: every run event as one line of JSON, written and
/// flushed as it happens — for dashboards, editors and scripts that follow
/// a run live (`navscript run --json - | jq …`). The schema is
/// ``RunEvent``'s encoding.
package final class JSONLinesReport: RunReporter {
    package let name: String
    /// The file, or `standard output`, for messages.
    private let destination: String
    private let handle: FileHandle
    private let encoder: JSONEncoder
    /// Written as a stream (standard output, a pipe, a FIFO): its reader may stop reading.
    private let isStream: Bool
    /// Whether to give the stream up while its reader does not read (see ``init(path:abandon:)``).
    private let abandon: (@Sendable () -> Bool)?

    /// Opens (creates or truncates) `path`, or standard output for `-`.
    /// Throws before the run starts when the file cannot be created.
    /// `abandon`: asked every 200 ms while a stream's reader does not take
    /// a line; true gives the stream up (a write error) rather than wait on.
    package init(path: String, abandon: (@Sendable () -> Bool)? = nil) throws(ReportFile.WriteError) {
        encoder = Self.makeEncoder()
        self.abandon = abandon
        isStream = Self.writesAStream(path)
        destination = path == "-" ? "standard output" : path
        if path == "-" {
            name = "the JSON lines on standard output"
            // The stream keeps standard output to itself: whatever else
            // writes there (a scenario's io.write, a stray print in the app
            // when running in process) goes to standard error instead.
            let stream = dup(STDOUT_FILENO)
            dup2(STDERR_FILENO, STDOUT_FILENO)
            handle = FileHandle(fileDescriptor: stream, closeOnDealloc: true)
            // A reader that goes away (`| head`) is a write error for this
            // reporter, not a signal that kills the run before its reports.
            signal(SIGPIPE, SIG_IGN)
            return
        }
        name = "the JSON lines report \(path)"
        let url = URL(fileURLWithPath: path)
        // Opened where it is, never replaced: a FIFO or /dev/stdout gets the stream, a link's target the lines.
        let handle: FileHandle
        switch ReportFile.Target(url.standardizedFileURL) {
        case .stream(let target):
            handle = try ReportFile.openStream(target, kind: "JSON lines report")
        case .file(let file):
            try ReportFile.prepare(file, shown: path, kind: "JSON lines report")
            if !FileManager.default.fileExists(atPath: file.path) {
                guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
                    throw ReportFile.WriteError(kind: "JSON lines report", path: path, reason: String(cString: strerror(errno)))
                }
            }
            guard let opened = FileHandle(forWritingAtPath: file.path) else {
                throw ReportFile.WriteError(kind: "JSON lines report", path: path, reason: String(cString: strerror(errno)))
            }
            try? opened.truncate(atOffset: 0)
            handle = opened
        }
        self.handle = handle
    }

    /// Whether `path` is written as a stream (standard output, a FIFO, a
    /// device) rather than a file replaced whole: what was written there
    /// cannot be taken back, only continued.
    package static func writesAStream(_ path: String) -> Bool {
        if path == "-" { return true }
        if case .stream = ReportFile.Target(URL(fileURLWithPath: path).standardizedFileURL) { return true }
        return false
    }

    package func receive(_ event: RunEvent) throws {
        var line = try encoder.encode(event)
        line.append(UInt8(ascii: "\n"))
        if isStream, let abandon {
            try ReportFile.writeWatching(line, to: handle.fileDescriptor, kind: "JSON lines report", path: destination, abandon: abandon)
            return
        }
        errno = 0
        do {
            try handle.write(contentsOf: line)
        } catch {
            var failed = errno
            if failed == 0, fcntl(handle.fileDescriptor, F_GETFD) == -1 { failed = errno }  // a closed descriptor
            throw ReportFile.WriteError(kind: "JSON lines report", path: destination, reason: ReportFile.reason(error, errno: failed))
        }
    }

    /// One event's line, without the newline (for tests and tools).
    package static func line(_ event: RunEvent) throws -> String {
        String(decoding: try makeEncoder().encode(event), as: UTF8.self)
    }

    /// Sorted keys, so lines compare and diff; slashes left as they are (paths).
    private static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // One key style for every level: nested values (a frame's selectedTab) come out snake_case too.
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return encoder
    }
}
