import Foundation
import Testing

@testable import NavScript
@testable import NavScriptLua
@testable import NavScriptRunner
@testable import NavScriptRuntime

@Suite("Reporting: HTML report")
struct HTMLReportTests {
    /// The mixed fixture with a storyboard on its failing scenario: three
    /// steps, a leak and the failure on the last.
    static func runWithFrames() -> RunResult {
        var run = ReportingFixtures.mixedRun()
        let stacks = [["home"], ["home", "product:p1"], ["home", "product:p1"]]
        run.files[0].scenarios[1].frames = stacks.enumerated().map { index, stack in
            StepFrame(
                number: index + 1, location: "scenarios/gate_resume/login.lua:\(13 + index)",
                action: ["launch{}", "tap(\"product\", id=p1)", "back_swipe{}"][index],
                selectedTab: "home",
                tabs: [.init(name: "home", stack: stack), .init(name: "cart", stack: ["cart"])],
                modals: index == 1 ? [["sign_in"]] : [],
                coordinators: ["app", "app/main", "app/main/checkout"],
                events: ["push product:p1"],
                leaks: index == 2 ? [.init(label: "checkout", kind: "coordinator", leftDuring: "back_swipe")] : [],
                problems: index == 2
                    ? [
                        .init(
                            kind: "failure", message: "stack of tab 'home' is { \"home\", \"product:p1\" }",
                            details: "  expected  actual\n  home      home\n✗ cart      product:p1")
                    ] : [])
        }
        return run
    }

    /// A long scenario keeps its first and last frames and every failing one
    /// between (`LongScenarioTests`); the storyboard draws them and says how
    /// many it left out where.
    @Test func aLongStoryboardSaysWhereFramesWereLeftOut() {
        var run = ReportingFixtures.mixedRun()
        let kept = Array(1...20) + [1_000] + Array(1_901...2_000)
        run.files[0].scenarios[1].frames = kept.map { number in
            var frame = StepFrame(
                number: number, location: "s.lua:\(number)", action: "tap(\"x\")", selectedTab: "home",
                tabs: [.init(name: "home", stack: ["home"])], modals: [], coordinators: [], events: [], leaks: [],
                problems: number == 1_000 ? [.init(kind: "failure", message: "here", details: "")] : [])
            frame.framesLeftOutBefore = number == 1_000 ? 979 : number == 1_901 ? 900 : nil
            return frame
        }
        let html = Self.render(run)
        #expect(Self.count("<figure class=\"frame", in: html) == 20 + 1 + 100)
        #expect(html.contains("-step-1000\""), "the failing frame is drawn")
        #expect(html.contains("<p class=\"cut\">… 979 frames left out here …</p>\n<figure class=\"frame failing\""))
        #expect(html.contains("<p class=\"cut\">… 900 frames left out here …</p>"))
        #expect(Self.count("<p class=\"cut\">", in: html) == 2)
    }

    /// An app with several windows: each frame draws them side by side,
    /// labelled, the one in front said; a card new in a window since the
    /// previous step is tinted in that window only.
    @Test func aStoryboardDrawsEveryWindowSideBySide() {
        var run = ReportingFixtures.mixedRun()
        func window(_ number: Int, front: Bool, _ stack: [String]) -> StepFrame.Window {
            StepFrame.Window(number: number, inFront: front, selectedTab: "home", tabs: [.init(name: "home", stack: stack)], modals: [])
        }
        run.files[0].scenarios[1].frames = [
            [window(1, front: false, ["home"]), window(2, front: true, ["home"])],
            [window(1, front: false, ["home"]), window(2, front: true, ["home", "product:p1"])]
        ].enumerated().map { index, windows in
            var frame = StepFrame(
                number: index + 1, location: "s.lua:\(index + 1)", action: "step", selectedTab: "home",
                tabs: [.init(name: "home", stack: ["home"])], modals: [], coordinators: [], events: [], leaks: [],
                problems: index == 1 ? [.init(kind: "failure", message: "here", details: "")] : [])
            frame.windows = windows
            return frame
        }
        let html = Self.render(run)
        #expect(Self.count("<div class=\"window\">", in: html) == 4)
        #expect(Self.count("scene 2 (in front)", in: html) == 2 && html.contains("scene 1</span>"))
        #expect(html.contains("<div class=\"card top new\">product:p1</div>"), "the new card is tinted")
        #expect(Self.count("class=\"card top new\">home", in: html) == 2, "only the first frame's cards are new")
    }

    static func render(_ run: RunResult, interruption: String? = nil) -> String {
        HTMLReport().render(
            .init(
                plan: RunPlan(command: "run", app: "ShopApp", files: run.files.map(\.file), startedAt: 0),
                result: run, interruption: interruption))
    }

