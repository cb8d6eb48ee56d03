import Foundation
import NavScript

/// A scenario file and the suite folder whose `support/` it may require
/// from: what discovery finds and what a file run is given.
public struct SuiteFile: Hashable, Sendable {
    /// Path as reported (relative to the working directory when inside it).
    public var path: String
    public var url: URL
    public var suiteRoot: URL
    /// The file's path for the file system (absolute when `url` is):
    /// kept because `URL.path` decodes the URL again on every read.
    public var fileSystemPath: String

    public init(path: String, url: URL, suiteRoot: URL, fileSystemPath: String? = nil) {
        self.path = path
        self.url = url
        self.suiteRoot = suiteRoot
        self.fileSystemPath = fileSystemPath ?? url.path
    }

    /// The path relative to the suite root (`cart/gated.lua`), the same from any working
    /// directory; the file's name when it lies outside the root.
    public var pathInSuite: String {
        let root = suiteRoot.standardizedFileURL.path
        let prefix = root.hasSuffix("/") ? root : root + "/"
        let path = url.standardizedFileURL.path
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : url.lastPathComponent
    }
}
