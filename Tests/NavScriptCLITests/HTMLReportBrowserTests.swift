import Foundation
import TestSupport
import Testing

/// The HTML report opened in a real browser: headless Chromium loads it
/// from disk, runs its script, and the DOM it ends with is checked.
@Suite("run --html in a browser")
struct HTMLReportBrowserTests {
    /// Debian's `chromium` (or another Chromium on PATH); nil skips the
    /// test — `scripts/bootstrap.sh --browser` installs it.
    static let chromium: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for folder in path.split(separator: ":") {
                let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            }
        }
        return nil
    }()

    /// Loads `page` headless and returns the DOM after its scripts ran, and
    /// what the browser logged.
    static func load(_ page: URL, chromium: URL) throws -> (dom: String, log: String) {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("navscript-chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        let out = profile.appendingPathComponent("dom.html")
        let err = profile.appendingPathComponent("log.txt")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = chromium
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(profile.path)",
            "--enable-logging=stderr", "--v=0", "--virtual-time-budget=2000", "--dump-dom", page.absoluteString
        ]
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return (String(decoding: try Data(contentsOf: out), as: UTF8.self), String(decoding: try Data(contentsOf: err), as: UTF8.self))
    }

    @Test(.enabled(if: chromium != nil, "chromium is not installed (scripts/bootstrap.sh --browser installs Debian's chromium)"))
    func theReportLoadsWithoutErrorsAndItsFiltersWork() throws {
        let fixture = try Fixture(RunEventReportTests.suite)
        let output = try fixture.run(["run", "suite", "--html", "report.html"])
        #expect(output.status == 1, "\(output)")
        let (dom, log) = try Self.load(fixture.url("report.html"), chromium: try #require(Self.chromium))
        #expect(dom.contains("data-ready=\"yes\""), "the page's script ran to its end\n\(log)")
        let scriptErrors = log.split(separator: "\n").filter { $0.contains("Uncaught") || ($0.contains("CONSOLE") && $0.contains("rror")) }
        #expect(scriptErrors.isEmpty, "\(scriptErrors.joined(separator: "\n"))")
        // A run with failures opens on them: the passing scenario is hidden, the failing one shown.
        let passing = try #require(dom.range(of: "<details class=\"scenario passed\"").map { String(dom[$0.lowerBound...]) })
        #expect(passing.prefix { $0 != ">" }.contains("hidden"), "\(passing.prefix(300))")
        let failing = try #require(dom.range(of: "<details class=\"scenario failed\"").map { String(dom[$0.lowerBound...]) })
        #expect(!failing.prefix { $0 != ">" }.contains("hidden"), "\(failing.prefix(300))")
    }
}
