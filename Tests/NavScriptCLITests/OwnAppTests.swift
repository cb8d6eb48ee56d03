import Foundation
import Testing

/// A team's own app through the CLI library: the notes fixture
/// (`Tests/Fixtures/NotesApp`, a NavigationCore app with a host written
/// against NavScript's public API, and a one-line main) runs every command
/// end to end — in worker processes, since its executable re-invokes
/// itself — and nothing of ShopApp leaks into it.
@Suite("Bring your own app: the notes fixture through the CLI")
struct OwnAppTests {
    static let suiteSource = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/NotesSuite")

    /// The notes suite copied into a fresh working directory as `suite/`.
    static func fixture(extra: [String: String] = [:]) throws -> Fixture {
        var files: [String: String] = [:]
        let fm = FileManager.default
        for case let url as URL in fm.enumerator(at: suiteSource, includingPropertiesForKeys: nil) ?? .init()
        where url.pathExtension == "lua" {
            let relative = String(url.standardizedFileURL.path.dropFirst(suiteSource.standardizedFileURL.path.count + 1))
            files["suite/" + relative] = try String(contentsOf: url, encoding: .utf8)
        }
        for (path, text) in extra { files[path] = text }
        return try Fixture(files)
    }

    func notes(_ fixture: Fixture, _ arguments: [String]) throws -> CLI.Output {
        try fixture.run(arguments, binary: CLI.notesBinary)
    }

    @Test("run: the whole suite passes in worker processes and writes JUnit")
    func runWithWorkers() throws {
        let fixture = try Self.fixture()
        let output = try notes(fixture, ["run", "suite", "--jobs", "2", "--junit", "report.xml"])
        #expect(output.status == 0, "\(output)")
        #expect(CLI.summary(output.stdout)?.hasPrefix("9 passed, 0 failed, 0 errors, 0 skipped") == true, "\(output)")
        let junit = try JUnit(try Data(contentsOf: fixture.url("report.xml")))
        let cases = junit.root.children("testsuite").flatMap { $0.children("testcase") }
        #expect(cases.count == 9)
        #expect(cases.contains { $0["name"] == "the account is gated and opens after signing in" })
    }

