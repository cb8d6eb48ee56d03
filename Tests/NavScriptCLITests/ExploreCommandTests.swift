import Foundation
import Testing

/// `navscript explore` end to end: with no scenario, a fault is found,
/// shrunk and written as a scenario the runner fails with the fault and
/// passes without; the healthy app gives exit 0; any host is explorable.
@Suite("explore")
struct ExploreCommandTests {
    @Test func aFaultIsFoundAndItsReproducerRunsAsAScenario() throws {
        let fixture = try Fixture()
        let output = try fixture.run([
            "explore", "--fault", "graft-external-link", "--seed", "1", "--steps", "3000",
            "--time", "0", "--out", "found", "--junit", "explore.xml", "--json", "explore.jsonl",
            "--html", "explore.html"
        ])
        #expect(output.status == 1, "\(output)")
        #expect(output.stdout.contains("VIOLATION a deep link lands on its destination's canonical stack"), "\(output)")
        #expect(output.stdout.contains("(fails with the faults, passes without)"), "\(output)")
        #expect(output.stdout.contains("; the reproducer's timeline:\n      1. launch{}"), "\(output)")
        #expect(output.stdout.contains("coverage: screens reached"), "\(output)")
        #expect(fixture.exists("found/seed1-1.lua"))
        let faulty = try fixture.run(["run", "found/seed1-1.lua", "--fault", "graft-external-link"])
        #expect(faulty.status == 1, "\(faulty)")
        let healthy = try fixture.run(["run", "found/seed1-1.lua"])
        #expect(healthy.status == 0, "\(healthy)")
        let junit = try fixture.read("explore.xml")
        #expect(junit.contains("<failure message="), "\(junit)")
        // The same finding on the run-event stream, named by its reproducer.
        let events = try fixture.read("explore.jsonl").split(separator: "\n")
        #expect(events.first?.contains(#""command":"explore""#) == true && events.last?.contains(#""success":false"#) == true)
        #expect(events.contains { $0.contains(#""event":"scenario_finished","file":"found/seed1-1.lua""#) }, "\(events)")
        // The HTML report draws the reproducer's run: a storyboard failing at its last frame.
        let html = try fixture.read("explore.html")
        #expect(html.contains("<h3>Storyboard") && html.contains("<figure class=\"frame failing\""), "\(html.prefix(3000))")

        let again = try fixture.run([
            "explore", "--fault", "graft-external-link", "--seed", "1", "--steps", "3000",
            "--time", "0", "--out", "again"
        ])
        #expect(again.status == 1, "\(again)")
        #expect(try fixture.read("again/seed1-1.lua") == fixture.read("found/seed1-1.lua"), "same seed, same reproducer")
        // Into a folder that has it already (the next fault explored with the same seed): kept, the new one beside it.
        let original = try fixture.read("again/seed1-1.lua")
        let third = try fixture.run([
            "explore", "--fault", "graft-external-link", "--seed", "1", "--steps", "3000",
            "--time", "0", "--out", "again"
        ])
        #expect(third.stdout.contains("reproducer: again/seed1-1-2.lua"), "\(third)")
        #expect(try fixture.read("again/seed1-1.lua") == original && fixture.read("again/seed1-1-2.lua") == original)
    }

    /// Links executed as they arrive instead of queued interleave: the second of two links sent
    /// while the first executes is judged by where it lands; spellings and a verb's promise too.
    @Test(
        "faults only the newer properties find",
        arguments: [
            ("unserialized-dispatch", "a deep link lands on its destination's canonical stack"),
            ("universal-host-case-sensitive", "equivalent spellings of a link give the same outcome")
        ])
    func racesAndSpellingsAreFound(fault: String, property: String) throws {
        let fixture = try Fixture()
        let output = try fixture.run([
            "explore", "--fault", fault, "--seed", "1", "--steps", "3000", "--time", "0", "--out", "found"
        ])
        #expect(output.status == 1, "\(output)")
        #expect(output.stdout.contains("VIOLATION \(property)"), "\(output)")
        #expect(output.stdout.contains("(fails with the faults, passes without)"), "\(output)")
    }

