import Foundation
import NavScript
import NavScriptRuntime

/// How every report file is written: atomically — a temporary file in the
/// same folder, then a rename — so a reader (or a CI step after an
/// interrupted run) never sees half a report. Missing parent folders are
/// created. A path that is a symbolic link writes its target (the link
/// stays); one that is not a regular file — a FIFO, `/dev/stdout`, a
/// device — is written to as it is, never replaced by a file.
package enum ReportFile {
    package struct WriteError: Error, CustomStringConvertible, Sendable {
        /// `JUnit report`, `HTML report`.
        package var kind: String
        package var path: String
        package var reason: String
        package var description: String { "cannot write the \(kind) to \(path): \(reason)" }

        package init(kind: String, path: String, reason: String) {
            self.kind = kind
            self.path = path
            self.reason = reason
        }
    }

    /// Why a write failed, in the system's words: Foundation wraps them
    /// (`NSCocoaErrorDomain error 512`), so the POSIX error underneath is
    /// what is said; a reader that went away is named as such.
    /// `errno`, when given, is what the failed system call left (Foundation
    /// wraps some failures — a file-size limit, a closed descriptor — with
    /// no POSIX error underneath: the call's own errno says what happened).
    package static func reason(_ error: any Error, errno failed: Int32 = 0) -> String {
        let nsError = error as NSError
        var code: Int32?
        if nsError.domain == NSPOSIXErrorDomain { code = Int32(nsError.code) }
        if code == nil, let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
            underlying.domain == NSPOSIXErrorDomain
        {
            code = Int32(underlying.code)
        }
        if code == nil, failed != 0 { code = failed }
        guard let code else { return error.localizedDescription }
        if code == EFBIG { return "File too large (the file-size limit, ulimit -f)" }
        if code == EBADF { return "the descriptor is closed (was standard output closed, `>&-`?)" }
        if code == EPIPE { return "its reader went away (broken pipe: a `| head` or a closed consumer)" }
        return String(cString: strerror(code))
    }

    /// `abandon`: for a stream (a FIFO, a pipe), asked every 200 ms while its reader takes
    /// nothing; true gives the report up unfinished (a write error) rather than wait on.
    package static func write(
        _ text: String, to url: URL, kind: String, abandon: (@Sendable () -> Bool)? = nil
    ) throws(WriteError) {
        switch Target(url.standardizedFileURL) {
        case .stream(let path):
            let handle = try openStream(path, kind: kind)
            defer { try? handle.close() }
            if let abandon {
                try writeWatching(Data(text.utf8), to: handle.fileDescriptor, kind: kind, path: url.path, abandon: abandon)
                return
            }
            errno = 0
            do { try handle.write(contentsOf: Data(text.utf8)) } catch {
                throw WriteError(kind: kind, path: url.path, reason: Self.reason(error, errno: errno))
            }
        case .file(let destination):
            try replace(destination, with: text, kind: kind)
        }
    }

    /// Writes `bytes` to a stream a page at a time, each once its reader has made room: a
    /// reader that stopped reading blocked the run in `write`, where no signal could end it.
    /// (A pipe taking writes of up to a page whenever poll says it is writable never blocks.)
    /// `abandon` is asked every 200 ms while the reader takes nothing.
    package static func writeWatching(
        _ bytes: Data, to descriptor: Int32, kind: String, path: String, abandon: @Sendable () -> Bool
    ) throws(WriteError) {
        var offset = 0
        while offset < bytes.count {
            var waiting = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&waiting, 1, 200)
            if ready == 0 || (ready < 0 && errno == EINTR) {
                if abandon() {
                    throw WriteError(
                        kind: kind, path: path,
                        reason: "its reader stopped reading, and the run was stopped: it was given up unfinished")
                }
                continue
            }
            let chunk = min(4096, bytes.count - offset)
            let written = bytes.withUnsafeBytes { buffer in Glibc.write(descriptor, buffer.baseAddress! + offset, chunk) }
            if written < 0 {
                let failed = errno
                if failed == EINTR || failed == EAGAIN { continue }
                throw WriteError(kind: kind, path: path, reason: Self.reason(CocoaError(.fileWriteUnknown), errno: failed))
            }
            offset += written
        }
    }

    /// Where a report path really writes.
    enum Target {
        /// A regular file (or none yet): replaced atomically. A symbolic link's target, resolved.
        case file(URL)
        /// Something that is not a file (a FIFO, a terminal, a device): opened and written.
        case stream(String)

        init(_ url: URL) {
            // `/dev/stdout` redirected to a file resolves to that file: replacing it would cut the
            // process's own output off. Device and process paths are streams, whatever is behind.
            if url.path.hasPrefix("/dev/") || url.path.hasPrefix("/proc/") {
                self = .stream(url.path)
                return
            }
            var status = stat()
            guard stat(url.path, &status) == 0 else {
                self = .file(ReportFile.resolved(url))  // nothing there yet, or a link to nothing: its target is made
                return
            }
            switch status.st_mode & S_IFMT {
            case S_IFREG: self = .file(ReportFile.resolved(url))
            case S_IFDIR: self = .file(url)  // refused as a folder below
            default: self = .stream(url.path)
            }
        }
    }

    /// Where a report path really writes: through symbolic links, also one
    /// whose target does not exist yet (its target is where the file is made).
    package static func resolved(_ url: URL) -> URL {
        let url = url.standardizedFileURL
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: url.path),
            !FileManager.default.fileExists(atPath: url.path)
        {
            return URL(fileURLWithPath: target, relativeTo: url.deletingLastPathComponent()).standardizedFileURL
        }
        return url.resolvingSymlinksInPath()
    }

    /// Opens a stream target for writing. A FIFO nobody reads would block
    /// the run in `open` for ever: it is opened without waiting and refused
    /// when it has no reader, then written to normally; a reader that goes
    /// away is a write error, not a SIGPIPE that ends the run.
    static func openStream(_ path: String, kind: String) throws(WriteError) -> FileHandle {
        // The process's own standard output or error (or another descriptor it holds): written
        // through that descriptor. Opened again, a redirected file would be written from its start,
        // over what the run printed before.
        if let own = Self.ownDescriptor(path) {
            let copy = dup(own)
            guard copy >= 0 else { throw WriteError(kind: kind, path: path, reason: String(cString: strerror(errno))) }
            signal(SIGPIPE, SIG_IGN)
            return FileHandle(fileDescriptor: copy, closeOnDealloc: true)
        }
        let descriptor = open(path, O_WRONLY | O_APPEND | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = errno == ENXIO ? "it is a FIFO with no reader (start the reader first)" : String(cString: strerror(errno))
            throw WriteError(kind: kind, path: path, reason: reason)
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        signal(SIGPIPE, SIG_IGN)
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// The descriptor `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` or `/proc/self/fd/N` names in this process.
    static func ownDescriptor(_ path: String) -> Int32? {
        switch path {
        case "/dev/stdout": return STDOUT_FILENO
        case "/dev/stderr": return STDERR_FILENO
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/", "/proc/\(getpid())/fd/"] where path.hasPrefix(prefix) {
                return Int32(path.dropFirst(prefix.count))
            }
            return nil
        }
    }

    /// Makes sure a report file can be made at `destination` (named `shown`
    /// in messages): not a folder, no file where a folder must be (Foundation
    /// says only "NSCocoaErrorDomain error 512" for these two), its folder
    /// created.
    static func prepare(_ destination: URL, shown: String, kind: String) throws(WriteError) {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: destination.path, isDirectory: &isFolder), isFolder.boolValue {
            throw WriteError(kind: kind, path: shown, reason: "it is a folder; give a file name")
        }
        if let file = firstFile(above: destination) {
            throw WriteError(kind: kind, path: shown, reason: "\(file) is a file, not a folder")
        }
        do {
            try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw WriteError(kind: kind, path: shown, reason: Self.reason(error))
        }
    }

    private static func replace(_ destination: URL, with text: String, kind: String) throws(WriteError) {
        let folder = destination.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).tmp")
        try prepare(destination, shown: destination.path, kind: kind)
        errno = 0
        do {
            try Data(text.utf8).write(to: temporary)
        } catch {
            let failed = errno
            try? FileManager.default.removeItem(at: temporary)
            throw WriteError(kind: kind, path: destination.path, reason: Self.reason(error, errno: failed))
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
