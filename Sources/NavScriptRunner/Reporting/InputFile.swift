import Foundation

/// A file named on the command line (a JUnit report to merge, a manifest to
/// check), read to its end — up to a limit.
///
/// Why not `FileHandle.readToEnd()`: it reads whatever the path is until it
/// ends, and a device (`/dev/zero`) or an endless pipe (`<(yes)`) never
/// does — memory grew by 1.5 GB a second until the system killed the
/// process; and when memory did run out (`ulimit -v`), it said
/// "NSCocoaErrorDomain error 256" or "Bad address". Here a device is
/// refused before a byte is read, anything else is read up to `limit`, and
/// running out of memory is said as that.
package enum InputFile {
    /// Why the file was not read.
    package enum Failure: Error, Equatable {
        case missing
        case folder
        /// A character or block device (`/dev/zero`, a disk, a terminal): it may never end.
        case device
        /// The system's reason (`Permission denied`).
        case unreadable(String)
        /// More than the limit given: a pipe that does not end, or a file far larger than its kind is.
        case tooLarge(limit: Int)
        /// Memory to hold what was read could not be had, after `read` bytes (an address-space limit, `ulimit -v`).
        case outOfMemory(read: Int)
    }

    /// The bytes at `path`, following symbolic links (`/dev/stdin` is the
    /// pipe or file behind it): a regular file or a pipe, at most `limit`
    /// bytes of it.
    package static func contents(of path: String, limit: Int) throws(Failure) -> Data {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw errno == ENOENT || errno == ENOTDIR ? .missing : .unreadable(String(cString: strerror(errno)))
        }
        try refuse(mode: info.st_mode)
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(String(cString: strerror(errno))) }
        defer { close(descriptor) }
        // What was opened is what is read: checked again, the path may have changed since.
        guard fstat(descriptor, &info) == 0 else { throw .unreadable(String(cString: strerror(errno))) }
        try refuse(mode: info.st_mode)
        // A regular file's size is known (one allocation); a pipe's grows as it is read. One byte
        // more than the limit is room to tell "exactly the limit" from "more".
        let regular = info.st_mode & S_IFMT == S_IFREG
        var capacity = regular ? min(max(Int(info.st_size), 0) + 1, limit + 1) : min(1 << 16, limit + 1)
        guard var buffer = malloc(capacity) else { throw .outOfMemory(read: 0) }
        var count = 0
        while true {
            if count == capacity {
                guard count <= limit else {
                    free(buffer)
                    throw .tooLarge(limit: limit)
                }
                let grown = capacity <= limit / 2 ? capacity * 2 : limit + 1
                guard let larger = realloc(buffer, grown) else {
                    free(buffer)
                    throw .outOfMemory(read: count)
                }
                buffer = larger
                capacity = grown
            }
            let got = read(descriptor, buffer + count, capacity - count)
            if got < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                free(buffer)
                throw .unreadable(reason)
            }
            if got == 0 { break }
            count += got
        }
        if count > limit {
            free(buffer)
            throw .tooLarge(limit: limit)
        }
        return Data(bytesNoCopy: buffer, count: count, deallocator: .free)
    }

    /// `bytes` for people: `1 GiB`, `64 MiB`, `4 KiB`, `100 bytes`.
    package static func size(_ bytes: Int) -> String {
        for (shift, unit) in [(30, "GiB"), (20, "MiB"), (10, "KiB")] where bytes >= 1 << shift && bytes % (1 << shift) == 0 {
            return "\(bytes >> shift) \(unit)"
        }
        return "\(bytes) byte\(bytes == 1 ? "" : "s")"
    }

    private static func refuse(mode: mode_t) throws(Failure) {
        switch mode & S_IFMT {
        case S_IFDIR: throw .folder
        case S_IFCHR, S_IFBLK: throw .device
        default: return
        }
    }
}
