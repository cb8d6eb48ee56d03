import Foundation

/// The files this user's processes hold open for writing, read from `/proc` (Linux): what a resumed
/// file's stamps must not count as an edit — the log the console output is redirected to (`> run.log`,
/// `| tee run.log`) grows all along. Asked only when a file changed, at a resume after a crash.
enum OpenFiles {
    static func openForWriting() -> Set<String> {
        var paths: Set<String> = []
        guard let processes = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return paths }
        for process in processes where process.allSatisfy(\.isNumber) {
            let folder = "/proc/\(process)/fd"
            guard let descriptors = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            for descriptor in descriptors {
                guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\(descriptor)"),
                    target.hasPrefix("/"),
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
}