    /// An exploration that took no step (a --time too short for one walk)
    /// checked nothing: it said "no property violated", exit 0, and wrote a
    /// passing case. It is an error that says to give more time.
    @Test func anExplorationThatTookNoStepIsNotGreen() throws {
        let fixture = try Fixture()
        let output = try fixture.run(["explore", "--seed", "1", "--time", "0.0001", "--junit", "explore.xml"])
        #expect(output.status == 2, "\(output)")
        #expect(output.stdout.contains("no step was taken: nothing was explored") && !output.stdout.contains("no property violated"))
        let junit = try JUnit(try Data(contentsOf: fixture.url("explore.xml")))
        #expect(junit.outcome("nothing explored") == "error", "\(junit.raw)")
    }

    @Test func theHealthyAppBreaksNothingAndAnotherHostIsExplorableToo() throws {
        let fixture = try Fixture()
        let healthy = try fixture.run(["explore", "--seed", "2", "--steps", "1500", "--time", "0", "--out", "none"])
        #expect(healthy.status == 0, "\(healthy)")
        #expect(healthy.stdout.contains("no property violated"), "\(healthy)")
        let notes = try fixture.run(
            [
                "explore", "--fault", "keep-popped-notes", "--seed", "3", "--steps", "2000", "--time", "0",
                "--out", "notes"
            ], binary: CLI.notesBinary)
        #expect(notes.status == 1 && notes.stdout.contains("VIOLATION invariant 'leaks'"), "\(notes)")
        let parallel = try fixture.run([
            "explore", "--jobs", "2", "--seed", "5", "--steps", "400", "--time", "0",
            "--fault", "graft-external-link", "--out", "both"
        ])
        #expect(parallel.status == 1, "\(parallel)")
        #expect(parallel.stdout.contains("seed 5,") && parallel.stdout.contains("seed 6,"), "one exploration per job\n\(parallel)")
        #expect(fixture.exists("both/seed5-1.lua") && fixture.exists("both/seed6-1.lua"))
        let violations = parallel.stdout.components(separatedBy: "\nVIOLATION ").count - 1
        #expect(
            violations >= 2
                && parallel.stdout.hasSuffix(
                    "2 explorations (seeds 5–6): 800 steps, \(violations) violations found, "
                        + "reproducers in both/\n"),
            "one total at the end\n\(parallel)")
        let bad = try fixture.run(["explore", "--fault", "nope", "--steps", "10"])
        #expect(bad.status == 2, "\(bad)")
    }

    /// A reproducer says how to run it (with the manifest the walk had),
    /// and reports point at its scenario, not at its header comment.
    @Test func aReproducerNamesWhatItsWalkDependedOnAndReportsPointAtItsScenario() throws {
        let fixture = try Fixture()
        let manifest = GeneratedDocsTests.root.appendingPathComponent("Sources/ShopApp/Resources/routes.json").path
        let output = try fixture.run([
            "explore", "--fault", "graft-external-link", "--seed", "1", "--steps", "3000",
            "--time", "0", "--out", "found", "--manifest", manifest, "--junit", "explore.xml"
        ])
        #expect(output.status == 1, "\(output)")
        let reproducer = try fixture.read("found/seed1-1.lua")
        #expect(reproducer.contains("--seed 1 --fault graft-external-link --manifest \(manifest)`"), "\(reproducer)")
        #expect(
            reproducer.contains("-- Run it: `navscript run <this file> --fault graft-external-link --manifest \(manifest)`"),
            "\(reproducer)")
        let line =
            try #require(
                reproducer.split(separator: "\n", omittingEmptySubsequences: false)
                    .firstIndex { $0.hasPrefix("scenario(") }) + 1
        let junit = try fixture.read("explore.xml")
        #expect(line > 1 && junit.contains(#"file="found/seed1-1.lua" line="\#(line)""#), "\(junit)")
    }

    @Test func optionsThatCannotWorkAreUsageErrors() throws {
        let fixture = try Fixture()
        try fixture.write("afile", "")
        let file = try fixture.run(["explore", "--seed", "1", "--steps", "10", "--out", "afile"])
        #expect(file.status == 2 && file.stderr.contains("--out afile is a file, not a folder"), "\(file)")
        #expect(!file.stdout.contains("reproducer:"), "nothing claims to be written: \(file)")
        // A folder inside that file can never be created: said before exploring, not after a finding.
        let inside = try fixture.run(["explore", "--seed", "1", "--steps", "10", "--out", "afile/sub/deeper"])
        #expect(inside.status == 2 && inside.stderr.contains("afile is a file, not a folder"), "\(inside)")
        #expect(!inside.stderr.contains("NSCocoaErrorDomain"), "\(inside)")
        for (arguments, says) in [
            (["--time", "inf"], "--time must be a number of seconds"),
            (["--time", "nan"], "--time must be a number of seconds"),
            (["--steps", "-5"], "--steps must not be negative (got -5)")
        ] {
            let bad = try fixture.run(["explore", "--seed", "1"] + arguments)
            #expect(bad.status == 2 && bad.stderr.contains(says), "\(arguments): \(bad)")
        }
        // The largest seed with --jobs: the next job's seed wraps, it does not trap.
        let largest = try fixture.run([
            "explore", "--seed", String(UInt64.max), "--jobs", "2", "--steps", "50", "--time", "0",
            "--out", "wrap"
        ])
        #expect(largest.status == 0 || largest.status == 1, "\(largest)")
        #expect(largest.stdout.contains("seed \(UInt64.max) (") && largest.stdout.contains("seed 0 ("), "\(largest)")
    }

    /// `mutate --explore`: one supervised exploration per fault, each row
    /// read from that exploration's records — a property, or a crash the
    /// supervisor caught, with the time it took and the reproducer's length.
    @Test func theExplorationMatrixHasARowPerFault() throws {
        let fixture = try Fixture()
        let output = try fixture.run([
            // Time enough for a slow machine: each exploration stops at its first finding.
            "mutate", "--explore", "--explore-time", "12", "--only", "graft-external-link,force-unwrap-crash", "--markdown"
        ])
        #expect(output.status == 0, "\(output)")
        let rows = output.stdout.split(separator: "\n")
        #expect(rows.first == "| fault | found as | time to kill | reproducer steps |", "\(output)")
        #expect(
            rows.contains { $0.hasPrefix("| `graft-external-link` | a deep link lands on its destination's canonical stack | ") },
            "\(output)")
        let crash = rows.first { $0.hasPrefix("| `force-unwrap-crash` | a crash (every input gets an outcome) | ") }
        #expect(crash?.firstMatch(of: /\| [0-9.]+s \| [0-9]+ \|$/) != nil, "time and reproducer length: \(output)")
        #expect(output.stdout.hasSuffix("\nExploration score: 2/2 faults killed (seed 1, up to 12s each).\n"), "\(output)")
    }

    /// `--stop-at-first` ends at the first violation that passes without the
    /// faults, whatever steps were left, and says so (`mutate --explore` runs
    /// each fault so: it explored every fault for the whole --explore-time).
    @Test func stopAtFirstEndsAtTheFirstVerifiedViolation() throws {
        let fixture = try Fixture()
        let output = try fixture.run([
            "explore", "--seed", "1", "--steps", "20000", "--time", "0", "--fault", "graft-external-link", "--stop-at-first",
            "--out", "x"
        ])
        #expect(output.status == 1, "\(output)")
        #expect(
            output.stdout.contains("\n1 violation found (stopped at the first verified one: --stop-at-first)\n"), "\(output)")
        let steps = output.stdout.firstMatch(of: /walks?, ([0-9]+) steps in/).flatMap { Int($0.1) }
        #expect(steps.map { $0 < 20_000 } == true, "it stopped before its steps ran out: \(output)")
    }

    /// An app that crashes under exploration is a finding with its steps,
    /// shrunk in worker processes, not the end of the exploration.
    @Test func aCrashIsAFindingWithAReproducer() throws {
        let fixture = try Fixture()
        let output = try fixture.run([
            "explore", "--seed", "3", "--steps", "20000", "--time", "0", "--fault", "force-unwrap-crash",
            "--out", "x", "--junit", "x.xml"
        ])
        #expect(output.status == 1, "\(output)")
        #expect(
            output.stdout.contains(
                "VIOLATION every input gets an outcome\n    the app crashed: the exploring process was "
                    + "killed by signal 4 (SIGILL"), "\(output)")
        #expect(output.stdout.contains("ShopRouter.swift:48: Fatal error: Unexpectedly found nil"), "the runtime's trap line")
        #expect(output.stdout.contains("reproducer: x/seed3-crash.lua (fails with the faults, passes without)"), "\(output)")
        #expect(
            !output.stderr.contains("Current stack trace") && !output.stderr.contains("*** Signal")
                && !output.stderr.contains("crashed:"), "no stack dump: \(output.stderr)")
        let crashes = try fixture.run(["run", "x/seed3-crash.lua", "--fault", "force-unwrap-crash"])
        #expect(crashes.status == 1 && crashes.stdout.contains("1 errors"), "\(crashes)")
        #expect(try fixture.run(["run", "x/seed3-crash.lua"]).status == 0)
        let junit = try fixture.read("x.xml")
        #expect(junit.contains(#"type="crash""#) && junit.contains(#"file="x/seed3-crash.lua""#), "\(junit)")
    }

    /// `--from` takes the suite's literal driving calls into the walks; a path
    /// that is not there, or a file that does not compile, is a usage error,
    /// not an exploration without it.
    @Test func fromReadsTheSuiteAndRefusesAMissingPath() throws {
        let fixture = try Fixture([
            "suite/a.lua": #"scenario("a", function() deep_link("shop://cart") end)"#,
            "broken/b.lua": #"scenario("b", function() deep_link("shop://cart" end)"#
        ])
        let missing = try fixture.run(["explore", "--from", "nowhere", "--steps", "10", "--time", "0"])
        #expect(missing.status == 2 && missing.stderr.contains("--from: no such file or folder: nowhere"), "\(missing)")
        let broken = try fixture.run(["explore", "--from", "broken", "--steps", "10", "--time", "0"])
        #expect(
            broken.status == 2 && broken.stderr.contains("--from: broken/b.lua:1: ')' expected near 'end'; fix the file or leave it out"),
            "\(broken)")
        let explored = try fixture.run(["explore", "--from", "suite", "--steps", "200", "--time", "0", "--seed", "1"])
        #expect(explored.status == 0 && explored.stdout.contains("no property violated"), "\(explored)")
        // The command a reproducer names explores from the same files: the same seed walks elsewhere without them.
        let found = try fixture.run([
            "explore", "--from", "suite", "--fault", "graft-external-link", "--seed", "1", "--steps", "3000", "--time", "0",
            "--out", "found", "--stop-at-first"
        ])
        #expect(found.status == 1, "\(found)")
        let reproducer =
            try FileManager.default.contentsOfDirectory(atPath: fixture.url("found").path)
            .first { $0.hasSuffix(".lua") }.map { try fixture.read("found/" + $0) } ?? ""
        #expect(reproducer.contains("--fault graft-external-link --from suite` against ShopApp"), "\(reproducer)")
    }

    /// What the exploration found before the app crashed stays in the reports the supervisor writes.
    @Test func findingsBeforeACrashStayInTheReports() throws {
        let fixture = try Fixture()
        let output = try fixture.run([
            "explore", "--seed", "5", "--steps", "20000", "--time", "0", "--fault", "graft-external-link",
            "--fault", "force-unwrap-crash", "--out", "two", "--junit", "two.xml"
        ])
        #expect(output.status == 1, "\(output)")
        let junit = try fixture.read("two.xml")
        #expect(junit.contains(#"<testcase name="a deep link lands on its destination&apos;s canonical stack""#), "\(junit)")
        // Seed 5 finds two properties broken before the crash (the graft, and a doubled coordinator it causes).
        #expect(junit.contains(#"<testcase name="every input gets an outcome""#) && junit.contains(#"tests="3""#), "\(junit)")
    }

    /// A JSON stream (here standard output) already has the child's start and its
    /// earlier findings when the app takes the child down: the supervisor continues
    /// it, so a consumer sees one run, not a second one started over it. A JSON file
    /// is written whole.
    @Test(arguments: ["-", "events.jsonl", "events.fifo"])
    func aJSONStreamIsContinuedAfterACrash(json: String) throws {
        let fixture = try Fixture()
        // A FIFO's reader (started first, as it must be) sees one stream to its end, not an end when the child dies.
        var reader: Process?
        if json.hasSuffix(".fifo") {
            #expect(mkfifo(fixture.root.appendingPathComponent(json).path, 0o600) == 0)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "cat \(json) > fifo.out"]
            process.currentDirectoryURL = fixture.root
            try process.run()
            reader = process
        }
        let output = try fixture.run([
            "explore", "--seed", "5", "--steps", "20000", "--time", "0", "--fault", "graft-external-link",
            "--fault", "force-unwrap-crash", "--out", "j", "--json", json
        ])
        reader?.waitUntilExit()
        #expect(output.status == 1, "\(output)")
        let lines = try (json == "-" ? output.stdout : fixture.read(reader == nil ? json : "fifo.out")).split(separator: "\n")
        let events = try lines.map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return object["event"] as? String ?? "?"
        }
        #expect(
            events == [
                "run_started", "file_started", "scenario_finished", "scenario_finished", "scenario_finished", "file_finished",
                "run_finished"
            ],
            "\(lines.joined(separator: "\n"))")
        #expect(lines.last?.contains(#""errors":1"#) == true && lines.last?.contains(#""failed":2"#) == true, "\(lines.last ?? "")")
        let finished = try #require(JSONSerialization.jsonObject(with: Data((lines.last ?? "").utf8)) as? [String: Any])
        #expect((finished["duration"] as? Double ?? 0) > 0, "the exploration's time up to the crash: \(finished)")
    }

    @Test func aHangIsAFindingAfterTheTimeout() throws {
        let fixture = try Fixture()
        let output = try fixture.run([
            "explore", "--seed", "3", "--time", "30", "--fault", "main-thread-deadlock", "--out", "h",
            "--timeout", "1"
        ])
        #expect(output.status == 1, "\(output)")
        // Stopped by the step's --timeout (what the message names), not by --time.
        #expect(output.stdout.contains("the app hung: a step did not return within 1s (--timeout)"), "\(output)")
        let reproducer = try fixture.read("h/seed3-hang.lua")
        #expect(reproducer.contains("-- Run it: `navscript run <this file> --fault main-thread-deadlock --timeout 1`"), "\(reproducer)")
        let hangs = try fixture.run(["run", "h/seed3-hang.lua", "--fault", "main-thread-deadlock", "--timeout", "1"])
        #expect(hangs.status == 1 && hangs.stdout.contains("timeout"), "\(hangs)")
    }

    @Test func anInterruptedExplorationReportsWhatItCoveredAndExits130() throws {
        let fixture = try Fixture()
        let output = try fixture.run(["explore", "--seed", "4", "--time", "60", "--out", "i", "--junit", "i.xml"]) { parent in
            Thread.sleep(forTimeInterval: 2.5)
            kill(parent, SIGINT)
        }
        #expect(output.status == 130, "\(output)")
        #expect(output.stdout.contains("interrupted (SIGINT): the exploration stopped early"), "\(output)")
        #expect(output.stdout.contains("coverage: screens reached"), "the summary of what it did\n\(output)")
        let junit = try fixture.read("i.xml")
        #expect(junit.contains(#"name="exploration interrupted""#) && junit.contains(#"errors="1""#), "not green: \(junit)")
    }

    /// An interrupt while the app hangs inside a step ends the exploration at
    /// once (not after --timeout, and not as a hang it found); with --jobs,
    /// every exploration stops and none outlives the run.
    @Test func anInterruptEndsAHungOrParallelExplorationPromptly() throws {
        let fixture = try Fixture()
        let hung = try fixture.run(["explore", "--fault", "main-thread-deadlock", "--seed", "1", "--time", "30", "--out", "h"]) {
            parent in
            Thread.sleep(forTimeInterval: 3)
            kill(parent, SIGINT)
        }
        // Stopped by the interrupt's grace (the message says so), not by --timeout as a hang found.
        #expect(hung.status == 130, "\(hung)")
        #expect(
            hung.stderr.contains("the exploration was inside a step and was stopped") && !hung.stdout.contains("VIOLATION"),
            "\(hung)")
        let parallel = try fixture.run(["explore", "--seed", "3", "--time", "30", "--jobs", "2", "--out", "p"]) { parent in
            Thread.sleep(forTimeInterval: 3)
            kill(parent, SIGINT)
        }
        #expect(parallel.status == 130, "\(parallel)")
        #expect(parallel.stdout.components(separatedBy: "the exploration stopped early").count - 1 == 2, "both: \(parallel)")
        Thread.sleep(forTimeInterval: 0.5)
        #expect(Self.explorationsStillAlive(in: fixture.root.path).isEmpty, "none outlives the run")
    }

    static func explorationsStillAlive(in directory: String) -> [String] {
        let proc = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return proc.compactMap { pid -> String? in
            guard Int32(pid) != nil,
                let cwd = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/cwd"), cwd == directory,
                let cmdline = try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8),
                cmdline.contains("explore")
            else { return nil }
            return pid
        }
    }
}
