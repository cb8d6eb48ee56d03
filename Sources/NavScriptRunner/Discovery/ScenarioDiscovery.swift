import Foundation
import NavScript
import NavScriptRuntime

/// Finds scenario files: every `*.lua` under the given paths, except those
/// in a `support/` folder (require-able helpers, not scenarios). Sorted, so
/// a run's order does not depend on the file system.
public struct ScenarioDiscovery {
    public let workingDirectory: URL

    public init(workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) {
        self.workingDirectory = workingDirectory.standardizedFileURL
    }

    /// Discovers scenario files; a path that does not exist is an error that
    /// names it (a typo in a CI job must not pass as an empty, green run).
    /// Only regular files (or links to them) are scenario files: a FIFO or a
    /// device named `*.lua` is an error before anything opens it (opening a
    /// FIFO waits for a writer, forever), and a folder named `*.lua` is a
    /// folder to walk. A folder given as an argument may be a symbolic link:
    /// it is walked where it leads, its files shown under the name given, and
    /// their suite root found from where they really are. A link to a folder
    /// met while walking is walked the same way, after the folder it is in,
    /// unless where it leads was walked already or lies inside a folder
    /// walked (a link back up: no loop); a file reached twice (through a
    /// folder and a link to it) runs once.
    public func discover(_ paths: [String]) throws(DiscoveryError) -> [SuiteFile] {
        // Each file as shown, where it really is, and the folder argument it was found
        // under (where that leads, and as given), for its suite root.
        // `isLink`: the file itself is a symbolic link (to a file that may be in the walk too).
        typealias Found = (shown: URL, real: URL, walked: (real: String, given: String)?, isLink: Bool)
        var found: [Found] = []
        let fm = FileManager.default
        // The arguments, then each folder link met in a walk — walked as a folder argument given
        // through a link is, unless where it leads was walked or lies inside a walk (a loop).
        var queue = paths[...]
        var walkedFolders: [String] = []
        func isWalked(_ real: String) -> Bool {
            walkedFolders.contains { real == $0 || real.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
        }
        while let path = queue.popFirst() {
            let url = URL(fileURLWithPath: path, relativeTo: workingDirectory).standardizedFileURL
            switch Self.kind(of: url.path) {
            case .missing:
                throw .notFound(path)
            case .other(let kind):
                throw .notRegular(path, kind)
            case .regular:
                guard url.pathExtension == "lua" else { throw .notLua(path) }
                if url.deletingLastPathComponent().lastPathComponent == "support" { throw .supportModule(path) }
                found.append((url, url, nil, Self.isSymbolicLink(url.path)))
            case .directory:
                if url.lastPathComponent == "support" { throw .supportModule(path) }
                let real = Self.realPath(url.path) ?? url.path
                walkedFolders.append(real)
                let walked = URL(fileURLWithPath: real, isDirectory: true)
                // A folder the walk cannot read would drop its scenarios without a word: an error instead.
                var unreadable: (URL, any Error)?
                let walker = fm.enumerator(at: walked, includingPropertiesForKeys: [.isDirectoryKey, .isSymbolicLinkKey], options: []) {
                    folder, error in
                    if unreadable == nil { unreadable = (folder, error) }
                    return true
                }
                guard let walker else { throw .unreadable(path, "it cannot be listed") }
                for case let file as URL in walker {
                    // `support/` holds modules; a hidden folder (`.git`, `.build`, an editor's) holds no scenarios.
                    if file.lastPathComponent == "support" || file.lastPathComponent.hasPrefix("."),
                        (try? file.resourceValues(forKeys: [.isDirectoryKey]))?.isDirectory == true
                    {
                        walker.skipDescendants()
                        continue
                    }
                    // A link to a folder is not walked into by the enumerator: its scenarios were left out
                    // without a word. It is walked after this folder, shown under the link's name.
                    if file.lastPathComponent != "support",
                        (try? file.resourceValues(forKeys: [.isSymbolicLinkKey]))?.isSymbolicLink == true,
                        Self.kind(of: file.path) == .directory
                    {
                        if let target = Self.realPath(file.path), !isWalked(target),
                            let shown = Self.rebase(file.standardizedFileURL.path, from: real, onto: url.path)
                        {
                            queue.append(display(shown))
                        }
                        continue
                    }
                    // A hidden name is an editor's or a tool's, never a scenario file: Emacs locks a file
                    // being edited with a dangling link `.#name.lua`, and the run failed to open it.
                    guard file.pathExtension == "lua", !file.lastPathComponent.hasPrefix(".") else { continue }
                    let physical = file.standardizedFileURL
                    let shown = Self.rebase(physical.path, from: real, onto: url.path).map { URL(fileURLWithPath: $0) } ?? physical
                    let kind = Self.kind(of: physical.path)
                    // A name that is not UTF-8 reaches us with U+FFFD in it, and no file has that name.
                    if kind == .missing && file.lastPathComponent.contains("\u{FFFD}") {
                        throw .undecodableName(display(shown))
                    }
                    switch kind {
                    // A dangling or unreadable link is kept: loading it says why (a green run must not hide it).
                    case .regular, .missing:
                        let isLink = (try? file.resourceValues(forKeys: [.isSymbolicLinkKey]))?.isSymbolicLink == true
                        found.append((shown, physical, (real, url.path), isLink))
                    case .directory: continue  // a folder named *.lua: the walk goes into it
                    case .other(let kind): throw .notRegular(display(shown), kind)
                    }
                }
                if let (folder, error) = unreadable {
                    let shown = Self.rebase(folder.standardizedFileURL.path, from: real, onto: url.path) ?? folder.path
                    throw .unreadable(display(shown), Self.reason(error))
                }
            }
        }
        // Keyed by bytes: Swift's String equality is canonical equivalence, and `café.lua` composed
        // and decomposed are two files (one was dropped without a word, and the run was green).
        var seen: Set<[UInt8]> = []
        var shownAs: [String: String] = [:]  // what each shown name reads as, for two that read the same
        var entries: [SuiteFile] = []
        // Files of one folder share a suite root: it is looked up once per
        // folder (each lookup asks the file system about every folder up
        // to the root, most of them without a `support/`).
        var rootsByFolder: [String: URL] = [:]
        var realRoots: [String: String] = [:]
        // A file reached twice — through a folder and a link to that folder, or as itself and through
        // a link to it (`b.lua -> a.lua`, a hard link) — runs once: it ran under both names, each result
        // counted. Files met as themselves come first, so a file linked to is shown under its own name;
        // each group by name, so that of two names of one file the same one runs in every run.
        let byName = { (one: Found, other: Found) in one.shown.path < other.shown.path }
        for (shown, real, walked, _) in found.filter({ !$0.isLink }).sorted(by: byName) + found.filter(\.isLink).sorted(by: byName) {
            let shownFolder = shown.deletingLastPathComponent().path
            let root = rootsByFolder[shownFolder] ?? suiteRoot(shown: shown, real: real, walked: walked)
            rootsByFolder[shownFolder] = root
            // Two roots without a support/ folder are one as far as a file's run goes (its `require`
            // finds nothing in either): a link in another folder ran the file a second time.
            let realRoot =
                realRoots[root.path]
                ?? (FileIdentity(path: root.appendingPathComponent("support").path)?.isFolder == true
                    ? Self.realPath(root.path) ?? root.path : "")
            realRoots[root.path] = realRoot
            // The file itself — its device and inode, whatever names lead to it — or, for a dangling link,
            // where it is; under its suite root, as a file runs against its root's support/ (the same file
            // in two suites runs in each). Keyed by bytes: `café/` composed and decomposed are two folders.
            let file =
                FileIdentity(path: real.path)?.description
                ?? (Self.realPath(real.deletingLastPathComponent().path) ?? real.deletingLastPathComponent().path) + "/"
                + real.lastPathComponent
            let key = file + "@" + realRoot
            guard seen.insert(Array(key.utf8)).inserted else { continue }
            let shownPath = display(shown.path)
            // What the name reads as: Swift's String equality (canonical equivalence), without the
            // characters nothing draws (a zero-width space, a soft hyphen, a variation selector).
            let reading = String(String.UnicodeScalarView(shownPath.unicodeScalars.filter { !$0.properties.isDefaultIgnorableCodePoint }))
            if let other = shownAs[reading], !other.utf8.elementsEqual(shownPath.utf8) {
                throw .equivalentNames(other, shownPath)
            }
            shownAs[reading] = shownPath
            entries.append(SuiteFile(path: display(shown.path), url: shown, suiteRoot: root, fileSystemPath: shown.path))
        }
        return entries.sorted { $0.path < $1.path }
    }

    /// The suite root of a file found, as entries show it: for a file found
    /// under a folder argument, looked up where the file really is, and shown
    /// under the name given when it lies inside that folder.
    private func suiteRoot(shown: URL, real: URL, walked: (real: String, given: String)?) -> URL {
        guard let walked else { return relativeToWorkingDirectory(suiteRoot(for: shown)) }
        let found = suiteRoot(for: real)
        let given = Self.rebase(found.path, from: walked.real, onto: walked.given)
        return relativeToWorkingDirectory(given.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? found)
    }

    /// `path` with its leading `from` folder replaced by `onto` (the same
    /// folder under another name), or nil when `path` is not inside `from`.
    static func rebase(_ path: String, from: String, onto: String) -> String? {
        if from == onto { return path }
        if path == from { return onto }
        let prefix = from.hasSuffix("/") ? from : from + "/"
        guard path.hasPrefix(prefix) else { return nil }
        return (onto.hasSuffix("/") ? onto : onto + "/") + path.dropFirst(prefix.count)
    }

    /// Whether `path` itself (not what it leads to) is a symbolic link.
    static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    /// `realpath(3)`: the path with every link resolved, as the C side sees it.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    enum Kind: Equatable { case regular, directory, missing, other(String) }

    /// Why the file system refused, in its own words (`Permission denied`).
    static func reason(_ error: any Error) -> String {
        if let posix = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain,
            let text = strerror(Int32(posix.code))
        {
            return String(cString: text)
        }
        if let cocoa = error as? CocoaError, cocoa.code == .fileReadNoPermission { return "Permission denied" }
        return (error as NSError).localizedDescription
    }

    /// What `path` is, following symbolic links.
    static func kind(of path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFDIR: return .directory
        case S_IFIFO: return .other("a FIFO")
        case S_IFSOCK: return .other("a socket")
        case S_IFCHR, S_IFBLK: return .other("a device")
        default: return .other("a special file")
        }
    }

