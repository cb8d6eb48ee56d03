import ArgumentParser
import CProcessLimits
import Foundation
import NavScript
import NavScriptRunner
import NavScriptRuntime
import NavigationCore

/// The whole `navscript` command line as a library: an app's scenario
/// runner is one line over it.
///
/// (Compiled as written: `Tests/Fixtures/DocExamples/MyAppNavScript/MyAppHost.swift`.)
/// ```swift
/// // Sources/MyAppNavScript/main.swift
/// import NavScriptCLI
/// NavScriptCLI.main(host: { try MyAppHost() })
/// ```
///
/// Every command (`run`, `list`, `mutate`, `merge-junit`, `routes`, `graph`,
/// `types` and the hidden `worker`) reaches the app only through the host
/// the factory builds. Worker processes re-invoke the same executable, so
/// they get the same host.
public enum NavScriptCLI {
    /// The name this executable was started by (`navscript`, `myapp-navscript`): what help,
    /// hints and replay lines spell, so a command copied from them runs the same app. Worker
    /// and exploration processes are started through the resolved executable (a link's target),
    /// so they read the name their parent was started by from the environment.
    public static var executableName: String {
        if let inherited = ProcessInfo.processInfo.environment[executableNameVariable], !inherited.isEmpty { return inherited }
        guard let path = CommandLine.arguments.first, !path.isEmpty else { return "navscript" }
        return URL(fileURLWithPath: path).lastPathComponent
    }

    /// This process's standard output and error, spelling ``executableName``.
    static var streams: OutputStreams { .standard(executableName: executableName) }

    /// Where a parent leaves ``executableName`` for the processes it starts.
    static let executableNameVariable = "NAVSCRIPT_EXECUTABLE_NAME"

    /// Builds the host. Called once per process, after the arguments were
    /// parsed (so `--help` works even when the app cannot load).
    public typealias HostFactory = () throws -> any ScenarioHost

    /// Parses `CommandLine.arguments`, runs the command and exits with its
    /// status: 0 success, 1 failures, 2 usage or load errors, 130 interrupted.
    public static func main(host makeHost: @escaping HostFactory) -> Never {
        setenv(executableNameVariable, executableName, 0)  // for the processes this one starts (kept if inherited)
        // A reader that goes away (`| head -1`) ends only what it reads: a write to it fails with
        // EPIPE, which every writer here takes in its stride, and the run goes on to its reports.
        signal(SIGPIPE, SIG_IGN)
        // A report that grows past the file-size limit (`ulimit -f`) fails its write (EFBIG) and is
        // named at the end, as any report that cannot be written; the signal ended the run as if interrupted.
        signal(SIGXFSZ, SIG_IGN)
        raiseOpenFileLimit()
        fitThreadsAndMallocToLimits()
        // A closed standard stream (`>&-`) is given /dev/null: the next file opened would take its number, and
        // what is written to standard output would land in it (a report being written, say).
        var closed: Set<Int32> = []
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 {
            closed.insert(descriptor)
            let null = open("/dev/null", O_RDWR)
            if null >= 0, null != descriptor {
                dup2(null, descriptor)
                close(null)
            }
        }
        let status = withRoomyStack { run(Array(CommandLine.arguments.dropFirst()), host: makeHost) }
        exit(checkingStandardOutput(status, wasClosed: closed.contains(STDOUT_FILENO)))
    }

    /// `status`, or 2 with a word on standard error when the command's output
    /// could not be written — standard output closed (`>&-`) or full
    /// (`> /dev/full`): `types`, `list` or a passing `run` exited 0 having
    /// written nothing. A reader that went away (`| head`) is not that.
    static func checkingStandardOutput(_ status: Int32, wasClosed: Bool) -> Int32 {
        errno = 0
        // A write that failed before now left the stream in error and dropped its buffer: the flush
        // below then has nothing to fail on (`graph > /dev/full` exited 0 having printed nothing).
        let failedBefore = navscript_standard_output_failed() != 0
        let flushed = fflush(nil) == 0 && !failedBefore  // every stdio stream: print() writes standard output through one
        var failure = errno
        if failedBefore, failure == 0, standardOutputReaderIsGone() { failure = EPIPE }
        if flushed, let direct = StandardOutputFailure.shared.error { failure = direct }  // the reports' own writes
        let written = flushed && StandardOutputFailure.shared.error == nil
        guard !written || wasClosed, failure != EPIPE else { return status }
        let why = wasClosed ? "it is closed" : failure != 0 ? String(cString: strerror(failure)) : "a write failed"
        writeStandardError("\(executableName): standard output could not be written (\(why)): the command's output is lost\n")
        return max(status, 2)
    }

