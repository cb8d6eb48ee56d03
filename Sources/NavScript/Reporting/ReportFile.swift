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
        // Foundation says only "NSCocoaErrorDomain error 512" for these two.
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: destination.path, isDirectory: &isFolder), isFolder.boolValue {
            throw WriteError(kind: kind, path: destination.path, reason: "it is a folder; give a file name")
        }
        if let file = firstFile(above: destination) {
            throw WriteError(kind: kind, path: destination.path, reason: "\(file) is a file, not a folder")
        }
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

    /// The nearest existing ancestor of `url` when it is not a folder.
    private static func firstFile(above url: URL) -> String? {
        var folder = url.deletingLastPathComponent()
        while folder.path != "/" {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) {
                return isFolder.boolValue ? nil : folder.path
            }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }
}