    static func count(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    @Test func isOneSelfContainedDocument() {
        let html = Self.render(Self.runWithFrames())
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        #expect(html.hasSuffix("</html>\n"))
        for external in ["src=", "href=\"http", "@import", "url(", "<link"] {
            #expect(!html.contains(external), "fetches nothing: found \(external)")
        }
        for tag in ["details", "section", "figure", "div", "ul", "ol", "pre", "svg", "form", "select", "script", "style"] {
            #expect(Self.count("<\(tag)", in: html) == Self.count("</\(tag)>", in: html), "balanced <\(tag)>")
        }
    }

    @Test func summarySaysTheCountsAndLinksEveryProblem() {
        let html = Self.render(Self.runWithFrames())
        #expect(html.contains("<title>navscript run · ShopApp: 2 passed, 1 failed, 1 errors, 1 skipped</title>"))
        #expect(html.contains("<b>1</b> failed") && html.contains("<b>2</b> passed"))
        #expect(html.contains("class=\"summary red\""))
        #expect(Self.count("<li><a href=\"#s-", in: html) == 2, "the failure and the error are listed at the top")
        #expect(html.contains("seed 42"))
    }

    @Test func everyScenarioIsFilterableByOutcomeFileAndTag() {
        let html = Self.render(Self.runWithFrames())
        #expect(Self.count("<details class=\"scenario", in: html) == 5)
        for status in ["passed", "failed", "errored", "skipped"] {
            #expect(html.contains("data-status=\"\(status)\""))
            #expect(html.contains("name=\"status\" value=\"\(status)\""))
        }
        #expect(html.contains("<option value=\"scenarios/tabs.lua\">"))
        #expect(html.contains("<option value=\"gate\">gate</option>"))
        #expect(html.contains("data-tags=\"[&quot;gate&quot;]\""), "tags as a JSON array: a tag may hold a space")
    }

    @Test func theFileFilterSelectsTheSectionAScenarioIsListedIn() {
        // mutate and explore group their cases under one name that is not a scenario file.
        let found = ScenarioResult(name: "a property", file: "found/seed1-1.lua", line: 1, outcome: .failed(.expectation))
        let run = RunResult(files: [FileResult(file: "explore", scenarios: [found], duration: 0)], duration: 0, startedAt: 0)
        let html = Self.render(run)
        #expect(html.contains("<option value=\"explore\">explore</option>"))
        #expect(html.contains("data-file=\"explore\""), "the scenario carries its section's name")
    }

    @Test func aFailingScenarioHasAStoryboardWithTheFailingFrameMarked() throws {
        let html = Self.render(Self.runWithFrames())
        #expect(Self.count("<figure class=\"frame", in: html) == 3)
        #expect(Self.count("<figure class=\"frame failing\"", in: html) == 1)
        let failing = try #require(html.range(of: "<figure class=\"frame failing\"").map { String(html[$0.lowerBound...]) })
        let frame = String(failing[..<failing.range(of: "</figure>")!.upperBound])
        #expect(frame.contains("Step 3"))
        #expect(frame.contains("<span class=\"differs\">✗ cart      product:p1</span>"), "expected vs actual: the differing row")
        #expect(frame.contains("⚠ leaked: checkout (coordinator, left during back_swipe)"))
        #expect(frame.contains("<li class=\"node leaked\""), "the leaked coordinator is marked in the tree")
        #expect(frame.contains("<div class=\"stack selected\">"), "the selected tab's stack")
        #expect(frame.contains("<span class=\"selected\">home</span>"), "the tab bar")
        #expect(html.contains("jump to step 3"))
    }

    @Test func framesShowModalsAndWhatIsNew() {
        let html = Self.render(Self.runWithFrames())
        #expect(Self.count("<div class=\"modal\">", in: html) == 1)
        #expect(html.contains("<div class=\"card top new\">product:p1</div>"), "pushed in step 2")
        #expect(html.contains("<div class=\"card top\">product:p1</div>"), "unchanged in step 3")
    }

    @Test func aScenarioWithoutFramesShowsItsSteps() {
        let html = Self.render(ReportingFixtures.mixedRun())
        #expect(!html.contains("<figure"))
        #expect(html.contains("<ol class=\"steps\"><li>launch</li><li>deep_link shop://home</li></ol>"))
    }

    @Test func hostileTextIsEscaped() {
        var run = ReportingFixtures.hostileRun()
        let hostile = ReportingFixtures.hostile
        // Every storyboard field too.
        run.files[0].scenarios[1].frames = [
            StepFrame(
                number: 1, location: hostile, action: hostile, selectedTab: hostile,
                tabs: [.init(name: hostile, stack: [hostile])], modals: [[hostile]], coordinators: [hostile + "/" + hostile],
                events: [hostile], leaks: [.init(label: hostile, kind: hostile, leftDuring: hostile)],
                problems: [.init(kind: "failure", message: hostile, details: hostile)])
        ]
        let html = Self.render(run)
        #expect(!html.contains("<tag>"))
        #expect(!html.contains("\u{1B}"))
        #expect(html.contains("a&amp;b &lt;tag&gt;"))
        #expect(Self.count("<figure", in: html) == 1)
    }

    @Test func anInterruptedRunSaysSoAndIsNotGreen() {
        var run = ReportingFixtures.mixedRun()
        run.files = [run.files[1]]
        run.files[0].scenarios = [run.files[0].scenarios[0]]
        let html = Self.render(run, interruption: "interrupted (SIGTERM)")
        #expect(html.contains("class=\"summary red\""))
        #expect(html.contains("<p class=\"interrupted\">interrupted (SIGTERM): the report covers what finished"))
    }
}
