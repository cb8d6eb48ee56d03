import Foundation

/// Which file a path or a descriptor is — its device and inode — and what kind.
///
/// Why: two names of one file (a hard link, a symbolic link, `/dev/stdout`
/// while standard output is redirected) must be told to be one file
/// wherever a run could otherwise read it twice or write it twice: scenario
/// files found twice, `file:LINE` arguments, two reports into one file, a
/// report into the file a standard stream goes to.
package struct FileIdentity: Hashable, Sendable, CustomStringConvertible {
    package let device: UInt64
    package let inode: UInt64
    /// `st_mode & S_IFMT`.
    private let kind: UInt32

    /// The file at `path`, following symbolic links; nil when there is none.
    package init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        self.init(status)
    }

    /// The file open as `descriptor`; nil when it is not open.
    package init?(descriptor: Int32) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        self.init(status)
    }

    private init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        kind = UInt32(status.st_mode & S_IFMT)
    }

    package var isRegularFile: Bool { kind == UInt32(S_IFREG) }
    package var isFolder: Bool { kind == UInt32(S_IFDIR) }
    package var isPipe: Bool { kind == UInt32(S_IFIFO) }
    package var isCharacterDevice: Bool { kind == UInt32(S_IFCHR) }

    /// `device:inode`, a key that names the file whatever path leads to it.
    package var description: String { "\(device):\(inode)" }

    /// The same file (the kind is what the two stats said; one file has one).
    package static func == (lhs: FileIdentity, rhs: FileIdentity) -> Bool {
        lhs.device == rhs.device && lhs.inode == rhs.inode
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(device)
        hasher.combine(inode)
    }
}
