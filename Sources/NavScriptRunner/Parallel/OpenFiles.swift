import Foundation

/// The files this run's own output is being written to, read from `/proc` (Linux): what a resumed
/// file's stamps must not count as an edit — the log the console output is redirected to (`> run.log`,
/// `| tee run.log`) grows all along. Asked only when a file changed, at a resume after a crash.
///
/// Only this run's writers count: this process, its workers, and a process that reads this
/// process's output through a pipe (`tee`). A file another process merely holds open for writing
/// (an editor, a tool keeping a read-write handle) can still be edited, and was: a data file edited
/// under such a handle was taken for a log, and the resumed scenarios passed on the new data.
enum OpenFiles {
    static func openForWritingByThisRun() -> Set<String> {
        var paths: Set<String> = []
        guard let processes = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return paths }
        let own = getpid()
        // Where this process's output goes: a pipe's reader (`| tee log`) is one of this run's writers.
        let outputPipes = Set([1, 2].compactMap { target(of: "/proc/self/fd/\($0)") }.filter { $0.hasPrefix("pipe:") })
        for process in processes where process.allSatisfy(\.isNumber) {
            guard let pid = Int32(process) else { continue }
            let ours =
                pid == own || parent(of: pid) == own
                || target(of: "/proc/\(process)/fd/0").map(outputPipes.contains) == true
            guard ours else { continue }
            let folder = "/proc/\(process)/fd"
            guard let descriptors = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            for descriptor in descriptors {
                guard let target = target(of: "\(folder)/\(descriptor)"), target.hasPrefix("/"),
                    let info = try? String(contentsOfFile: "/proc/\(process)/fdinfo/\(descriptor)", encoding: .utf8),
                    let flags = info.split(separator: "\n").first(where: { $0.hasPrefix("flags:") })
                        .flatMap({ Int($0.dropFirst("flags:".count).trimmingCharacters(in: .whitespaces), radix: 8) })
                else { continue }
                // O_WRONLY (1) or O_RDWR (2) in the access mode.
                if flags & 3 != 0 { paths.insert(URL(fileURLWithPath: target).standardizedFileURL.path) }
            }
        }
        return paths
    }

    /// What a `/proc` descriptor link points at (`/path`, `pipe:[123]`), or nil.
    private static func target(of link: String) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: link)
    }

    /// A process's parent, from `/proc/PID/stat` (its fourth field, after the name in parentheses).
    private static func parent(of pid: Int32) -> Int32? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 1 ? Int32(fields[1]) : nil
    }
}
