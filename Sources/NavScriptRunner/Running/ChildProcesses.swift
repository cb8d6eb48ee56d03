import Foundation

/// The processes a command starts from this executable — a worker pool's
/// replays, explorations run side by side, the fault matrix's explorations,
/// an exploration under its supervisor — started one way and watched by
/// one loop: an interrupt is passed on to each child, a child that does not
/// stop after it (or that its caller says hangs) is killed, and how each
/// ended is told apart.
package enum ChildProcesses {
    /// How a watched child ended.
    package enum Ending: Hashable, Sendable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal it did not handle ended it (a trap, a fault, an interrupt it did not catch).
        case signaled(Int32)
        /// Its caller said it hung: it was killed.
        case hung
        /// An interrupt was passed on and it did not stop within the grace: it was killed.
        case unresponsive
    }

    /// This executable started again with `arguments` (see ``process(_:_:environment:)``).
    package static func navscript(_ arguments: [String], environment extra: [String: String] = [:]) -> Process {
        process(executable, arguments, environment: extra)
    }

    /// `executable` with `arguments`, to be started, with Swift's backtracer
    /// on but short and plain: in a release build it is the only source of a
    /// trap's message and place (the runtime prints "Fatal error" lines only
    /// in debug builds), read back by ``WorkerStderr``.
    package static func process(_ executable: URL, _ arguments: [String], environment extra: [String: String] = [:]) -> Process {
        let process = Process()
        process.executableURL = startable(executable)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = backtrace
        environment.merge(extra) { _, new in new }
        process.environment = environment
        return process
    }

    /// The backtracer's settings for a child: no prompt, no colour, the
    /// crashed thread's first frames only.
    package static let backtrace =
        "enable=yes,interactive=no,color=no,threads=crashed,registers=none,images=none,limit=12,top=0,sanitize=yes"

    /// `executable`, or — when it is this program and its file was deleted or
    /// replaced since it started (a rebuild or an upgrade during a long run) —
    /// the program still running, through `/proc/self/exe`: a worker started
    /// after that (for the next file, after a crash) ran nothing, or another
    /// program, and every file left became an error.
    static func startable(_ executable: URL) -> URL {
        let running = "/proc/self/exe"
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: running),
            target == executable.path + " (deleted)"
        else { return executable }
        return URL(fileURLWithPath: running)
    }

    /// This executable, as the kernel knows it (not as it was typed).
    package static var executable: URL {
        let proc = URL(fileURLWithPath: "/proc/self/exe")
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: proc.path) {
            return URL(fileURLWithPath: resolved)
        }
        return Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    }

    /// A child's standard output and error, kept in a temporary file until read.
    package final class Capture {
        private let url: URL
        private let handle: FileHandle

        /// Sends `process`'s output and errors to a new temporary file named after `name`.
        package init(_ process: Process, name: String) throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("navscript-\(getpid())-\(name).out")
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
            handle = try FileHandle(forWritingTo: url)
            process.standardOutput = handle
            process.standardError = handle
        }

        deinit {
            try? handle.close()
            try? FileManager.default.removeItem(at: url)
        }

        /// What the child wrote (read once it has ended).
        package var text: String {
            try? handle.synchronize()
            return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        }
    }

    /// Waits for every child in `processes` (started). Once `stop` is set,
    /// the interrupt is passed on to each child still running (once); one
    /// still running `interruptGrace` seconds later is killed. Until then,
    /// `hung(i)` is asked about child `i` every 50 ms: true kills it.
    package static func watch(
        _ processes: [Process], stop: StopSignal, interruptGrace: Double = 5,
        hung: (Int) -> Bool = { _ in false }
    ) -> [Ending] {
        var endings = [Ending?](repeating: nil, count: processes.count)
        var interruptedAt: Date?
        func kill(_ index: Int, as ending: Ending) {
            Foundation.kill(processes[index].processIdentifier, SIGKILL)
            processes[index].waitUntilExit()
            endings[index] = ending
        }
        while processes.contains(where: \.isRunning) {
            Thread.sleep(forTimeInterval: 0.05)
            if stop.isSet {
                guard let interruptedAt else {
                    interruptedAt = Date()
                    for process in processes where process.isRunning { stop.passOn(to: process) }
                    continue
                }
                if Date().timeIntervalSince(interruptedAt) > interruptGrace {
                    for index in processes.indices where processes[index].isRunning { kill(index, as: .unresponsive) }
                }
                continue
            }
            for index in processes.indices where processes[index].isRunning && hung(index) { kill(index, as: .hung) }
        }
        return processes.indices.map { index in
            let process = processes[index]
            process.waitUntilExit()
            if let ending = endings[index] { return ending }
            return process.terminationReason == .uncaughtSignal
                ? .signaled(process.terminationStatus)
                : .exited(process.terminationStatus)
        }
    }
}