    /// Help, usage errors, hints and replay lines name the executable that ran, not `navscript`
    /// (on a machine with both, a copied command would run another app).
    @Test("help, hints and reproducers spell this executable's name")
    func theExecutableNamesItself() throws {
        let fixture = try Self.fixture()
        let help = try notes(fixture, ["run", "--help"])
        #expect(
            help.stdout.contains("USAGE: NotesNavScript run ") && help.stdout.contains("See `NotesNavScript mutate"),
            "\(help)")
        let usage = try notes(fixture, ["run", "no-such-folder"])
        #expect(usage.status == 2 && usage.stderr.contains("See 'NotesNavScript run --help'"), "\(usage)")
        let explored = try notes(
            fixture,
            [
                "explore", "--fault", "keep-popped-notes", "--seed", "3", "--steps", "2000",
                "--time", "0", "--out", "found"
            ])
        #expect(explored.status == 1, "\(explored)")
        let reproducer = try fixture.read("found/seed3-1.lua")
        #expect(
            reproducer.contains("-- Found by `NotesNavScript explore --seed 3 --fault keep-popped-notes`")
                && reproducer.contains("-- Run it: `NotesNavScript run <this file> --fault keep-popped-notes`"), "\(reproducer)")
        // Started through a link of another name, its child processes (the exploration) say that name too.
        let link = fixture.root.appendingPathComponent("myapp-navscript")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: try CLI.notesBinary.get())
        let linked = try fixture.run(
            [
                "explore", "--fault", "keep-popped-notes", "--seed", "3", "--steps", "2000", "--time", "0",
                "--out", "linked"
            ], binary: .success(link))
        #expect(linked.status == 1, "\(linked)")
        #expect(try fixture.read("linked/seed3-1.lua").contains("-- Run it: `myapp-navscript run <this file>"), "\(linked)")
    }

    /// A host whose factory throws is the app's set-up failing, said as such — not a
    /// usage error pointing at --help — with what to do for the usual causes.
    @Test(arguments: [("manifest", "threw: an invalid route manifest: "), ("resource", "is it in the target's resources?")])
    func aHostThatCannotBeBuiltSaysWhy(failure: String, says: String) throws {
        let fixture = try Self.fixture()
        let output = try CLI.run(
            ["run", "suite"], in: fixture.root, environment: ["NOTES_HOST_FAILS": failure],
            binary: CLI.notesBinary)
        #expect(output.status == 2, "\(output)")
        #expect(
            output.stderr.contains("Error: the app's host could not be created: its factory") && output.stderr.contains(says),
            "\(output)")
        #expect(!output.stderr.contains("--help"), "the command line was fine: \(output)")
        if failure == "manifest" { #expect(output.stderr.contains("`NotesNavScript routes check <manifest.json>`"), "\(output)") }
    }

    /// A host with no fault catalogue has nothing to mutate: "0/0 faults
    /// killed (100%)" would read as a pass.
    @Test func mutateWithoutFaultsIsAUsageError() throws {
        let fixture = try Self.fixture(extra: [:])
        let output = try CLI.run(
            ["mutate", "suite"], in: fixture.root, environment: ["NOTES_HOST_FAULTS": "none"], binary: CLI.notesBinary)
        #expect(output.status == 2, "\(output)")
        #expect(output.stderr.contains("NotesApp declares no faults, so there is nothing to mutate"), "\(output)")
    }

    /// Whatever launched — the first verb, `launch{}`, the scenario's `launch` option — a
    /// host that cannot launch the app is one kind of error, saying so.
    @Test func aLaunchTheHostCannotCompleteIsALaunchErrorWhateverLaunched() throws {
        let fixture = try Self.fixture(extra: [
            "launch.lua": """
            scenario("implicit", function() tap("account") end)
            scenario("explicit", function() launch{} end)
            scenario("with options", { launch = { signed_in = true } }, function() expect_tab("notes") end)
            scenario("caught", function() pcall(expect_tab, "notes") end)
            """
        ])
        let output = try CLI.run(
            ["run", "launch.lua", "--junit", "j.xml"], in: fixture.root,
            environment: ["NOTES_HOST_FAILS": "launch"], binary: CLI.notesBinary)
        #expect(output.status == 1, "\(output)")
        let junit = try JUnit(try Data(contentsOf: fixture.url("j.xml")))
        for (name, line) in [("implicit", 1), ("explicit", 2), ("with options", 3), ("caught", 4)] {
            let error = junit.testcase(name)?.child("error")
            #expect(error?["type"] == "launch_error", "\(name): \(junit.raw)")
            #expect(
                error?["message"] == "launch.lua:\(line): NotesApp did not launch: its host's launch(_:) threw: keychain unavailable",
                "\(name): \(error?["message"] ?? "")")
        }
    }

    @Test("run --fault: the host's fault is injected and caught")
    func runWithFault() throws {
        let output = try notes(try Self.fixture(), ["run", "suite", "--fault", "keep-popped-notes"])
        #expect(output.status == 1, "\(output)")
        #expect(output.stdout.contains("FAIL suite/notes.lua:8  backing out of a note releases it"), "\(output)")
        #expect(output.stdout.contains("leaked: note:7 (screen)"), "\(output)")
    }

    @Test("run --fault with a name of another app's catalogue is a usage error naming this app's")
    func unknownFault() throws {
        let output = try notes(try Self.fixture(), ["run", "suite", "--fault", "commit-after-finish"])
        #expect(output.status == 2, "\(output)")
        #expect(
            output.stderr.contains("NotesApp's faults are: sign-in-without-commit, keep-popped-notes, note-row-opens-first"), "\(output)")
    }

    @Test("list and mutate with one fault")
    func listAndMutate() throws {
        let fixture = try Self.fixture()
        let list = try notes(fixture, ["list", "suite"])
        #expect(list.status == 0, "\(list)")
        #expect(list.stdout.contains("9 scenarios in 2 files"), "\(list)")
        let mutate = try notes(fixture, ["mutate", "suite", "--only", "sign-in-without-commit"])
        #expect(mutate.status == 0, "\(mutate)")
        #expect(mutate.stdout.contains("mutation score: 1/1 faults killed (100%)"), "\(mutate)")
        let catalogue = try notes(fixture, ["mutate", "--list"])
        #expect(catalogue.stdout.contains("keep-popped-notes"), "\(catalogue)")
        #expect(!catalogue.stdout.contains("commit-after-finish"), "\(catalogue)")
    }

    @Test("routes, graph and types describe this app, not ShopApp")
    func describeTheApp() throws {
        let fixture = try Self.fixture()
        let routes = try notes(fixture, ["routes"])
        #expect(routes.status == 0 && routes.stdout.contains("scheme notes://"), "\(routes)")
        let graph = try notes(fixture, ["graph"])
        #expect(graph.status == 0 && graph.stdout.contains("subgraph \"cluster_settings\""), "\(graph)")
        let types = try notes(fixture, ["types"])
        #expect(types.status == 0, "\(types)")
        #expect(types.stdout.contains("function sign_in() end") && !types.stdout.contains("function login("), "\(types)")
        for output in [routes, graph, types] {
            #expect(!output.stdout.lowercased().contains("shop"), "ShopApp leaked into \(output.arguments)")
        }
    }

    @Test("the host's launch options and entry points bound what a scenario may ask for")
    func hostVocabulary() throws {
        let fixture = try Self.fixture(extra: [
            "other/wrong.lua": """
            scenario("an option of another app", { launch = { logged_in = true } }, function() end)
            scenario("a door this app does not have", function() deep_link("notes://notes", { via = "widget" }) end)
            scenario("a wrongly typed option", function() launch{ signed_in = "yes" } end)
            """
        ])
        let output = try notes(fixture, ["run", "other"])
        #expect(output.status == 1, "\(output)")
        #expect(output.stdout.contains("unknown launch option 'logged_in'; NotesApp accepts: signed_in, url, via"), "\(output)")
        #expect(output.stdout.contains("unknown entry point 'widget'; NotesApp's entry points are: scheme, universal, push"), "\(output)")
        #expect(output.stdout.contains("launch{ signed_in = \"yes\" }: expected a boolean"), "\(output)")
    }
}
