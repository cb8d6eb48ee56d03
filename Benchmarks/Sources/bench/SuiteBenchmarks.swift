import CBenchSupport
import Foundation
import NavScript
import NavScriptRunner

/// (5) and (6): whole runs of the `navscript` CLI as a user runs it, each
/// in a child process whose wall time and peak RSS are measured by wait4.
struct CLIRun {
    var scenarios: Int
    var passed: Int
    /// The duration the CLI reports ("… in 0.034s"): discovery excluded,
    /// loading, running and reporting every file included.
    var reportedSeconds: Double
    /// Process start to exit, as the user waits for it.
    var wallSeconds: Double
    /// Peak RSS of the largest process in the run (the CLI or one worker).
    var maxRSSKiB: Int
}

struct SuiteMeasurement {
    var name: String
    var runs: [CLIRun]
    var scenarios: Int { runs[0].scenarios }
    var medianReported: Double { median(runs.map(\.reportedSeconds)) }
    var medianWall: Double { median(runs.map(\.wallSeconds)) }
    var maxRSSMiB: Double { Double(runs.map(\.maxRSSKiB).max() ?? 0) / 1024 }
    var scenariosPerSecond: Double { Double(scenarios) / medianReported }
}

enum SuiteBenchmarks {
    struct Failure: Error, CustomStringConvertible { var description: String }

    /// Runs `navscript run <arguments>` in `directory`.
    static func run(navscript: String, arguments: [String], in directory: String) throws -> CLIRun {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("bench-cli-\(getpid()).out").path
        let previous = FileManager.default.currentDirectoryPath
        guard FileManager.default.changeCurrentDirectoryPath(directory) else { throw Failure(description: "cannot cd to \(directory)") }
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        let argv = [navscript, "run"] + arguments
        let (status, wall, rss) = try spawn(argv, stdout: output)
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: output)
        guard status == 0 else {
            throw Failure(description: "`\(argv.joined(separator: " "))` exited \(status):\n\(text.suffix(2000))")
        }
        // "125 passed, 0 failed, 0 errors, 0 skipped in 0.034s"
        guard let line = text.split(separator: "\n").last(where: { $0.contains(" passed, ") && $0.contains(" in ") }) else {
            throw Failure(description: "no summary line in the output of `\(argv.joined(separator: " "))`")
        }
        let words = line.split(separator: " ")
        func count(before word: String) -> Int {
            guard let i = words.firstIndex(where: { $0.hasPrefix(word) }), i > 0 else { return 0 }
            return Int(words[i - 1]) ?? 0
        }
        let passed = count(before: "passed")
        let total = passed + count(before: "failed") + count(before: "errors") + count(before: "skipped")
        let seconds = Double(words.last!.dropLast()) ?? .nan
        return CLIRun(scenarios: total, passed: passed, reportedSeconds: seconds, wallSeconds: wall, maxRSSKiB: rss)
    }

    /// One `navscript worker` process alone, fed every file of `folder` as
    /// tasks on stdin (what a pool worker does in a `--jobs` run): its wall
    /// time and peak RSS, without the parent that collects the results.
    static func worker(navscript: String, folder: URL, in directory: String, repetitions: Int) throws -> SuiteMeasurement {
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".lua") }.sorted()
        let encoder = JSONEncoder()
        var lines = Data()
        for (index, name) in files.enumerated() {
            let task = WorkerTask(id: index, path: folder.appendingPathComponent(name).path, suiteRoot: folder.path, faults: [])
            lines.append(try encoder.encode(task))
            lines.append(UInt8(ascii: "\n"))
        }
        let tasks = FileManager.default.temporaryDirectory.appendingPathComponent("bench-tasks-\(getpid()).jsonl")
        try lines.write(to: tasks)
        defer { try? FileManager.default.removeItem(at: tasks) }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("bench-worker-\(getpid()).out").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        var runs: [CLIRun] = []
        for _ in 0..<repetitions {
            let (status, wall, rss) = try spawn([navscript, "worker"], stdin: tasks.path, stdout: output)
            guard status == 0 else { throw Failure(description: "`navscript worker` exited \(status)") }
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            // A passing scenario is a `passed` line; anything else a full `result`.
            let lines = text.split(separator: "\n")
            let passed =
                lines.filter { $0.hasPrefix("{\"passed\"") }.count
                + lines.filter { $0.hasPrefix("{\"result\"") && $0.contains("\"status\":\"passed\"") }.count
            let results = passed + lines.filter { $0.hasPrefix("{\"result\"") && !$0.contains("\"status\":\"passed\"") }.count
            runs.append(CLIRun(scenarios: results, passed: passed, reportedSeconds: .nan, wallSeconds: wall, maxRSSKiB: rss))
        }
        return SuiteMeasurement(name: "", runs: runs)
    }

    /// Runs `argv` through `bench-spawn` (beside this executable): exit
    /// status, wall seconds, peak RSS in KiB.
    static func spawn(_ argv: [String], stdin: String = "-", stdout: String) throws -> (Int32, Double, Int) {
        let helper = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("bench-spawn").path
        guard FileManager.default.isExecutableFile(atPath: helper) else {
            throw Failure(description: "\(helper) is missing: build the bench-spawn product (run.sh does)")
        }
        let result = FileManager.default.temporaryDirectory.appendingPathComponent("bench-spawn-\(getpid()).result").path
        defer { try? FileManager.default.removeItem(atPath: result) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: helper)
        process.arguments = [result, stdin, stdout, "/dev/null"] + argv
        try process.run()
        process.waitUntilExit()
        let fields = ((try? String(contentsOfFile: result, encoding: .utf8)) ?? "").split(separator: " ")
        guard process.terminationStatus == 0, fields.count == 3, let status = Int32(fields[0]),
            let wall = Double(fields[1]), let rss = Int(fields[2].trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            throw Failure(description: "bench-spawn could not run \(argv.joined(separator: " "))")
        }
        return (status, wall, rss)
    }

    static func measure(
        _ name: String, navscript: String, arguments: [String], in directory: String,
        repetitions: Int
    ) throws -> SuiteMeasurement {
        _ = try run(navscript: navscript, arguments: arguments, in: directory)  // warm the file cache
        var runs: [CLIRun] = []
        for _ in 0..<repetitions {
            runs.append(try run(navscript: navscript, arguments: arguments, in: directory))
        }
        return SuiteMeasurement(name: name, runs: runs)
    }
}

