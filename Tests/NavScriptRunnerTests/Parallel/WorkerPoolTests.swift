import Foundation
import TestSupport
import Testing

@testable import NavScript
@testable import NavScriptLua
@testable import NavScriptRunner
@testable import NavScriptRuntime

/// The pool against workers that misbehave at the protocol level, played by
/// shell commands: one that never answers, one that cannot start.
@Suite("WorkerPool")
struct WorkerPoolTests {
    static let task = WorkerTask(id: 0, path: "suite/a.lua", suiteRoot: "suite", faults: [])

    @Test func aWorkerThatNeverAnswersItsTaskIsTimedOutNotWaitedForForever() throws {
        // Reads its task, then says nothing and ignores the request to flush (a worker
        // stuck before loading the file): killed after the grace.
        let pool = WorkerPool(
            .init(
                command: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "trap \"\" USR1; read task; exec sleep 30"],
                jobs: 1, timeout: 0.5))
        var events: [String] = []
        pool.publish = { if case .scenarioFinished(let result) = $0 { events.append(result.kind) } }
        let results = pool.run([Self.task])
        let result = try #require(results.first?.scenarios.first)
        // The file did not load (the run exits 2, as for a top level out of its budget); the message says why.
        #expect(result.status == .errored && result.kind == "load_error", "\(result)")
        #expect(result.message.contains("the worker died while loading the file: timeout"), "\(result.message)")
        // No scenario had started: the file is what ran too long, and a fraction of a second is shown as such.
        #expect(result.message.contains("timeout: the worker worked on the file longer than 0.5s (--timeout)"), "\(result.message)")
        #expect(WorkerPool.seconds(1e-9) == "1e-09s" && WorkerPool.seconds(0.001) == "0.001s" && WorkerPool.seconds(60) == "60s")
        #expect(events == ["load_error"], "the stream has it too")
    }

    @Test func filesWhoseWorkerCannotStartAreReportedAndFinished() throws {
        let pool = WorkerPool(
            .init(
                command: URL(fileURLWithPath: "/nonexistent/navscript"), arguments: [],
                jobs: 1, timeout: 5))
        var finished: [String] = []
        pool.onTaskFinished = { task, _ in finished.append(task.path) }
        let results = pool.run([Self.task])
        #expect(results.first?.scenarios.first?.message.contains("could not start a worker process") == true, "\(results)")
        #expect(finished == ["suite/a.lua"], "the caller hears of it, so the file's events close")
    }

    /// The stream alone is the run: every task's events are complete without
    /// anything after the pool completing them — a file no worker started
    /// (skipped, or its worker could not start) is started, has its entry
    /// and is finished, and the file's result is the one its event carried.
    @Test func everyTaskPublishesACompleteFileWhateverBecameOfIt() throws {
        let pool = WorkerPool(
            .init(
                command: URL(fileURLWithPath: "/nonexistent/navscript"), arguments: [],
                jobs: 1, timeout: 5))
        let tasks = [Self.task, WorkerTask(id: 1, path: "suite/b.lua", suiteRoot: "suite", faults: [])]
        pool.skipReason = { $0.path == "suite/b.lua" ? "its fault is already killed" : nil }
        var events: [String] = []
        var finishedInStream: [String: FileResult] = [:]
        pool.publish = { event in
            switch event {
            case .fileStarted(let file): events.append("started \(file)")
            case .scenarioFinished(let result): events.append("scenario \(result.name): \(result.kind)")
            case .fileFinished(let result):
                events.append("finished \(result.file)")
                finishedInStream[result.file] = result
            default: break
            }
        }
        let results = pool.run(tasks)
        #expect(
            events == [
                "started suite/a.lua", "scenario suite/a.lua (load): load_error", "finished suite/a.lua",
                "started suite/b.lua", "scenario suite/b.lua (not run): not_started", "finished suite/b.lua"
            ], "\(events)")
        #expect(results.map(\.file) == ["suite/a.lua", "suite/b.lua"], "results in task order")
        #expect(results.allSatisfy { finishedInStream[$0.file] == $0 }, "the results are the events' own")
        #expect(results[1].scenarios.first?.message == "not run: its fault is already killed", "\(results)")
    }

    /// A worker can die between a file-level message and its `done`: the
    /// file is still finished once, with what the worker had said.
    @Test(arguments: [
        WorkerMessage.notRun(task: 0, reason: "--fail-fast stopped the run"),
        WorkerMessage.loadFailed(
            task: 0,
            result: ScenarioResult(
                name: "suite/a.lua (load)", file: "suite/a.lua", line: 1, outcome: .errored(.syntax), message: "bad"))
    ])
    func aWorkerThatDiesAfterAFileLevelMessageStillFinishesTheFile(message: WorkerMessage) throws {
        let line = message.line.trimmingCharacters(in: .newlines)
        let pool = WorkerPool(
            .init(
                command: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "read task; printf '%s\\n' '\(line)'; exit 3"],
                jobs: 1, timeout: 5))
        var finishedFiles: [FileResult] = []
        var finishedScenarios: [String] = []
        pool.publish = { event in
            if case .fileFinished(let file) = event { finishedFiles.append(file) }
            if case .scenarioFinished(let result) = event { finishedScenarios.append(result.name) }
        }
        let results = pool.run([Self.task])
        #expect(finishedFiles.count == 1, "\(finishedFiles)")
        #expect(
            results.first?.scenarios.map(\.kind) == [
                message == WorkerMessage.notRun(task: 0, reason: "--fail-fast stopped the run") ? "not_started" : "syntax"
            ],
            "what the worker said stands, not a crash entry: \(results)")
        #expect(finishedScenarios == results.first?.scenarios.map(\.name), "the stream and the result agree")
    }

    @Test func aWorkerThatStopsReadingCostsItsFilesNotTheRun() throws {
        // Finishes its first file, closes its input and lingers: the next file
        // written to it hits a pipe nobody reads. That must be a failed write
        // (SIGPIPE would kill the parent), and the files go on elsewhere.
        let script = #"read task; exec 0<&-; echo '{"loaded":{"scenarios":[],"task":0}}'; echo '{"done":{"task":0}}'; exec sleep 1"#
        let pool = WorkerPool(.init(command: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", script], jobs: 1, timeout: 5))
        let tasks = (0..<3).map { WorkerTask(id: $0, path: "suite/\($0).lua", suiteRoot: "suite", faults: []) }
        var finished: [String] = []
        pool.onTaskFinished = { task, _ in finished.append(task.path) }
        let results = pool.run(tasks)
        #expect(results.count == 3)
        #expect(Set(finished) == Set(tasks.map(\.path)), "every file is finished, once: \(finished)")
        #expect(finished.count == 3, "\(finished)")
    }

    @Test func everyJobGetsAWorkerWhileFilesWait() throws {
        // Workers that answer at once: the first is idle again whenever the
        // pool looks, which must not keep the second from starting.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pool-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("workers").path
        let script =
            #"while read task; do echo $$ >> '"# + log
            + #"'; echo '{"loaded":{"scenarios":[],"task":0}}'; echo '{"done":{"task":0}}'; done"#
        let pool = WorkerPool(.init(command: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", script], jobs: 2, timeout: 5))
        let tasks = (0..<8).map { WorkerTask(id: $0, path: "suite/\($0).lua", suiteRoot: "suite", faults: []) }
        let results = pool.run(tasks)
        #expect(results.count == 8)
        let workers = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(workers.count == 8, "each file ran once: \(workers)")
        #expect(Set(workers).count == 2, "both jobs had a worker: \(workers)")
    }

    /// A worker that buffers its messages makes the pool's clock start late
    /// or early; on a timeout it says, with `flushed`, how long its current
    /// scenario has really run. Played by perl (a shell cannot unblock
    /// SIGUSR1, which a test runner's threads may block): scenario 0
    /// starts, the pool's timeout fires, the worker answers `elapsed` ms.
    static func flushingWorker(elapsed: Int) -> (URL, [String]) {
        let listing = #"{"file":"suite/a.lua","groups":[],"isPending":false,"line":1,"name":"N","tags":[]}"#
        let scenarios = listing.replacingOccurrences(of: "N", with: "one") + "," + listing.replacingOccurrences(of: "N", with: "two")
        let script = #"""
            use POSIX;
            $| = 1;
            sigprocmask(SIG_UNBLOCK, POSIX::SigSet->new(SIGUSR1));
            my $task = <STDIN>;
            print '{"loaded":{"scenarios":[SCENARIOS],"task":0}}', "\n";
            if ($task !~ /"from":1/) {
                my $asked = 0;
                $SIG{USR1} = sub { print '{"flushed":{"elapsedMilliseconds":ELAPSED}}', "\n"; $asked = 1; };
                print '{"start":{"index":0,"task":0}}', "\n";
                for (1 .. 30) { last if $asked; select(undef, undef, undef, 0.1); }
                sleep 5 if ELAPSED >= 1000;   # really hung: it would never finish
                select(undef, undef, undef, 0.2);   # else it runs on a little: a killed worker would say no more
                print '{"passed":{"duration":0.1,"index":0,"task":0}}', "\n";
            }
            print '{"start":{"index":1,"task":0}}', "\n";
            print '{"passed":{"duration":0.1,"index":1,"task":0}}', "\n";
            print '{"done":{"task":0}}', "\n";
            sleep 3;
            """#.replacingOccurrences(of: "SCENARIOS", with: scenarios).replacingOccurrences(of: "ELAPSED", with: String(elapsed))
        return (URL(fileURLWithPath: "/usr/bin/perl"), ["-e", script])
    }

    @Test func aScenarioThatStartedLateIsNotKilledForTheTimeBeforeIt() throws {
        let (perl, arguments) = Self.flushingWorker(elapsed: 100)
        let pool = WorkerPool(.init(command: perl, arguments: arguments, jobs: 1, timeout: 0.5))
        let results = try #require(pool.run([Self.task]).first)
        #expect(results.scenarios.map(\.status) == [.passed, .passed], "\(results.scenarios.map { ($0.name, $0.message) })")
    }

    @Test func aScenarioThatRanPastTheTimeoutByItsOwnClockIsKilled() throws {
        let (perl, arguments) = Self.flushingWorker(elapsed: 5_000)
        let pool = WorkerPool(.init(command: perl, arguments: arguments, jobs: 1, timeout: 0.5))
        let results = try #require(pool.run([Self.task]).first)
        #expect(results.scenarios.map(\.kind) == ["timeout", ""], "\(results.scenarios.map { ($0.name, $0.kind, $0.message) })")
        #expect(results.scenarios.last?.status == .passed, "a fresh worker ran the rest")
        // Killed on `flushed`, by the worker's clock (5 s), not after the pool's grace (0.5 + 2 s).
        #expect((results.scenarios.first?.duration ?? 0) >= 5, "\(results.scenarios.first?.duration ?? 0)")
    }

    /// A worker that runs scenario 0 and is then killed by SIGKILL (no
    /// handler can flush anything on that signal). On its second task —
    /// the re-run, which must ask for `"unbuffered":true` — it runs the rest,
    /// or with `killedAgain` starts scenario 1 and is killed in it.
    static func killedWorker(killedAgain: Bool, startedNext: Bool = false) -> (URL, [String]) {
        let listing = #"{"file":"suite/a.lua","groups":[],"isPending":false,"line":1,"name":"N","tags":[]}"#
        let scenarios = ["one", "two", "three"].map { listing.replacingOccurrences(of: "N", with: $0) }.joined(separator: ",")
        let script = #"""
            read task
            echo '{"loaded":{"scenarios":[SCENARIOS],"task":0}}'
            from=$(echo "$task" | sed -n 's/.*"from":\([0-9]*\).*/\1/p')
            case "$task" in
              *'"unbuffered":true'*) ;;
              *) echo '{"start":{"index":0,"task":0}}'; echo '{"passed":{"duration":0.1,"index":0,"task":0}}'; STARTED_NEXT kill -9 $$ ;;
            esac
            i=$from
            while [ "$i" -le 2 ]; do
              echo "{\"start\":{\"index\":$i,\"task\":0}}"
              if [ "$i" = 1 ] && [ KILLED_AGAIN = 1 ]; then
                echo '{"running":{"index":1,"line":"a.lua:4  tap(…)","task":0}}'; kill -9 $$
              fi
              echo "{\"passed\":{\"duration\":0.1,\"index\":$i,\"task\":0}}"
              i=$((i + 1))
            done
            echo '{"done":{"task":0}}'
            exec sleep 1
            """#.replacingOccurrences(of: "SCENARIOS", with: scenarios)
            .replacingOccurrences(of: "KILLED_AGAIN", with: killedAgain ? "1" : "0")
            .replacingOccurrences(of: "STARTED_NEXT", with: startedNext ? #"echo '{"start":{"index":1,"task":0}}';"# : "")
        return (URL(fileURLWithPath: "/bin/sh"), ["-c", script])
    }

    @Test func aFileWhoseWorkerWasKilledBySIGKILLRunsAgainFromItsFirstUnreportedScenario() throws {
        let (shell, arguments) = Self.killedWorker(killedAgain: false)
        let pool = WorkerPool(.init(command: shell, arguments: arguments, jobs: 1, timeout: 5))
        var notices: [String] = []
        pool.onNotice = { notices.append($0) }
        let results = try #require(pool.run([Self.task]).first)
        #expect(results.scenarios.map(\.status) == [.passed, .passed, .passed], "\(results.scenarios.map { ($0.name, $0.message) })")
        #expect(results.scenarios.map(\.name) == ["one", "two", "three"], "nothing invented, nothing lost")
        #expect(notices.count == 1 && notices[0].contains("SIGKILL") && notices[0].contains("scenario 'two'"), "\(notices)")
        // The scenario run again says so in the report, not only in a note on standard error.
        #expect(results.scenarios[1].output.hasPrefix("(navscript: this is the scenario's second run"), "\(results.scenarios[1].output)")
        #expect(results.scenarios[0].output.isEmpty && results.scenarios[2].output.isEmpty)
    }

    /// The start the pool saw last need not be the culprit: what came after it died in the
    /// worker's buffer. The file runs again from there all the same, and nothing is blamed.
    @Test func aSIGKILLAfterAStartWasSeenRunsTheFileAgainToo() throws {
        let (shell, arguments) = Self.killedWorker(killedAgain: false, startedNext: true)
        let pool = WorkerPool(.init(command: shell, arguments: arguments, jobs: 1, timeout: 5))
        let results = try #require(pool.run([Self.task]).first)
        #expect(results.scenarios.map(\.status) == [.passed, .passed, .passed], "\(results.scenarios.map { ($0.name, $0.message) })")
    }

    @Test func aScenarioWhoseWorkerIsKilledBySIGKILLTwiceIsTheCrash() throws {
        let (shell, arguments) = Self.killedWorker(killedAgain: true)
        let pool = WorkerPool(.init(command: shell, arguments: arguments, jobs: 1, timeout: 5))
        let results = try #require(pool.run([Self.task]).first)
        #expect(results.scenarios.map(\.name) == ["one", "two", "three"], "\(results.scenarios.map { ($0.name, $0.message) })")
        #expect(results.scenarios.map(\.status) == [.passed, .errored, .passed], "the third ran in a fresh worker")
        let crash = results.scenarios[1]
        #expect(crash.kind == "crash")
        for part in ["signal 9", "out-of-memory killer", "killed twice", "the last call was a.lua:4  tap(…)"] {
            #expect(crash.message.contains(part), "\(part): \(crash.message)")
        }
    }

    /// A worker that crashed after its last call returned did not hang: the
    /// report says where it was, not "it hung" (only a timeout says that).
    @Test func aCrashAfterTheLastCallReturnedIsNotCalledAHang() throws {
        let listing = #"{"file":"suite/0.lua","groups":[],"isPending":false,"line":1,"name":"only","tags":[]}"#
        let script =
            #"read task; echo '{"loaded":{"scenarios":["# + listing + #"],"task":0}}'; "#
            + #"echo '{"start":{"index":0,"task":0}}'; echo '{"running":{"index":0,"line":"a.lua:2  launch{}","task":0}}'; "#
            + #"echo '{"returned":{}}'; kill -SEGV $$"#
        let pool = WorkerPool(.init(command: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", script], jobs: 1, timeout: 5))
        let result = try #require(pool.run([WorkerTask(id: 0, path: "suite/0.lua", suiteRoot: "suite", faults: [])]).first?.scenarios.first)
        #expect(result.kind == "crash", "\(result.message)")
        #expect(
            result.message.contains("the last call, a.lua:2  launch{}, had returned: it was in the scenario's own code"),
            "\(result.message)")
        #expect(!result.message.contains("hung"), "\(result.message)")
    }

    /// A run that stops asks every worker to flush (SIGUSR1). One still
    /// starting, its next file handed over early, has no handler yet and
    /// dies of the request: its file is not run — not a crash of the file.
    @Test func aWorkerThatDiesOfTheStopsFlushRequestCostsNoCrash() throws {
        let listing = #"{"file":"suite/0.lua","groups":[],"isPending":false,"line":1,"name":"only","tags":[]}"#
        let script =
            #"read task; echo '{"loaded":{"scenarios":["# + listing + #"],"task":0}}'; "#
            + #"echo '{"start":{"index":0,"task":0}}'; echo '{"passed":{"duration":0.1,"index":0,"task":0}}'; "#
            + #"echo '{"done":{"task":0}}'; read next; exec sleep 5"#
        let pool = WorkerPool(.init(command: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", script], jobs: 1, timeout: 5))
        let tasks = (0..<2).map { WorkerTask(id: $0, path: "suite/\($0).lua", suiteRoot: "suite", faults: []) }
        let stopped = Flag()
        pool.onTaskFinished = { task, _ in if task.id == 0 { stopped.value = true } }
        pool.shouldStop = { stopped.value }
        pool.stopIsInterruption = { true }
        let results = pool.run(tasks, stopReason: { "interrupted (SIGINT)" })
        #expect(results.map { $0.scenarios.map(\.status) } == [[.passed], [.skipped]], "\(results)")
        let second = try #require(results.last?.scenarios.first)
        #expect(second.message == "not run: interrupted (SIGINT)" && !second.message.contains("signal"), "\(second)")
    }

    final class Flag: @unchecked Sendable { var value = false }

    /// A file taken back from a worker that had, in fact, already started
    /// it (the revocation crossed its `done`) runs once, on the worker it
    /// was given to: the first worker's copy is stopped, without a crash
    /// reported. Played by a shell worker that reads every line as a task:
    /// task 0 takes 0.6 s, so the file behind it (task 2) is taken back;
    /// the worker then starts it anyway, ignoring the revocation.
    @Test func aFileTakenBackFromAWorkerThatStartedItRunsOnce() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pool-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("runs").path
        let listing = #"{"file":"suite/a.lua","groups":[],"isPending":false,"line":1,"name":"one","tags":[]}"#
        let script = #"""
            while read line; do
              case "$line" in *'"revoke"'*) continue ;; esac
              id=$(echo "$line" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
              [ -z "$id" ] && continue
              echo '{"loaded":{"scenarios":[LISTING],"task":'"$id"'}}'
              echo "{\"start\":{\"index\":0,\"task\":$id}}"
              [ "$id" = 0 ] && sleep 0.6
              echo "$id $$" >> 'LOG'
              echo "{\"passed\":{\"duration\":0.1,\"index\":0,\"task\":$id}}"
              echo "{\"done\":{\"task\":$id}}"
            done
            """#.replacingOccurrences(of: "LISTING", with: listing).replacingOccurrences(of: "LOG", with: log)
        let pool = WorkerPool(.init(command: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", script], jobs: 2, timeout: 5))
        let tasks = (0..<4).map { WorkerTask(id: $0, path: "suite/\($0).lua", suiteRoot: "suite", faults: []) }
        let results = pool.run(tasks)
        #expect(results.count == 4)
        #expect(results.allSatisfy { $0.scenarios.map(\.status) == [.passed] }, "\(results.map { $0.scenarios.map(\.message) })")
        let runs = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map { $0.split(separator: " ") }
        let first = Set(runs.filter { $0[0] == "0" }.map { $0[1] })
        let second = runs.filter { $0[0] == "2" }.map { $0[1] }
        #expect(first.count == 1, "\(runs)")
        // Task 2 completed on the worker that was idle; the copy the first worker began was stopped
        // (it may have logged its run before the kill reached it).
        #expect(second.contains { !first.contains($0) }, "task 2 ran on the other worker: \(runs)")
    }
}
