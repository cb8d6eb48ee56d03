import Foundation
import TestSupport
import Testing

/// Signals from outside (a worker killed by the OS, Ctrl-C on the run) and
/// sharding: the run still reports every scenario exactly once.
@Suite("run: signals, interrupt and shards")
struct SignalAndShardTests {
    /// A scenario that hangs in Swift (two-factor deadlock) until its worker is killed.
    static let hanging = #"""
        scenario("first passes", function() end)
        scenario("hangs in swift", { launch = { two_factor = true } }, function()
          deep_link("shop://orders/42")
          tap("submit")
          tap("submit")
        end)
        scenario("third passes", function() end)
        """#

    /// Worker processes of `parent` (direct children), once at least one exists
    /// and has been busy for a moment — synchronisation, not a timing assertion.
    static func workers(of parent: Int32) -> [Int32] {
        for _ in 0..<200 {
            let children = (try? String(contentsOfFile: "/proc/\(parent)/task/\(parent)/children", encoding: .utf8)) ?? ""
            let pids = children.split(separator: " ").compactMap { Int32($0) }
            if !pids.isEmpty {
                usleep(300_000)
                return pids
            }
            usleep(50_000)
        }
        return []
    }

    @Test func aWorkerKilledByASignalCostsOnlyItsScenario() throws {
        let fixture = try Fixture(["suite/a.lua": Self.hanging, "suite/b.lua": #"scenario("other file", function() end)"#])
        let (output, junit) = try fixture.runWithJUnit(
            ["--fault", "main-thread-deadlock", "--timeout", "120", "--jobs", "1", "suite"]) { parent in
                for worker in Self.workers(of: parent) { kill(worker, SIGSEGV) }
            }
        #expect(output.status == 1, "\(output)")
        let killed = junit.testcase("hangs in swift")?.child("error")
        #expect(killed?["type"] == "crash", "\(junit.raw)")
        #expect(killed?["message"]?.contains("signal 11") == true, "\(junit.raw)")
        #expect(junit.outcome("first passes") == "passed")
        #expect(junit.outcome("third passes") == "passed", "a fresh worker picks up the rest")
        #expect(junit.outcome("other file") == "passed")
        XMLLint.expectValid(fixture.url("report.xml"))
    }

    @Test(
        "SIGTERM, SIGHUP and the other signals that end a process by default stop the run like Ctrl-C, with their own exit status",
        arguments: [
            (SIGTERM, Int32(143), "SIGTERM"), (SIGHUP, Int32(129), "SIGHUP"), (SIGUSR2, Int32(128 + SIGUSR2), "SIGUSR2"),
            (SIGALRM, Int32(142), "SIGALRM"), (SIGXCPU, Int32(128 + SIGXCPU), "SIGXCPU"), (SIGQUIT, Int32(131), "SIGQUIT")
        ])
    func terminationSignals(_ signal: Int32, _ status: Int32, _ name: String) throws {
        let fixture = try Fixture(["suite/a.lua": Self.hanging, "suite/b.lua": #"scenario("never started", function() end)"#])
        let (output, junit) = try fixture.runWithJUnit(
            ["--fault", "main-thread-deadlock", "--timeout", "120", "--jobs", "1", "suite"]) { parent in
                _ = Self.workers(of: parent)
                kill(parent, signal)
            }
        #expect(output.status == status, "\(output)")
        #expect(output.stderr.contains("interrupted (\(name))"), "\(output)")
        #expect(output.stdout.contains("interrupted (\(name)): 1 passed"), "the summary says so\n\(output)")
        #expect(junit.outcome("first passes") == "passed", "what finished is kept")
        // A file no worker started is one not-run entry naming it: listing its scenarios
        // would mean loading it, the work the stop kept from being done.
        #expect(
            junit.testcase("suite/b.lua (not run)")?.child("skipped")?["message"]?.contains("interrupted (\(name))") == true,
            "\(junit.raw)")
        XMLLint.expectValid(fixture.url("report.xml"))
    }

    /// `mutate` stopped by a signal reports what it decided — a fault killed
    /// before the stop is killed, the one it was running is not decided (not
    /// "survived") — in the terminal and the JUnit report (an error there: an
    /// interrupted matrix read green as skips), with the signal's status.
    @Test func anInterruptedMutateReportsWhatItDecided() throws {
        let fixture = try Fixture([
            "suite/a.lua": #"scenario("a widget link with a bad id", function() deep_link("shop://orders/abc", { via = "widget" }) end)"#,
            "suite/b.lua": Self.hanging
        ])
        let output = try fixture.run(
            [
                "mutate", "suite", "--only", "force-unwrap-crash", "--only", "main-thread-deadlock", "--jobs", "1",
                "--timeout", "120", "--junit", "report.xml"
            ]
        ) { parent in
            // The healthy run's worker, then the one that replaced the worker the crash took:
            // the run is in its last fault, the one that hangs.
            var seen: Set<Int32> = []
            for _ in 0..<2400 where seen.count < 2 {  // up to a minute: a loaded machine starts workers late
                seen.formUnion(Self.workers(of: parent))
                usleep(25_000)
            }
            // The replacement worker is up as soon as the crash is seen; the crash's result is taken
            // in an instant later — on a loaded machine, after the signal (the fault read "not
            // decided"). The hang that follows lasts the --timeout: two seconds of it cost nothing.
            sleep(2)
            kill(parent, SIGTERM)
        }
        #expect(output.status == 143, "\(output)")
        #expect(output.stdout.contains("force-unwrap-crash    killed"), "\(output)")
        #expect(output.stdout.contains("main-thread-deadlock  not decided"), "\(output)")
        #expect(output.stderr.contains("the matrix and the reports cover what was decided"), "\(output)")
        let junit = try JUnit(try Data(contentsOf: fixture.url("report.xml")))
        #expect(junit.outcome("force-unwrap-crash") == "passed" && junit.outcome("main-thread-deadlock") == "error", "\(junit.raw)")
    }

    /// `--fail-fast` stops a scenario another worker is running; one that had
    /// already failed is reported as the failure it was (it was a skip, its
    /// failure only in the JSON's details), one that had not as not run.
    @Test func failFastKeepsAFailureTheScenarioItStoppedHadRecorded() throws {
        let fixture = try Fixture([
            "suite/a.lua": """
            scenario("a1 fails after a while", function() launch{} local t = os.clock() while os.clock() - t < 2 do end expect_stack{ "nope" } end)
            """,
            "suite/b.lua": """
            scenario("b1 failed, then works on", function()
              launch{}
              pcall(expect_stack, { "recorded before" })
              local t = os.clock() while os.clock() - t < 60 do end
            end)
            """
        ])
        let (output, junit) = try fixture.runWithJUnit([
            "--fail-fast", "--jobs", "2", "--instruction-budget", "100000000000", "--timeout", "120", "suite"
        ])
        #expect(output.status == 1, "\(output)")
        #expect(junit.outcome("a1 fails after a while") == "failure", "\(junit.raw)")
        let b1 = junit.testcase("b1 failed, then works on")?.child("failure")
        #expect(b1?["message"]?.contains(#"expected { "recorded before" }"#) == true, "\(junit.raw)")
        #expect(b1?.text.contains("then stopped while running: --fail-fast stopped the run") == true, "\(junit.raw)")
    }

    /// `mutate`'s reports say it did not finish from the moment it starts,
    /// as `run`'s do: a mutate killed outright (SIGKILL, a CI time limit)
    /// left the previous run's green report in place.
    @Test func aKilledMutateLeavesAReportThatSaysSo() throws {
        let fixture = try Fixture(["suite/b.lua": Self.hanging])
        try Data(#"<testsuites><testsuite name="old" tests="1"><testcase name="old green"/></testsuite></testsuites>"#.utf8)
            .write(to: fixture.url("report.xml"))
        var during = ""
        let output = try fixture.run(
            ["mutate", "suite", "--only", "main-thread-deadlock", "--jobs", "1", "--timeout", "120", "--junit", "report.xml"]
        ) { parent in
            // Until the report is replaced (up to a minute on a loaded machine), then killed mid-matrix.
            for _ in 0..<2400 where !during.contains("did not finish") {
                during = (try? fixture.read("report.xml")) ?? ""
                usleep(25_000)
            }
            kill(parent, SIGKILL)
        }
        #expect(output.status == 128 + SIGKILL || output.status == -SIGKILL || output.status == SIGKILL, "\(output)")
        let left = try fixture.read("report.xml")
        #expect(left.contains("navscript mutate did not finish") && !left.contains("old green"), "\(left)")
    }

    /// In process nothing can be killed but the run itself: a signal ends
    /// the scenario under way at its next instruction — a loop a `pcall`
    /// wraps, a pattern match inside one C call — and the rest is not run.
    /// (It used to spin on: `timeout 300 navscript run --in-process` was
    /// still running minutes after its SIGTERM.)
    /// A scenario stuck where no instruction is reached (a table whose
    /// `__call` is itself) is ended by the in-process watch a few seconds
    /// after the signal: that scenario is the interruption, and no second
    /// "run interrupted … between two scenarios" entry is added.
    @Test(arguments: [
        "pcall(function() while true do end end)",
        #"string.find(("a"):rep(60), ("a*"):rep(60) .. "b")"#,
        "local t = setmetatable({}, {}) getmetatable(t).__call = t local _ = t()"
    ])
    func aSignalInProcessEndsTheScenarioUnderWay(_ body: String) throws {
        let fixture = try Fixture([
            "suite/a.lua": """
            scenario("first passes", function() end)
            scenario("loops", function() \(body) end)
            scenario("never started", function() end)
            """
        ])
        let (output, junit) = try fixture.runWithJUnit(
            ["--in-process", "--instruction-budget", "1000000000000000", "--json", "events.jsonl", "suite"]
        ) { parent in
            // Synchronisation on the event stream, not a timing assertion: the loop has started.
            for _ in 0..<400 where !((try? fixture.read("events.jsonl")) ?? "").contains(#""name":"loops""#) { usleep(25_000) }
            kill(parent, SIGTERM)
        }
        #expect(output.status == 143, "\(output)")
        let stopped = junit.testcase("loops")?.child("error")
        #expect(stopped?["type"] == "interrupted", "\(junit.raw)")
        #expect(stopped?["message"]?.contains("suite/a.lua:2: stopped while running: interrupted (SIGTERM)") == true, "\(junit.raw)")
        #expect(junit.outcome("first passes") == "passed")
        #expect(junit.outcome("never started") == "skipped", "\(junit.raw)")
        #expect(junit.testcase("run interrupted") == nil, "the stopped scenario is the one error: \(junit.raw)")
    }

    /// A `--json` stream whose reader opened it and stopped reading (a stalled consumer): the run
    /// blocked in `write` once the pipe was full, one SIGTERM was never honoured and the JUnit
    /// report was never written. The stream is given up a few seconds after the signal.
    @Test(arguments: [[String](), ["--in-process"]])
    func aStalledJSONReaderDoesNotHoldAStoppedRun(mode: [String]) throws {
        let fixture = try Fixture([
            "suite/big.lua": """
            scenario("prints a lot", function() launch{} for i = 1, 3000 do print(("x"):rep(100)) end end)
            scenario("after it", function() launch{} local t = os.clock() while os.clock() - t < 20 do end end)
            """
        ])
        let reader = try Self.stalledReader(of: fixture.url("events.fifo").path)
        defer { reader.terminate() }
        let started = Date()
        let (output, junit) = try fixture.runWithJUnit(mode + ["--instruction-budget", "100000000000", "--json", "events.fifo", "suite"]) {
            parent in
            usleep(2_000_000)
            kill(parent, SIGTERM)
        }
        #expect(Date().timeIntervalSince(started) < 30, "ended a few seconds after the signal: \(output)")
        #expect(output.status == 143, "\(output)")
        #expect(output.stderr.contains("its reader stopped reading, and the run was stopped"), "\(output)")
        #expect((junit.root.int("errors") ?? 0) >= 1, "\(junit.raw)")
    }

    /// A FIFO at `path` and a reader that opened it and never reads (a stalled consumer).
    static func stalledReader(of path: String) throws -> Process {
        #expect(mkfifo(path, 0o600) == 0)
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/sh")
        reader.arguments = ["-c", "exec sleep 60 < '\(path)'"]
        try reader.run()
        return reader
    }

    /// A JUnit or HTML report to a FIFO whose reader opened it and stopped reading: the finished
    /// run blocked writing it, and one SIGTERM was never honoured. The report is given up a few
    /// seconds after the signal and said; the run had finished, so it exits as one whose report
    /// could not be written (2).
    @Test(arguments: ["--junit", "--html"])
    func aStalledReportReaderDoesNotHoldAFinishedRun(option: String) throws {
        let fixture = try Fixture([
            "suite/big.lua": """
            scenario("prints a lot", function() launch{} for i = 1, 3000 do print(("x"):rep(100)) end end)
            """
        ])
        let reader = try Self.stalledReader(of: fixture.url("report.fifo").path)
        defer { reader.terminate() }
        let started = Date()
        let output = try fixture.run(["run", "suite", option, "report.fifo", "--json", "events.jsonl"]) { parent in
            // The run has finished (its last event is written) and waits on the report's reader.
            for _ in 0..<400 where !((try? fixture.read("events.jsonl")) ?? "").contains(#""run_finished""#) { usleep(25_000) }
            kill(parent, SIGTERM)
        }
        #expect(Date().timeIntervalSince(started) < 30, "ended a few seconds after the signal: \(output)")
        #expect(output.status == 2, "\(output)")
        let kind = option == "--junit" ? "JUnit report" : "HTML report"
        #expect(output.stderr.contains("cannot write the \(kind) to"), "\(output)")
        #expect(output.stderr.contains("its reader stopped reading, and the run was stopped"), "\(output)")
    }

    /// A signal that lands between two scenarios (a run of short ones: the
    /// stop is noticed after one ends) left no scenario to be the error,
    /// and the JUnit file — passed and skipped cases only — read green to a
    /// CI reporter. The interruption is an error of its own then.
    @Test func aRunInterruptedBetweenScenariosIsNotGreen() throws {
        var files: [String: String] = [:]
        for index in 0..<3000 { files["suite/f\(index).lua"] = #"scenario("s\#(index)", function() launch{} end)"# }
        let fixture = try Fixture(files)
        let (output, junit) = try fixture.runWithJUnit(["--in-process", "--json", "events.jsonl", "suite"]) { parent in
            // Some files have run (the stream has grown past its start), most have not.
            let events = fixture.url("events.jsonl").path
            for _ in 0..<1000 {
                let size = (try? FileManager.default.attributesOfItem(atPath: events)[.size] as? Int) ?? 0
                if size > 20_000 { break }
                usleep(5_000)
            }
            kill(parent, SIGINT)
        }
        #expect(output.status == 130, "\(output)")
        let errors = junit.root["errors"].flatMap { Int($0) } ?? 0
        #expect(errors >= 1, "an interrupted run's report has an error\n\(junit.raw.prefix(600))")
        let interrupted = junit.raw.components(separatedBy: #"type="interrupted""#).count - 1
        #expect(interrupted == 1, "one error says it: the scenario under way, or the run itself\n\(junit.raw.prefix(600))")
    }

    /// The same signal delivered twice at once (GNU `timeout` signals
    /// navscript, then its process group) is one stop: the reports are
    /// written, not left as the placeholder a killed run leaves.
    @Test(arguments: [[String](), ["--in-process"]])
    func aSignalDeliveredTwiceAtOnceStillWritesTheReports(mode: [String]) throws {
        let fixture = try Fixture([
            "suite/a.lua": """
            scenario("first passes", function() end)
            scenario("loops", function() while true do end end)
            """
        ])
        let (output, junit) = try fixture.runWithJUnit(
            mode + ["--instruction-budget", "1000000000000000", "--json", "events.jsonl", "suite"]
        ) { parent in
            for _ in 0..<400 where !((try? fixture.read("events.jsonl")) ?? "").contains(#""name":"loops""#) { usleep(25_000) }
            kill(parent, SIGTERM)
            usleep(5_000)
            kill(parent, SIGTERM)
        }
        #expect(output.status == 143, "\(output)")
        #expect(!output.stderr.contains("a second signal"), "\(output)")
        #expect(junit.outcome("first passes") == "passed", "\(junit.raw)")
        #expect(junit.testcase("loops")?.child("error")?["type"] == "interrupted", "\(junit.raw)")
    }

    /// In process, a hang inside the app never reaches a next instruction:
    /// the first signal cannot end it, a second one ends the run at once
    /// (it needed SIGKILL), with the conventional status.
    @Test func aSecondSignalEndsARunThatIsHungInProcess() throws {
        let fixture = try Fixture([
            "suite/a.lua": """
            scenario("two-factor deadlocks the main thread", { launch = { two_factor = true } }, function()
              deep_link("shop://orders/42")
              tap("submit")
              tap("submit")
            end)
            """
        ])
        let output = try fixture.run(
            ["run", "--in-process", "--fault", "main-thread-deadlock", "--json", "events.jsonl", "suite"]
        ) { parent in
            // Synchronisation on the event stream: the scenario has started (and hangs in its taps).
            for _ in 0..<400 where !((try? fixture.read("events.jsonl")) ?? "").contains(#""name":"two-factor"#) {
                usleep(25_000)
            }
            kill(parent, SIGTERM)
            usleep(1_300_000)  // past the window in which a second signal is the same one delivered twice
            kill(parent, SIGTERM)
            // Not a timing assertion: a run the second signal did not end is killed, and fails below.
            for _ in 0..<400 where kill(parent, 0) == 0 { usleep(25_000) }
            kill(parent, SIGKILL)
        }
        #expect(output.status == 143, "\(output)")
        #expect(output.stderr.contains("a second signal (interrupted (SIGTERM)): exiting now"), "\(output)")
        #expect(output.stderr.contains("(the --json stream holds what finished)"), "\(output)")
    }

    /// A run killed outright (SIGKILL: nothing to catch) takes its workers
    /// with it — they kept spinning at full CPU, their timeout enforced by
    /// no one.
    @Test func aKilledRunTakesItsWorkersWithIt() throws {
        let fixture = try Fixture(["suite/a.lua": #"scenario("spins", function() while true do end end)"#])
        var orphans: [Int32] = []
        _ = try fixture.run(["run", "suite", "--instruction-budget", "1000000000000", "--timeout", "100"]) { parent in
            let workers = Self.workers(of: parent)
            kill(parent, SIGKILL)
            for _ in 0..<100 {
                orphans = workers.filter { kill($0, 0) == 0 && !Self.isZombie($0) }
                if orphans.isEmpty { break }
                usleep(20_000)
            }
            for worker in orphans { kill(worker, SIGKILL) }
        }
        #expect(orphans.isEmpty, "workers outlived their run: \(orphans)")
    }

    static func isZombie(_ pid: Int32) -> Bool {
        ((try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? "").contains(") Z ")
    }

    @Test func ctrlCStopsTheRunWritesTheReportAndExits130() throws {
        let fixture = try Fixture(["suite/a.lua": Self.hanging, "suite/b.lua": #"scenario("never started", function() end)"#])
        let (output, junit) = try fixture.runWithJUnit(
            ["--fault", "main-thread-deadlock", "--timeout", "120", "--jobs", "1", "suite"]) { parent in
                _ = Self.workers(of: parent)
                kill(parent, SIGINT)
            }
        #expect(output.status == 130, "\(output)")
        #expect(output.stderr.contains("interrupted"), "\(output)")
        #expect(junit.outcome("first passes") == "passed", "what finished is kept")
        for name in ["third passes", "suite/b.lua (not run)"] {
            #expect(junit.outcome(name) == "skipped", "\(name) is marked skipped\n\(junit.raw)")
        }
        // The one it was running did not finish: an error (a cut-short report must not look
        // green), which keeps what it did: the reason, the call it hung in, its steps.
        #expect(junit.outcome("hangs in swift") == "error", "\(junit.raw)")
        let stopped = junit.testcase("hangs in swift")
        #expect(stopped?.child("error")?["type"] == "interrupted", "\(junit.raw)")
        #expect(stopped?.child("error")?["message"]?.contains("stopped while running: interrupted") == true, "\(junit.raw)")
        #expect(stopped?.child("error")?["message"]?.contains("the last call was suite/a.lua:5  tap(\"submit\")") == true, "\(junit.raw)")
        #expect(stopped?.child("error")?.text.contains("deep_link(\"shop://orders/42\"") == true, "\(junit.raw)")
        #expect(junit.testcase("third passes")?.child("skipped")?["message"]?.hasPrefix("not run: ") == true, "\(junit.raw)")
        #expect(
            junit.testcase("suite/b.lua (not run)")?.child("skipped")?["message"] == "not run: interrupted (SIGINT)",
            "a file no worker started is one entry naming it\n\(junit.raw)")
        #expect(junit.testcase("never started") == nil, "the file was not loaded to list its scenarios\n\(junit.raw)")
        XMLLint.expectValid(fixture.url("report.xml"))
        let leftovers = Self.workersStillAlive(named: fixture.root.path)
        #expect(leftovers.isEmpty, "workers outlived the interrupted run: \(leftovers)")
    }

    /// A file a worker was still loading when the run was interrupted had
    /// started: an error, as in process (a "not run" entry made the report of
    /// a run cut short look green); a file no worker began is the one not run.
    @Test func aFileInterruptedWhileItLoadedIsAnError() throws {
        let fixture = try Fixture([
            "suite/a.lua": "while true do end\nscenario(\"never declared\", function() end)",
            "suite/b.lua": #"scenario("never started", function() end)"#
        ])
        let (output, junit) = try fixture.runWithJUnit(
            ["--instruction-budget", "1000000000000", "--timeout", "120", "--jobs", "1", "suite"]) { parent in
                _ = Self.workers(of: parent)
                usleep(300_000)
                kill(parent, SIGINT)
            }
        #expect(output.status == 130, "\(output)")
        let loading = junit.testcase("suite/a.lua (load)")?.child("error")
        #expect(loading?["type"] == "interrupted", "\(junit.raw)")
        #expect(loading?["message"]?.hasPrefix("suite/a.lua: stopped while the file loaded: interrupted (SIGINT)") == true, "\(junit.raw)")
        #expect(junit.outcome("suite/b.lua (not run)") == "skipped", "\(junit.raw)")
        XMLLint.expectValid(fixture.url("report.xml"))
    }

    static func workersStillAlive(named directory: String) -> [String] {
        let proc = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return proc.compactMap { pid -> String? in
            guard Int32(pid) != nil,
                let cwd = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/cwd"),
                cwd == directory,
                let cmdline = try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8),
                cmdline.contains("worker")
            else { return nil }
            return pid
        }
    }

    @Test func theShardsTogetherRunTheWholeSuiteOnce() throws {
        var files: [String: String] = [:]
        for file in 0..<7 {
            let scenarios = (0...(file % 4)).map { #"scenario("f\#(file) s\#($0)", function() end)"# }
            files["suite/f\(file).lua"] = scenarios.joined(separator: "\n")
        }
        let fixture = try Fixture(files)
        let (whole, wholeJUnit) = try fixture.runWithJUnit(["suite"], junit: "whole.xml")
        #expect(whole.status == 0, "\(whole)")
        var seen: [String] = []
        var reports: [String] = []
        for shard in 1...3 {
            let (output, junit) = try fixture.runWithJUnit(["--shard", "\(shard)/3", "suite"], junit: "shard\(shard).xml")
            #expect(output.status == 0, "\(output)")
            seen += junit.cases.compactMap { $0["name"] }
            reports.append("shard\(shard).xml")
        }
        let all = wholeJUnit.cases.compactMap { $0["name"] }
        #expect(seen.sorted() == all.sorted(), "the union of the shards is the suite, no scenario twice")
        #expect(Set(seen).count == seen.count)

        let merged = try fixture.run(["merge-junit"] + reports + ["-o", "merged.xml"])
        #expect(merged.status == 0, "\(merged)")
        let mergedReport = try JUnit(try Data(contentsOf: fixture.url("merged.xml")))
        #expect(mergedReport.cases.compactMap { $0["name"] }.sorted() == all.sorted())
        #expect(mergedReport.root.int("tests") == all.count)
        XMLLint.expectValid(fixture.url("merged.xml"))
    }

    /// Two files whose paths reduce to one classname (`gate_resume/cart.lua`, `gate-resume/cart.lua`)
    /// were numbered over one run's files: in two shards both were `…cart`, and once merged a CI
    /// reporter kept one of a failing and a passing test; a shuffled run moved the `_2` between them.
    /// They are numbered over the whole suite, in path order.
    @Test func filesThatReduceToOneClassnameAreNamedAlikeInEveryShardAndOrder() throws {
        let fixture = try Fixture([
            "suite/gate_resume/cart.lua": #"scenario("cart resumes", function() end)"#,
            "suite/gate-resume/cart.lua": #"scenario("cart resumes", function() end)"#
        ])
        func classnames(_ arguments: [String], _ junit: String) throws -> [String: String] {
            let (output, report) = try fixture.runWithJUnit(arguments + ["suite"], junit: junit)
            #expect(output.status == 0, "\(output)")
            var names: [String: String] = [:]
            for testcase in report.cases { names[testcase["file"] ?? ""] = testcase["classname"] }
            return names
        }
        let whole = try classnames([], "whole.xml")
        #expect(Set(whole.values).count == 2, "\(whole)")
        var sharded: [String: String] = [:]
        for shard in 1...2 { sharded.merge(try classnames(["--shard", "\(shard)/2"], "shard\(shard).xml")) { $1 } }
        #expect(sharded == whole, "each shard names a file as the whole run does")
        for seed in 1...4 { #expect(try classnames(["--shuffle", "--seed", "\(seed)"], "shuffled.xml") == whole, "seed \(seed)") }
    }

    /// A set of shard reports that is not one whole split — a shard's artifact missing, shards of two
    /// splits — merged into a total missing scenarios (the failing one among them) and read green. Each
    /// shard's report says which it is, also a shard that got no file, and merge-junit refuses the rest.
    @Test func mergeJUnitRefusesASetOfShardsThatIsNotOneWholeSplit() throws {
        var files: [String: String] = ["suite/fails.lua": #"scenario("fails", function() assert(false) end)"#]
        for file in 0..<5 { files["suite/f\(file).lua"] = #"scenario("f\#(file)", function() end)"# }
        let fixture = try Fixture(files)
        for shard in ["1/3", "2/3", "3/3", "2/2"] {
            _ = try fixture.run(["run", "suite", "--shard", shard, "--junit", "s\(shard.replacingOccurrences(of: "/", with: "of")).xml"])
        }
        #expect(try fixture.read("s1of3.xml").contains(#"<property name="navscript.shard" value="1/3"/>"#))
        let whole = try fixture.run(["merge-junit", "s1of3.xml", "s2of3.xml", "s3of3.xml", "-o", "all.xml"])
        #expect(whole.status == 0, "\(whole)")
        let missing = try fixture.run(["merge-junit", "s1of3.xml", "s3of3.xml", "-o", "part.xml"])
        #expect(missing.status == 2 && missing.stderr.contains("shard 2/3 of the split is missing"), "\(missing)")
        let mixed = try fixture.run(["merge-junit", "s1of3.xml", "s2of2.xml", "-o", "mixed.xml"])
        #expect(mixed.status == 2 && mixed.stderr.contains("shards of different splits (of 2, of 3)"), "\(mixed)")
        // A shard run with another selection or fault than the others: its scenarios were not the split's.
        _ = try fixture.run(["run", "suite", "--shard", "2/3", "--filter", "f1", "--junit", "filtered.xml"])
        let filtered = try fixture.run(["merge-junit", "s1of3.xml", "filtered.xml", "s3of3.xml", "-o", "f.xml"])
        #expect(
            filtered.status == 2 && filtered.stderr.contains("s1of3.xml ran the whole suite as it is and filtered.xml ran 'filter=f1'"),
            "\(filtered)")
        // A shard with no file (more shards than files) still says which it is.
        let empty = try fixture.run(["run", "suite", "--shard", "9/9", "--junit", "empty.xml"])
        #expect(empty.status == 0, "\(empty)")
        #expect(try fixture.read("empty.xml").contains(#"<property name="navscript.shard" value="9/9"/>"#))
    }

    /// Shards of one split count whose suites differ — a shard re-run after files were added, one
    /// given another folder, another app's — or whose runs differ in what changes outcomes (another
    /// manifest, --strict-steps) merged green with scenarios in no shard; a merge given its own
    /// earlier output (`reports/*.xml`) counted every scenario twice, or wrote over an input.
    @Test func mergeJUnitRefusesShardsOfAnotherSuiteOrRun() throws {
        var files: [String: String] = [:]
        for file in 0..<4 { files["suite/f\(file).lua"] = #"scenario("f\#(file)", function() end)"# }
        let fixture = try Fixture(files)
        _ = try fixture.run(["run", "suite", "--shard", "1/2", "--junit", "old1.xml"])
        #expect(try fixture.read("old1.xml").contains(#"<property name="navscript.split" value="ShopApp: 4 files, "#))
        try fixture.write("suite/fails.lua", #"scenario("fails", function() assert(false) end)"#)
        _ = try fixture.run(["run", "suite", "--shard", "1/2", "--junit", "new1.xml"])
        _ = try fixture.run(["run", "suite", "--shard", "2/2", "--junit", "new2.xml"])
        let added = try fixture.run(["merge-junit", "old1.xml", "new2.xml", "-o", "m.xml"])
        #expect(added.status == 2 && added.stderr.contains("old1.xml and new2.xml are shards of different suites"), "\(added)")
        // Another folder: the split of suite/ and of a part of it.
        try fixture.write("suite/sub/g.lua", #"scenario("g", function() end)"#)
        _ = try fixture.run(["run", "suite/sub", "--shard", "1/2", "--junit", "sub1.xml"])
        _ = try fixture.run(["run", "suite", "--shard", "2/2", "--junit", "all2.xml"])
        let folders = try fixture.run(["merge-junit", "sub1.xml", "all2.xml", "-o", "m.xml"])
        #expect(folders.status == 2 && folders.stderr.contains("are shards of different suites"), "\(folders)")
        // The same suite, one shard run against another manifest, or with --strict-steps.
        let manifest = try String(contentsOf: ManifestCommandTests.shipped, encoding: .utf8)
        try fixture.write(
            "candidate.json", manifest.replacingOccurrences(of: #""patterns": ["orders"]"#, with: #""patterns": ["order-list"]"#))
        for (name, extra) in [("manifest", ["--manifest", "candidate.json"]), ("strict", ["--strict-steps"])] {
            _ = try fixture.run(["run", "suite", "--shard", "1/2", "--junit", "\(name)1.xml"] + extra)
            let mixed = try fixture.run(["merge-junit", "\(name)1.xml", "all2.xml", "-o", "m.xml"])
            #expect(mixed.status == 2 && mixed.stderr.contains("shards of one split must select and change the same scenarios"), "\(mixed)")
        }
        // A merge re-run over its own output, or writing over one of its inputs.
        _ = try fixture.run(["run", "suite", "--shard", "1/2", "--junit", "r/s1.xml"])
        _ = try fixture.run(["run", "suite", "--shard", "2/2", "--junit", "r/s2.xml"])
        #expect(try fixture.run(["merge-junit", "r/s1.xml", "r/s2.xml", "-o", "r/merged.xml"]).status == 0)
        let again = try fixture.run(["merge-junit", "r/merged.xml", "r/s1.xml", "r/s2.xml", "-o", "again.xml"])
        #expect(again.status == 2 && again.stderr.contains("r/merged.xml is a merged report (it holds shards 1/2, 2/2)"), "\(again)")
        let over = try fixture.run(["merge-junit", "r/s1.xml", "r/s2.xml", "-o", "./r/s1.xml"])
        #expect(over.status == 2 && over.stderr.contains("is also one of the reports to merge"), "\(over)")
        #expect(try fixture.read("r/s1.xml").contains(#"value="1/2""#), "the input is kept")
    }

    /// An option that takes one value given twice: the last won without a word — `--shard 1/1
    /// --shard 1/2` ran half the suite, `--junit ci.xml … --junit mine.xml` left ci.xml with the last
    /// run's green report. Refused, and every report file named says the run could not start.
    @Test func anOptionThatTakesOneValueGivenTwiceIsRefused() throws {
        let fixture = try Fixture(["suite/a.lua": #"scenario("fails", function() assert(false) end)"#, "ci.xml": "<green/>"])
        let shards = try fixture.run(["run", "suite", "--shard", "1/1", "--shard=1/2"])
        #expect(shards.status == 2 && shards.stderr.contains("--shard is given twice ('1/1' and '1/2')"), "\(shards)")
        let reports = try fixture.run(["run", "suite", "--junit", "ci.xml", "--junit", "mine.xml"])
        #expect(reports.status == 2, "\(reports)")
        for file in ["ci.xml", "mine.xml"] {
            let text = try fixture.read(file)
            #expect(text.contains("run could not start"), "\(file): \(text)")
        }
        #expect(try fixture.run(["run", "suite", "--fault", "cached-destination", "--fault", "graft-external-link"]).status == 1)
        // Every command: merge-junit's output, the console's colours.
        let merged = try fixture.run(["merge-junit", "ci.xml", "-o", "x1.xml", "-o", "x2.xml"])
        #expect(merged.status == 2 && merged.stderr.contains("-o is given twice ('x1.xml' and 'x2.xml')"), "\(merged)")
        let colors = try fixture.run(["run", "suite", "--color", "never", "--color=always"])
        #expect(colors.status == 2 && colors.stderr.contains("--color is given twice"), "\(colors)")
    }

    /// The split is computed from the files' text, not from running them:
    /// a file whose top level draws its count at run time moved whole other
    /// files into no shard (or two), and one whose top level loops hung every
    /// shard before it ran anything.
    @Test func theSplitDoesNotRunTheFiles() throws {
        var files: [String: String] = [
            "suite/drawn.lua": """
            for i = 1, math.floor(os.clock() * 1e7) % 40 + 1 do scenario("drawn " .. i, function() end) end
            """,
            "suite/loops.lua": "while true do end\nscenario(\"never\", function() end)"
        ]
        for file in 0..<5 {
            files["suite/f\(file).lua"] = (0..<10).map { #"scenario("f\#(file) s\#($0)", function() end)"# }.joined(separator: "\n")
        }
        let fixture = try Fixture(files)
        var ran: [String] = []
        for shard in 1...2 {
            let started = Date()
            let (_, junit) = try fixture.runWithJUnit(
                ["--shard", "\(shard)/2", "--timeout", "1", "--instruction-budget", "1000000000000", "suite"], junit: "s\(shard).xml")
            #expect(Date().timeIntervalSince(started) < 30, "no shard waits on the looping file's top level")
            ran += junit.suites.compactMap { $0["name"] }
        }
        #expect(ran.sorted() == files.keys.sorted(), "each file in exactly one shard: \(ran.sorted())")
    }

    /// `--filter` and `--tags` load every file to select from it: outside
    /// `--timeout` and before the signals were caught, a looping top level
    /// held the run, and Ctrl-C there left the last run's green report.
    @Test func readingTheSuiteToSelectFromItIsUnderTheTimeoutAndTheSignals() throws {
        let fixture = try Fixture([
            "suite/loops.lua": "while true do end\nscenario(\"never\", function() end)",
            "suite/fine.lua": #"scenario("fine", function() launch{} end)"#
        ])
        let started = Date()
        let (output, junit) = try fixture.runWithJUnit(
            ["--filter", "fine", "--timeout", "1", "--instruction-budget", "1000000000000", "suite"])
        #expect(Date().timeIntervalSince(started) < 30, "\(output)")
        #expect(junit.outcome("fine") == "passed", "\(junit.raw)")
        #expect(output.status == 2, "the looping file is a load error\n\(output)")

        try fixture.write("report.xml", #"<testsuites tests="1" failures="0" errors="0"/>"#)  // a last run's, green
        let (stopped, report) = try fixture.runWithJUnit(
            ["--filter", "fine", "--timeout", "60", "--instruction-budget", "1000000000000", "suite"]
        ) { parent in
            usleep(700_000)
            kill(parent, SIGINT)
        }
        #expect(stopped.status == 130, "\(stopped)")
        #expect(report.outcome("run could not start") == "error", "\(report.raw)")
        #expect(stopped.stderr.contains("interrupted (SIGINT) while the suite was read"), "\(stopped)")
    }

    /// `mutate --tags` reads the suite to select from it as `run` does: under
    /// `--timeout`, and a stop signal there writes its reports as a run that
    /// could not start (the default action killed it, the last green report left).
    @Test func mutateReadsTheSuiteUnderTheTimeoutAndTheSignals() throws {
        let fixture = try Fixture([
            "suite/loops.lua": "while true do end\nscenario(\"never\", function() end)",
            "suite/fine.lua": #"scenario("fine", { tags = { "x" } }, function() launch{} end)"#
        ])
        try fixture.write("report.xml", #"<testsuites tests="1" failures="0" errors="0"/>"#)  // a last run's, green
        let stopped = try fixture.run(
            ["mutate", "suite", "--tags", "x", "--timeout", "60", "--instruction-budget", "1000000000000", "--junit", "report.xml"]
        ) { parent in
            usleep(700_000)
            kill(parent, SIGTERM)
        }
        #expect(stopped.status == 143, "\(stopped)")
        let junit = try JUnit(try Data(contentsOf: fixture.url("report.xml")))
        #expect(junit.outcome("mutate could not start") == "error", "\(junit.raw)")
        let started = Date()
        let timed = try fixture.run(
            ["mutate", "suite", "--tags", "x", "--timeout", "1", "--instruction-budget", "1000000000000", "--only", "force-unwrap-crash"])
        #expect(Date().timeIntervalSince(started) < 60, "the looping top level is stopped at --timeout\n\(timed)")
    }

    /// A top level stuck in one Lua operation the time limit cannot stop (a
    /// table whose `__call` is a table) held the parent for minutes while it
    /// read the suite to select from it. It ends the run, its reports saying why.
    /// So did a `file.lua:LINE` argument's file, read to find the line's scenario, and the suite
    /// read by a shard that got no file, to tell whether any shard has a scenario — with no watch
    /// at all (554 s, SIGTERM ignored).
    @Test(arguments: [
        (["--filter", "fine", "--timeout", "1", "suite"], "while the suite was read to select from it"),
        (["--timeout", "1", "suite/chain.lua:3"], "while a file:LINE argument's file was read to find the scenario"),
        (["--timeout", "1", "--shard", "3/3", "suite"], "while the suite was read to tell whether any shard has a scenario")
    ])
    func aTopLevelStuckWhileTheSuiteIsReadEndsTheRunWithItsReports(arguments: [String], reading: String) throws {
        let fixture = try Fixture([
            "suite/chain.lua": "local t = setmetatable({}, {})\ngetmetatable(t).__call = t\nlocal _ = t()\n",
            "suite/fine.lua": #"scenario("fine", function() launch{} end)"#
        ])
        let started = Date()
        let (output, junit) = try fixture.runWithJUnit(arguments)
        #expect(Date().timeIntervalSince(started) < 30, "\(output)")
        #expect(output.status == 2, "\(output)")
        let message = junit.testcase("run could not start")?.child("error")?["message"] ?? ""
        #expect(message.hasPrefix("suite/chain.lua: its top level was still running 4s past --timeout " + reading), "\(junit.raw)")
    }

    /// A stop signal while such a file is read: the stuck load never reached the instruction that
    /// would stop it, and the run held on until --timeout and its grace (64 s by default), the last
    /// run's green report in place. It ends a few seconds after the signal, its reports written.
    @Test func aSignalWhileAStuckFileIsReadEndsTheRunWithItsReports() throws {
        let fixture = try Fixture([
            "suite/chain.lua": "local t = setmetatable({}, {})\ngetmetatable(t).__call = t\nlocal _ = t()\n",
            "suite/fine.lua": #"scenario("fine", function() launch{} end)"#
        ])
        let started = Date()
        let (output, junit) = try fixture.runWithJUnit(["--filter", "fine", "suite"]) { parent in
            usleep(1_000_000)
            kill(parent, SIGTERM)
        }
        #expect(Date().timeIntervalSince(started) < 20, "ended a few seconds after the signal, not at --timeout: \(output)")
        #expect(output.status == 143, "\(output)")
        let message = junit.testcase("run could not start")?.child("error")?["message"] ?? ""
        #expect(
            message.hasPrefix("interrupted (SIGTERM) while the suite was read to select from it; suite/chain.lua's "),
            "\(junit.raw)")
        // A cancellation, not a broken suite: an interruption, as a run a signal stopped later says it.
        #expect(junit.testcase("run could not start")?.child("error")?["type"] == "interrupted", "\(junit.raw)")
    }

    /// A run that stops before it starts — a selection that matches nothing,
    /// a refused manifest — exited 2 and left the last run's green reports
    /// for CI to publish. They say why it could not start.
    @Test(arguments: [
        ["--tags", "smok"], ["--filter", "chekcs"], ["--manifest", "bad.json"],
        // Refused as a command line (an unset variable, a bad index): the same.
        ["--tags", ""], ["--shard", "5/4"], ["--allow", "nosuch"], ["--jobs", "0"]
    ])
    func aRunThatCannotStartReplacesTheLastReports(_ arguments: [String]) throws {
        let fixture = try Fixture([
            "suite/a.lua": #"scenario("checks", { tags = { "smoke" } }, function() launch{} end)"#,
            "bad.json": "{ nope"
        ])
        let (green, _) = try fixture.runWithJUnit(["suite", "--html", "report.html"])
        #expect(green.status == 0, "\(green)")
        let (output, junit) = try fixture.runWithJUnit(arguments + ["suite", "--html", "report.html"])
        #expect(output.status == 2, "\(output)")
        #expect(junit.outcome("run could not start") == "error" && junit.outcome("checks") == nil, "\(junit.raw)")
        #expect(try fixture.read("report.html").contains("run could not start"))
        // Never over a file the command line reads: the refusal may be just that.
        let manifest = try fixture.read("bad.json")
        let refused = try fixture.run(["run", "suite", "--manifest", "bad.json", "--json", "bad.json"])
        let after = try fixture.read("bad.json")
        #expect(refused.status == 2 && after == manifest, "\(refused)")
        // A report that cannot be created (the refusal) does not keep the others from replacing the last run's.
        _ = try fixture.run(["run", "suite", "--junit", "report.xml"])
        let unwritable = try fixture.run(["run", "suite", "--junit", "report.xml", "--json", "bad.json/events.jsonl"])
        #expect(unwritable.status == 2, "\(unwritable)")
        let replaced = try JUnit(try Data(contentsOf: fixture.url("report.xml")))
        #expect(replaced.outcome("run could not start") == "error", "\(replaced.raw)")
        try fixture.write("notes.txt", "a user's notes")
        let notLua = try fixture.run(["run", "notes.txt", "--junit", "notes.txt"])
        let notes = try fixture.read("notes.txt")
        #expect(notLua.status == 2 && notes == "a user's notes", "\(notLua)")
        // Given as `file:LINE`, the path names the file too.
        let withLine = try fixture.run(["run", "notes.txt:1", "--junit", "notes.txt"])
        let stillNotes = try fixture.read("notes.txt")
        #expect(withLine.status == 2 && stillNotes == "a user's notes", "\(withLine)")
    }

    @Test func aBadShardSpecIsAUsageError() throws {
        let fixture = try Fixture(["suite/a.lua": #"scenario("x", function() end)"#])
        let output = try fixture.run(["run", "--shard", "3/2", "suite"])
        #expect(output.status == 2)
        #expect(output.stderr.contains("i/n"), "\(output)")
    }
}
