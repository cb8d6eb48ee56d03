import Foundation
import NavScript
import NavScriptRuntime

/// `--html FILE`: the whole run as one self-contained page a QA engineer
/// reads instead of the console — a summary with counts and time, filters
/// by outcome, file and tag, every scenario with its steps, and for each
/// scenario that failed or errored a storyboard (``Storyboard``) of the
/// navigation after every step.
///
/// Self-contained on purpose: it is attached to CI runs and opened from
/// an artifact or a mail, often offline, so CSS, the one SVG and a few
/// lines of plain script (the filters) are inline and nothing is fetched.
/// Without script every scenario is simply shown. All scenario text is
/// cleaned of control characters and escaped.
package struct HTMLReport: Sendable {
    /// Written into the page's footer; tests set it for stable output.
    package var generator: String

    package init(generator: String = "navscript") {
        self.generator = generator
    }

    package func render(_ content: RunReportFile.Content) -> String {
        let run = content.result
        let command = content.plan?.command ?? "run"
        let app = content.plan?.app ?? ""
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(Self.text("navscript \(command)\(app.isEmpty ? "" : " · " + app): \(run.summary)"))</title>
            <style>\(Self.style)</style>
            </head>
            <body>

            """
        html += summary(run, command: command, app: app, interruption: content.interruption)
        html += filters(run)
        html += "<main>\n"
        for file in run.files {
            html += fileSection(file)
        }
        html += "<p class=\"none\" id=\"none-shown\" hidden>No scenario matches these filters.</p>\n"
        html +=
            "</main>\n<footer>\(Self.text(generator)) · \(Self.text(ReportText.utcTimestamp(secondsSince1970: run.startedAt)))</footer>\n"
        html += "<script>\(Self.script)</script>\n</body>\n</html>\n"
        return html
    }

    // MARK: Summary and filters

    private func summary(_ run: RunResult, command: String, app: String, interruption: String?) -> String {
        let counts: [(ScenarioResult.Status, String)] = [
            (.passed, "passed"), (.failed, "failed"), (.errored, "errors"),
            (.skipped, "skipped")
        ]
        var html = "<header class=\"summary \(run.isSuccess && interruption == nil ? "green" : "red")\">\n"
        html += Self.outcomeBar(run)
        html += "<h1>navscript \(Self.text(command))\(app.isEmpty ? "" : " · " + Self.text(app))</h1>\n<p class=\"counts\">"
        html += counts.map { status, label in
            "<span class=\"count \(status.rawValue)\"><b>\(run.count(status))</b> \(label)</span>"
        }.joined(separator: " ")
        html += " <span class=\"time\">in \(ReportText.seconds(run.duration))s</span>"
        if let seed = run.seed { html += " <span class=\"seed\">seed \(seed)</span>" }
        html += "</p>\n"
        if let interruption {
            html +=
                "<p class=\"interrupted\">\(Self.text(interruption)): the report covers what finished; a scenario that was "
                + "running is an error, the rest is marked skipped.</p>\n"
        }
        let problems = run.scenarios.filter { $0.status.isProblem }
        if !problems.isEmpty {
            html += "<ol class=\"problems\">\n"
            for scenario in problems {
                html +=
                    "<li><a href=\"#\(Self.anchor(scenario))\">\(Self.text("\(scenario.file):\(scenario.line)  \(scenario.name)"))</a>"
                    + " — \(Self.text(scenario.message))</li>\n"
            }
            html += "</ol>\n"
        }
        return html + "</header>\n"
    }

    /// A bar of the outcomes in proportion, as inline SVG.
    static func outcomeBar(_ run: RunResult) -> String {
        let total = max(1, run.scenarios.count)
        var x = 0.0
        var rects = ""
        for status in [ScenarioResult.Status.passed, .failed, .errored, .skipped] {
            let width = 600.0 * Double(run.count(status)) / Double(total)
            guard width > 0 else { continue }
            rects += "<rect class=\"\(status.rawValue)\" x=\"\(Self.number(x))\" y=\"0\" width=\"\(Self.number(width))\" height=\"10\"/>"
            x += width
        }
        return
            "<svg class=\"bar\" viewBox=\"0 0 600 10\" preserveAspectRatio=\"none\" role=\"img\" aria-label=\"\(Self.text(run.summary))\">"
            + rects + "</svg>\n"
    }

    private func filters(_ run: RunResult) -> String {
        let tags = Set(run.scenarios.flatMap(\.tags)).sorted()
        var html = "<form class=\"filters\" id=\"filters\">\n<fieldset><legend>Outcome</legend>"
        // A run with problems opens on them: passing scenarios are one click away.
        let hasProblems = run.count(.failed) + run.count(.errored) > 0
        for status in [ScenarioResult.Status.passed, .failed, .errored, .skipped] where run.count(status) > 0 {
            let checked = status != .passed || !hasProblems
            html +=
                "<label><input type=\"checkbox\" name=\"status\" value=\"\(status.rawValue)\"\(checked ? " checked" : "")> "
                + "\(status.rawValue) (\(run.count(status)))</label>"
        }
        html += "</fieldset>\n<label>File <select name=\"file\"><option value=\"\">all files</option>"
        for file in run.files {
            html += "<option value=\"\(Self.attribute(file.file))\">\(Self.text(file.file))</option>"
        }
        html += "</select></label>\n"
        if !tags.isEmpty {
            html += "<label>Tag <select name=\"tag\"><option value=\"\">all tags</option>"
            for tag in tags { html += "<option value=\"\(Self.attribute(tag))\">\(Self.text(tag))</option>" }
            html += "</select></label>\n"
        }
        return html + "</form>\n"
    }

    // MARK: Files and scenarios

    private func fileSection(_ file: FileResult) -> String {
        var html = "<section class=\"file\" data-file=\"\(Self.attribute(file.file))\">\n"
        html += "<h2>\(Self.text(file.file)) <small>\(file.count(.passed)) passed"
        for (status, label) in [(ScenarioResult.Status.failed, "failed"), (.errored, "errors"), (.skipped, "skipped")]
        where file.count(status) > 0 {
            html += ", \(file.count(status)) \(label)"
        }
        html += " · \(ReportText.seconds(file.duration))s</small></h2>\n"
        for scenario in file.scenarios { html += scenarioBlock(scenario, group: file.file) }
        return html + "</section>\n"
    }

    /// `group` is the file section the scenario is listed under — what the
    /// file filter selects (for mutate and explore it is not the scenario's file).
    private func scenarioBlock(_ scenario: ScenarioResult, group: String) -> String {
        let isProblem = scenario.status.isProblem
        var html =
            "<details class=\"scenario \(scenario.status.rawValue)\" id=\"\(Self.anchor(scenario))\""
            + " data-status=\"\(scenario.status.rawValue)\" data-file=\"\(Self.attribute(group))\""
            + " data-tags=\"\(Self.attribute(Self.jsonArray(scenario.tags)))\"\(isProblem ? " open" : "")>\n"
        html +=
            "<summary><span class=\"mark\">\(Self.mark(scenario.status))</span> \(Self.text(scenario.name))"
            + " <span class=\"where\">\(Self.text("\(scenario.file):\(scenario.line)"))</span>"
        for tag in scenario.tags { html += " <span class=\"tag\">\(Self.text(tag))</span>" }
        html += " <span class=\"time\">\(ReportText.seconds(scenario.duration))s</span></summary>\n"
        if !scenario.message.isEmpty {
            let kind = scenario.passedWithWarning ? "warning" : scenario.kind
            html += "<p class=\"message\"><span class=\"kind\">\(Self.text(kind))</span> \(Self.text(scenario.message))</p>\n"
        }
        if !scenario.details.isEmpty { html += Self.details(scenario.details) }
        if !scenario.frames.isEmpty {
            html += Storyboard(frames: scenario.frames, anchor: Self.anchor(scenario)).render()
        } else if !scenario.timeline.isEmpty {
            let timeline = scenario.timeline
            html += "<h3>Steps</h3>\n<ol class=\"steps\">"
            html += timeline.head.map { "<li>\(Self.text($0))</li>" }.joined()
            let tail = timeline.tail
            if timeline.omitted > 0, let first = tail.first {
                html += "<li class=\"cut\">\(Self.text(ReportText.stepsLeftOut(timeline)))</li>"
                // Numbered on from where they are in the timeline.
                html += "<li value=\"\(timeline.count - tail.count + 1)\">\(Self.text(first))</li>"
                html += tail.dropFirst().map { "<li>\(Self.text($0))</li>" }.joined()
            } else {
                html += tail.map { "<li>\(Self.text($0))</li>" }.joined()
            }
            html += "</ol>\n"
        }
        if !scenario.output.isEmpty {
            html += "<h3>Output</h3>\n<pre class=\"output\">\(Self.text(ReportText.capped(scenario.output)))</pre>\n"
        }
        return html + "</details>\n"
    }

    // MARK: Text

    /// Details with the lines that differ (`✗`, `-`/`+` diff lines, `expected`/`actual`) marked.
    static func details(_ details: String) -> String {
        let lines = details.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let trimmed = line.drop { $0 == " " }
            let kind: String?
            if trimmed.hasPrefix("✗") || trimmed.hasPrefix("- ") || trimmed.hasPrefix("+ ") {
                kind = "differs"
            } else if trimmed.hasPrefix("expected") || trimmed.hasPrefix("actual") {
                kind = "heading"
            } else if trimmed.hasPrefix("to fix") {
                kind = "advice"
            } else {
                kind = nil
            }
            return kind.map { "<span class=\"\($0)\">\(text(String(line)))</span>" } ?? text(String(line))
        }
        return "<pre class=\"details\">" + lines.joined(separator: "\n") + "</pre>\n"
    }

    /// `["a","b c"]`: the tags as the filter script reads them (a tag may hold a space).
    static func jsonArray(_ values: [String]) -> String {
        "[" + values.map { "\"" + JSONString.escaped(ReportText.clean($0)) + "\"" }.joined(separator: ",") + "]"
    }

    static func text(_ value: String) -> String { ReportText.xmlText(ReportText.showingInvisibles(value)) }
    static func attribute(_ value: String) -> String {
        ReportText.xmlAttribute(ReportText.showingInvisibles(value))
    }

    static func mark(_ status: ScenarioResult.Status) -> String {
        switch status {
        case .passed: return "✓"
        case .failed: return "✗"
        case .errored: return "!"
        case .skipped: return "–"
        }
    }

    /// A stable id for a scenario: its file and name, reduced to safe characters.
    static func anchor(_ scenario: ScenarioResult) -> String {
        let raw = scenario.file + "--" + scenario.name
        var id = "s-"
        for scalar in raw.unicodeScalars {
            id += scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) ? String(scalar).lowercased() : "-"
        }
        return id + "-" + String(SeededGenerator.stableHash(raw) % 1_000_000)
    }

    static func number(_ value: Double) -> String { String(format: "%.1f", locale: nil, value) }

    // MARK: Inline assets

    static let style = """
        :root{--pass:#1a7f37;--fail:#cf222e;--error:#a40e26;--skip:#9a6700;--line:#d0d7de;--muted:#57606a;--bg:#f6f8fa;\
        --accent:#0969da;font-family:-apple-system,BlinkMacSystemFont,"Segoe UI",Helvetica,Arial,sans-serif;font-size:14px;color:#1f2328}
        body{margin:0 auto;max-width:1400px;padding:0 16px 32px}
        h1{font-size:20px;margin:8px 0}h2{font-size:16px;margin:20px 0 6px;font-family:ui-monospace,Menlo,monospace}
        h2 small{font-family:inherit;font-weight:normal;color:var(--muted)}h3{font-size:13px;margin:10px 0 4px;color:var(--muted)}
        .summary{border-bottom:1px solid var(--line);padding:8px 0}
        .bar{width:100%;height:8px;display:block;border-radius:4px;background:var(--bg)}
        .bar .passed{fill:var(--pass)}.bar .failed{fill:var(--fail)}.bar .errored{fill:var(--error)}.bar .skipped{fill:var(--skip)}
        .counts{margin:4px 0}.count{margin-right:10px}.count.passed b{color:var(--pass)}.count.failed b{color:var(--fail)}
        .count.errored b{color:var(--error)}.count.skipped b{color:var(--skip)}.time,.seed,.where{color:var(--muted)}
        .interrupted{background:#fff8c5;border:1px solid #d4a72c;padding:6px 10px;border-radius:6px}
        .problems{margin:4px 0;padding-left:22px;max-height:140px;overflow:auto}.problems a{color:var(--fail)}
        .filters{position:sticky;top:0;z-index:2;display:flex;gap:16px;align-items:center;flex-wrap:wrap;margin:10px 0;padding:8px;background:var(--bg);border-radius:6px}
        fieldset{border:0;padding:0;margin:0;display:flex;gap:10px}legend{float:left;margin-right:6px;font-weight:600}
        .scenario{border:1px solid var(--line);border-left:4px solid var(--line);border-radius:6px;margin:6px 0;padding:4px 10px}
        .scenario.passed{border-left-color:var(--pass)}.scenario.failed{border-left-color:var(--fail)}
        .scenario.errored{border-left-color:var(--error)}.scenario.skipped{border-left-color:var(--skip)}
        summary{cursor:pointer;padding:2px 0}.mark{display:inline-block;width:1.2em;font-weight:700}
        .passed .mark{color:var(--pass)}.failed .mark{color:var(--fail)}.errored .mark{color:var(--error)}.skipped .mark{color:var(--skip)}
        .tag{background:#ddf4ff;color:var(--accent);border-radius:10px;padding:0 6px;font-size:12px}
        .message{margin:6px 0;font-weight:600}.kind{font-weight:normal;font-size:12px;background:var(--bg);border:1px solid var(--line);\
        border-radius:4px;padding:0 4px;margin-right:4px}
        pre{background:var(--bg);padding:8px;border-radius:6px;overflow:auto;font-size:12px;margin:4px 0}
        pre .differs{color:var(--fail);font-weight:700;background:#ffebe9}pre .heading{color:var(--muted)}pre .advice{color:var(--accent)}
        .steps{font-family:ui-monospace,Menlo,monospace;font-size:12px;padding-left:28px}
        .cut{color:var(--muted);font-style:italic;list-style:none}
        .storyboard{display:flex;gap:10px;overflow-x:auto;padding:6px 2px 10px;scroll-snap-type:x proximity}
        .frame{flex:0 0 280px;width:280px;min-width:0;box-sizing:border-box;overflow:hidden;border:1px solid var(--line);border-radius:10px;padding:8px;background:#fff;scroll-snap-align:start;margin:0}
        .frame.failing{border:2px solid var(--fail);box-shadow:0 0 0 3px #ffebe9}
        .frame figcaption{font-size:12px;margin-bottom:6px}.frame .n{font-weight:700}.frame .act{font-family:ui-monospace,Menlo,monospace;\
        word-break:break-word}.frame .loc{color:var(--muted);display:block}
        .device{border:2px solid #1f2328;border-radius:14px;padding:6px;background:var(--bg);display:flex;flex-direction:column;gap:6px;min-height:90px}
        .windows{display:flex;gap:8px;align-items:flex-start}.window{display:flex;flex-direction:column;gap:2px}
        .modal{border:1px dashed var(--accent);border-radius:8px;padding:4px;background:#ddf4ff}.modal .label{font-size:11px;color:var(--accent)}
        .stacks{display:flex;gap:4px}.stack{flex:1;display:flex;flex-direction:column-reverse;gap:3px;min-width:0}
        .stack.selected{outline:2px solid var(--accent);outline-offset:2px;border-radius:4px}
        .card{background:#fff;border:1px solid var(--line);border-radius:5px;padding:3px 4px;font-size:11px;\
        font-family:ui-monospace,Menlo,monospace;overflow-wrap:anywhere}
        .card.top{border-color:#1f2328;font-weight:700}.card.new{background:#dafbe1}.card.leaked,.node.leaked{background:#ffebe9;border-color:var(--fail)}
        .tabbar{display:flex;border-top:1px solid var(--line);padding-top:4px}.tabbar span{flex:1;text-align:center;font-size:11px;color:var(--muted);\
        overflow:hidden;text-overflow:ellipsis}.tabbar span.selected{color:var(--accent);font-weight:700}
        .tree,.events,.leaks{font-size:11px;margin:6px 0 0;padding:0;list-style:none}.tree li{font-family:ui-monospace,Menlo,monospace}
        .events li{color:var(--muted);font-family:ui-monospace,Menlo,monospace;overflow-wrap:anywhere}.leaks li{color:var(--fail);font-weight:600}
        .problem{margin-top:6px;border:1px solid var(--fail);background:#ffebe9;border-radius:6px;padding:4px 6px;font-size:12px}
        .problem pre{background:#fff;white-space:pre-wrap;overflow-wrap:anywhere}
        .none{color:var(--muted)}footer{margin-top:24px;color:var(--muted);font-size:12px}
        """

    /// The filters: hide what the chosen outcome, file and tag exclude;
    /// each storyboard scrolled to its failing frame. The last line marks
    /// the page ready, which the browser test looks for.
    static let script = """
        (function(){var form=document.getElementById('filters');if(!form)return;
        function apply(){var statuses=[].slice.call(form.querySelectorAll('input[name=status]:checked')).map(function(i){return i.value});
        var file=form.elements.file?form.elements.file.value:'';var tag=form.elements.tag?form.elements.tag.value:'';var shown=0;
        document.querySelectorAll('.scenario').forEach(function(s){var ok=statuses.indexOf(s.dataset.status)>=0&&(!file||s.dataset.file===file)&&\
        (!tag||JSON.parse(s.dataset.tags||'[]').indexOf(tag)>=0);s.hidden=!ok;if(ok)shown++});
        document.querySelectorAll('section.file').forEach(function(f){f.hidden=!f.querySelector('.scenario:not([hidden])')});
        document.getElementById('none-shown').hidden=shown>0}
        form.addEventListener('change',apply);apply();
        document.querySelectorAll('.storyboard').forEach(function(b){var f=b.querySelector('.frame.failing');if(f)b.scrollLeft=f.offsetLeft-b.offsetLeft-20});
        document.documentElement.dataset.ready='yes'})();
        """
}
