import Foundation

/// What changes when a file's text does: its modification and status-change times (to the
/// nanosecond: a `touch` that puts the old modification time back still moves the latter),
/// size and inode — of what is read, through symbolic links (a scenario file may be a link,
/// and stamping the link missed every edit of its target).
///
/// Why: a run that reads a file again later — a worker resuming a file after a crash, `mutate`
/// running the suite once per fault — must run what the run started with; an edit between the
/// two reads made the later runs disagree with the first for the edit's sake.
package struct FileStamp: Equatable, Sendable {
    var modified: timespec
    var changed: timespec
    var size: Int
    var inode: UInt64
    var device: UInt64

    package static func == (lhs: FileStamp, rhs: FileStamp) -> Bool {
        lhs.modified.tv_sec == rhs.modified.tv_sec && lhs.modified.tv_nsec == rhs.modified.tv_nsec
            && lhs.changed.tv_sec == rhs.changed.tv_sec && lhs.changed.tv_nsec == rhs.changed.tv_nsec
            && lhs.size == rhs.size && lhs.inode == rhs.inode && lhs.device == rhs.device
    }

    /// The stamp of the file at `path` (nil: it is not there).
    static func of(_ path: String) -> FileStamp? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return FileStamp(
            modified: status.st_mtim, changed: status.st_ctim, size: Int(status.st_size), inode: UInt64(status.st_ino),
            device: UInt64(status.st_dev))
    }

    /// The first file under `root` that changed (or went) since `first` was stamped, or nil. A file
    /// this run's output is being written to — a log the console output is redirected or piped to — is
    /// being written, not edited as data a scenario reads (``OpenFiles/openForWritingByThisRun()``).
    static func changedFile(under root: String, since first: [String: FileStamp?], except written: Set<String>) -> String? {
        let now = suite(under: root, except: written)
        let changed =
            now.filter { first[$0.key] != $0.value }.map(\.key).sorted()
            + first.keys.filter { now[$0] == nil }.sorted()
        guard !changed.isEmpty else { return nil }
        let beingWritten = OpenFiles.openForWritingByThisRun()
        return changed.first { !beingWritten.contains($0) }
    }

    /// The files under `root` a scenario file can read besides itself — the modules under its
    /// `support/` folder and every file that is not a scenario file (data read with io.open, also
    /// in a hidden folder; a version-control or build folder left out) — by path, with their stamps.
    static func suite(under root: String, except written: Set<String> = []) -> [String: FileStamp?] {
        let base = URL(fileURLWithPath: root).standardizedFileURL
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { return [:] }
        let support = base.appendingPathComponent("support").path + "/"
        var stamps: [String: FileStamp?] = [:]
        for case let file as URL in walker {
            if [".git", ".build", ".swiftpm", ".svn", ".hg"].contains(file.lastPathComponent) {
                walker.skipDescendants()
                continue
            }
            let path = file.standardizedFileURL.path
            if file.pathExtension == "lua" && !path.hasPrefix(support) { continue }  // a scenario file: stamped on its own
            if written.contains(path) { continue }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            stamps[path] = of(path)
        }
        return stamps
    }
}
