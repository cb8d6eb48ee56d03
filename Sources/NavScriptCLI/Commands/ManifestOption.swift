import ArgumentParser
import Foundation
import NavScript
import NavigationCore

/// `--manifest FILE`: run against a manifest other than the app's own —
/// checked first, as `routes check` would, so a broken one is refused
/// with its problems instead of failing every scenario.
enum ManifestOption {
    static func load(_ path: String, into host: any ScenarioHost) throws -> any ScenarioHost {
        let text: String
        do {
            text = try String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8)
        } catch {
            throw ValidationError("--manifest: cannot read \(path): \(error.localizedDescription)")
        }
        let problems: [ManifestProblem]
        do {
            problems = try ManifestCheck(host: host).check(text)
        } catch {
            throw ValidationError("--manifest: \(path) is not valid JSON: \(error)")
        }
        guard problems.isEmpty else {
            throw ValidationError("--manifest: \(path) has \(problems.count) problem\(problems.count == 1 ? "" : "s") "
                + "(navscript routes check \(path)):\n" + problems.map { "  \($0)" }.joined(separator: "\n"))
        }
        do {
            return try host.replacingManifest(RouteManifest.load(json: Data(text.utf8)))
        } catch let error as HostError {
            throw ValidationError("--manifest: \(error.message)")
        } catch {
            throw ValidationError("--manifest: \(path): \(error)")
        }
    }
}
