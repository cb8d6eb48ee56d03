import Foundation
import NavScriptLua
import NavScriptRuntime

/// The whole suite as a run started with it — its scenario files and what they can read — to
/// tell, at the end of a long run that reads it again and again (`mutate`), whether it changed.
package struct SuiteStamps: Sendable {
    private let files: [String: FileStamp?]
    private let roots: [String: [String: FileStamp?]]
    private let written: Set<String>

    /// Stamps `entries` and every file under their suite roots but `written` (the run's own reports).
    package init(_ entries: [SuiteFile], except written: [String]) {
        let written = Set(written.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
        self.written = written
        files = Dictionary(entries.map { ($0.path, FileStamp.of($0.fileSystemPath)) }, uniquingKeysWith: { first, _ in first })
        var roots: [String: [String: FileStamp?]] = [:]
        for root in Set(entries.map(\.suiteRoot.path)) { roots[root] = FileStamp.suite(under: root, except: written) }
        self.roots = roots
    }

    /// The first file that changed since the stamps were taken (a scenario file, a support module, a
    /// data file), or nil.
    package func firstChange(_ entries: [SuiteFile]) -> String? {
        for entry in entries where files[entry.path] != FileStamp.of(entry.fileSystemPath) { return entry.path }
        for (root, first) in roots.sorted(by: { $0.key < $1.key }) {
            if let changed = FileStamp.changedFile(under: root, since: first, except: written) {
                return LuaState.displayPath(URL(fileURLWithPath: changed))  // as the scenario files are spelled
            }
        }
        return nil
    }
}
