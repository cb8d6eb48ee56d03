import Foundation
import TestSupport
import Testing

/// A scenario that crashes or hangs the app costs only that scenario: the
/// run goes on, the report is complete, the exit status is 1.
@Suite("run: crash and hang isolation")
struct CrashIsolationTests {
    static let fatal = #"""
        scenario("before", function()
          expect_screen("home")
        end)

        scenario("a widget link with a bad order id crashes the app", function()
          print("printed before the crash") deep_link("shop://orders/abc", { via = "widget" })
        end)

        scenario("two-factor deadlocks the main thread", { launch = { two_factor = true } }, function()
          deep_link("shop://orders/42")
          tap("submit")
          login{}
        end)

        scenario("after", function()
          tap("product", "p1")
          expect_stack{ "home", "product:p1" }
        end)
        """#

    /// A failure the scenario recorded before its worker crashed or hung is
    /// its finding too: reported beside the crash, not lost with the worker.
    @Test func aFailureBeforeACrashOrAHangIsKept() throws {
        let fixture = try Fixture([
            "suite/lost.lua": """
            scenario("caught failure, then a crash", function()
              pcall(expect_tab, "orders")
              deep_link("shop://orders/abc", { via = "widget" })
            end)
            describe("g", function()
              after_each(function() deep_link("shop://orders/42") tap("submit") tap("submit") end)
              scenario("body failure, then a hang", { launch = { two_factor = true } }, function() expect_tab("profile") end)
            end)
            """
        ])
        let (output, junit) = try fixture.runWithJUnit([
            "--fault", "force-unwrap-crash", "--fault", "main-thread-deadlock", "--timeout", "1", "suite"
        ])
        #expect(output.status == 1, "\(output)")
        let crash = junit.testcase("caught failure, then a crash")?.child("error")
        #expect(crash?["type"] == "crash", "\(junit.raw)")
        #expect(
            crash?.text.contains("also failed: suite/lost.lua:2: the selected tab is 'home', expected 'orders'") == true, "\(junit.raw)")
        let hang = junit.testcase("g body failure, then a hang")?.child("error")
        #expect(hang != nil, "\(junit.raw)")
        #expect(hang?["type"] == "timeout", "\(junit.raw)")
        #expect(
            hang?.text.contains("also failed: suite/lost.lua:7: the selected tab is 'home', expected 'profile'") == true, "\(junit.raw)")
    }

    /// The executable deleted during a run (a rebuild, an upgrade): the
    /// workers started after that run the program still running, not
    /// nothing — every file left was "could not start a worker process".
    @Test func aRunOutlivesItsExecutableFile() throws {
        let fixture = try Fixture([
            "suite/a.lua": """
            scenario("slow", function() local t = os.clock() while os.clock() - t < 1.5 do end end)
            scenario("crash", function() deep_link("shop://orders/abc", { via = "widget" }) end)
            scenario("after the crash", function() launch{} end)
            """,
            "suite/b.lua": #"scenario("next file", function() launch{} end)"#
        ])
        let copy = fixture.url("copy-of-navscript")
        try FileManager.default.copyItem(at: try CLI.binary.get(), to: copy)
        let output = try fixture.run(
            ["run", "suite", "--jobs", "1", "--fault", "force-unwrap-crash", "--instruction-budget", "100000000000"],
            duringRun: { _ in
                usleep(500_000)
                try? FileManager.default.removeItem(at: copy)
            }, binary: .success(copy))
        #expect(output.status == 1, "\(output)")
        #expect(CLI.summary(output.stdout)?.hasPrefix("3 passed, 0 failed, 1 errors") == true, "\(output)")
        #expect(!output.stdout.contains("could not start a worker process"), "\(output)")
    }

    /// A low open-file limit: the soft one is raised to the hard one; under
    /// a hard one too low for workers each file says so (it trapped the
    /// whole run, no report, below about 30) and `--in-process` runs.
    @Test func aLowOpenFileLimitIsRaisedOrSaid() throws {
        let fixture = try Fixture(["suite/a.lua": #"scenario("runs", function() launch{} end)"#])
        let navscript = try CLI.binary.get().path
        func run(_ limits: String, _ arguments: String) throws -> CLI.Output {
            try fixture.shell("\(limits); exec '\(navscript)' run suite --junit report.xml \(arguments)")
        }
        let soft = try run("ulimit -Hn 4096; ulimit -Sn 24", "")
        #expect(soft.status == 0, "the soft limit is raised\n\(soft)")
        let hard = try run("ulimit -n 24", "")
        #expect(
            hard.status == 2 && hard.stdout.contains("the open-file limit here (ulimit -n) is 24, too low for worker processes"),
            "no file could run: exit 2, as for a file that did not load\n\(hard)")
        #expect(fixture.exists("report.xml"), "\(hard)")
        let inProcess = try run("ulimit -n 24", "--in-process")
        #expect(inProcess.status == 0, "\(inProcess)")
    }

    /// An address-space limit of a few hundred megabytes (`ulimit -v`): the
    /// run uses a few dozen, and finishes. glibc's per-thread malloc arenas
    /// (64 MiB reserved each) and 8 MiB thread stacks ran it out: the parent
    /// segfaulted in Foundation, or hung waiting for a reader thread that was
    /// never created.
    @Test(arguments: [300_000, 500_000])
    func anAddressSpaceLimitOfAFewHundredMegabytesIsRoomEnough(kilobytes: Int) throws {
        var files: [String: String] = [:]
        for index in 1...6 { files["suite/f\(index).lua"] = #"scenario("runs", function() launch{} expect_tab("home") end)"# }
        let fixture = try Fixture(files)
        let navscript = try CLI.binary.get().path
        let output = try fixture.shell("ulimit -v \(kilobytes) && exec timeout 60 '\(navscript)' run suite --jobs 3")
        #expect(output.status == 0 && CLI.summary(output.stdout)?.hasPrefix("6 passed, 0 failed, 0 errors") == true, "\(output)")
    }

    /// A report that grows past the file-size limit (`ulimit -f`) is a report
    /// that cannot be written: every scenario still runs, the report is
    /// named, exit 2. SIGXFSZ stopped the run as "interrupted", exit 153,
    /// with files never run.
    @Test(arguments: ["", "--in-process"])
    func aReportPastTheFileSizeLimitIsNamedAndTheRunGoesOn(mode: String) throws {
        var files: [String: String] = [:]
        for index in 1...8 {
            files["suite/f\(index).lua"] = """
                scenario("prints a lot \(index)", function() launch{} print(string.rep("x", 3000)) expect_tab("home") end)
                """
        }
        let fixture = try Fixture(files)
        let navscript = try CLI.binary.get().path
        let output = try fixture.shell("ulimit -f 20 && exec '\(navscript)' run suite --jobs 2 --json events.jsonl \(mode)")
        #expect(output.status == 2, "\(output)")
        #expect(CLI.summary(output.stdout)?.hasPrefix("8 passed, 0 failed, 0 errors, 0 skipped") == true, "\(output)")
        #expect(output.stderr.contains("cannot write the JSON lines report to events.jsonl: File too large"), "\(output)")
        #expect(!output.stdout.contains("interrupted") && !output.stderr.contains("interrupted"), "\(output)")
        // Neither the report nor its "did not finish" placeholder fits: the last run's green report goes.
        try fixture.write("report.xml", #"<testsuites tests="1" failures="0" errors="0"><testsuite name="old"/></testsuites>"#)
        let tight = try fixture.shell("ulimit -f 1 && exec '\(navscript)' run suite --jobs 2 --junit report.xml \(mode)")
        #expect(tight.status == 2 && tight.stderr.contains("cannot write the JUnit report"), "\(tight)")
        #expect(!fixture.exists("report.xml"), "no green report of another run is left behind")
    }

    /// In process, a scenario stuck where no instruction is reached — a
    /// hang inside the app, or one Lua instruction that runs for minutes (a
    /// table whose `__call` is itself: Lua 5.4.4 resolves the chain inside
    /// one call, a million levels deep) — ignored `--timeout` and the first
    /// SIGTERM. The in-process watch ends the run a few seconds past the
    /// limit: the scenario is the timeout, the rest not run, every report
    /// written, exit 1.
    @Test(arguments: [
        ("local t = setmetatable({}, {})\n  getmetatable(t).__call = t\n  local _ = t()", [String]()),
        (
            "launch{ two_factor = true } pcall(expect_tab, \"orders\") print(\"before the hang\")\n"
                + "  deep_link(\"shop://orders/42\")\n  tap(\"submit\")\n  tap(\"submit\")",
            ["--fault", "main-thread-deadlock"]
        )
    ])
    func aScenarioStuckInProcessEndsTheRunWithItsReports(body: String, faults: [String]) throws {
        let fixture = try Fixture([
            "suite/a.lua": """
            scenario("first", function() launch{} end)
            scenario("stuck", function()
              \(body)
            end)
            scenario("after it", function() launch{} end)
            """,
            "suite/b.lua": #"scenario("next file", function() launch{} end)"#
        ])
        let started = Date()
        let (output, junit) = try fixture.runWithJUnit(
            ["--in-process", "--timeout", "1", "--json", "events.jsonl"] + faults + ["suite"])
        #expect(Date().timeIntervalSince(started) < 30, "ended by the watch, not by the chain running out: \(output)")
        #expect(output.status == 1, "\(output)")
        #expect(junit.outcome("first") == "passed", "\(junit.raw)")
        let stuck = junit.testcase("stuck")?.child("error")
        #expect(stuck?["type"] == "timeout", "\(junit.raw)")
        #expect(
            stuck?["message"]?.hasPrefix("suite/a.lua:2: timeout: the scenario ran longer than 1s (--timeout) and was still running")
                == true, "\(junit.raw)")
        #expect(junit.outcome("after it") == "skipped", "\(junit.raw)")
        #expect(junit.raw.contains("suite/b.lua (not run)"), "\(junit.raw)")
        if !faults.isEmpty {
            // Where it stuck, and the steps before it, as a worker's report gives them.
            #expect(stuck?["message"]?.contains("; the last call was suite/a.lua:6  tap(\"submit\")") == true, "\(junit.raw)")
            // What it recorded and printed before it stuck, as a worker's report keeps it.
            #expect(
                stuck?.text.contains("also failed: suite/a.lua:3: the selected tab is 'home', expected 'orders'") == true, "\(junit.raw)")
            #expect(junit.testcase("stuck")?.child("system-out")?.text.contains("before the hang") == true, "\(junit.raw)")
            #expect(stuck?.text.contains("suite/a.lua:4  deep_link(\"shop://orders/42\"") == true, "\(junit.raw)")
        }
        let events = try String(contentsOf: fixture.url("events.jsonl"), encoding: .utf8)
        #expect(events.contains(#""event":"run_finished""#), "\(events)")
    }

    /// A file whose top level is stuck where no instruction is reached did not load: the same
    /// kind of entry in process (the watch ends the run) and with workers (its worker is killed).
    /// In process it said `timeout`, with workers `load_error`; what it printed was lost.
    @Test(arguments: [["--in-process"], ["--jobs", "1"]])
    func aTopLevelStuckInOneStepIsALoadErrorEitherWay(mode: [String]) throws {
        let fixture = try Fixture([
            "suite/a.lua": "print(\"top\")\nlocal t = setmetatable({}, {})\ngetmetatable(t).__call = t\nlocal _ = t()\n"
        ])
        let (output, junit) = try fixture.runWithJUnit(mode + ["--timeout", "1", "suite"])
        #expect(output.status == 2, "\(output)")
        #expect(junit.testcase("suite/a.lua (load)")?.child("error")?["type"] == "load_error", "\(junit.raw)")
        // What it printed before it stuck is kept, either way.
        #expect(junit.testcase("suite/a.lua (load)")?.child("system-out")?.text.contains("top") == true, "\(junit.raw)")
    }

    /// A file saved during the run (an editor, a checkout) is loaded again
    /// by the worker that resumes it after a crash: with other scenarios in
    /// it, the crash and the rest of the file were dropped and the run
    /// exited 0. Removed before the fresh worker resumed it, its remaining
    /// scenarios vanished behind one file-level load error. The crash
    /// stands; what the first listing declared and could not run is an
    /// error that says why.
    @Test(arguments: [
        ("edited", "suite/a.lua changed during the run"),
        // A body edited, its declarations the same: the rest would run as edited.
        ("body", "suite/a.lua changed during the run"),
        // The file a link to another, that other edited: what is read changed, not the link.
        ("linked body", "suite/a.lua changed during the run"),
        ("removed", "suite/a.lua could not be loaded again by the fresh worker")
    ])
    func aFileChangedDuringTheRunKeepsItsCrashAndItsScenarios(change: String, says: String) throws {
        let fixture = try Fixture([
            "suite/a.lua": """
            scenario("s1", function() launch{} end)
            scenario("s2", function()
              launch{}
              local t = os.clock() while os.clock() - t < 1 do end
              deep_link("shop://orders/abc", { via = "widget" })
            end)
            scenario("s3", function() launch{} end)
            """
        ])
        let edited = change == "linked body" ? "real/a.lua" : "suite/a.lua"
        if change == "linked body" {
            try fixture.write("real/a.lua", try fixture.read("suite/a.lua"))
            try FileManager.default.removeItem(at: fixture.url("suite/a.lua"))
            try FileManager.default.createSymbolicLink(atPath: fixture.url("suite/a.lua").path, withDestinationPath: "../real/a.lua")
        }
        let (output, junit) = try fixture.runWithJUnit(
            ["--fault", "force-unwrap-crash", "--instruction-budget", "1000000000", "--json", "events.jsonl", "suite"]
        ) { _ in
            for _ in 0..<400 where !((try? fixture.read("events.jsonl")) ?? "").contains(#""name":"s2""#) { usleep(10_000) }
            if change == "edited" {
                try? fixture.write("suite/a.lua", #"scenario("x1", function() launch{} end)"#)
            } else if change.hasSuffix("body") {
                let source = (try? fixture.read(edited)) ?? ""
                try? fixture.write(
                    edited,
                    source.replacingOccurrences(of: #"scenario("s3", function() launch{} end)"#, with: #"scenario("s3", function() end)"#))
            } else {
                try? FileManager.default.removeItem(at: fixture.url("suite/a.lua"))
            }
        }
        #expect(output.status == 2, "\(output)")
        #expect(junit.testcase("s2")?.child("error")?["type"] == "crash", "\(junit.raw)")
        #expect(junit.testcase("s3")?.child("error")?["message"]?.contains(says) == true, "\(junit.raw)")
        #expect(junit.testcase("x1") == nil, "\(junit.raw)")
    }

    /// A support module or a data file the suite reads edited during the run was read again by the
    /// worker resuming a file after a crash: the rest ran against what the run did not start with,
    /// and passed. It is reported — also when another process (an editor, a tool) holds the file open
    /// for writing: such a handle made the edit pass for a log being written.
    @Test(arguments: [
        ("suite/support/helper.lua", #"return { tab = "home" }"# + "\n", "the support module", "helper.lua changed during the run", false),
        ("suite/data/tab.txt", "home", "the file", "tab.txt changed during the run", false),
        ("suite/data/tab.txt", "home", "the file", "tab.txt changed during the run", true),
        ("suite/.hidden/more.txt", "changed", "the file", "more.txt changed during the run", false)
    ])
    func aFileTheSuiteReadsChangedDuringTheRunIsNotRunAgainstAfterACrash(
        edited: String, text: String, says: String, named: String, heldOpen: Bool
    ) throws {
        let fixture = try Fixture([
            "suite/support/helper.lua": #"return { tab = "orders" }"# + "\n",
            "suite/data/tab.txt": "orders",
            "suite/.hidden/more.txt": "more",
            "suite/a.lua": """
            local helper = require("helper")
            local data = io.open("data/tab.txt"):read("a")
            local more = io.open(".hidden/more.txt"):read("a")
            scenario("crashes", function()
              launch{}
              local t = os.clock() while os.clock() - t < 1 do end
              deep_link("shop://orders/abc", { via = "widget" })
            end)
            scenario("after", function() launch{} expect_tab(helper.tab) expect_tab(data) end)
            """
        ])
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/bin/sh")
        holder.arguments = ["-c", "exec 3<>'\(fixture.url(edited).path)'; exec sleep 60"]
        if heldOpen { try holder.run() }
        defer { if heldOpen { holder.terminate() } }
        let (output, junit) = try fixture.runWithJUnit(
            ["--fault", "force-unwrap-crash", "--instruction-budget", "1000000000", "--json", "events.jsonl", "suite"]
        ) { _ in
            for _ in 0..<400 where !((try? fixture.read("events.jsonl")) ?? "").contains(#""name":"crashes""#) { usleep(10_000) }
            try? fixture.write(edited, text)
        }
        #expect(output.status == 2, "\(output)")
        let message = junit.testcase("after")?.child("error")?["message"] ?? ""
        #expect(message.contains(says) && message.contains(named), "\(junit.raw)")
    }

    /// The console output redirected or piped to a file in the suite's folder (`> suite/run.log`,
    /// `| tee suite/run.log`) grows all along: a file this run's output is written to is no data,
    /// and a file resumed after a crash runs its rest (it was "not run", exit 2).
    @Test(arguments: ["> suite/run.log 2>&1", "2>&1 | tee suite/run.log > /dev/null"])
    func aLogTheConsoleWritesIntoTheSuiteDoesNotStopAResume(redirect: String) throws {
        let fixture = try Fixture([
            "suite/a.lua": """
            scenario("crashes", function() launch{} deep_link("shop://orders/abc", { via = "widget" }) end)
            scenario("after", function() launch{} expect_tab("home") end)
            """
        ])
        let navscript = try CLI.binary.get().path
        let output = try fixture.shell("'\(navscript)' run suite --fault force-unwrap-crash --junit j.xml \(redirect)")
        // (A pipeline's status is tee's.)
        #expect(output.status == (redirect.contains("tee") ? 0 : 1), "\(output) \((try? fixture.read("suite/run.log")) ?? "")")
        let junit = try fixture.read("j.xml")
        #expect(junit.contains(#"name="after""#) && !junit.contains("changed during the run"), "\(junit)")
    }

    /// The run's own `--json` stream written into the suite's folder changes all along: it is no
    /// file the suite reads, and a file resumed after a crash runs its rest.
    @Test func aReportTheRunWritesIntoTheSuiteDoesNotStopAResume() throws {
        let fixture = try Fixture([
            "suite/a.lua": """
            scenario("crashes", function() launch{} deep_link("shop://orders/abc", { via = "widget" }) end)
            scenario("after", function() launch{} expect_tab("home") end)
            """
        ])
        let (output, junit) = try fixture.runWithJUnit(["--fault", "force-unwrap-crash", "--json", "suite/events.jsonl", "suite"])
        #expect(output.status == 1, "\(output)")
        #expect(junit.testcase("crashes")?.child("error")?["type"] == "crash", "\(junit.raw)")
        #expect(junit.outcome("after") == "passed", "\(junit.raw)")
    }

    /// A file whose names are built from the clock declares other scenarios
    /// at every load: after a crash, the fresh worker cannot find where to
    /// resume. That is said as such (it was "changed during the run: run the
    /// suite again", exit 2, for a file nobody touched).
    @Test func aFileWhoseNamesChangeAtEveryLoadSaysSoAfterACrash() throws {
        let fixture = try Fixture([
            "suite/stamp.lua": """
            local stamp = string.format("%.9f", os.clock())
            scenario("first " .. stamp, function() launch{} end)
            scenario("crashes " .. stamp, function() deep_link("shop://orders/abc", { via = "widget" }) end)
            scenario("after " .. stamp, function() launch{} end)
            """,
            "suite/then.lua": #"scenario("the next file", function() launch{} end)"#
        ])
        let (output, junit) = try fixture.runWithJUnit(["--fault", "force-unwrap-crash", "--jobs", "1", "suite"])
        #expect(output.status == 1, "\(output)")
        // The worker that found the names changed is let finish, not killed: no "killed by SIGKILL" on the next file.
        #expect(!output.stderr.contains("SIGKILL") && junit.outcome("the next file") == "passed", "\(output)")
        let after = junit.cases.first { $0["name"]?.hasPrefix("after ") == true }?.child("error")
        #expect(after?["message"]?.contains("declares other scenarios each time it loads") == true, "\(junit.raw)")
        #expect(after?["type"] == "crash", "\(junit.raw)")
    }

    /// A file that declares the same names but other options at each load
    /// (an `allow` drawn from the clock): the rest of it, resumed after a
    /// crash, ran under the reload's options — a leak it did not allow at
    /// first passed. It is reported as declaring otherwise at each load.
    @Test func aFileWhoseOptionsChangeAtEveryLoadIsNotRunUnderTheReloadsOptions() throws {
        let fixture = try Fixture([
            "suite/opts.lua": """
            local reason = string.format("%.9f", os.clock())
            scenario("crashes", function() deep_link("shop://orders/abc", { via = "widget" }) end)
            scenario("after", { allow = { leaks = reason } }, function() launch{} end)
            """
        ])
        let (output, junit) = try fixture.runWithJUnit(["--fault", "force-unwrap-crash", "--jobs", "1", "suite"])
        #expect(output.status == 1, "\(output)")
        #expect(
            junit.testcase("after")?.child("error")?["message"]?.contains("declares other scenarios each time it loads") == true,
            "\(junit.raw)")
    }

    /// A file that declares its hooks or rows differently at each load (here from the worker's CPU
    /// clock: the first worker burnt some on an earlier file, the fresh one has not) ran the rest of
    /// the file, resumed after a crash, with the reload's — an `after_each` that failed every scenario
    /// vanished, a row held other data, a hook chosen between two functions written on one line
    /// changed — and they passed. A row that holds a function (its address differs in every process)
    /// is the same row.
    @Test(arguments: [
        #"if tab == "orders" then after_each(function() expect_tab("orders") end) end"#
            + "\n" + #"scenario("after", function() launch{} expect_tab("home") end)"#,
        #"scenario.each({ { tab = tab } }, "after", function(row) launch{} expect_tab(row.tab) end)"#,
        #"scenario.each({ { a = { b = { c = { d = { e = { f = { g = { h = { i = { tab = tab } } } } } } } } } } }, "after", "#
            + #"function(row) launch{} expect_tab(row.a.b.c.d.e.f.g.h.i.tab) end)"#,
        #"after_each(tab == "orders" and function() expect_tab("orders") end or function() expect_tab("home") end)"#
            + "\n" + #"scenario("after", function() launch{} end)"#
    ])
    func aFileWhoseRowsOrHooksChangeAtEveryLoadIsNotRunWithTheReloads(declaration: String) throws {
        let fixture = try Fixture([
            "suite/a_burn.lua": """
            scenario("burns some CPU", function()
              launch{}
              local t = os.clock() while os.clock() - t < 0.4 do end
            end)
            """,
            "suite/b_resume.lua": """
            local tab = os.clock() > 0.3 and "orders" or "home"
            scenario("crashes", function() deep_link("shop://orders/abc", { via = "widget" }) end)
            \(declaration)
            """,
            "suite/c_rows.lua": """
            scenario("crashes too", function() deep_link("shop://orders/abc", { via = "widget" }) end)
            scenario.each({ { check = function() expect_tab("home") end } }, "holds a function", function(row)
              launch{}
              row.check()
            end)
            """
        ])
        let (output, junit) = try fixture.runWithJUnit(
            ["--fault", "force-unwrap-crash", "--jobs", "1", "--instruction-budget", "2000000000", "suite"])
        #expect(output.status == 1, "\(output)")
        let after = junit.cases.first { $0["name"]?.hasPrefix("after") == true }
        #expect(after?.child("error")?["message"]?.contains("declares other scenarios each time it loads") == true, "\(junit.raw)")
        #expect(
            junit.cases.first { $0["name"]?.hasPrefix("holds a function") == true }.map(JUnit.outcome) == "passed", "\(junit.raw)")
    }

    /// A file that declares its scenarios through `pairs` declares them in
    /// another order in every process (Lua seeds its string hashes per
    /// process). The fresh worker that resumes the file after a crash went
    /// on by position in its own order: scenarios ran twice, and a failing
    /// one never. It resumes in the first load's order; `--shuffle` orders
    /// by name before it shuffles, so a seed replays the same order.
    @Test func aFileDeclaredThroughPairsResumesWhereItCrashed() throws {
        let names = (0..<16).map { "case\($0)" }
        let fixture = try Fixture([
            "suite/p.lua": """
            local cases = {}
            for _, name in ipairs({ \(names.map { "\"\($0)\"" }.joined(separator: ", ")) }) do cases[name] = true end
            for name in pairs(cases) do
              scenario(name, function()
                launch{}
                if name == "case7" then deep_link("shop://orders/abc", { via = "widget" }) end
                if name == "case11" then expect_tab("orders") end
              end)
            end
            """
        ])
        let (output, junit) = try fixture.runWithJUnit(["--fault", "force-unwrap-crash", "suite"])
        #expect(output.status == 1, "\(output)")
        #expect(junit.cases.compactMap { $0["name"] }.sorted() == names.sorted(), "each scenario once\n\(junit.raw)")
        #expect(junit.outcome("case7") == "error" && junit.outcome("case11") == "failure", "\(junit.raw)")
        var orders: Set<String> = []
        for _ in 0..<3 {
            let shuffled = try fixture.run(["run", "--shuffle", "--seed", "5", "--json", "-", "suite"])
            let started = shuffled.stdout.split(separator: "\n").filter { $0.contains(#""event":"scenario_started""#) }
            #expect(started.count == 16, "\(shuffled)")
            orders.insert(started.joined(separator: "\n"))
        }
        #expect(orders.count == 1, "one seed, one order: \(orders)")
    }

    /// Coroutines closed from each other's `__close` handlers, 20,000 deep:
    /// Lua 5.4.4 does not count that nesting against its C-stack limit, and
    /// the run segfaulted (in process, the whole run). Said as a C stack
    /// overflow at the line, in both modes; the next scenario runs.
    @Test(arguments: [[], ["--in-process"]])
    func nestedCoroutineClosesAreAStackOverflowNotASegfault(mode: [String]) throws {
        let fixture = try Fixture([
            "suite/close.lua": """
            scenario("closes nested", function()
              local coro = false
              for i = 1, 20000 do
                local previous = coro
                coro = coroutine.create(function()
                  local cc <close> = setmetatable({}, { __close = function() if previous then assert(coroutine.close(previous)) end end })
                  coroutine.yield()
                end)
                assert(coroutine.resume(coro))
              end
              coroutine.close(coro)
            end)
            scenario("after", function() launch{} expect_tab("home") end)
            """
        ])
        let (output, junit) = try fixture.runWithJUnit(mode + ["suite"])
        #expect(output.status == 1, "\(output)")
        let problem = junit.testcase("closes nested").flatMap { $0.child("failure") ?? $0.child("error") }
        #expect(problem?["message"]?.contains("C stack overflow: coroutine.close nested 100 deep") == true, "\(junit.raw)")
        #expect(junit.outcome("after") == "passed", "\(junit.raw)")
    }

    /// A closed standard output (`>&-`) is said, and the command exits 2:
    /// `list` or a passing `run` exited 0 having written nothing (and the
    /// next file opened took its number); never "NSCocoaErrorDomain error 512".
    @Test(arguments: ["run suite --json -", "run suite", "list suite"])
    func aClosedStandardOutputIsSaidAsSuch(command: String) throws {
        let fixture = try Fixture(["suite/a.lua": #"scenario("runs", function() end)"#])
        let navscript = try CLI.binary.get().path
        let output = try fixture.shell("exec '\(navscript)' \(command) >&-")
        #expect(output.status == 2, "\(output)")
        #expect(output.stderr.contains("standard output could not be written (it is closed)"), "\(output)")
        #expect(!output.stderr.contains("NSCocoaErrorDomain"), "\(output)")
    }

    /// A full standard output (`> /dev/full`) is said, and the command exits
    /// 2: a green run's console report went through its own writes, which
    /// failed without a word, and the run exited 0 having shown nothing.
    /// (`graph` prints more than stdio's buffer with print(): the failed write left the stream in
    /// error and the flush at exit had nothing left to fail on, so it exited 0.)
    @Test(arguments: ["run suite", "run suite --in-process", "list suite", "run suite --json -", "graph"])
    func aFullStandardOutputIsSaidAsSuch(command: String) throws {
        let fixture = try Fixture(["suite/a.lua": #"scenario("runs", function() launch{} end)"#])
        let navscript = try CLI.binary.get().path
        let output = try fixture.shell("exec '\(navscript)' \(command) > /dev/full")
        #expect(output.status == 2, "\(output)")
        #expect(output.stderr.contains("standard output could not be written") || output.stderr.contains("No space left"), "\(output)")
    }

    /// A reader that goes away (`| head -1`) is no lost output: the command's
    /// status is its own, and nothing is said.
    @Test func aReaderThatStopsReadingIsNoFailure() throws {
        let fixture = try Fixture([:])
        let navscript = try CLI.binary.get().path
        // The reader has exited before the first write: the write fails with EPIPE.
        let output = try fixture.shell("(sleep 0.3; '\(navscript)' graph; echo \"status $?\" >&2) | true")
        #expect(output.stderr.contains("status 0"), "\(output)")
        #expect(!output.stderr.contains("could not be written"), "\(output)")
    }

    /// A crash in a scenario's own launch option (its cold-start link) names
    /// that launch as the call it was in: it named none.
    @Test func aCrashInTheLaunchOptionNamesIt() throws {
        let fixture = try Fixture([
            "suite/cold.lua": #"scenario("cold start", { launch = { url = "shop://orders/abc", via = "widget" } }, function() end)"#
        ])
        let (_, junit) = try fixture.runWithJUnit(["--fault", "force-unwrap-crash", "suite"])
        #expect(
            junit.testcase("cold start")?.child("error")?["message"]?.contains(
                #"the last call was suite/cold.lua:1  launch{ url = "shop://orders/abc", via = "widget" } (the scenario's launch option)"#)
                == true, "\(junit.raw)")
    }

    /// A small stack limit, soft (`ulimit -Ss 256`) or hard as well
    /// (`ulimit -s 256`, which cannot be raised): navscript gives itself a
    /// stack of its own, so a recursion through C calls is Lua's "C stack
    /// overflow" error, in process and in a worker — not a segfault of the
    /// run (a hard limit segfaulted, and a worker's was reported as a hang).
    @Test(arguments: [
        "-Ss 256 && exec '%@' run suite --in-process", "-s 256 && exec '%@' run suite --in-process", "-s 256 && exec '%@' run suite"
    ])
    func aSmallStackLimitLeavesRoomForLua(_ command: String) throws {
        let fixture = try Fixture([
            "suite/deep.lua": """
            scenario("recurses through C", function()
              local m
              m = setmetatable({}, { __tostring = function() return string.format("%s", m) end })
              print(m)
            end)
            scenario("after", function() launch{} expect_tab("home") end)
            """
        ])
        let navscript = try CLI.binary.get().path
        let output = try fixture.shell("ulimit " + command.replacingOccurrences(of: "%@", with: navscript))
        #expect(output.status == 1 && output.stdout.contains("C stack overflow"), "\(output)")
        #expect(CLI.summary(output.stdout)?.hasPrefix("1 passed, 0 failed, 1 errors") == true, "\(output)")
    }

    @Test func aCrashAndAHangAreErrorsAndTheRestOfTheFileStillRuns() throws {
        let fixture = try Fixture(["suite/fatal.lua": Self.fatal, "suite/other.lua": #"scenario("other file", function() end)"#])
        let (output, junit) = try fixture.runWithJUnit([
            "--fault", "force-unwrap-crash", "--fault", "main-thread-deadlock", "--timeout", "1", "suite"
        ])
        #expect(output.status == 1, "\(output)")
        #expect(CLI.summary(output.stdout)?.hasPrefix("3 passed, 0 failed, 2 errors, 0 skipped") == true, "\(output)")
        let crash = junit.testcase("a widget link with a bad order id crashes the app")?.child("error")
        #expect(crash?["type"] == "crash", "\(junit.raw)")
        #expect(crash?["message"]?.contains("signal") == true, "the signal is named\n\(junit.raw)")
        #expect(crash?.text.contains("Fatal error") == true, "the trap's own message is kept\n\(junit.raw)")
        #expect(
            crash?["message"]?.contains("ShopRouter.swift:48: Fatal error: Unexpectedly found nil") == true,
            "the trap's line, with its source location, leads the message\n\(junit.raw)")
        #expect(
            junit.testcase("a widget link with a bad order id crashes the app")?.child("system-out")?.text
                .contains("printed before the crash") == true, "what it printed is kept\n\(junit.raw)")
        #expect(
            crash?["message"]?.contains(#"the last call was suite/fatal.lua:6  deep_link("shop://orders/abc", { via = "widget" })"#)
                == true,
            "\(junit.raw)")
        let hang = junit.testcase("two-factor deadlocks the main thread")?.child("error")
        #expect(hang?["type"] == "timeout", "\(junit.raw)")
        #expect(hang?["message"]?.contains("--timeout") == true, "\(junit.raw)")
        #expect(
            hang?["message"]?.contains("the last call was suite/fatal.lua:12  login{}") == true,
            "a hang names the call that hung, spelled as the script wrote it\n\(junit.raw)")
        #expect(junit.outcome("before") == "passed")
        #expect(junit.outcome("after") == "passed", "a fresh worker picks up the rest of the file")
        #expect(junit.outcome("other file") == "passed")
        XMLLint.expectValid(fixture.url("report.xml"))

        // Without the faults, nothing crashes.
        let clean = try fixture.run(["run", "--filter", "crashes", "suite"])
        #expect(clean.status == 0, "\(clean)")
    }

    /// A hang in the scenario's own Lua code (its budget lifted) is not
    /// blamed on the call before it, which had returned: the worker stops it
    /// at its line when --timeout passes, and goes on with the file.
    @Test func aHangInTheScenariosOwnCodeIsNotBlamedOnTheCallBeforeIt() throws {
        let fixture = try Fixture([
            "suite/loop.lua": """
            scenario("loops after launch", function()
              launch{}
              local x = 0
              while true do x = x + 1 end
            end)
            scenario("after it", function() launch{} expect_tab("home") end)
            """
        ])
        let (output, junit) = try fixture.runWithJUnit(["--timeout", "1", "--instruction-budget", "9223372036854775807", "suite"])
        #expect(output.status == 1, "\(output)")
        let message = junit.testcase("loops after launch")?.child("error")?["message"] ?? ""
        #expect(
            message.hasPrefix("suite/loop.lua:4: timeout: the scenario ran longer than 1s (--timeout) in its own Lua code"),
            "\(message)")
        #expect(junit.outcome("after it") == "passed", "the file went on: \(output)")
    }

    /// A file handed to a worker behind one that hangs is taken back for a
    /// worker with nothing to do: it finishes long before the hung one's
    /// timeout, instead of waiting for it (or, on Ctrl-C, not running).
    @Test func aFileQueuedBehindAHungOneRunsOnAnIdleWorker() throws {
        var files = [
            "suite/a.lua": #"""
            scenario("a hangs", { launch = { two_factor = true } }, function()
              deep_link("shop://orders/42")
              tap("submit")
              tap("submit")
            end)
            """#
        ]
        for name in ["b", "c", "d", "e", "f", "g"] {
            files["suite/\(name).lua"] = #"scenario("\#(name) quick", function() launch{} end)"#
        }
        let fixture = try Fixture(files)
        let output = try fixture.run([
            "run", "--fault", "main-thread-deadlock", "--timeout", "3", "--jobs", "2", "suite", "--json", "events.jsonl"
        ])
        #expect(output.status == 1, "\(output)")
        let finished = try RunEventReportTests.events(try fixture.read("events.jsonl"))
            .filter { $0["event"] as? String == "file_finished" }.compactMap { $0["file"] as? String }
        #expect(finished.count == 7, "\(finished)")
        #expect(finished.last == "suite/a.lua", "every quick file finished before the hung one timed out: \(finished)")
    }

    /// The storyboard of a scenario whose worker crashed or was killed for
    /// a timeout is the one the worker streamed as the scenario ran: every
    /// step's frame, the crash or the timeout shown on the last.
    @Test func aCrashedOrHungScenarioKeepsItsStoryboard() throws {
        let fixture = try Fixture(["suite/fatal.lua": Self.fatal])
        let output = try fixture.run([
            "run", "--fault", "force-unwrap-crash", "--fault", "main-thread-deadlock", "--timeout", "1", "suite",
            "--html", "report.html", "--json", "events.jsonl"
        ])
        #expect(output.status == 1, "\(output)")
        let events = try RunEventReportTests.events(try fixture.read("events.jsonl"))
        func frames(_ name: String) -> [[String: Any]] {
            let finished = events.compactMap { $0["scenario"] as? [String: Any] }.first { $0["name"] as? String == name }
            return finished?["frames"] as? [[String: Any]] ?? []
        }
        func problems(_ frame: [String: Any]?) -> [String] {
            (frame?["problems"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
        }
        // launch, then the deep link that crashed (its step never recorded): the launch's frame shows the crash.
        let crashed = frames("a widget link with a bad order id crashes the app")
        #expect(crashed.count == 1, "\(crashed)")
        #expect(problems(crashed.last).first?.contains("Unexpectedly found nil") == true, "\(crashed)")
        // launch, deep link, tap: three frames; the login that hung never finished its step.
        let hung = frames("two-factor deadlocks the main thread")
        #expect(hung.map { $0["action"] as? String ?? "?" }.count == 3, "\(hung)")
        #expect(problems(hung.last).first?.hasPrefix("timeout: the scenario ran longer than") == true, "\(hung)")
        let html = try fixture.read("report.html")
        let block = try #require(html.range(of: "two-factor deadlocks the main thread").map { String(html[$0.lowerBound...]) })
        #expect(block.contains("<figure class=\"frame failing\""), "the storyboard marks the timed-out step")
    }

    /// A scenario that crashes after printing more than its report keeps
    /// has the same head and tail as one that fails: the lines printed right
    /// before the crash are the ones a reader needs. The live stream stops
    /// at the head's size and says so.
    @Test func aCrashAfterAFloodOfPrintsKeepsTheLastLines() throws {
        let fixture = try Fixture([
            "suite/flood.lua": #"""
            scenario("floods then crashes", function()
              launch{}
              for i = 1, 20000 do print(("line %d "):format(i) .. ("z"):rep(100)) end
              print("LAST WORDS")
              deep_link("shop://orders/abc", { via = "widget" })
            end)
            """#
        ])
        let output = try fixture.run(["run", "--fault", "force-unwrap-crash", "suite", "--json", "events.jsonl"])
        #expect(output.status == 1, "\(output)")
        let events = try RunEventReportTests.events(try fixture.read("events.jsonl"))
        let finished = try #require(events.compactMap { $0["scenario"] as? [String: Any] }.first { $0["status"] != nil })
        let printed = finished["output"] as? String ?? ""
        #expect(finished["kind"] as? String == "crash", "\(finished["message"] ?? "")")
        #expect(printed.hasPrefix("line 1 z") && printed.hasSuffix("LAST WORDS\n"), "\(printed.suffix(200))")
        #expect(printed.contains("bytes of output left out here"), "the cut is said")
        let live = events.filter { $0["event"] as? String == "output" }.compactMap { $0["text"] as? String }
        #expect(live.last?.contains("more output than the live stream carries") == true, "\(live.last ?? "")")
        #expect(live.joined().utf8.count < 600_000, "the live stream is bounded")
    }

    /// What a scenario prints (or draws) as it runs does not reset its
    /// clock: a long loop that prints on every turn still times out.
    @Test(arguments: [[String](), ["--html", "r.html"]])
    func aScenarioThatPrintsAsItRunsStillTimesOut(extra: [String]) throws {
        let fixture = try Fixture([
            "suite/chatty.lua": """
            scenario("prints as it goes", function()
              for i = 1, 400000 do print("round " .. i); tap("product", "p1"); back() end
            end)
            """
        ])
        let (output, junit) = try fixture.runWithJUnit(["--timeout", "1", "--instruction-budget", "1000000000000", "suite"] + extra)
        #expect(output.status == 1, "\(output)")
        let error = junit.testcase("prints as it goes")?.child("error")
        #expect(error?["type"] == "timeout", "\(junit.raw)")
    }

    /// A scenario that prints 30 MB, and one whose step is a 10 MB link:
    /// their output and step are kept by their ends with the cut said, the
    /// reports stay readable, the run ends — through a worker and in process.
    @Test(arguments: [[String](), ["--in-process"]])
    func aFloodOfOutputAndAHugeStepAreCutAtTheSource(mode: [String]) throws {
        let fixture = try Fixture([
            "suite/flood.lua": """
            scenario("prints 30 MB then fails", function()
              local line = string.rep("x", 9999) .. "\\n"
              for i = 1, 3000 do io.write(line) end
              print("the end")
              expect_screen("cart")
            end)
            scenario("a 10 MB link", function()
              deep_link("shop://product/" .. string.rep("p", 10 * 1024 * 1024))
            end)
            """
        ])
        let (output, junit) = try fixture.runWithJUnit(["suite", "--json", "events.jsonl"] + mode)
        #expect(output.status == 1, "\(output.stderr)")
        XMLLint.expectValid(fixture.url("report.xml"))
        let printed = junit.testcase("prints 30 MB then fails")?.child("system-out")?.text ?? ""
        #expect(printed.contains("bytes of output left out here) …") && printed.hasSuffix("the end\n"), "\(printed.suffix(200))")
        #expect(printed.utf8.count < 1_100_000, "\(printed.utf8.count)")
        #expect(output.stdout.utf8.count < 2_000_000, "the console shows the capped output: \(output.stdout.utf8.count) bytes")
        let events = try fixture.read("events.jsonl")
        #expect(events.utf8.count < 3_000_000, "the stream carries the capped output and step: \(events.utf8.count) bytes")
        #expect(events.contains("characters left out here"), "the link's step is shown by its ends")
    }

    /// A worker buffers its messages, so the flush before a hung worker is
    /// killed can hold the results of the quick scenarios before the hang:
    /// they are kept, and only the scenario that hung is blamed — once, not
    /// once per scenario before it (which cost a timeout each).
    @Test func aHangAfterQuickScenariosCostsOneTimeout() throws {
        let fixture = try Fixture([
            "suite/hang.lua": #"""
            for i = 1, 5 do scenario("quick " .. i, function() end) end
            scenario("hangs", function()
              while true do end   -- a budget too large to stop it: only the timeout does
            end)
            scenario("after", function() end)
            """#
        ])
        let (output, junit) = try fixture.runWithJUnit(["--timeout", "1", "--instruction-budget", "1000000000000", "suite"])
        #expect(output.status == 1, "\(output)")
        #expect(CLI.summary(output.stdout)?.hasPrefix("6 passed, 0 failed, 1 errors, 0 skipped") == true, "\(output)")
        #expect(junit.testcase("hangs")?.child("error")?["type"] == "timeout", "\(junit.raw)")
        #expect(Double(junit.testcase("hangs")?["time"] ?? "") ?? 0 >= 0.9, "it ran its timeout's worth\n\(junit.raw)")
        // One timeout, not one per scenario before the hang: each quick one passed, none timed out.
        for number in 1...5 { #expect(junit.outcome("quick \(number)") == "passed", "\(junit.raw)") }
        #expect(junit.outcome("after") == "passed", "\(junit.raw)")
    }

    /// A hung worker's buffered steps and last call reach the parent when it
    /// asks (SIGUSR1), followed by the `flushed` line the parent kills on.
    /// Results are live with workers: a scenario that finished — before a
    /// hang in its own file, or in another file — is on the `--json` stream
    /// long before the hang's timeout ends it (a worker's buffer waits at
    /// most 50 ms; a file is not queued behind a hung worker's).
    @Test func resultsArriveWhileAnotherScenarioHangs() throws {
        let fixture = try Fixture([
            "suite/a.lua": #"""
            scenario("quick", function() end)
            scenario("hangs", function() while true do end end)
            """#,
            "suite/b.lua": #"scenario("other file", function() end)"#
        ])
        let process = Process()
        process.executableURL = try CLI.binary.get()
        process.arguments = ["run", "suite", "--json", "-", "--timeout", "4", "--instruction-budget", "1000000000000"]
        process.currentDirectoryURL = fixture.root
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Each event with when it arrived.
        var arrivals: [(Date, String)] = []
        var pending = Data()
        while case let chunk = output.fileHandleForReading.availableData, !chunk.isEmpty {
            pending.append(chunk)
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                arrivals.append((Date(), String(decoding: pending[..<newline], as: UTF8.self)))
                pending = Data(pending[(newline + 1)...])
            }
        }
        process.waitUntilExit()
        func arrival(of name: String) -> Date? {
            arrivals.first { $0.1.contains(#""event":"scenario_finished""#) && $0.1.contains(#""name":"\#(name)""#) }?.0
        }
        let hang = try #require(arrival(of: "hangs"), "\(arrivals.map(\.1))")
        for name in ["quick", "other file"] {
            let finished = try #require(arrival(of: name), "\(arrivals.map(\.1))")
            #expect(hang.timeIntervalSince(finished) > 2, "\(name) arrived only with the hang's end")
        }
    }

    @Test func aHungWorkerSendsWhatItBufferedWhenAsked() throws {
        let fixture = try Fixture([
            "suite/hang.lua": #"""
            scenario("two-factor deadlocks the main thread", { launch = { two_factor = true } }, function()
              deep_link("shop://orders/42")
              tap("submit")
              tap("submit")
            end)
            """#
        ])
        let navscript = try CLI.binary.get()
        try fixture.write(
            "task.json", #"{"id":0,"path":"suite/hang.lua","suiteRoot":"suite","faults":["main-thread-deadlock"],"from":0}"# + "\n")
        // `exec`, so the pid the test signals is the worker's own.
        let output = try fixture.shell("exec '\(navscript.path)' worker < task.json") { pid in
            Thread.sleep(forTimeInterval: 1.5)
            kill(pid, SIGUSR1)
            Thread.sleep(forTimeInterval: 0.5)
            kill(pid, SIGKILL)
        }
        let lines = output.stdout.split(separator: "\n")
        // Last, how long the running scenario has run by the worker's clock
        // (signalled ≈ 1.5 s after start; the scenario began just after it).
        let elapsed = lines.last.flatMap { $0.wholeMatch(of: /\{"flushed":\{"elapsedMilliseconds":([0-9]+)\}\}/) }
            .flatMap { Int($0.1) }
        #expect(elapsed.map { (500...1600).contains($0) } == true, "\(output)")
        #expect(lines.contains { $0.hasPrefix(#"{"running":"#) && $0.contains("hang.lua:4  tap(") }, "the call that hung\n\(output)")
        #expect(lines.contains { $0.hasPrefix(#"{"step":"#) && $0.contains("deep_link") }, "the steps before it\n\(output)")
    }

    /// The pool hands a worker its next file before the current one ends, so
    /// `--fail-fast` is kept by the worker too: after a failure, a file it
    /// already holds is not loaded but reported not run, as the pool reports
    /// a file no worker started.
    @Test func aWorkerStoppedByFailFastRunsNoLaterFile() throws {
        let fixture = try Fixture([
            "suite/a.lua": #"scenario("fails", function() error("stop here") end)"#,
            "suite/b.lua": #"scenario("must not run", function() print("ran") end)"#
        ])
        let navscript = try CLI.binary.get()
        try fixture.write(
            "tasks.json",
            #"{"id":0,"path":"suite/a.lua","suiteRoot":"suite","faults":[],"from":0}"# + "\n"
                + #"{"id":1,"path":"suite/b.lua","suiteRoot":"suite","faults":[],"from":0}"# + "\n")
        let output = try fixture.shell("'\(navscript.path)' worker --fail-fast < tasks.json")
        let lines = output.stdout.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix(#"{"result":"#) }.count == 1, "a's scenario only\n\(output)")
        #expect(
            lines.contains {
                $0.hasPrefix(#"{"notRun":"#) && $0.contains(#""task":1"#)
                    && $0.contains("--fail-fast stopped the run")
            }, "\(output)")
        #expect(!lines.contains { $0.hasPrefix(#"{"loaded":"#) && $0.contains(#""task":1"#) }, "b was not loaded\n\(output)")
        #expect(!output.stderr.contains("ran"), "b's scenario did not run\n\(output)")
    }

    /// A passing scenario costs the parent two short lines (start, passed)
    /// and its steps; the call in progress is only sent when a signal asks
    /// (crash, hang), so a worker that finishes normally never sends one.
    @Test func aPassingScenarioSendsNoCallsAndNoFullResult() throws {
        let fixture = try Fixture([
            "suite/a.lua": #"scenario("passes", function() launch{} tap("product", "p1") end)"#
        ])
        let navscript = try CLI.binary.get()
        try fixture.write("tasks.json", #"{"id":0,"path":"suite/a.lua","suiteRoot":"suite","faults":[],"from":0}"# + "\n")
        let output = try fixture.shell("'\(navscript.path)' worker < tasks.json")
        let kinds = output.stdout.split(separator: "\n").map { $0.prefix { $0 != ":" } }
        #expect(kinds == [#"{"loaded""#, #"{"start""#, #"{"step""#, #"{"step""#, #"{"passed""#, #"{"done""#], "\(output)")
    }
}