/// Writes a suite of `files` × `perFile` scenarios mixing deep links, taps,
/// gates, modals, rejections and expectations (every one passes).
enum SuiteGenerator {
    /// One file holding one scenario of `steps` steps (tap and back, alternately).
    static func writeLong(steps: Int, into root: URL) throws -> URL {
        let folder = root.appendingPathComponent("long")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("long.lua")
        let text = """
            scenario("\(steps) steps", function()
              for _ = 1, \(steps / 2) do
                tap("product", "p1")
                back()
              end
            end)

            """
        try Data(text.utf8).write(to: file)
        return file
    }

    /// One file holding one scenario of `count` deep links (to seven products in turn).
    static func writeLinks(_ count: Int, into root: URL) throws -> URL {
        let folder = root.appendingPathComponent("links")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("links.lua")
        let text = """
            scenario("\(count) deep links", function()
              for i = 1, \(count) do
                deep_link("shop://products/p" .. (i % 7))
              end
            end)

            """
        try Data(text.utf8).write(to: file)
        return file
    }

    static func scenario(_ n: Int) -> String {
        switch n % 6 {
        case 0:
            return """
                  scenario("\(n) deep link to a product", function()
                    deep_link("shop://product/p\(n)")
                    expect_tab("home")
                    expect_stack{ "home", "product:p\(n)" }
                  end)

                """
        case 1:
            return """
                  scenario("\(n) browse and come back", function()
                    tap("category", "c\(n)")
                    tap("product", "p\(n)")
                    tap("reviews")
                    expect_stack{ "home", "category:c\(n)", "product:p\(n)", "reviews:p\(n)" }
                    back()
                    expect_screen("product")
                  end)

                """
        case 2:
            return """
                  scenario("\(n) gated cart resumes after sign-in", function()
                    local outcome = deep_link("shop://cart")
                    assert(outcome.status == "gated", "expected a gate")
                    expect_modal("login")
                    login{}
                    expect_stack{ "home", "cart" }
                    expect_events{ "gate auth cart", "session-commit", "resume cart" }
                  end)

                """
        case 3:
            return """
                  scenario("\(n) tracking an order", { launch = { logged_in = true } }, function()
                    deep_link("shop://orders/\(n)/track")
                    expect_tab("orders")
                    expect_stack{ "orders", "order:\(n)", "tracking:\(n)" }
                    expect_no_leaks()
                  end)

                """
        case 4:
            return """
                  scenario("\(n) rejects bad links", function()
                    expect_error("shop://product/x\(n)", "validation_failed")
                    expect_error("shop://nowhere/\(n)", "unknown_route")
                  end)

                """
        default:
            return """
                  scenario("\(n) settings modal opens and closes", { launch = { logged_in = true } }, function()
                    deep_link("shop://settings/security")
                    expect_modal("settings")
                    dismiss()
                    expect_no_modal()
                    expect_no_leaks()
                  end)

                """
        }
    }

    /// Writes the suite into a fresh folder and returns it.
    static func write(files: Int, perFile: Int, into root: URL) throws -> URL {
        let folder = root.appendingPathComponent("generated-\(files * perFile)")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for file in 0..<files {
            var text = "describe(\"generated file \(file)\", function()\n"
            for index in 0..<perFile { text += scenario(file * perFile + index) }
            text += "end)\n"
            let name = String(format: "g%04d.lua", file)
            try text.write(to: folder.appendingPathComponent(name), atomically: false, encoding: .utf8)
        }
        return folder
    }
}
