import ArgumentParser
import Foundation
import NavScript
import NavScriptRunner
import NavScriptRuntime
import NavigationCore

/// `--manifest FILE`: run against a manifest other than the app's own —
/// checked first, as `routes check` would, so a broken one is refused
/// with its problems instead of failing every scenario.
enum ManifestOption {
    /// Why a manifest file could not be checked at all.
    enum ReadFailure: Error {
        case unreadable(String)
        /// Where the JSON breaks, and a hint when the file is not JSON at all.
        case notJSON(JSONText.SyntaxError, hint: String)
    }

    /// The most of a manifest `routes check`, `routes diff` and `--manifest`
    /// read: the shipped one is 4 KB; a pipe that does not end stops here.
    static let manifestLimit = 64 << 20

    /// The file's text and its problems (`routes check`'s rules), read once
    /// for `routes check` and `--manifest`.
    static func read(_ path: String, host: any ScenarioHost) throws(ReadFailure) -> (text: String, problems: [ManifestProblem]) {
        // Read as bytes to the end: a pipe (`<(curl …)`, `/dev/stdin`) has no size to read up to. A device
        // (`/dev/zero`) or an endless pipe never ends: refused, and bounded (it filled memory).
        let data: Data
        do {
            data = try InputFile.contents(of: path, limit: manifestLimit)
        } catch {
            switch error {
            case .missing:
                throw .unreadable("no such file")
            case .folder:
                throw .unreadable("it is a folder; give the manifest's .json file")
            case .device:
                throw .unreadable("it is a device, not a file, and reading it might never end; give the manifest's .json file")
            case .unreadable(let reason):
                throw .unreadable(reason)
            case .tooLarge(let limit):
                throw .unreadable(
                    "it is larger than \(InputFile.size(limit)), and a route manifest is kilobytes (is it the manifest, "
                        + "or a pipe that does not end?)")
            case .outOfMemory(let read):
                throw .unreadable(
                    "memory ran out after reading \(InputFile.size(read)) of it (an address-space limit, ulimit -v?); raise the limit")
            }
        }
        guard let text = String(data: data, encoding: .utf8) else { throw .unreadable("it is not UTF-8 text") }
        do {
            return (text, try ManifestCheck(host: host).check(text))
        } catch {
            // A manifest in another format (YAML, a plist) fails on its first character: say what is expected.
            let opensAnObject = text.first { !$0.isWhitespace } == "{"
            let hint = opensAnObject ? "" : " (a route manifest is a JSON object: { \"tabs\": …, \"destinations\": … })"
            throw .notJSON(error, hint: hint)
        }
    }

    /// `host` with the manifest at `path`; the errors name `option` (the
    /// flag the path came from), or only the path when it is an argument.
    static func load(_ path: String, into host: any ScenarioHost, option: String? = "--manifest") throws -> any ScenarioHost {
        let from = option.map { "\($0): " } ?? ""
        // Every worker reads the manifest again: a pipe would be empty by then.
        var status = stat()
        if option != nil, stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG, status.st_mode & S_IFMT != S_IFDIR {
            throw ValidationError(
                "\(from)\(path) is not a regular file (a pipe?): each worker process reads the manifest again, "
                    + "so save it to a file first (routes check reads a pipe)")
        }
        let text: String
        let problems: [ManifestProblem]
        do {
            (text, problems) = try read(path, host: host)
        } catch .unreadable(let reason) {
            throw ValidationError("\(from)cannot read \(path): \(reason)")
        } catch .notJSON(let error, let hint) {
            throw ValidationError("\(from)\(path) is not valid JSON: \(error)\(hint)")
        }
        let errors = problems.filter { !$0.isWarning }
        guard errors.isEmpty else {
            throw ValidationError(
                "\(from)\(path) has \(errors.count) problem\(errors.count == 1 ? "" : "s") "
                    + "(\(NavScriptCLI.executableName) routes check \(path)):\n"
                    + errors.map { "  " + $0.reported(in: path) }.joined(separator: "\n"))
        }
        for warning in problems where warning.isWarning {
            writeStandardError("\(NavScriptCLI.executableName): \(from)\(warning.reported(in: path))\n")
        }
        do {
            return try host.replacingManifest(RouteManifest.load(json: Data(text.utf8)))
        } catch let error as HostError {
            throw ValidationError("\(from)\(path): \(error.message)")
        } catch {
            throw ValidationError("\(from)\(path): \(error)")
        }
    }
}
