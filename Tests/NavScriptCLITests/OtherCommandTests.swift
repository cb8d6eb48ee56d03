import Foundation
import NavScript
import TestSupport
import Testing

/// `navscript list`, `routes`, `graph` and `--help`.
@Suite("list, routes, graph, help")
struct OtherCommandTests {
    static let suite = #"""
        describe("cart", function()
          scenario("gate", { tags = { "smoke", "auth" } }, function() end)
          scenario("untagged", function() end)
        end)
        pending("later")
        scenario.each({ { id = "p1" }, { id = "p2" } }, "product $id", { tags = { "rows" } }, function() end)
        """#

    /// A file named with a newline or a tab stays on one line in `list` and
    /// the console (its progress and FAIL lines were split in two, and a
    /// problem matcher read `FAIL suite/n` with no line).
    @Test func aFileNameWithControlCharactersStaysOnOneLine() throws {
        let fixture = try Fixture(["suite/n\nl\t.lua": #"scenario("nl", function() launch{} expect_stack{ "nope" } end)"#])
        let list = try fixture.run(["list", "suite"])
        #expect(list.stdout.split(separator: "\n").contains("suite/n\\nl\\t.lua:1  nl"), "\(list)")
        let run = try fixture.run(["run", "suite"])
        #expect(run.status == 1, "\(run)")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("suite/n\\nl\\t.lua  F") }, "\(run)")
        #expect(lines.contains("FAIL suite/n\\nl\\t.lua:1  nl"), "\(run)")
    }

    @Test func listPrintsFileLineNameAndTagsWithoutRunning() throws {
        let fixture = try Fixture([
            "suite/a.lua": Self.suite,
            "suite/b.lua": #"scenario("would fail if run", function() error("ran") end)"#
        ])
        let output = try fixture.run(["list", "suite"])
        #expect(output.status == 0, "\(output)")
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("suite/a.lua:2  cart gate  [smoke, auth]"), "\(output)")
        #expect(lines.contains("suite/a.lua:3  cart untagged"), "\(output)")
        #expect(lines.contains { $0.hasPrefix("suite/a.lua:5  later") }, "\(output)")
        #expect(lines.contains("suite/a.lua:6  product p1  [rows]"), "\(output)")
        #expect(lines.contains("suite/a.lua:6  product p2  [rows]"), "\(output)")
        #expect(lines.contains("suite/b.lua:1  would fail if run"), "\(output)")
        #expect(!output.stdout.contains("passed"), "nothing ran\n\(output)")

        let filtered = try fixture.run(["list", "--tags", "smoke", "suite"])
        #expect(filtered.status == 0)
        #expect(
            filtered.stdout.split(separator: "\n").filter { $0.hasPrefix("suite/") } == ["suite/a.lua:2  cart gate  [smoke, auth]"],
            "\(filtered)")
    }

    @Test func listReportsAFileThatDoesNotLoad() throws {
        let fixture = try Fixture(["suite/a.lua": Self.suite, "suite/broken.lua": "scenario(\"x\" function() end)\n"])
        let output = try fixture.run(["list", "suite"])
        #expect(output.status == 2, "\(output)")
        #expect(output.combined.contains("suite/broken.lua"), "\(output)")
        #expect(output.stdout.contains("suite/a.lua:2  cart gate"), "the other files are still listed\n\(output)")
    }

    @Test func routesPrintsTheRouteTable() throws {
        let fixture = try Fixture()
        let output = try fixture.run(["routes"])
        #expect(output.status == 0, "\(output)")
        for expected in ["shop://", "home", "product", "checkout_address", "settings_security", "orders/:id"] {
            #expect(output.stdout.contains(expected), "routes lists \(expected)\n\(output)")
        }
    }

    @Test func graphPrintsGraphvizDOT() throws {
        let fixture = try Fixture()
        let output = try fixture.run(["graph"])
        #expect(output.status == 0, "\(output)")
        #expect(output.stdout.hasPrefix("digraph"), "\(output)")
        #expect(output.stdout.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("}"), "\(output)")
        #expect(output.stdout.contains("->"), "edges\n\(output)")
    }

    @Test func helpListsTheSubcommands() throws {
        let fixture = try Fixture()
        let output = try fixture.run(["--help"])
        #expect(output.status == 0, "\(output)")
        for subcommand in ["run", "list", "routes", "graph", "mutate"] {
            #expect(output.stdout.contains(try Regex("(?m)^\\s+\(subcommand)\\s")), "--help lists \(subcommand)\n\(output)")
        }
        let runHelp = try fixture.run(["run", "--help"])
        #expect(runHelp.status == 0, "\(runHelp)")
        for option in ["--junit", "--junit-strict", "--filter", "--tags", "--exclude-tags", "--fault", "--fail-fast", "--seed", "--shuffle"]
        {
            #expect(runHelp.stdout.contains(option), "run --help lists \(option)\n\(runHelp)")
        }
    }

    @Test func shellCompletionOffersFilesInvariantsAndTheAppsOwnFaults() throws {
        let fixture = try Fixture()
        // What the completion script asks for `--fault` (ArgumentParser's custom-completion call).
        let faults = try fixture.run(["---completion", "run", "--", "--fault", "0", "0", ""])
        #expect(faults.status == 0, "\(faults)")
        let offered = Set(faults.stdout.split(separator: "\n").map(String.init))
        let catalogue = try fixture.run(["mutate", "--list"])
        #expect(offered.contains("no-pop-detection") && offered.count > 5, "\(faults)")
        #expect(offered.allSatisfy { catalogue.stdout.contains($0) }, "only the app's faults: \(offered)")
        let only = try fixture.run(["---completion", "mutate", "--", "--only", "0", "0", ""])
        #expect(Set(only.stdout.split(separator: "\n").map(String.init)) == offered, "\(only)")

        let script = try fixture.run(["--generate-completion-script", "bash"])
        #expect(script.status == 0, "\(script)")
        #expect(script.stdout.contains("-fX '!*.@(lua)'"), "scenario paths complete .lua files and folders")
        #expect(script.stdout.contains("-fX '!*.@(xml)'"), "--junit completes .xml files")
        #expect(script.stdout.contains("'gated_screens'"), "--allow completes the invariants")
    }

    @Test func versionNamesTheReleaseTheLuaAndTheBuild() throws {
        let output = try Fixture().run(["--version"])
        #expect(output.status == 0, "\(output)")
        // What a bug report needs: which navscript, which Lua (errors are worded per release), which build.
        #expect(
            output.stdout.contains(try Regex(#"^\S+ \d+\.\d+\.\d+ \(Lua 5\.4\.\d+, (debug|release) build\)\n$"#)),
            "\(output)")
    }

    @Test func anUnknownSubcommandOrOptionIsExitTwo() throws {
        let fixture = try Fixture()
        let unknown = try fixture.run(["frobnicate"])
        #expect(unknown.status == 2, "\(unknown)")
        let badOption = try fixture.run(["run", "--no-such-option"])
        #expect(badOption.status == 2, "\(badOption)")
        #expect(badOption.stderr.contains("--no-such-option"), "\(badOption)")
    }
}

/// merge-junit keeps the shards' layout and warns about cases run twice.
@Suite("merge-junit")
struct MergeJUnitTests {
    @Test func aMergedReportReadsLikeItsPartsAndDuplicatesAreFlagged() throws {
        let fixture = try Fixture([
            "a/one.lua": #"scenario("one", function() end)"#,
            "b/two.lua": #"scenario("two", function() end)"#
        ])
        _ = try fixture.run(["run", "a", "--junit", "a.xml"])
        _ = try fixture.run(["run", "b", "--junit", "b.xml"])
        let merged = try fixture.run(["merge-junit", "a.xml", "b.xml", "-o", "all.xml"])
        #expect(merged.status == 0 && merged.stderr.isEmpty, "\(merged)")
        let text = try fixture.read("all.xml")
        #expect(text.contains("\n  <testsuite name=\"a/one.lua\" tests=\"1\""), "one line per suite header, as written\n\(text)")
        #expect(text.contains("\n    <testcase name=\"two\""), "\(text)")
        #expect(text.contains(#"<testsuites name="ShopApp (navscript)" tests="2" failures="0" errors="0" skipped="0""#))

        // The same file run twice (two shards that overlapped): merged, with a warning.
        _ = try fixture.run(["run", "a", "b", "--junit", "again.xml"])
        let twice = try fixture.run(["merge-junit", "a.xml", "again.xml", "b.xml", "-o", "twice.xml"])
        #expect(twice.status == 0, "\(twice)")
        #expect(twice.stderr.contains("warning: a/one.lua › a.one › one appears more than once"), "\(twice)")
        // Many at once: the first twenty, then how many more.
        let cases = (1...30).map { "<testcase classname=\"c\" name=\"t\($0)\"/>" }.joined()
        try fixture.write("x.xml", "<testsuites><testsuite name=\"s\" tests=\"30\">\(cases)</testsuite></testsuites>")
        try fixture.write("y.xml", "<testsuites><testsuite name=\"s\" tests=\"30\" time=\"1\">\(cases)</testsuite></testsuites>")
        let many = try fixture.run(["merge-junit", "x.xml", "y.xml", "-o", "many.xml"])
        let warnings = many.stderr.split(separator: "\n").filter { $0.contains("warning:") }
        #expect(warnings.count == 21 && warnings.last?.hasSuffix("and 10 more test cases appear more than once") == true, "\(many)")
        // The same report given twice (overlapping globs, a copy): refused, it would count its tests twice.
        try fixture.write("copy.xml", try fixture.read("a.xml"))
        for arguments in [["a.xml", "a.xml", "b.xml"], ["a.xml", "./a.xml"], ["a.xml", "copy.xml"]] {
            let repeated = try fixture.run(["merge-junit"] + arguments + ["-o", "repeated.xml"])
            #expect(repeated.status == 2 && repeated.stderr.contains("would count its tests twice"), "\(arguments): \(repeated)")
            #expect(!fixture.exists("repeated.xml"))
        }
    }

    @Test func strictAndLooseReportsAreNotMergedIntoOneThatSatisfiesNeither() throws {
        let fixture = try Fixture([
            "a/one.lua": #"scenario("one", function() end)"#,
            "b/two.lua": #"scenario("two", function() end)"#
        ])
        _ = try fixture.run(["run", "a", "--junit", "a.xml", "--junit-strict"])
        _ = try fixture.run(["run", "b", "--junit", "b.xml"])
        let merged = try fixture.run(["merge-junit", "a.xml", "b.xml", "-o", "all.xml"])
        #expect(
            merged.status == 2 && merged.stderr.contains("a.xml was written with --junit-strict and b.xml without"),
            "\(merged)")
    }

    /// A shard killed while writing leaves a cut-short or empty report; one
    /// edited by hand can disagree with itself. None may merge into a total.
    @Test func aBrokenReportIsRefusedNotMerged() throws {
        let fixture = try Fixture([
            "a/one.lua": #"scenario("one", function() end)"# + "\n"
                + #"scenario("bad", function() expect_stack{ "nope" } end)"#,
            "b/two.lua": #"scenario("two", function() end)"#
        ])
        _ = try fixture.run(["run", "a", "--junit", "a.xml"])
        _ = try fixture.run(["run", "b", "--junit", "b.xml"])
        let whole = try fixture.read("a.xml")
        try fixture.write("cut.xml", String(whole.prefix(whole.count * 2 / 3)))
        try fixture.write("empty.xml", "")
        try fixture.write("open.xml", #"<testsuites><testsuite name="x""#)
        try fixture.write("edited.xml", whole.replacingOccurrences(of: #"tests="2""#, with: #"tests="5""#))
        // A failure edited out of its suite, the suite's count with it: the root still says it failed.
        let suiteLine = try #require(whole.split(separator: "\n").first { $0.hasPrefix("  <testsuite ") })
        let unfailed = whole.replacingOccurrences(
            of: suiteLine, with: suiteLine.replacingOccurrences(of: #"failures="1""#, with: #"failures="0""#)
        )
        .replacing(try Regex(#"<failure[\s\S]*?</failure>"#), with: "")
        try fixture.write("unfailed.xml", unfailed)
        for (file, says) in [
            ("cut.xml", "not well-formed XML from here on"), ("empty.xml", "empty.xml is empty"),
            ("open.xml", "open.xml:1:32: not well-formed"),
            ("edited.xml", #"says tests="5" but holds 2"#),
            ("unfailed.xml", #"its root says failures="1" but its test suites hold 0"#)
        ] {
            let merged = try fixture.run(["merge-junit", file, "b.xml", "-o", "all.xml"])
            #expect(merged.status == 2, "\(file): \(merged)")
            #expect(merged.stderr.contains(says), "\(file): \(merged.stderr)")
            #expect(!fixture.exists("all.xml"), "\(file): nothing written")
        }
        let cut = try fixture.run(["merge-junit", "cut.xml", "-o", "all.xml"])
        #expect(cut.stderr.contains(try Regex("cut\\.xml:[0-9]+:[0-9]+: ")), "the line and column where it stops\n\(cut.stderr)")
    }

    /// A complete report that is not well-formed is named where the XML
    /// reader stopped, with what it found there — not at its last byte, and
    /// not as "cut short: run that shard again", which only a file that ends
    /// inside an element is.
    @Test(arguments: [
        (
            "<?xml version=\"1.0\"?>\n<testsuites>\n<testsuite name=\"a\" tests=\"1\">\n<testcase name=\"x\"></testcas>\n"
                + "</testsuite>\n</testsuites>\n",
            "odd.xml:4:30: not well-formed XML: an end tag that does not match the element it closes (libxml2 error 76)"
        ),
        (
            "<?xml version=\"1.0\"?>\n<testsuites>\n<testsuite name=\"a\" tests=\"1\" name=\"dup\">\n<testcase name=\"x\"/>\n"
                + "</testsuite>\n</testsuites>\n",
            "odd.xml:3:41: not well-formed XML: an attribute given twice in one tag"
        ),
        (
            "<?xml version=\"1.0\"?>\n<testsuites>\n<testsuite name=\"a & b\" tests=\"1\">\n<testcase name=\"x\"/>\n"
                + "</testsuite>\n</testsuites>\n",
            "odd.xml:3:21: not well-formed XML: a name expected here (a bare & or < in text or in a value is written &amp;"
        ),
        (
            #"<?xml version="1.0"?><testsuites><testsuite name="a&#0;" tests="1"><testcase name="x"/></testsuite></testsuites>"#,
            "odd.xml:1:56: not well-formed XML: a character XML does not allow"
        ),
        (
            "   \n" + #"<?xml version="1.0"?><testsuites><testsuite name="ws" tests="1"><testcase name="x"/></testsuite></testsuites>"#,
            "odd.xml:2:6: not well-formed XML: an XML declaration (<?xml …?>) that is not at the very start of the file"
        ),
        (#"<testsuites></testsuites><x/>"#, "odd.xml:1:26: not well-formed XML: more after the root element ends")
    ])
    func aReportWrittenWronglyIsNamedWhereItBreaks(report: String, says: String) throws {
        let fixture = try Fixture()
        try fixture.write("odd.xml", report)
        let merged = try fixture.run(["merge-junit", "odd.xml", "-o", "all.xml"])
        #expect(merged.status == 2 && merged.stderr.contains(says), "\(merged)")
        #expect(merged.stderr.contains("it was not cut short") && !merged.stderr.contains("run that shard again"), "\(merged)")
        // Cut short where it ends: inside a start tag, after a suite, inside an end tag, in a value, after blank lines.
        for (cut, at) in [
            (#"<testsuites><testsuite name="x""#, "1:32"), (#"<testsuites><testsuite name="x"><testcase name="a"/>"#, "1:53"),
            (#"<testsuites><testsuite name="x"><testcase name="a"/></testsuite></testsu"#, "1:73"),
            (#"<testsuites><testsuite name="é"><testcase name="a"><system-out>hello wo"#, "1:72"),
            ("<testsuites><testsuite name=\"x\"><testcase name=\"a\"/></testsuite>\r\n\n", "3:1")
        ] {
            try fixture.write("cut.xml", cut)
            let refused = try fixture.run(["merge-junit", "cut.xml", "-o", "all.xml"])
            #expect(refused.status == 2 && refused.stderr.contains("cut.xml:\(at): not well-formed XML from here on"), "\(refused)")
            #expect(refused.stderr.contains("a report cut short (its run stopped while writing: run that shard again)"), "\(refused)")
        }
    }

    /// A complete report in XML 1.1, or in UTF-16 without its byte-order
    /// mark, was called "cut short: run that shard again" (or "suites could
    /// not be told apart") — advice that produces the same file again. Each
    /// is refused saying what the reader cannot take.
    @Test func aReportInAnXMLItCannotReadSaysWhich() throws {
        let fixture = try Fixture()
        let report = #"<testsuites><testsuite name="s" tests="1"><testcase name="c"/></testsuite></testsuites>"#
        try fixture.write("v11.xml", #"<?xml version="1.1" encoding="UTF-8"?>"# + "\n" + report + "\n")
        var utf16 = Data()
        for unit in (#"<?xml version="1.0" encoding="UTF-16"?>"# + report).utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        try utf16.write(to: fixture.url("nobom.xml"))
        for (file, says) in [
            ("v11.xml", "v11.xml:1: the report declares XML version 1.1, which merge-junit does not read"),
            ("nobom.xml", "nobom.xml:1: the report is UTF-16 text without a byte-order mark")
        ] {
            let merged = try fixture.run(["merge-junit", file, "-o", "all.xml"])
            #expect(merged.status == 2 && merged.stderr.contains(says), "\(merged)")
            #expect(!merged.stderr.contains("run that shard again"), "\(merged)")
        }
        try (Data([0xFF, 0xFE]) + utf16).write(to: fixture.url("bom.xml"))
        let merged = try fixture.run(["merge-junit", "bom.xml", "-o", "all.xml"])
        #expect(merged.status == 0, "UTF-16 with its mark is read\n\(merged)")
    }

    /// Other tools' reports merge too: suites nested in suites (PHPUnit),
    /// `disabled` cases outside `skipped`, a declared encoding, a root
    /// without a `skipped` total that does not make the merge strict.
    @Test func anotherToolsReportMergesWithItsCasesCounted() throws {
        let fixture = try Fixture(["b/two.lua": #"scenario("two", function() end)"#])
        _ = try fixture.run(["run", "b", "--junit", "b.xml"])
        try fixture.write(
            "nested.xml",
            #"""
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="phpunit" tests="3">
              <testsuite name="All" tests="3" failures="1" errors="0" skipped="0" disabled="1">
                <testsuite name="ClassA" tests="3" failures="1">
                  <testcase name="a"/>
                  <testcase name="b"><failure message="x"/></testcase>
                  <testcase name="c"><skipped/></testcase>
                </testsuite>
              </testsuite>
            </testsuites>
            """#)
        let merged = try fixture.run(["merge-junit", "nested.xml", "b.xml", "-o", "all.xml"])
        #expect(merged.status == 0 && merged.stderr.isEmpty, "\(merged)")
        #expect(merged.stdout.contains("4 tests, 1 failures, 0 errors, 1 skipped"), "\(merged)")
        #expect(try fixture.read("all.xml").contains(#"tests="4" failures="1" errors="0" skipped="1""#), "not strict")

        try fixture.write("miscounted.xml", #"<testsuite name="x" tests="5"><testcase name="a"/></testsuite>"#)
        let foreign = try fixture.run(["merge-junit", "miscounted.xml", "b.xml", "-o", "all.xml"])
        #expect(foreign.status == 0, "another tool's count is said, not refused\n\(foreign)")
        #expect(foreign.stderr.contains(#"warning: miscounted.xml: <testsuite name="x"> says tests="5" but holds 1"#), "\(foreign)")
        #expect(foreign.stdout.contains("2 tests"), "\(foreign)")
        let recounted = try fixture.read("all.xml")
        #expect(
            recounted.contains(#"<testsuite name="x" tests="1" failures="0" errors="0" skipped="0""#)
                || recounted.contains(#"name="x""#) && recounted.contains(#"tests="1""#) && !recounted.contains(#"tests="5""#),
            "every level agrees with the cases: \(recounted)")
        #expect(XMLLint.run(fixture.url("all.xml"))?.status ?? 0 == 0, "well-formed")

        // A suite without counts (some tools write none) gets them.
        try fixture.write("bare.xml", #"<testsuite name="bare"><testcase name="a"><failure/></testcase></testsuite>"#)
        _ = try fixture.run(["merge-junit", "bare.xml", "b.xml", "-o", "bare-all.xml"])
        let bare = try fixture.read("bare-all.xml")
        for count in [#"tests="1""#, #"failures="1""#, #"errors="0""#, #"skipped="0""#] {
            #expect(bare.contains(count), "\(count): \(bare)")
        }
    }

    /// libxml2 refuses a document past 10 MB handed to it whole, as if it
    /// were broken at its last line: a long suite's complete report merges
    /// (and one with a DOCTYPE); one nested past its limit is refused as that.
    @Test func aReportPastTenMegabytesMerges() throws {
        let fixture = try Fixture(["b/two.lua": #"scenario("two", function() end)"#])
        _ = try fixture.run(["run", "b", "--junit", "b.xml"])
        let padding = String(repeating: "x", count: 200)
        var big = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n<testsuite name=\"long\" tests=\"60000\">\n"
        for index in 0..<60_000 { big += "  <testcase name=\"case \(index) \(padding)\"/>\n" }
        big += "</testsuite>\n"
        #expect(big.utf8.count > 12_000_000)
        try fixture.write("big.xml", big)
        let merged = try fixture.run(["merge-junit", "big.xml", "b.xml", "-o", "all.xml"])
        #expect(merged.status == 0, "\(merged)")
        #expect(merged.stdout.contains("60001 tests"), "\(merged)")
        // A DOCTYPE is no reason to refuse a report; nesting past an XML reader's limit is, said as such.
        try fixture.write(
            "typed.xml",
            #"<?xml version="1.0"?><!DOCTYPE testsuites><testsuites><testsuite name="t" tests="1"><testcase name="x"/></testsuite></testsuites>"#
        )
        let typed = try fixture.run(["merge-junit", "typed.xml", "b.xml", "-o", "typed-all.xml"])
        #expect(typed.status == 0 && typed.stdout.contains("2 tests"), "\(typed)")
        let nesting = String(repeating: "<a>", count: 300) + String(repeating: "</a>", count: 300)
        try fixture.write("deep.xml", #"<testsuite name="d" tests="1"><testcase name="x">"# + nesting + "</testcase></testsuite>")
        // An entity that expands a hundred million times (each level ten of the one before) is refused as that.
        let levels = "abcdefgh".map(String.init)
        let entities = zip(levels.dropFirst(), levels).map { next, previous in
            "<!ENTITY \(next) \"" + String(repeating: "&\(previous);", count: 10) + "\">"
        }.joined()
        try fixture.write(
            "bomb.xml",
            #"<?xml version="1.0"?><!DOCTYPE t [<!ENTITY a "aaaaaaaaaa">"# + entities
                + #"]><testsuite name="e" tests="1"><testcase name="&h;"/></testsuite>"#)
        let bomb = try fixture.run(["merge-junit", "bomb.xml", "b.xml", "-o", "bomb-all.xml"])
        #expect(bomb.status == 2 && bomb.stderr.contains("declares entities that expand too far"), "\(bomb)")
        // Read as a stream, deep nesting is no limit: merged, kept as written.
        let deep = try fixture.run(["merge-junit", "deep.xml", "b.xml", "-o", "deep-all.xml"])
        #expect(deep.status == 0 && deep.stdout.contains("2 tests"), "\(deep)")
        #expect(try fixture.read("deep-all.xml").contains(nesting))
        // A tag with 200,000 attributes took libxml2 35 s: over a thousand is refused at its line, before
        // the reader sees it; `=` in output (CDATA), comments and quoted values are text, not attributes.
        let crowded = (0...1000).map { "a\($0)=\"x\"" }.joined(separator: " ")
        try fixture.write(
            "crowded.xml", "<testsuites>\n<testsuite name=\"c\" tests=\"1\" \(crowded)><testcase name=\"x\"/></testsuite></testsuites>")
        let refused = try fixture.run(["merge-junit", "crowded.xml", "b.xml", "-o", "crowded-all.xml"])
        #expect(refused.status == 2 && refused.stderr.contains("crowded.xml:2: an element with more than 1000 attributes"), "\(refused)")
        let equals = String(repeating: "<x a=1 ", count: 1) + String(repeating: "=", count: 5000)
        try fixture.write(
            "equals.xml",
            "<testsuite name=\"q\" tests=\"1\" note=\"\(String(repeating: "=", count: 2000))\"><!-- <y \(String(repeating: "=", count: 2000)) -->"
                + "<testcase name=\"x\"><system-out><![CDATA[\(equals)]]></system-out></testcase></testsuite>")
        let plain = try fixture.run(["merge-junit", "equals.xml", "b.xml", "-o", "equals-all.xml"])
        #expect(plain.status == 0 && plain.stdout.contains("2 tests"), "\(plain)")
    }

    /// Another tool's layout: each suite is found in the text as written —
    /// past comments, CDATA and attribute values that hold markup — and a
    /// suite whose counts are recounted keeps everything else it said.
    @Test func suitesAreCopiedAsWrittenWhateverTheirLayout() throws {
        let fixture = try Fixture()
        try fixture.write(
            "odd.xml",
            #"""
            <?xml version='1.0' encoding='UTF-8'?>
            <!-- <testsuite name="in a comment"> -->
            <testsuites><testsuite name='one' tests='9' hostname="a>b"><testcase name="a"><system-out><![CDATA[</testsuite><testsuite name="in CDATA">]]></system-out></testcase></testsuite><testsuite name="empty" tests="0"/>
            <testsuite name="two" tests="1" failures="0" errors="1" skipped="0"><!-- </testsuite> --><testcase name="b"><error/></testcase></testsuite></testsuites>
            """#)
        let merged = try fixture.run(["merge-junit", "odd.xml", "-o", "all.xml"])
        #expect(merged.status == 0, "\(merged)")
        #expect(merged.stdout.contains("merged 3 test suites from 1 report: 2 tests, 0 failures, 1 errors"), "\(merged)")
        let text = try fixture.read("all.xml")
        #expect(text.contains(#"<testsuite name='one' hostname="a>b" tests="1" failures="0" errors="0" skipped="0"><testcase"#), "\(text)")
        #expect(text.contains(#"<![CDATA[</testsuite><testsuite name="in CDATA">]]>"#), "\(text)")
        #expect(text.contains(#"<testsuite name="empty" tests="0" failures="0" errors="0" skipped="0"/>"#), "\(text)")
        #expect(text.contains(#"<testsuite name="two" tests="1" failures="0" errors="1" skipped="0"><!-- </testsuite> -->"#), "\(text)")
        #expect(!text.contains("in a comment"), "what is outside the suites stays out")
        #expect(XMLLint.run(fixture.url("all.xml"))?.status ?? 0 == 0, "well-formed")

        // Prefixes the root declared go with each suite (the merged root does not declare them).
        try fixture.write(
            "prefixed.xml",
            #"<testsuites xmlns:p="urn:p"><testsuite name="n" tests="1" p:run="1"><testcase name="c"><p:note/></testcase></testsuite></testsuites>"#
        )
        let prefixed = try fixture.run(["merge-junit", "prefixed.xml", "-o", "prefixed-all.xml"])
        #expect(prefixed.status == 0, "\(prefixed)")
        #expect(try fixture.read("prefixed-all.xml").contains(#"<testsuite xmlns:p="urn:p" name="n""#))
        #expect(XMLLint.run(fixture.url("prefixed-all.xml"))?.status ?? 0 == 0, "namespace-well-formed")
    }

    /// A report read from a pipe merges; a folder, a missing file and a
    /// time no CI parser reads (`inf`, `NaN`, hex) are said plainly.
    @Test func pipesFoldersAndOddTimes() throws {
        let fixture = try Fixture()
        try fixture.write("big.xml", #"<testsuite name="t" tests="1" time="1e308"><testcase name="a"/></testsuite>"#)
        try fixture.write("bigger.xml", #"<testsuite name="u" tests="1" time="NaN"><testcase name="b"/></testsuite>"#)
        let odd = try fixture.run(["merge-junit", "big.xml", "bigger.xml", "-o", "all.xml"])
        #expect(odd.status == 0, "\(odd)")
        #expect(try fixture.read("all.xml").contains(#"time="0.000""#), "no inf or nan")
        let folder = try fixture.run(["merge-junit", ".", "-o", "all.xml"])
        #expect(folder.status == 2 && folder.stderr.contains(". is a folder: give the JUnit reports in it"), "\(folder)")
        let missing = try fixture.run(["merge-junit", "gone.xml", "-o", "all.xml"])
        #expect(missing.status == 2 && missing.stderr.contains("gone.xml does not exist"), "\(missing)")
        let fifo = fixture.url("pipe.xml").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = Thread {
            let handle = FileHandle(forWritingAtPath: fifo)
            handle?.write(Data(#"<testsuite name="p" tests="1"><testcase name="c"/></testsuite>"#.utf8))
            try? handle?.close()
        }
        writer.start()
        let piped = try fixture.run(["merge-junit", "pipe.xml", "-o", "piped.xml"])
        #expect(piped.status == 0 && piped.stdout.contains("1 tests"), "\(piped)")
    }

    /// A report merge-junit would merge wrongly is refused, saying why: test
    /// cases or suites outside a `<testsuite>` directly under the root (their
    /// failures would be dropped), entities its text refers to (the merged
    /// report would not declare them).
    @Test(arguments: [
        (
            #"<testsuites><testcase name="orphan"><failure/></testcase></testsuites>"#,
            #"<testcase name="orphan"> is not inside a <testsuite> directly under the report's root"#
        ),
        (
            #"<testsuites><testsuites name="inner"><testsuite name="x"><testcase name="a"><failure/></testcase></testsuite></testsuites></testsuites>"#,
            #"<testsuites name="inner"> is not inside"#
        ),
        (#"<testsuites><group><testsuite name="x"/></group></testsuites>"#, #"<testsuite name="x"> is not inside"#),
        (#"<testsuites xmlns:j="urn:j"><j:testsuite name="x"/></testsuites>"#, #"<j:testsuite name="x"> is not inside"#),
        (
            #"<?xml version="1.0"?><!DOCTYPE t [<!ENTITY e "name">]><testsuite name="s" tests="1"><testcase name="&e;"/></testsuite>"#,
            "declares entities (<!ENTITY …>)"
        ),
        // Foundation's reader crashed on these (a null pointer for an empty instruction or a declaration).
        (
            "<testsuites>\n<testsuite name=\"s\" tests=\"1\"><?pi?><testcase name=\"t\"/></testsuite></testsuites>",
            "odd.xml:2: a processing instruction with nothing in it"
        ),
        (#"<!DOCTYPE testsuites [<!ATTLIST testsuite foo CDATA #IMPLIED>]><testsuites/>"#, "the report declares <!ATTLIST …>"),
        // Totals on the root only: merged, the failures would be lost.
        (
            #"<testsuites tests="5" failures="2"><testsuite name="s" tests="1"><testcase name="t"/></testsuite></testsuites>"#,
            #"its root says failures="2" but its test suites hold 0"#
        )
    ])
    func aReportItWouldMergeWronglyIsRefused(report: String, says: String) throws {
        let fixture = try Fixture()
        try fixture.write("odd.xml", report)
        let merged = try fixture.run(["merge-junit", "odd.xml", "-o", "all.xml"])
        #expect(merged.status == 2 && merged.stderr.contains(says), "\(merged)")
        #expect(!fixture.exists("all.xml"))
    }

    /// A suite's own error or failure (a setup hook that failed, a package
    /// that did not build) has no test case to count: it is counted all the
    /// same, and an error another tool states without an element is kept —
    /// merged, such a red report turned green without a word.
    @Test(arguments: [
        (
            #"<testsuite name="setup" tests="1" failures="0" errors="1"><error message="beforeAll failed">x</error><testcase name="ok"/></testsuite>"#,
            "0 failures, 1 errors"
        ),
        (#"<testsuite name="build" tests="0" errors="1"><system-err>build failed</system-err></testsuite>"#, "0 failures, 1 errors"),
        (
            #"<testsuite name="hook" tests="1" failures="1"><failure message="afterAll"/><testcase name="ok"/></testsuite>"#,
            "1 failures, 0 errors"
        ),
        (#"<testsuite name="stated" tests="1" failures="1"><testcase name="ok"/></testsuite>"#, "1 failures, 0 errors")
    ])
    func aSuitesOwnErrorOrFailureIsKept(report: String, totals: String) throws {
        let fixture = try Fixture()
        try fixture.write("other.xml", report)
        let merged = try fixture.run(["merge-junit", "other.xml", "-o", "all.xml"])
        #expect(merged.status == 0 && merged.stdout.contains(totals) && !merged.stderr.contains("holds"), "\(merged)")
        let root = try #require(try fixture.read("all.xml").split(separator: "\n").dropFirst().first)
        #expect(root.contains(totals.hasPrefix("1") ? #"failures="1""# : #"errors="1""#), "\(root)")
    }

    /// A count a suite or its root states that is not one merge-junit can
    /// add up — a fraction, hex, a sign, words, past a trillion — is refused,
    /// naming the file, line, attribute and value: read as none, a stated
    /// failure was dropped and the merge was green (exit 0).
    @Test(arguments: [
        ("failures", "9223372036854775807", "more than merge-junit adds up (at most 1000000000000"),
        ("failures", "9223372036854775808", "more than merge-junit adds up"),
        ("errors", "18446744073709551616", "more than merge-junit adds up"),
        ("errors", "1000000000001", "more than merge-junit adds up"),
        ("failures", "1.5", "which is not a count: merge-junit expects a whole number in decimal digits"),
        ("errors", "0x1", "which is not a count"), ("errors", "abc", "which is not a count"),
        ("failures", "-1", "which is not a count"), ("failures", "+1", "which is not a count"),
        ("errors", "", "which is not a count"), ("tests", "1e3", "which is not a count"),
        ("skipped", "one", "which is not a count"), ("disabled", "99999999999999999999", "more than merge-junit adds up")
    ])
    func aStatedCountThatIsNotOneIsRefused(attribute: String, value: String, says: String) throws {
        let fixture = try Fixture()
        let tests = attribute == "tests" ? "" : #" tests="1""#
        try fixture.write(
            "shard.xml",
            "<?xml version=\"1.0\"?>\n<testsuites>\n<testsuite name=\"a\"\(tests) \(attribute)=\"\(value)\">"
                + "<testcase name=\"x\"/></testsuite>\n</testsuites>\n")
        try fixture.write("ok.xml", #"<testsuite name="b" tests="1"><testcase name="y"/></testsuite>"#)
        let merged = try fixture.run(["merge-junit", "shard.xml", "ok.xml", "-o", "all.xml"])
        #expect(merged.status == 2, "\(merged)")
        #expect(merged.stderr.contains("shard.xml:3: <testsuite name=\"a\"> says \(attribute)=\"\(value)\""), "\(merged)")
        #expect(merged.stderr.contains(says), "\(merged)")
        #expect(!fixture.exists("all.xml"))
        // The root's counts alike.
        try fixture.write(
            "root.xml",
            "<testsuites\n \(attribute)=\"\(value)\"><testsuite name=\"r\" tests=\"1\"><testcase name=\"z\"/></testsuite></testsuites>")
        let root = try fixture.run(["merge-junit", "root.xml", "-o", "all.xml"])
        #expect(root.status == 2 && root.stderr.contains("root.xml:2: <testsuites> says \(attribute)=\"\(value)\""), "\(root)")
    }

    /// Counts near the largest number, in two suites of one report or in two
    /// reports, trapped when added up (SIGILL, "arithmetic overflow"): refused
    /// with the count named. Blanks around a count's digits are read as the
    /// number (Python's `int()` and .NET read them so), and counted.
    @Test func hugeCountsAreRefusedAndBlanksAroundACountAreCounted() throws {
        let fixture = try Fixture()
        let huge = #"<testsuite name="a" failures="9223372036854775807" tests="1"><testcase name="x"/></testsuite>"#
        try fixture.write(
            "one.xml", "<testsuites>" + huge + #"<testsuite name="b" failures="1" tests="1"><testcase name="y"/></testsuite></testsuites>"#)
        try fixture.write("big1.xml", "<testsuites>" + huge + "</testsuites>")
        try fixture.write("big2.xml", "<testsuites>" + huge.replacingOccurrences(of: #""a""#, with: #""b""#) + "</testsuites>")
        for inputs in [["one.xml"], ["big1.xml", "big2.xml"]] {
            let merged = try fixture.run(["merge-junit"] + inputs + ["-o", "all.xml"])
            #expect(merged.status == 2, "\(inputs): \(merged)")
            #expect(merged.stderr.contains(#"<testsuite name="a"> says failures="9223372036854775807": more than merge-junit adds up"#))
            #expect(!merged.stderr.contains("overflow") && !fixture.exists("all.xml"), "\(inputs): \(merged)")
        }
        try fixture.write(
            "blanks.xml",
            #"<testsuites><testsuite name="a" failures="1 " errors=" 1" tests=" 1 "><testcase name="x"/></testsuite></testsuites>"#)
        let blanks = try fixture.run(["merge-junit", "blanks.xml", "-o", "all.xml"])
        #expect(blanks.status == 0 && blanks.stdout.contains("1 tests, 1 failures, 1 errors"), "\(blanks)")
        #expect(try fixture.read("all.xml").contains(#"tests="1" failures="1" errors="1""#))
    }

    /// A device (`/dev/zero`) or a pipe that does not end (`yes |`) was read
    /// into memory until the system killed the process (1.5 GB a second), or,
    /// under `ulimit -v`, said "NSCocoaErrorDomain error 256": a device is
    /// refused unread, a pipe read up to 1 GiB, and memory running out is
    /// said as that. (`ulimit -v` and `timeout` keep the machine whole
    /// where neither happens.)
    @Test func aDeviceOrAPipeThatDoesNotEndIsRefused() throws {
        let fixture = try Fixture()
        let navscript = try CLI.binary.get().path
        let device = try fixture.shell("ulimit -v 2000000 && exec timeout 20 '\(navscript)' merge-junit /dev/zero -o all.xml")
        #expect(device.status == 2 && device.stderr.contains("/dev/zero is a device, not a file"), "\(device)")
        let endless = try fixture.shell("yes | (ulimit -v 3000000 && exec timeout 60 '\(navscript)' merge-junit /dev/stdin -o all.xml)")
        #expect(
            endless.status == 2 && endless.stderr.contains("/dev/stdin is larger than 1 GiB")
                && endless.stderr.contains("merge smaller shards"), "\(endless)")
        let limited = try fixture.shell("yes | (ulimit -v 600000 && exec timeout 60 '\(navscript)' merge-junit /dev/stdin -o all.xml)")
        #expect(limited.status == 2 && limited.stderr.contains("/dev/stdin: memory ran out after reading"), "\(limited)")
        #expect(!limited.stderr.contains("NSCocoaErrorDomain") && !limited.stderr.contains("Bad address"), "\(limited)")
        #expect(!fixture.exists("all.xml"))
    }

    /// Strict shards merge into a strict report; the total time is the
    /// shards' times added up, never less than one shard's.
    @Test func strictShardsStayStrictAndTimesAddUp() throws {
        let fixture = try Fixture([
            "a/one.lua": #"scenario("one", function() end)"#,
            "b/two.lua": #"scenario("two", function() end)"#
        ])
        _ = try fixture.run(["run", "a", "--junit", "a.xml", "--junit-strict"])
        _ = try fixture.run(["run", "b", "--junit", "b.xml", "--junit-strict"])
        let merged = try fixture.run(["merge-junit", "a.xml", "b.xml", "-o", "all.xml"])
        #expect(merged.status == 0, "\(merged)")
        let root = try #require(try fixture.read("all.xml").split(separator: "\n").dropFirst().first)
        #expect(!root.contains("skipped="), "\(root)")
        func time(_ text: Substring) -> Double {
            Double(text.firstMatch(of: /time="([0-9.]+)"/).map { String($0.1) } ?? "") ?? -1
        }
        let shards = try ["a.xml", "b.xml"].map { try time(fixture.read($0).split(separator: "\n")[1]) }
        #expect(abs(time(root) - shards.reduce(0, +)) < 0.0015, "\(root) vs \(shards)")
    }
}

/// Server-driven manifests: checked before rollout, diffed, and run against.
@Suite("routes check, routes diff, --manifest")
struct ManifestCommandTests {
    static let shipped = GeneratedDocsTests.root.appendingPathComponent("Sources/ShopApp/Resources/routes.json")

    static func variant(_ edit: (inout [String: Any]) -> Void) throws -> String {
        var json = try JSONSerialization.jsonObject(with: Data(contentsOf: shipped)) as! [String: Any]
        edit(&json)
        return String(decoding: try JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted, .sortedKeys]), as: UTF8.self)
    }

    static func destinations(_ json: inout [String: Any], _ change: (inout [String: Any]) -> Void) {
        var list = json["destinations"] as! [[String: Any]]
        for index in list.indices { change(&list[index]) }
        json["destinations"] = list
    }

    /// A manifest from a pipe (`curl … | navscript routes check /dev/stdin`)
    /// is read, not refused as "not UTF-8 text"; `--manifest`, which every
    /// worker reads again, says to save it to a file.
    @Test func aManifestFromAPipeIsReadOrRefusedWithTheReason() throws {
        let fixture = try Fixture(["suite/a.lua": #"scenario("s", function() end)"#])
        let navscript = try CLI.binary.get().path
        let checked = try fixture.shell("cat '\(Self.shipped.path)' | '\(navscript)' routes check /dev/stdin")
        #expect(checked.status == 0 && checked.stdout.contains("/dev/stdin: no problem"), "\(checked)")
        let run = try fixture.shell("cat '\(Self.shipped.path)' | '\(navscript)' run suite --manifest /dev/stdin")
        #expect(run.status == 2 && run.stderr.contains("--manifest: /dev/stdin is not a regular file (a pipe?)"), "\(run)")
        #expect(!run.stderr.contains("UTF-8"), "\(run)")
    }

    /// A device (`/dev/zero`) was read until memory ran out — 3 GB in two
    /// seconds, or "Bad address" under `ulimit -v` — by `routes check` and
    /// `routes diff` (`--manifest` refuses it as not a regular file): refused
    /// unread; a pipe that does not end stops at 64 MiB.
    @Test func aDeviceOrAPipeThatDoesNotEndIsRefused() throws {
        let fixture = try Fixture()
        let navscript = try CLI.binary.get().path
        for command in ["routes check /dev/zero", "routes diff /dev/zero '\(Self.shipped.path)'"] {
            let output = try fixture.shell("ulimit -v 2000000 && exec timeout 20 '\(navscript)' \(command)")
            #expect(output.status == 2, "\(command): \(output)")
            #expect(output.stderr.contains("cannot read /dev/zero: it is a device, not a file"), "\(command): \(output)")
        }
        let endless = try fixture.shell("yes | (ulimit -v 2000000 && exec timeout 20 '\(navscript)' routes check /dev/stdin)")
        #expect(endless.status == 2 && endless.stderr.contains("cannot read /dev/stdin: it is larger than 64 MiB"), "\(endless)")
    }

    @Test func checkExitsZeroOneOrTwo() throws {
        let overlapping = try Self.variant { json in
            var list = json["destinations"] as! [[String: Any]]
            // A literal the order id's spec takes (an integer): `orders/latest` would be kept apart by it.
            list.append(["id": "order_latest", "parent": "orders", "flow": "order", "patterns": ["orders/1"]])
            json["destinations"] = list
        }
        let fixture = try Fixture(["overlap.json": overlapping, "broken.json": "{ \"scheme\": \"shop\",, }"])
        let clean = try fixture.run(["routes", "check", Self.shipped.path])
        #expect(clean.status == 0 && clean.stdout.contains("no problem"), "\(clean)")
        let overlap = try fixture.run(["routes", "check", "overlap.json"])
        #expect(overlap.status == 1, "\(overlap)")
        #expect(overlap.stdout.contains(": error: \"orders/1\" overlaps \"orders/:id\" of order ("), "\(overlap)")
        let broken = try fixture.run(["routes", "check", "broken.json"])
        #expect(broken.status == 2 && broken.stderr.contains("broken.json:1:20: error: not valid JSON: expected a quoted key"), "\(broken)")
        let missing = try fixture.run(["routes", "check", "missing.json"])
        #expect(missing.status == 2 && missing.stderr.contains("cannot read missing.json"), "\(missing)")
        try fixture.write("routes.yaml", "tabs:\n  - home\n")
        let yaml = try fixture.run(["routes", "check", "routes.yaml"])
        #expect(yaml.status == 2 && yaml.stderr.contains("(a route manifest is a JSON object: {"), "\(yaml)")
        // The same reader behind --manifest, with the option named.
        let refused = try fixture.run(["run", "--manifest", "broken.json"])
        #expect(refused.status == 2 && refused.stderr.contains("--manifest: broken.json is not valid JSON"), "\(refused)")
        let unread = try fixture.run(["run", "--manifest", "missing.json"])
        #expect(unread.status == 2 && unread.stderr.contains("--manifest: cannot read missing.json"), "\(unread)")
    }

    /// Each problem is a line as compilers print it, `file:line:col:
    /// severity: message (path, destination)`, at the value that is wrong —
    /// here a tab on the line after its destination's opening brace.
    @Test func checkReportsEachProblemAtItsValueAsFileLineColumn() throws {
        let shipped = try String(contentsOf: Self.shipped, encoding: .utf8)
        let wrongTab = shipped.replacingOccurrences(
            of: #"{ "id": "profile", "tab": "profile","#, with: "{ \"id\": \"profile\",\n      \"tab\": \"profiel\",")
        #expect(wrongTab != shipped, "fixture edit applies")
        let lines = wrongTab.split(separator: "\n", omittingEmptySubsequences: false)
        let line = try #require(lines.firstIndex { $0.contains("\"profiel\"") }) + 1
        let destinations = (try JSONSerialization.jsonObject(with: Data(shipped.utf8)) as? [String: Any])?["destinations"]
        let index = try #require((destinations as? [[String: Any]])?.firstIndex { $0["id"] as? String == "profile" })
        let fixture = try Fixture(["wrong-tab.json": wrongTab])
        let check = try fixture.run(["routes", "check", "wrong-tab.json"])
        #expect(check.status == 1, "\(check)")
        #expect(
            check.stdout.split(separator: "\n").first.map(String.init)
                == "wrong-tab.json:\(line):14: error: unknown tab \"profiel\"; the tabs are: home, orders, profile "
                + "($.destinations[\(index)].tab, destination \"profile\")", "\(check)")
    }

    /// Retiring a destination the app shows is what a rollout may mean: the
    /// check warns, and `routes diff` and `--manifest` still take it.
    @Test func aRetiredDestinationIsAWarningThatBlocksNothing() throws {
        let retired = try Self.variant { json in
            json["destinations"] = (json["destinations"] as! [[String: Any]]).filter { $0["id"] as? String != "tracking" }
        }
        let fixture = try Fixture([
            "retired.json": retired,
            "suite/a.lua": #"scenario("one", function() deep_link("shop://orders/42") end)"#
        ])
        let check = try fixture.run(["routes", "check", "retired.json"])
        #expect(check.status == 0, "\(check)")
        #expect(check.stdout.contains(#": warning: the app shows "tracking", which the manifest does not declare"#), "\(check)")
        #expect(check.stdout.contains(#"($.destinations, destination "tracking")"#), "\(check)")
        #expect(check.stdout.contains("no problem, 1 warning"), "\(check)")
        let diff = try fixture.run(["routes", "diff", Self.shipped.path, "retired.json"])
        #expect(diff.status == 1 && diff.stdout.contains("unknown_route"), "the diff shows what breaks\n\(diff)")
        let run = try fixture.run(["run", "suite", "--manifest", "retired.json"])
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.contains("warning: the app shows \"tracking\""), "\(run)")
    }

    /// A file that is not UTF-8 (a Latin-1 comment) runs — Lua reads bytes — so lint reads it, and
    /// `routes diff --suite` its links: it was skipped and counted among the files with no problem.
    @Test func aFileThatIsNotUTF8IsLintedAsItRuns() throws {
        let fixture = try Fixture(["suite/ok.lua": "scenario(\"ok\", function() end)"])
        let bytes = Array("-- caf".utf8) + [0xE9] + Array("\nscenario(\"s\", function() expect_tab(\"ordrs\") end)\n".utf8)
        try Data(bytes).write(to: fixture.url("suite/latin1.lua"))
        let output = try fixture.run(["lint", "suite"])
        #expect(output.status == 1, "\(output)")
        #expect((output.stdout + output.stderr).contains("suite/latin1.lua:2:"), "\(output)")
    }

    /// `--suite`: the links a suite delivers, also those it keeps in its support modules (where the
    /// shipped suite keeps them: `support/links.lua`) and in single quotes — a link kept there that a
    /// rollout rejects was "no link changes".
    @Test func diffReadsTheLinksASuiteKeepsInItsSupportModules() throws {
        let narrowed = try Self.variant { json in
            Self.destinations(&json) { destination in
                if destination["id"] as? String == "product" { destination["params"] = [["name": "id", "pattern": "p[0-9]{1,5}"]] }
            }
        }
        let fixture = try Fixture([
            "new.json": narrowed,
            "suite/support/l.lua": "return { LONG = 'shop://product/p9876543' }\n",
            "suite/a.lua": "local l = require(\"l\")\nscenario(\"s\", function() deep_link(l.LONG) end)\n"
        ])
        let diff = try fixture.run(["routes", "diff", Self.shipped.path, "new.json", "--suite", "suite"])
        #expect(diff.status == 1 && diff.stdout.contains("shop://product/p9876543  (now rejected)"), "\(diff)")
    }

    /// A parameter's pattern narrowed (`p[0-9]{1,8}` → `p[0-9]{1,5}`): the
    /// one example value both accepted said "no link changes"; values each
    /// spec accepts show the ids now rejected.
    @Test func diffShowsANarrowedParameter() throws {
        let narrowed = try Self.variant { json in
            Self.destinations(&json) { destination in
                if destination["id"] as? String == "product" { destination["params"] = [["name": "id", "pattern": "p[0-9]{1,5}"]] }
            }
        }
        let fixture = try Fixture(["narrowed.json": narrowed])
        let diff = try fixture.run(["routes", "diff", Self.shipped.path, "narrowed.json"])
        #expect(diff.status == 1 && diff.stdout.contains("(now rejected)") && diff.stdout.contains("validation_failed"), "\(diff)")
    }

    /// A parameter's pattern widened by an alternative (`p[0-9]{1,8}` →
    /// `p[0-9]{1,8}|admin`): the sampler drew from the first branch only
    /// (alternation was outside what it parsed), so the rollout that opens
    /// `product/admin` said "no link changes".
    @Test func diffShowsAParameterWidenedByAnAlternative() throws {
        let widened = try Self.variant { json in
            Self.destinations(&json) { destination in
                if destination["id"] as? String == "product" {
                    destination["params"] = [["name": "id", "pattern": "p[0-9]{1,8}|(?:ad|root)min"]]
                }
            }
        }
        let fixture = try Fixture(["widened.json": widened])
        let diff = try fixture.run(["routes", "diff", Self.shipped.path, "widened.json"])
        #expect(diff.status == 1 && diff.stdout.contains("shop://product/admin"), "\(diff)")
        #expect(diff.stdout.contains("shop://product/rootmin"), "each branch of the alternative is drawn\n\(diff)")
    }

    @Test func diffShowsWhatARolloutChanges() throws {
        let new = try Self.variant { json in
            Self.destinations(&json) { destination in
                if destination["id"] as? String == "product" { destination["patterns"] = ["product/:id"] }
            }
        }
        let fixture = try Fixture(["new.json": new])
        let output = try fixture.run(["routes", "diff", Self.shipped.path, "new.json", "--markdown"])
        #expect(output.status == 1, "\(output)")
        // A summary first, then one row per link: the aliases p/:id, deeplink?product=:id and products/:id are gone.
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.wholeMatch(of: /\*\*3 of [0-9]+ links change: 3 now rejected\*\*/) != nil, "\(output)")
        let alias = lines.filter { $0.hasPrefix("| `shop://p/") && !$0.contains("reviews") }
        #expect(alias.count == 1, "one row for the removed alias p/:id\n\(output)")
        #expect(
            alias.first?.contains("| now rejected | all 5 entry points, signed in and out | proceed home: home > product:") == true
                && alias.first?.hasSuffix("| error unknown_route |") == true, "\(output)")
        #expect(lines.filter { $0.hasPrefix("| `") }.count == 3, "unchanged links are not listed\n\(output)")
        let text = try fixture.run(["routes", "diff", Self.shipped.path, "new.json"])
        #expect(text.stdout.contains(" links change: 3 now rejected\nshop://p/"), "\(text)")
        let same = try fixture.run(["routes", "diff", Self.shipped.path, Self.shipped.path])
        #expect(same.status == 0 && same.stdout.contains("no link changes its outcome ("), "\(same)")
    }

    @Test func aSuiteRunsAgainstAnotherManifestAndABrokenOneIsRefused() throws {
        let noAlias = try Self.variant { json in
            Self.destinations(&json) { destination in
                if destination["id"] as? String == "product" { destination["patterns"] = ["product/:id"] }
            }
        }
        let fixture = try Fixture([
            "m.json": noAlias,
            "bad.json": try Self.variant { json in json["tabs"] = "home" },
            "suite/alias.lua": #"scenario("the p/ alias", function() deep_link("shop://p/p1"); expect_screen("product:p1") end)"#
        ])
        #expect(try fixture.run(["run", "suite"]).status == 0)
        let without = try fixture.run(["run", "suite", "--manifest", "m.json"])
        #expect(without.status == 1, "the alias is gone from m.json\n\(without)")
        let bad = try fixture.run(["run", "suite", "--manifest", "bad.json"])
        #expect(bad.status == 2 && bad.stderr.contains("$.tabs"), "\(bad)")
    }
}

/// `navscript graph`: the real flow graph, as DOT and as Mermaid.
@Suite("graph")
struct GraphCommandTests {
    @Test func theGraphHasTabsFlowsTapsGatesAndSwaps() throws {
        let root = GeneratedDocsTests.root
        let dot = try CLI.run(["graph"], in: root)
        #expect(dot.status == 0)
        for part in [
            "subgraph \"cluster_tab_home\"", "subgraph \"cluster_checkout\"", "\"home\" -> \"product\" [color=blue",
            "label=\"tap product\"", "cart [gate auth]", "[style=dashed, label=\"modal\"]",
            "label=\"experiment video_first, then done\"", "logout: every flow swapped"
        ] {
            #expect(dot.stdout.contains(part), "DOT lacks \(part)")
        }
        let mermaid = try CLI.run(["graph", "--format", "mermaid"], in: root)
        #expect(mermaid.stdout.hasPrefix("flowchart LR\n"), "\(mermaid)")
        #expect(mermaid.stdout.contains("home -->|tap product| product"))
        #expect(mermaid.stdout.contains("cart -.->|modal| add_payment"))
        #expect(mermaid.stdout.contains("subgraph tab_orders[\"tab orders\"]"))
        #expect(mermaid.stdout.contains("cart -.->|gate auth| login"), "gates point at their satisfying flow")
        // A tap without parameters that lands outside its screen's branch is drawn too.
        // A tap along a modal edge is drawn on it (dashed), not beside it.
        for edge in ["category -->|tap cart| cart", "welcome -->|tap sign_in| login", "cart -.->|tap checkout| checkout_address"] {
            #expect(mermaid.stdout.contains(edge), "Mermaid lacks \(edge)")
        }
    }
}

/// The smallest budget the usage check lets through runs a scenario: the
/// language's own preludes, run while a file's state is prepared, counted
/// against it and every file was "the script may loop forever".
@Test(arguments: [[String](), ["--in-process"]])
func theSmallestInstructionBudgetRunsAScenario(mode: [String]) throws {
    let fixture = try Fixture(["suite/tiny.lua": #"scenario("tiny", function() assert(true) end)"#])
    let output = try fixture.run(["run", "--instruction-budget", "1000"] + mode + ["suite"])
    #expect(output.status == 0, "\(output)")
}

/// A usage mistake exits 2 with a message that names what was given and
/// what to do — never a parser's guess ("Missing value"), another
/// command's option, or a Foundation error number.
@Suite("usage errors")
struct UsageErrorTests {
    @Test(arguments: [
        (["run", "suite", "--jobs", "-1"], "--jobs must be at least 1"),
        (
            ["run", "suite", "--instruction-budget", "100"],
            "--instruction-budget must be at least 1000 (it is counted a thousand instructions at a time), got 100"
        ),
        (["run", "suite", "--timeout", "-1"], "--timeout must be a number of seconds from 0.01 to 604800 (a week), got -1.0"),
        (["run", "suite", "--timeout", "inf"], "--timeout must be a number of seconds from 0.01 to 604800 (a week), got inf"),
        (["mutate", "suite", "--timeout", "1e300"], "--timeout must be a number of seconds from 0.01 to 604800"),
        (["explore", "--timeout", "nan"], "--timeout must be a number of seconds from 0.01 to 604800 (a week), got nan"),
        (["run", "suite", "--timeout", "1e-320"], "--timeout must be a number of seconds from 0.01 to 604800 (a week), got 1e-320"),
        (["run", "suite", "--junit-strict"], "--junit-strict shapes the JUnit report, and none is written: give --junit FILE too"),
        (["routes", "bogus"], "'bogus' is not a routes subcommand; use list (the default), check FILE.json or diff"),
        (["routes", "check", "suite"], "cannot read suite: it is a folder; give the manifest's .json file"),
        (["routes", "diff", ManifestCommandTests.shipped.path, "missing.json"], "cannot read missing.json: no such file"),
        (["types", "-o", "suite"], "it is a folder; give a file name"),
        (["types", "-o", "suite/a.lua/defs.lua"], "suite/a.lua is a file, not a folder"),
        (["types", "-o", "suite/a.lua"], "-o suite/a.lua would replace a Lua file that is not a definitions file"),
        (["types", "-o", "suite/meta.lua"], "-o suite/meta.lua would replace a Lua file that is not a definitions file"),
        (["run", ""], "'' names no file or folder (is a variable unset?)"),
        (["list", "suite", ""], "'' names no file or folder (is a variable unset?)"),
        (["lint", ""], "'' names no file or folder (is a variable unset?)"),
        (["routes", "check", ""], "the manifest '' names no file or folder (is a variable unset?)"),
        (["run", "suite", "--manifest", ""], "--manifest '' names no file or folder"),
        (
            ["routes", "diff", ManifestCommandTests.shipped.path, ManifestCommandTests.shipped.path, "--suite", ""],
            "--suite '' names no file or folder"
        ),
        (["merge-junit", "", "-o", "x.xml"], "'' names no file or folder (is a variable unset?); give the JUnit reports to merge"),
        (["types", "-o", ""], "-o '' names no file or folder"),
        (["merge-junit", "suite/a.lua", "-o", ""], "-o '' names no file or folder"),
        (["explore", "--time", "0"], "--time 0 without --steps or --until-covered would explore forever"),
        (["mutate", "--explore", "--explore-time", "nan"], "--explore-time must be a number of seconds above 0 and at most 604800"),
        (["mutate", "--explore", "--explore-time", "1e19"], "--explore-time must be a number of seconds above 0"),
        (["mutate", "--explore", "--explore-time", "-1"], "--explore-time must be a number of seconds above 0"),
        (["run", "suite", "--junit", "-"], "--junit - : the JUnit report is written to a file"),
        (["run", "suite", "--html", "-"], "--html - : the HTML report is written to a file"),
        (["run", "suite", "--junit", "o.xml", "--json", "./o.xml"], "--junit and --json both write"),
        (["run", "suite", "--junit", "/dev/stdout", "--json", "-"], "--junit /dev/stdout and --json - both write standard output"),
        (["explore", "--steps", "5", "--html", "r", "--junit", "r"], "--junit and --html both write"),
        (["run", "--junit", "suite/a.lua"], "--junit suite/a.lua would replace the Lua file suite/a.lua with the report"),
        (["run", "suite", "--junit", "out/"], "--junit out/ names a folder: give the report a file name (e.g. --junit out/report.xml)"),
        (["run", "suite", "--html", ""], "--html '' names nothing (is a variable unset?)"),
        (["run", "suite/support"], "suite/support is in a support/ folder: its modules are for scenarios to require, not scenarios to run"),
        (["list", "suite/support/helpers.lua"], "suite/support/helpers.lua is in a support/ folder"),
        (["mutate", "suite", "--html", "./suite/a.lua"], "--html ./suite/a.lua would replace the Lua file"),
        (["run", "suite", "--json", "suite/../suite/a.lua"], "--json suite/../suite/a.lua would replace the Lua file"),
        (
            ["run", "suite", "--manifest", "m.json", "--junit", "m.json"],
            "--junit m.json would replace the --manifest file m.json with the report before it is read"
        ),
        (
            ["explore", "--steps", "5", "--manifest", "m.json", "--html", "./m.json"],
            "--html ./m.json would replace the --manifest file m.json"
        ),
        (["mutate", "suite", "--manifest", "m.json", "--json", "m.json"], "--json m.json would replace the --manifest file m.json"),
        (["run", "suite", "--junit", "tool"], "--junit tool would replace the executable tool with the report"),
        (["merge-junit", "suite/a.lua", "-o", "-"], "-o - : the merged report is written to a file, not standard output")
    ])
    func aMistakeSaysWhatToDo(arguments: [String], expected: String) throws {
        let source = #"scenario("one", function() end)"#
        let fixture = try Fixture([
            "suite/a.lua": source, "suite/support/helpers.lua": "return {}", "tool": "#!/bin/sh\n",
            "suite/meta.lua": "---@metadata of my own\nscenario(\"m\", function() end)\n"
        ])
        chmod(fixture.url("tool").path, 0o755)
        let output = try fixture.run(arguments)
        #expect(output.status == 2, "\(output)")
        #expect(try fixture.read("suite/a.lua") == source, "no input is touched")
        #expect(output.stderr.contains(expected), "\(output.stderr)")
        #expect(!output.stderr.contains("NSCocoaErrorDomain") && !output.stderr.contains("Missing value"), "\(output.stderr)")
        #expect(arguments.contains("--manifest") || !output.stderr.contains("--manifest:"), "\(output.stderr)")
    }

    /// `list` writes a name's control characters out in a load error too (a name of ESC sequences
    /// cleared the terminal there), and a tag's written backslash is spelled as a name's is.
    @Test func listWritesOutWhatATerminalWouldActOn() throws {
        let fixture = try Fixture([
            "suite/clear.lua": #"scenario("\27[2Jone", { tags = { "a b" } }, function() end)"#,
            "suite/tags.lua": #"scenario("t", { tags = { "t\\a" } }, function() end)"#
        ])
        let output = try fixture.run(["list", "suite"])
        #expect(!output.stdout.contains("\u{1B}"), "\(output)")
        #expect(output.stdout.contains(#"\x{1b}[2Jone"#) && output.stdout.contains(#"[t\\a]"#), "\(output)")
    }

    /// A report written to standard output while it is a pipe (`--junit /dev/stdout | consumer`)
    /// takes it alone: the terminal report goes to standard error, as with `--json -` (the
    /// consumer got the terminal report and then the XML: no XML).
    @Test(arguments: ["--junit", "--json"])
    func aReportToAPipedStandardOutputHasItAlone(option: String) throws {
        let fixture = try Fixture(["suite/a.lua": #"scenario("one", function() launch{} end)"#])
        let navscript = try CLI.binary.get().path
        let output = try fixture.shell("'\(navscript)' run suite \(option) /dev/stdout | cat > piped.txt")
        let piped = try fixture.read("piped.txt")
        #expect(piped.hasPrefix(option == "--junit" ? "<?xml" : "{"), "\(piped)\n\(output)")
        #expect(output.stderr.contains("1 passed"), "\(output)")
    }

    /// With standard error the same stream (`2>&1 | tee log`), a report on standard output is
    /// refused: the terminal report, moved to standard error, landed in front of its XML.
    @Test(arguments: ["--junit /dev/stdout", "--json -"])
    func aReportOnStandardOutputWhenStandardErrorIsTheSameStreamIsRefused(option: String) throws {
        let fixture = try Fixture(["suite/a.lua": #"scenario("one", function() launch{} end)"#])
        let navscript = try CLI.binary.get().path
        let output = try fixture.shell("'\(navscript)' run suite \(option) 2>&1 | cat > merged.txt")
        let merged = try fixture.read("merged.txt")
        #expect(merged.contains("\(option) writes standard output, and standard error is the same stream (2>&1)"), "\(merged)\n\(output)")
    }

    /// Two reports into one file through a hard link are refused, as through a symbolic link: one
    /// replaced the other without a word.
    @Test func twoReportsIntoOneFileThroughAHardLinkAreRefused() throws {
        let fixture = try Fixture(["suite/a.lua": #"scenario("one", function() launch{} end)"#, "o.txt": ""])
        #expect(link(fixture.url("o.txt").path, fixture.url("hard.txt").path) == 0)
        let output = try fixture.run(["run", "suite", "--junit", "o.txt", "--html", "hard.txt"])
        #expect(output.status == 2 && output.stderr.contains("--junit and --html both write"), "\(output)")
    }

    /// A report into the file standard output is redirected to (`--json f > f`) is refused: the
    /// terminal report was mixed into the JSON lines, or lost under the JUnit report, without a word.
    @Test(arguments: [("--json", "same.jsonl", ">"), ("--junit", "same.xml", ">"), ("--junit", "same.xml", "2>")])
    func aReportIntoTheFileAStandardStreamGoesToIsRefused(option: String, file: String, redirect: String) throws {
        let fixture = try Fixture(["suite/a.lua": #"scenario("one", function() launch{} end)"#])
        let navscript = try CLI.binary.get().path
        let output = try fixture.shell("'\(navscript)' run suite \(option) \(file) \(redirect) \(file); echo \"status $?\"")
        let stream = redirect == ">" ? "standard output" : "standard error"
        #expect(output.stdout.contains("status 2"), "\(output)")
        #expect(
            (output.stderr + (try fixture.read(file))).contains("\(option) \(file) is the file \(stream) is redirected to"),
            "\(output)")
    }

    /// A memory limit too small for a file's state names the option, not the library's API.
    @Test func aTinyMemoryLimitNamesTheOption() throws {
        let fixture = try Fixture([
            "suite/a.lua": #"scenario("one", function() end)"#,
            "suite/b.lua": "local t = {}\nfor i = 1, 1e7 do t[i] = i end\n"
        ])
        let tiny = try fixture.run(["run", "suite/a.lua", "--memory-limit", "10"])
        #expect(tiny.status == 2, "\(tiny)")
        #expect(tiny.stdout.contains("the memory limit (10 bytes, --memory-limit) is too small for a file's Lua state to start"), "\(tiny)")
        let grows = try fixture.run(["run", "suite/b.lua", "--memory-limit", "2000000"])
        #expect(grows.status == 2, "a file that did not load\n\(grows)")
        let at = LuaState.memoryErrorsNameTheirLine ? "suite/b.lua:2: " : ""
        #expect(grows.stdout.contains(at + "memory limit exceeded (2000000 bytes) while the file loaded"), "\(grows)")
        #expect(grows.stdout.contains("--memory-limit") && !grows.stdout.contains("LuaState.Options"), "\(grows)")
    }

    /// A file whose top level never ends is a file that did not load (exit 2),
    /// told in the CLI's terms, at its line — as a memory overrun there is.
    @Test func aTopLevelThatLoopsIsALoadErrorNamingTheOption() throws {
        let fixture = try Fixture([
            "suite/a.lua": #"scenario("one", function() end)"#,
            "suite/spins.lua": "local n = 0\nwhile true do n = n + 1 end\n"
        ])
        let output = try fixture.run(["run", "suite", "--instruction-budget", "100000"])
        #expect(output.status == 2, "a file that did not load\n\(output)")
        #expect(
            output.stdout.contains(
                "suite/spins.lua:2: instruction budget exceeded (100000 instructions) while the "
                    + "file loaded: its top level may loop forever; raise the limit with --instruction-budget"), "\(output)")
        #expect(!output.stdout.contains("LuaState.Options"), "\(output)")
        #expect(output.stdout.contains("1 passed"), "the other file still ran\n\(output)")
        // In a module the file requires, the message keeps the module's line.
        let module = try Fixture([
            "suite/support/spin.lua": "local n = 0\nwhile true do n = n + 1 end\n",
            "suite/b.lua": "local spin = require('spin')\nscenario('b', function() end)\n"
        ])
        let required = try module.run(["run", "suite", "--instruction-budget", "100000"])
        #expect(required.status == 2, "\(required)")
        #expect(
            required.stdout.contains(
                "suite/support/spin.lua:2: instruction budget exceeded (100000 instructions) "
                    + "while the file loaded"), "\(required)")
        // Run out inside the language's own Lua (a scenario.each of many rows): the file's line is named.
        let rows = (1...20_000).map { "{\($0)}" }.joined(separator: ",")
        let each = try Fixture(["suite/each.lua": "scenario.each({\(rows)}, \"row ${1}\", function(n) end)"])
        let many = try each.run(["run", "suite", "--instruction-budget", "100000"])
        #expect(
            many.stdout.contains("suite/each.lua:1: instruction budget exceeded (100000 instructions) while the file loaded"), "\(many)")
        // A top level that copies big strings in a short loop is stopped too; a tiny budget still lets a file start.
        let copies = try Fixture([
            "suite/copies.lua": "for i = 1, 1e6 do local s = (\"x\"):rep(1e7) end\nscenario(\"x\", function() end)",
            "suite/tiny.lua": "scenario(\"x\", function() end)"
        ])
        let copied = try copies.run(["run", "suite/copies.lua"])
        #expect(
            copied.stdout.contains(
                "suite/copies.lua:1: instruction budget exceeded (10000000 instructions) while the file loaded: spent by copying large strings"
            ),
            "\(copied)")
        let tiny = try copies.run(["run", "suite/tiny.lua", "--instruction-budget", "2000"])
        #expect(tiny.status == 0, "the language's own set-up is not charged to the file\n\(tiny)")
    }

    /// A module the file requires that does not load is reported at the
    /// `require` line; one the memory limit stops names the option.
    @Test func aModuleThatDoesNotLoadIsReportedAtTheRequireLine() throws {
        let big = "return {" + (0..<60_000).map { "\"\($0)\"" }.joined(separator: ",") + "}\n"
        let fixture = try Fixture([
            "suite/support/broken.lua": "return {\n",
            "suite/support/big.lua": big,
            "suite/a.lua": "-- one\nlocal m = require('broken')\nscenario('a', function() end)\n",
            "suite/b.lua": "local m = require('big')\nscenario('b', function() end)\n"
        ])
        let broken = try fixture.run(["run", "suite/a.lua"])
        #expect(broken.status == 2, "\(broken)")
        #expect(
            broken.stdout.contains("ERROR suite/a.lua:2")
                && broken.stdout.contains(
                    "suite/a.lua:2: error loading module 'broken' from file 'suite/support/broken.lua'"),
            "\(broken)")
        // The scenario file itself larger than the limit: refused before it is read whole, naming the option.
        let whole = try Fixture(["suite/c.lua": big])
        let large = try whole.run(["run", "suite/c.lua", "--memory-limit", "300000"])
        #expect(large.status == 2, "\(large)")
        #expect(
            large.stdout.contains(
                "cannot read suite/c.lua (larger than 300000 bytes, the state's memory limit); "
                    + "raise the limit with --memory-limit"), "\(large)")
        for limit in ["1000000", "300000"] {
            let output = try fixture.run(["run", "suite/b.lua", "--memory-limit", limit])
            #expect(output.status == 2, "\(output)")
            #expect(
                output.stdout.contains("suite/b.lua:1: error loading module 'big'")
                    && output.stdout.contains("the file's Lua state may hold \(limit) bytes; raise the limit with --memory-limit"),
                "\(output)")
        }
    }

    /// Lua runs no message handler for a memory error; the report still names
    /// the line the limit was reached at, in process and in a worker.
    @Test(arguments: [[], ["--in-process"]])
    func aScenarioOverTheMemoryLimitNamesItsLine(mode: [String]) throws {
        let fixture = try Fixture([
            "suite/grows.lua": """
            scenario("grows", function()
              local t = {}
              while true do
                t[#t + 1] = { n = #t }
              end
            end)
            """
        ])
        let output = try fixture.run(["run", "suite", "--memory-limit", "4000000"] + mode)
        #expect(output.status == 1, "\(output)")
        #expect(output.stdout.contains("memory limit exceeded: the scenario allocates without bound"), "\(output)")
        #expect(
            output.stdout.contains("suite/grows.lua:4: in function <suite/grows.lua:1>") || !LuaState.memoryErrorsNameTheirLine,
            "\(output)")
        #expect(!output.stdout.contains("already held"), "a scenario that grew from little is not told otherwise\n\(output)")
    }

    /// Scenarios of a file share its state: memory kept by an earlier one (in a support module's
    /// own state: the file's variables are put back) is named when a later, modest one reaches the limit.
    @Test func memoryKeptByAnEarlierScenarioIsNamed() throws {
        let fixture = try Fixture([
            "suite/support/leak.lua": "local kept = {}\nreturn function(n) for i = 1, n do kept[i] = { i } end end\n",
            "suite/kept.lua": """
            local leak = require("leak")
            scenario("keeps", function()
              leak(45000)
            end)
            scenario("modest", function()
              local t = {}
              for i = 1, 20000 do t[i] = { i } end
            end)
            """
        ])
        let output = try fixture.run(["run", "suite", "--memory-limit", "5000000", "--in-process"])
        #expect(output.status == 1, "\(output)")
        #expect(
            output.stdout.contains("ERROR suite/kept.lua:5  modest") && !output.stdout.contains("ERROR suite/kept.lua:2"),
            "\(output)")
        #expect(output.stdout.contains("already held"), "\(output)")
    }
}