    /// Whether standard output is a pipe whose reader has gone (`| head -1`):
    /// a failed write there is EPIPE, which stdio does not keep.
    static func standardOutputReaderIsGone() -> Bool {
        guard FileIdentity(descriptor: STDOUT_FILENO)?.isPipe == true else { return false }
        var watch = pollfd(fd: STDOUT_FILENO, events: Int16(POLLOUT), revents: 0)
        return poll(&watch, 1, 0) == 1 && watch.revents & Int16(POLLERR) != 0
    }

    /// Raises the soft limit on open files to the hard one (at most 65,536),
    /// as many tools do: each worker takes three pipes and a suite's files
    /// are opened as they run, and a soft limit of a few dozen (some CI
    /// images, launchd jobs) made workers fail to start — below about 30 the
    /// process trapped with no report at all.
    static func raiseOpenFileLimit() {
        raise(Int32(RLIMIT_NOFILE.rawValue), to: 65_536)
    }

    /// The stack other threads get (Foundation's, Dispatch's) when the limits
    /// call for one: ample for what they run — no Lua runs on them.
    static let threadStackSize = 1 << 20

    /// Fits the process to an address-space limit (`ulimit -v`) and a small
    /// stack limit. Why: glibc gives each thread that allocates an arena of
    /// its own, reserving 64 MiB of address space for it, and each thread a
    /// stack the size of the stack limit (8 MiB); a parent with reader
    /// threads for every worker ran out of a few hundred megabytes while
    /// using a few dozen — malloc failed inside Foundation (a segfault), or a
    /// thread Foundation waits for was never created (a hang). Under a stack
    /// limit of a few kilobytes, threads got that little. Within default
    /// limits nothing changes.
    static func fitThreadsAndMallocToLimits() {
        var addressSpace = rlimit(), stack = rlimit()
        let addressSpaceLimited =
            getrlimit(Int32(RLIMIT_AS.rawValue), &addressSpace) == 0 && addressSpace.rlim_cur != rlim_t.max
        let stackSmall = getrlimit(Int32(RLIMIT_STACK.rawValue), &stack) == 0 && stack.rlim_cur < rlim_t(threadStackSize)
        if addressSpaceLimited { navscript_use_one_malloc_arena() }
        if addressSpaceLimited || stackSmall { _ = navscript_set_default_thread_stack(threadStackSize) }
    }

    /// The stack the main thread, where Lua runs, gets at least: the usual default.
    static let roomyStackSize = 8 << 20

    /// Calls `body` with a stack of at least ``roomyStackSize`` (the usual
    /// default) when the stack limit is smaller. Why: Lua allows 200 nested C calls, and under
    /// `ulimit -s 256` a `__tostring` that formats itself overflowed the
    /// stack before Lua's own limit — a segfault of the whole run. A limit
    /// that small cannot be lifted once the program has started (nor at all
    /// when it is the hard one), so the main thread moves onto a stack of its
    /// own: still the main thread, for app code that checks it is.
    static func withRoomyStack(_ body: () -> Int32) -> Int32 {
        var limit = rlimit()
        // An unlimited stack is rlim_t.max: never smaller.
        guard getrlimit(Int32(RLIMIT_STACK.rawValue), &limit) == 0, limit.rlim_cur < rlim_t(roomyStackSize)
        else { return body() }
        return withoutActuallyEscaping(body) { body in
            let call = StackCall(body)
            let moved = navscript_call_on_stack(
                roomyStackSize,
                { context in
                    Unmanaged<StackCall>.fromOpaque(context!).takeUnretainedValue().callBody()
                }, Unmanaged.passUnretained(call).toOpaque())
            return moved == 0 ? call.status : body()
        }
    }

    /// The body ``withRoomyStack(_:)`` hands to C, and the status it returned.
    private final class StackCall {
        let body: () -> Int32
        var status: Int32 = 0
        init(_ body: @escaping () -> Int32) { self.body = body }
        func callBody() { status = body() }
    }

