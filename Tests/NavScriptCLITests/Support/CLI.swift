import Foundation
import Testing

/// Runs the built `navscript` executable as a child process, the way a CI
/// job or a QA engineer does: a working directory, arguments, an
/// environment; stdout, stderr and the exit status come back.
enum CLI {
    /// What one run of the binary produced.
    struct Output: CustomStringConvertible {
        var status: Int32
        var stdout: String
        var stderr: String
        var arguments: [String]

        /// Both streams, for messages that may go to either.
        var combined: String { stdout + "\n" + stderr }

        var description: String {
            "navscript \(arguments.joined(separator: " ")) → exit \(status)\n--- stdout ---\n\(stdout)\n--- stderr ---\n\(stderr)"
        }
    }

    struct NotFound: Error, CustomStringConvertible {
        var description: String
    }

    /// The `navscript` executable of this build: the file next to the test
    /// bundle in the build products folder (`<scratch>/debug/navscript`,
    /// whatever `--scratch-path` was). `NAVSCRIPT_BINARY` overrides it.
    static let binary: Result<URL, NotFound> = locate("navscript")

    /// The notes fixture app's executable (`Tests/Fixtures/NotesNavScript`):
    /// the CLI library with another team's host.
    static let notesBinary: Result<URL, NotFound> = locate("NotesNavScript")

    static func locate(_ product: String) -> Result<URL, NotFound> {
        let fm = FileManager.default
        if product == "navscript", let override = ProcessInfo.processInfo.environment["NAVSCRIPT_BINARY"], !override.isEmpty {
            return fm.isExecutableFile(atPath: override)
                ? .success(URL(fileURLWithPath: override))
                : .failure(NotFound(description: "NAVSCRIPT_BINARY=\(override) is not an executable file"))
        }
        var starts = [Bundle.main.bundleURL]
        if let executable = Bundle.main.executableURL { starts.append(executable) }
        if let argument = CommandLine.arguments.first { starts.append(URL(fileURLWithPath: argument)) }
        if let own = try? fm.destinationOfSymbolicLink(atPath: "/proc/self/exe") { starts.append(URL(fileURLWithPath: own)) }
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" { starts.append(bundle.bundleURL) }

        var searched: [String] = []
        for start in starts {
            var folder = start.standardizedFileURL
            // Walk up from the bundle (or the runner executable) to the products folder.
            for _ in 0..<6 {
                let candidate = folder.appendingPathComponent(product)
                var isDirectory: ObjCBool = false
                if fm.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                    fm.isExecutableFile(atPath: candidate.path)
                {
                    return .success(candidate)
                }
                searched.append(folder.path)
                let parent = folder.deletingLastPathComponent()
                if parent.path == folder.path { break }
                folder = parent
            }
        }
        var seen = Set<String>()
        let unique = searched.filter { seen.insert($0).inserted }
        return .failure(
            NotFound(
                description: """
                    the \(product) executable was not found next to the test bundle; build it first \
                    (swift build --build-tests --scratch-path <path>) or set NAVSCRIPT_BINARY. Searched: \
                    \(unique.joined(separator: ", "))
                    """))
    }

