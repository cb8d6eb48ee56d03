import Foundation
import NavScript
import NavScriptRuntime

/// A file written with one `write(2)` per record and nothing in between:
/// no buffer a crash could lose, and none of `FileHandle`'s own work (it
/// cost about twice the system call, for every step an exploration traces;
/// Benchmarks/README.md has the figures).
final class AppendOnlyFile: Sendable {
    private let descriptor: Int32

    /// Creates or truncates `path` (not through a symbolic link); nil when it cannot.
    /// Appending: after ``truncate()`` the next record goes to the start.
    init?(path: String) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Empties the file.
    func truncate() { _ = ftruncate(descriptor, 0) }

    /// Appends `text` whole (a short write goes on where it stopped); a
    /// failure is dropped: the caller's record is best effort.
    func append(_ text: String) {
        _ = OutputStreams.writeAll(text, to: descriptor)
    }
}
