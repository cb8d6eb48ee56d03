import Foundation

/// How every report file is written: atomically — a temporary file in the
/// same folder, then a rename — so a reader (or a CI step after an
/// interrupted run) never sees half a report. Missing parent folders are
/// created.
public enum ReportFile {
    public struct WriteError: Error, CustomStringConvertible, Sendable {
        /// `JUnit report`, `HTML report`.
        public var kind: String
        public var path: String
        public var reason: String
        public var description: String { "cannot write the \(kind) to \(path): \(reason)" }

        public init(kind: String, path: String, reason: String) {
            self.kind = kind
            self.path = path
            self.reason = reason
        }
    }

    public static func write(_ text: String, to url: URL, kind: String) throws(WriteError) {
        let destination = url.standardizedFileURL
        let folder = destination.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw WriteError(kind: kind, path: destination.path, reason: error.localizedDescription)
        }
        if rename(temporary.path, destination.path) != 0 {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw WriteError(kind: kind, path: destination.path, reason: reason)
        }
    }
}
