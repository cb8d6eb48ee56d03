import Foundation

/// `--json FILE|-`: every run event as one line of JSON, written and
/// flushed as it happens — for dashboards, editors and scripts that follow
/// a run live (`navscript run --json - | jq …`). The schema is
/// ``RunEvent``'s encoding.
public final class JSONLinesReport: RunReporter {
    public let name: String
    private let handle: FileHandle
    private let encoder: JSONEncoder

    /// Opens (creates or truncates) `path`, or standard output for `-`.
    /// Throws before the run starts when the file cannot be created.
    public init(path: String) throws(ReportFile.WriteError) {
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if path == "-" {
            name = "the JSON lines on standard output"
            handle = FileHandle.standardOutput
            return
        }
        name = "the JSON lines report \(path)"
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw ReportFile.WriteError(kind: "JSON lines report", path: path, reason: error.localizedDescription)
        }
        guard FileManager.default.createFile(atPath: path, contents: nil),
              let handle = FileHandle(forWritingAtPath: path) else {
            throw ReportFile.WriteError(kind: "JSON lines report", path: path, reason: String(cString: strerror(errno)))
        }
        self.handle = handle
    }

    public func receive(_ event: RunEvent) throws {
        var line = try encoder.encode(event)
        line.append(UInt8(ascii: "\n"))
        try handle.write(contentsOf: line)
    }

    /// One event's line, without the newline (for tests and tools).
    public static func line(_ event: RunEvent) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(event), as: UTF8.self)
    }
}
