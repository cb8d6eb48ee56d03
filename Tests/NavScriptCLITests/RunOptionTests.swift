import Foundation
import Testing

/// `navscript run` options: selection (`--filter`, `--tags`,
/// `--exclude-tags`), `--fail-fast`, `--fault`, `--shuffle --seed`.
@Suite("run: options")
struct RunOptionTests {
    /// `navscript run … | head -1`: the reader goes away, the run goes on
    /// to its reports and its own exit status (a trap on the broken pipe before).
    @Test(arguments: ["", "--in-process"])
    func aReaderThatGoesAwayDoesNotEndTheRun(mode: String) throws {
        // Enough files that the run still writes long after the reader is gone.
        var files: [String: String] = [:]
        for file in 1...100 { files["suite/f\(file).lua"] = #"for i = 1, 3 do scenario("s" .. i, function() end) end"# }
        let fixture = try Fixture(files)
        let binary = try CLI.binary.get()
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/bash")
        shell.arguments = [
            "-c", "'\(binary.path)' run suite \(mode) --junit r.xml | head -c 1 > /dev/null; exit ${PIPESTATUS[0]}"
        ]
        shell.currentDirectoryURL = fixture.root
        try shell.run()
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0, "the run's own status")
        #expect(try fixture.read("r.xml").contains(#"tests="300""#), "its report written, every result in it")
    }