    /// Runs `navscript arguments…` in `directory` and waits for it.
    ///
    /// The child gets this process's environment plus `NO_COLOR=1` (unless
    /// `noColor` is false) and `extraEnvironment`. Output goes to files, not
    /// pipes, so a chatty child can never block on a full pipe. A watchdog
    /// kills a child that hangs (a safety net, not a timing assertion).
    static func run(
        _ arguments: [String], in directory: URL, noColor: Bool = true,
        environment extraEnvironment: [String: String] = [:],
        duringRun: ((Int32) -> Void)? = nil, binary: Result<URL, NotFound> = CLI.binary,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Output {
        let executable: URL
        switch binary {
        case .success(let url): executable = url
        case .failure(let error):
            Issue.record(Comment(rawValue: error.description), sourceLocation: sourceLocation)
            throw error
        }
        let fm = FileManager.default
        let capture = fm.temporaryDirectory.appendingPathComponent("navscript-e2e-out-\(UUID().uuidString)")
        try fm.createDirectory(at: capture, withIntermediateDirectories: true)
        defer { try? fm.removeItem(at: capture) }
        let stdoutURL = capture.appendingPathComponent("stdout")
        let stderrURL = capture.appendingPathComponent("stderr")
        _ = fm.createFile(atPath: stdoutURL.path, contents: nil)
        _ = fm.createFile(atPath: stderrURL.path, contents: nil)
        let stdoutHandle = try FileHandle(forWritingTo: stdoutURL)
        let stderrHandle = try FileHandle(forWritingTo: stderrURL)

        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "NO_COLOR")
        if noColor { environment["NO_COLOR"] = "1" }
        environment.removeValue(forKey: "NAVSCRIPT_BINARY")
        for (key, value) in extraEnvironment { environment[key] = value }

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdoutHandle
        process.standardError = stderrHandle
        try process.run()
        let watchdog = Watchdog(process)
        DispatchQueue.global().asyncAfter(deadline: .now() + 300) { watchdog.fire() }
        duringRun?(process.processIdentifier)
        process.waitUntilExit()
        watchdog.disarm()
        try? stdoutHandle.close()
        try? stderrHandle.close()
        if watchdog.fired {
            Issue.record(
                "navscript \(arguments.joined(separator: " ")) hung and was killed by the test watchdog",
                sourceLocation: sourceLocation)
        }
        let out = try Data(contentsOf: stdoutURL)
        let err = try Data(contentsOf: stderrURL)
        return Output(
            status: process.terminationStatus,
            stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self),
            arguments: arguments)
    }

    /// Durations masked, so a report can be compared with a golden one.
    static func maskDurations(_ text: String) -> String {
        text.replacing(try! Regex(#"\d+\.\d{3}s"#), with: "X.XXXs")
    }

    /// The lines of stdout that end a progress line: `file  marks  (N)`.
    static func progressLines(_ stdout: String) -> [String] {
        stdout.split(separator: "\n").map(String.init).filter { $0.hasSuffix(")") && $0.contains(".lua  ") }
    }

    /// The closing summary line (`N passed, N failed, N errors, N skipped in …`).
    static func summary(_ stdout: String) -> String? {
        stdout.split(separator: "\n").last { $0.contains(" passed, ") }.map(String.init)
    }
}

/// Kills a hung child once; thread-safe.
private final class Watchdog: @unchecked Sendable {
    private let lock = NSLock()
    private var process: Process?
    private(set) var fired = false

    init(_ process: Process) { self.process = process }

    func fire() {
        lock.lock()
        defer { lock.unlock() }
        guard let process, process.isRunning else { return }
        fired = true
        process.terminate()
    }

    func disarm() {
        lock.lock()
        process = nil
        lock.unlock()
    }
}

/// A scenario suite written at test time into a fresh temporary folder,
/// which is also the working directory the CLI runs in (so reported paths
/// are short and stable, e.g. `suite/a.lua`).
final class Fixture {
    let root: URL

    /// `files` maps relative paths (`suite/a.lua`, `suite/support/h.lua`) to contents.
    init(_ files: [String: String] = [:]) throws {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("navscript-e2e-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for (path, contents) in files { try write(path, contents) }
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    func url(_ path: String) -> URL { root.appendingPathComponent(path) }

    func write(_ path: String, _ contents: String) throws {
        let file = url(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: file)
    }

    func mkdir(_ path: String) throws {
        try FileManager.default.createDirectory(at: url(path), withIntermediateDirectories: true)
    }

    func read(_ path: String) throws -> String {
        String(decoding: try Data(contentsOf: url(path)), as: UTF8.self)
    }

    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: url(path).path) }

    /// `navscript arguments…` with this folder as the working directory.
    func run(
        _ arguments: [String], noColor: Bool = true, duringRun: ((Int32) -> Void)? = nil,
        binary: Result<URL, CLI.NotFound> = CLI.binary,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> CLI.Output {
        try CLI.run(
            arguments, in: root, noColor: noColor, duringRun: duringRun, binary: binary,
            sourceLocation: sourceLocation)
    }

    /// `/bin/sh -c command` with this folder as the working directory: for a
    /// run under a `ulimit`, in a pipe, or with a standard stream closed.
    func shell(
        _ command: String, duringRun: ((Int32) -> Void)? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> CLI.Output {
        try run(
            ["-c", command], duringRun: duringRun, binary: .success(URL(fileURLWithPath: "/bin/sh")),
            sourceLocation: sourceLocation)
    }

    /// `navscript run arguments… --junit report.xml`, returning the parsed report too.
    func runWithJUnit(
        _ arguments: [String], junit: String = "report.xml", duringRun: ((Int32) -> Void)? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (CLI.Output, JUnit) {
        let output = try run(["run"] + arguments + ["--junit", junit], duringRun: duringRun, sourceLocation: sourceLocation)
        guard exists(junit) else {
            Issue.record("no JUnit report was written to \(junit)\n\(output)", sourceLocation: sourceLocation)
            throw CLI.NotFound(description: "no JUnit report")
        }
        return (output, try JUnit(try Data(contentsOf: url(junit)), sourceLocation: sourceLocation))
    }
}