    /// The nearest folder at or above the file's that has a `support/`
    /// folder, wherever the working directory is (so `require` finds the
    /// suite's helpers when one file is run from inside the suite or from
    /// outside the repository).
    func suiteRoot(for file: URL) -> URL {
        var folder = file.deletingLastPathComponent()
        let fm = FileManager.default
        while true {
            var isDirectory: ObjCBool = false
            if fm.fileExists(atPath: folder.appendingPathComponent("support").path, isDirectory: &isDirectory), isDirectory.boolValue {
                return folder
            }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path {
                return file.deletingLastPathComponent()
            }
            folder = parent
        }
    }

    /// Spelled relative to the working directory when inside it, so Lua
    /// messages from `support/` modules read `scenarios/support/x.lua:3`.
    func relativeToWorkingDirectory(_ url: URL) -> URL {
        let shown = display(url)
        return shown.hasPrefix("/") ? url : URL(fileURLWithPath: shown, relativeTo: workingDirectory)
    }

    func display(_ url: URL) -> String { display(url.path) }

    /// `path` (absolute) relative to the working directory when inside it.
    func display(_ path: String) -> String {
        let folder = workingDirectory.path
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path
    }
}

public enum DiscoveryError: Error, Hashable, Sendable, CustomStringConvertible {
    case notFound(String)
    case notLua(String)
    /// A path named like a scenario file that is not a regular file, and what it is.
    case notRegular(String, String)
    /// A `support/` folder or a module in one, given as if it held scenarios.
    case supportModule(String)
    /// A folder of the suite that cannot be read, and why: its scenarios would be left out.
    case unreadable(String, String)
    /// A file whose name is not UTF-8 (shown with U+FFFD): it cannot be opened by the name reports give it.
    case undecodableName(String)
    /// Two files whose names are different bytes but read the same (`café` composed and decomposed):
    /// reports, `--filter` and shards tell files apart by name, and one of them was dropped.
    case equivalentNames(String, String)