    /// A folder of the suite nobody can list used to be skipped without a
    /// word (a green run of fewer scenarios): a usage error naming it.
    @Test func anUnreadableFolderIsAnErrorNotLeftOut() throws {
        let fixture = try Fixture([
            "suite/ok/a.lua": #"scenario("a", function() end)"#,
            "suite/locked/b.lua": #"scenario("b", function() end)"#
        ])
        let locked = fixture.url("suite/locked")
        #expect(chmod(locked.path, 0) == 0)
        defer { chmod(locked.path, 0o755) }
        let binary = try CLI.binary.get()
        // Root reads every folder: the run is made as nobody then.
        let process = Process()
        if geteuid() == 0 {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", binary.path, "run", "suite"]
        } else {
            process.executableURL = binary
            process.arguments = ["run", "suite"]
        }
        process.currentDirectoryURL = fixture.root
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2, "\(text)")
        #expect(text.contains("cannot read the folder suite/locked (Permission denied): its scenarios would be left out"), "\(text)")
    }

    /// A file name that is not UTF-8 cannot be opened by the name reports
    /// give it (U+FFFD in its place): said, not a load error about a file
    /// that "does not exist".
    @Test func aFileNameThatIsNotUTF8IsNamedAsSuch() throws {
        let fixture = try Fixture(["suite/d.lua": #"scenario("d", function() end)"#])
        let name = Array(fixture.url("suite").path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".lua".utf8) + [0]
        let descriptor = name.withUnsafeBufferPointer {
            $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) }
        }
        #expect(descriptor >= 0)
        close(descriptor)
        let output = try fixture.run(["run", "suite"])
        #expect(output.status == 2, "\(output)")
        #expect(output.stderr.contains("the name of suite/caf\u{FFFD}.lua is not UTF-8"), "\(output)")
    }

    /// Workers are reaped before the run exits: killed unreaped, they were
    /// left as zombies of PID 1 — which in a container often reaps nothing,
    /// so every run of a CI job added some.
    @Test func aRunLeavesNoZombieWorkers() throws {
        // This run's own workers, seen while it runs (other tests' runs may leave zombies of
        // their own meanwhile: a worker killed with its run's parent, by design).
        final class Seen: @unchecked Sendable { var workers: Set<Int32> = [] }
        let seen = Seen()
        func state(_ pid: Int32) -> String {
            (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        }
        var files: [String: String] = [:]
        for file in 1...6 { files["suite/f\(file).lua"] = #"scenario("s", function() end)"# }
        let fixture = try Fixture(files)
        let output = try fixture.run(["run", "suite", "--jobs", "2"]) { parent in
            while !state(parent).isEmpty && !state(parent).contains(") Z ") {
                let children = (try? String(contentsOfFile: "/proc/\(parent)/task/\(parent)/children", encoding: .utf8)) ?? ""
                seen.workers.formUnion(children.split(separator: " ").compactMap { Int32($0) })
                usleep(5_000)
            }
        }
        #expect(output.status == 0, "\(output)")
        #expect(!seen.workers.isEmpty, "the run started workers")
        usleep(200_000)
        let unreaped = seen.workers.filter { state($0).contains("(navscript) Z ") }
        #expect(unreaped.isEmpty, "workers left unreaped: \(unreaped)")
    }

    @Test func aSeedWithoutShuffleSaysItIsNotUsed() throws {
        let fixture = try Fixture(["suite/a.lua": #"scenario("one", function() end)"#])
        let output = try fixture.run(["run", "suite", "--seed", "42"])
        #expect(output.status == 0 && output.stderr.contains("note: --seed orders a --shuffle run"), "\(output)")
        #expect(!(try fixture.run(["run", "suite", "--seed", "42", "--shuffle"]).stderr.contains("note: --seed")))
    }

    static let tagged = #"""
        describe("checkout", function()
          scenario("address step", { tags = { "smoke", "checkout" } }, function() end)
          scenario("payment step", { tags = { "slow" } }, function() end)
        end)

        describe("orders", function()
          scenario("list", { tags = { "smoke" } }, function() end)
          scenario("detail", function() end)
        end)

        scenario("checkout-free top level", { tags = { "nightly" } }, function() end)
        """#

    static let more = #"""
        scenario("another file", { tags = { "slow", "nightly" } }, function() end)
        """#

    private func selected(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        let fixture = try Fixture(["suite/a.lua": Self.tagged, "suite/b.lua": Self.more])
        let (output, junit) = try fixture.runWithJUnit(arguments + ["suite"], sourceLocation: sourceLocation)
        #expect(output.status == 0, "\(output)", sourceLocation: sourceLocation)
        return junit.caseNames
    }

    @Test func filterIsARegexOnTheFullNameIncludingTheDescribeChain() throws {
        #expect(try selected(["--filter", "^checkout "]) == ["checkout address step", "checkout payment step"])
        #expect(try selected(["--filter", "orders (list|detail)$"]) == ["orders list", "orders detail"])
        #expect(try selected(["--filter", "step$"]) == ["checkout address step", "checkout payment step"])
        #expect(try selected(["--filter", "^checkout"]) == ["checkout address step", "checkout payment step", "checkout-free top level"])
    }

    @Test func tagsSelectAndExcludeTagsDeselect() throws {
        #expect(try selected(["--tags", "smoke"]) == ["checkout address step", "orders list"])
        #expect(
            try selected(["--tags", "smoke,nightly"]) == ["checkout address step", "orders list", "checkout-free top level", "another file"]
        )
        #expect(
            try selected(["--tags", "smoke", "--tags", "slow"]) == [
                "checkout address step", "checkout payment step", "orders list", "another file"
            ])
        #expect(
            try selected(["--exclude-tags", "smoke"]) == [
                "checkout payment step", "orders detail", "checkout-free top level", "another file"
            ])
        #expect(try selected(["--tags", "smoke", "--exclude-tags", "checkout"]) == ["orders list"])
        #expect(try selected(["--exclude-tags", "slow,nightly", "--filter", "^orders"]) == ["orders list", "orders detail"])
    }

    @Test func anInvalidFilterIsAUsageError() throws {
        let fixture = try Fixture(["suite/a.lua": Self.tagged])
        let listed = try fixture.run(["list", "--filter", "(unclosed", "suite"])
        #expect(listed.status == 2, "\(listed)")
        #expect(listed.stderr.contains("(unclosed"), "the message quotes the pattern\n\(listed)")

        let output = try fixture.run(["run", "--filter", "(unclosed", "suite"])
        #expect(output.status == 2, "\(output)")
        #expect(output.stderr.contains("(unclosed"), "the message quotes the pattern\n\(output)")
        #expect(output.status != 0, "an invalid filter never passes\n\(output)")
    }

    /// A pattern that sends a backtracking engine into hours of work selects
    /// in an instant, in process too; one that needs backtracking is refused.
    @Test func aCatastrophicFilterCannotHangTheRun() throws {
        let name = String(repeating: "a", count: 60)
        let fixture = try Fixture(["suite/a.lua": "scenario(\"\(name)\", function() end)\nscenario(\"\(name)b\", function() end)"])
        let output = try fixture.run(["run", "--in-process", "--filter", "(a*)*b", "suite"])
        #expect(output.status == 0 && CLI.summary(output.stdout)?.hasPrefix("1 passed") == true, "\(output)")
        let refused = try fixture.run(["run", "--filter", "(a)\\1", "suite"])
        #expect(refused.status == 2, "\(refused)")
        #expect(
            refused.stderr.contains("--filter '(a)\\1' cannot be used: a back-reference (\\1) is not supported"),
            "\(refused)")
        // A control character in the pattern is shown, not sent to the terminal.
        let escaped = try fixture.run(["run", "--filter", "a\u{1B}[31m", "suite"])
        #expect(escaped.status == 2 && !escaped.stderr.contains("\u{1B}"), "\(escaped)")
        #expect(escaped.stderr.contains(#"--filter 'a\u{1B}[31m' cannot be used"#), "\(escaped)")
    }

    static let failFastFirst = #"""
        scenario("passes first", function() end)
        scenario("fails second", function() expect_screen("cart") end)
        scenario("would pass third", function() end)
        """#

    /// Files that have not started when the failure is seen are skipped, so
    /// one job keeps "the rest" well defined.
    @Test func failFastStopsAtTheFirstFailureAndSkipsTheRest() throws {
        let fixture = try Fixture([
            "suite/a.lua": Self.failFastFirst,
            "suite/b.lua": #"scenario("next file", function() end)"#
        ])
        let (output, junit) = try fixture.runWithJUnit(["--fail-fast", "--jobs", "1", "suite"])
        #expect(output.status == 1, "\(output)")
        #expect(junit.outcome("passes first") == "passed")
        #expect(junit.outcome("fails second") == "failure")
        let nextFile = junit.suite("suite/b.lua")?.children("testcase") ?? []
        #expect(!nextFile.isEmpty && nextFile.allSatisfy { JUnit.outcome($0) == "skipped" }, "\(junit.raw)")
        #expect(output.stdout.contains("not run"), "\(output)")
        #expect(junit.outcome("would pass third") == "skipped", "\(junit.raw)")
        #expect(CLI.summary(output.stdout)?.hasPrefix("1 passed, 1 failed, 0 errors, 2 skipped") == true, "\(output)")
        #expect(CLI.progressLines(output.stdout).first == "suite/a.lua  .Fs  (3)", "\(output)")

        // Without it, everything runs.
        let (all, allJUnit) = try fixture.runWithJUnit(["--jobs", "1", "suite"])
        #expect(CLI.summary(all.stdout)?.hasPrefix("3 passed, 1 failed, 0 errors, 0 skipped") == true, "\(all)")
        #expect(allJUnit.outcome("next file") == "passed")
    }

    @Test func failFastAlsoStopsAtAnError() throws {
        let fixture = try Fixture([
            "suite/a.lua": #"scenario("errors", function() error("stop here") end)"#,
            "suite/b.lua": #"scenario("skipped", function() end)"#
        ])
        let (output, junit) = try fixture.runWithJUnit(["--fail-fast", "--jobs", "1", "suite"])
        #expect(output.status == 1, "\(output)")
        #expect(junit.outcome("errors") == "error")
        let rest = junit.suite("suite/b.lua")?.children("testcase") ?? []
        #expect(!rest.isEmpty && rest.allSatisfy { JUnit.outcome($0) == "skipped" }, "\(junit.raw)")
    }

    /// A scenario that kills its worker (a timeout here; a crash takes the
    /// same path) is a problem like a failure: the rest of its file and the
    /// files after it are not run. They all ran before.
    @Test func failFastAlsoStopsAtATimeout() throws {
        let fixture = try Fixture([
            "suite/a.lua": #"""
            scenario("hangs", function() while true do end end)
            scenario("after the hang", function() end)
            """#,
            "suite/b.lua": #"scenario("next file", function() end)"#
        ])
        let (output, junit) = try fixture.runWithJUnit([
            "--fail-fast", "--jobs", "1", "--timeout", "1", "--instruction-budget", "1000000000000", "suite"
        ])
        #expect(output.status == 1, "\(output)")
        #expect(junit.testcase("hangs")?.child("error")?["type"] == "timeout", "\(junit.raw)")
        #expect(junit.outcome("after the hang") == "skipped", "\(junit.raw)")
        let nextFile = junit.suite("suite/b.lua")?.children("testcase") ?? []
        #expect(!nextFile.isEmpty && nextFile.allSatisfy { JUnit.outcome($0) == "skipped" }, "\(junit.raw)")
        #expect(CLI.summary(output.stdout)?.hasPrefix("0 passed, 0 failed, 1 errors, 2 skipped") == true, "\(output)")
    }

    static let gate = #"""
        scenario("login commits the session before the gated cart resumes", function()
          deep_link("shop://cart")
          login{}
          expect_stack{ "home", "cart" }
          expect_events{ "gate auth cart", "session-commit", "finish app/auth completed", "resume cart" }
        end)
        """#

    @Test func faultIsInjectedIntoEveryLaunch() throws {
        let fixture = try Fixture(["suite/gate.lua": Self.gate])
        let clean = try fixture.run(["run", "suite"])
        #expect(clean.status == 0, "\(clean)")
        let faulty = try fixture.run(["run", "--fault", "commit-after-finish", "suite"])
        #expect(faulty.status == 1, "the fault breaks the gate-resume ordering\n\(faulty)")
        #expect(faulty.stdout.contains("FAIL suite/gate.lua:1"), "\(faulty)")
        let repeated = try fixture.run(["run", "--fault", "commit-after-finish", "--fault", "no-pop-detection", "suite"])
        #expect(repeated.status == 1, "--fault is repeatable\n\(repeated)")
    }

    @Test func anUnknownFaultIsAUsageErrorListingTheKnownOnes() throws {
        let fixture = try Fixture(["suite/gate.lua": Self.gate])
        let output = try fixture.run(["run", "--fault", "no-such-fault", "suite"])
        #expect(output.status == 2, "\(output)")
        #expect(output.stderr.contains("no-such-fault"), "\(output)")
        for known in ["commit-after-finish", "no-pop-detection", "strong-back-reference", "universal-link-skips-gate"] {
            #expect(output.stderr.contains(known), "the message lists \(known)\n\(output)")
        }
        #expect(!output.stdout.contains(" passed, "), "nothing ran")
    }

    static func shuffleSuite() -> [String: String] {
        var files: [String: String] = [:]
        for file in ["a", "b", "c"] {
            files["suite/\(file).lua"] = (1...5).map { #"scenario("\#(file)\#($0)", function() end)"# }.joined(separator: "\n")
        }
        return files
    }

    @Test func shuffleWithASeedGivesTheSameOrderEveryTimeAndPrintsTheSeed() throws {
        let fixture = try Fixture(Self.shuffleSuite())
        let (first, firstJUnit) = try fixture.runWithJUnit(["--shuffle", "--seed", "7", "suite"], junit: "first.xml")
        let (second, secondJUnit) = try fixture.runWithJUnit(["--shuffle", "--seed", "7", "suite"], junit: "second.xml")
        let (_, plainJUnit) = try fixture.runWithJUnit(["suite"], junit: "plain.xml")
        #expect(first.status == 0 && second.status == 0, "\(first)\n\(second)")
        #expect(first.stdout.contains("seed: 7\n"), "\(first)")
        #expect(firstJUnit.caseNames == secondJUnit.caseNames, "same seed, same order")
        #expect(CLI.maskDurations(first.stdout) == CLI.maskDurations(second.stdout))
        #expect(Set(firstJUnit.caseNames) == Set(plainJUnit.caseNames), "shuffling runs every scenario once")
        #expect(firstJUnit.caseNames.count == 15)
        let sorted = (["a", "b", "c"]).flatMap { file in (1...5).map { "\(file)\($0)" } }
        #expect(plainJUnit.caseNames == sorted, "without --shuffle: discovery then declaration order")
        #expect(firstJUnit.caseNames != sorted, "--shuffle --seed 7 reorders")
        let plain = try fixture.run(["run", "suite"])
        #expect(!plain.stdout.contains("seed:"), "no seed line without --shuffle\n\(plain)")

        let (_, otherSeed) = try fixture.runWithJUnit(["--shuffle", "--seed", "8", "suite"], junit: "other.xml")
        #expect(otherSeed.caseNames != firstJUnit.caseNames, "another seed, another order")
    }
}