    /// Raises `resource`'s soft limit toward `ceiling` (no higher than the
    /// hard one); whether it did. An unlimited soft limit (`rlim_t.max`) is
    /// never below it.
    @discardableResult
    private static func raise(_ resource: Int32, to ceiling: rlim_t) -> Bool {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return false }
        let wanted = min(limit.rlim_max, ceiling)
        guard limit.rlim_cur < wanted else { return false }
        limit.rlim_cur = wanted
        return setrlimit(resource, &limit) == 0
    }

    /// Runs one command line (without the executable's name) and returns its
    /// exit status instead of exiting.
    public static func run(_ arguments: [String], host makeHost: @escaping HostFactory) -> Int32 {
        var command: ParsableCommand?
        do {
            // Bound around the parse: shell completion of `--fault` asks the app (``ValueCompletion``).
            command = try ValueCompletion.$host.withValue(.init(make: makeHost)) { try RootCommand.parseAsRoot(arguments) }
            let repeated = ReportOptions.repeatedOption(in: arguments).map { repeated in
                ValidationError(
                    "\(repeated.option) is given twice ('\(repeated.first)' and '\(repeated.second)'): it takes one "
                        + "value, and the last would win without a word; give it once")
            }
            if let hosted = command as? any HostedCommand {
                do {
                    if let repeated { throw repeated }
                    do { try hosted.run(in: CommandContext(makeHost: makeHost)) } catch let problem as UsageProblem {
                        throw ValidationError(problem.description)
                    }
                } catch let error where !(error is ExitCode) {
                    // It stopped before it ran (a selection that matches nothing, a refused manifest, an app
                    // that cannot start): its report files say so, instead of keeping the last run's — often
                    // green, and published by CI whatever the exit status.
                    if hosted.reportOptions != nil {
                        // Read from the words given, never over a path the command line also names (`run x.txt
                        // --junit x.txt`, refused as not a scenario file, is a user's file).
                        let reason = error is HostUnavailable ? "\(error)" : RootCommand.message(for: error)
                        ReportOptions.reportRefused(arguments, reason: reason)
                    }
                    throw error
                }
            } else {
                if let repeated { throw repeated }
                try command?.run()
            }
            return 0
        } catch let exit as ExitCode {
            return exit.rawValue
        } catch let unavailable as HostUnavailable {
            // Not the command line's fault: no "See --help".
            writeStandardError("Error: \(unavailable)\n")
            return 2
        } catch {
            let code = RootCommand.exitCode(for: error)
            if code == .success {
                // --help, --version: print and succeed.
                print(RootCommand.fullMessage(for: error))
                return 0
            }
            // A command line refused before its command existed (`--tags ""` from an unset variable, a
            // bad `--shard`): the report files it names say so, as a run that could not start does.
            if command == nil { ReportOptions.reportRefused(arguments, reason: RootCommand.message(for: error)) }
            // Errors found while running name the subcommand's usage, not the root's.
            var message = RootCommand.fullMessage(for: error)
            if let command, let name = type(of: command).configuration.commandName {
                let path =
                    command is RoutesListCommand || command is RoutesCheckCommand || command is RoutesDiffCommand
                    ? "routes \(name)" : name
                message = "Error: \(RootCommand.message(for: error))\nSee '\(executableName) \(path) --help'."
            }
            writeStandardError(message + "\n")
            return 2
        }
    }
}

/// A command that needs the app: it runs with the context the entry point
/// built instead of ArgumentParser's argument-less `run()`.
protocol HostedCommand: ParsableCommand {
    func run(in context: CommandContext) throws
    /// The report files the command writes, if it writes any (`run`, `mutate`, `explore`).
    var reportOptions: ReportOptions? { get }
}

extension HostedCommand {
    var reportOptions: ReportOptions? { nil }
}

/// What the entry point hands every command: a way to build the host.
struct CommandContext {
    let makeHost: NavScriptCLI.HostFactory

    /// The host; a failure to build it is ``HostUnavailable`` (exit 2).
    func host() throws -> any ScenarioHost {
        do {
            return try makeHost()
        } catch {
            throw HostUnavailable(error)
        }
    }
}

/// The app's host factory threw: the app's own setup failed (a resource
/// missing from its bundle, an invalid route manifest), not the command line.
struct HostUnavailable: Error, CustomStringConvertible {
    let underlying: any Error
    init(_ underlying: any Error) { self.underlying = underlying }

    var description: String {
        var text = "the app's host could not be created: its factory (the closure given to NavScriptCLI.main) threw: "
        if let manifest = underlying as? ManifestError {
            text +=
                "an invalid route manifest: \(manifest)\n(`\(NavScriptCLI.executableName) routes check <manifest.json>` "
                + "lists every problem of the file)"
        } else if let error = underlying as? CocoaError {
            text += error.localizedDescription
            if let path = error.userInfo[NSFilePathErrorKey] ?? error.userInfo[NSURLErrorKey] { text += " — \(path)" }
            text += "\n(a file the app loads at start-up, such as its manifest in Bundle.module: is it in the target's resources?)"
        } else {
            text += "\(underlying)"
        }
        return text
    }
}

/// A command-line error that ends the run with status 2 and a message that
/// says what to do.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