    public var description: String {
        switch self {
        case .notFound(let path):
            return "no such file or folder: \(path) (run from the folder that holds the suite, or pass the suite's path)"
        case .notLua(let path): return "\(path) is not a .lua scenario file"
        case .unreadable(let path, let reason):
            return "cannot read the folder \(path) (\(reason)): its scenarios would be left out of the run; "
                + "make it readable, or give the suite's other folders as paths"
        case .equivalentNames(let first, let second):
            // Each character nothing draws spelled out (`z<U+200B>w.lua`), so the two can be told apart here.
            func shown(_ name: String) -> String {
                name.unicodeScalars.map { scalar in
                    scalar.properties.isDefaultIgnorableCodePoint || scalar.properties.generalCategory == .nonspacingMark
                        ? "<U+\(String(scalar.value, radix: 16, uppercase: true))>" : String(scalar)
                }.joined()
            }
            return "\(shown(first)) and \(shown(second)) are two files whose names read the same (the same "
                + "letters, composed and decomposed in Unicode — é and e + ◌́ — or with a character nothing draws, such as a "
                + "zero-width space): reports tell files apart by name; rename one of them"
        case .undecodableName(let path):
            return "the name of \(path) is not UTF-8 (shown here with �): reports name files in UTF-8, so it cannot "
                + "be run by that name; rename it"
        case .supportModule(let path):
            return "\(path) is in a support/ folder: its modules are for scenarios to require, not scenarios to run; "
                + "give the suite's folder or its scenario files"
        case .notRegular(let path, let kind):
            return "\(path) is \(kind), not a scenario file: scenario files are regular files (or links to them), "
                + "and reading anything else could wait forever or fail; remove it from the suite"
        }
    }
}
