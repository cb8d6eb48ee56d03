import NavScript
import NavScriptRuntime

/// The storyboard of one scenario in the HTML report: a row of frames, one
/// per step, each drawing the navigation as it was right after that step —
/// the modal chain stacked above the tabs, every tab's stack as cards
/// (bottom to top, the top card bold, cards new since the previous step
/// tinted), the tab bar with the selected tab, the coordinator tree, the
/// app events the step caused and what leaked. The frame a failure or an
/// error was reported at is outlined, with the message and the expected
/// vs actual details right under the drawing.
struct Storyboard {
    let frames: [StepFrame]
    /// The scenario's id in the page; frames get `<anchor>-step-N`.
    let anchor: String

    func render() -> String {
        var html = "<h3>Storyboard — the navigation after each step"
        if let failing = frames.first(where: { !$0.problems.isEmpty }) {
            html += " · <a href=\"#\(anchor)-step-\(failing.number)\">jump to step \(failing.number)</a>"
        }
        html += "</h3>\n<div class=\"storyboard\">\n"
        var previous: StepFrame?
        // A long scenario kept its first and last frames, and every failing one between.
        for frame in frames {
            if let omitted = frame.framesLeftOutBefore {
                html += "<p class=\"cut\">… \(omitted) frames left out here …</p>\n"
            }
            html += self.frame(frame, previous: previous)
            previous = frame
        }
        return html + "</div>\n"
    }

    private func frame(_ frame: StepFrame, previous: StepFrame?) -> String {
        let failing = !frame.problems.isEmpty
        var html = "<figure class=\"frame\(failing ? " failing" : "")\" id=\"\(anchor)-step-\(frame.number)\">\n"
        html +=
            "<figcaption><span class=\"n\">\(frame.number == 0 ? "Before" : "Step \(frame.number)")</span> "
            + "<span class=\"act\">\(HTMLReport.text(frame.action))</span>"
            + "<span class=\"loc\">\(HTMLReport.text(frame.location))</span></figcaption>\n"
        if frame.windows.count > 1 {
            // Several windows: side by side, each as a device of its own.
            html += "<div class=\"windows\">"
            for window in frame.windows {
                let before = previous?.windows.first { $0.number == window.number }
                html +=
                    "<div class=\"window\"><span class=\"label\">scene \(window.number)\(window.inFront ? " (in front)" : "")</span>"
                    + device(
                        selectedTab: window.selectedTab, tabs: window.tabs, modals: window.modals,
                        before: (before?.tabs ?? [], before?.modals ?? [])) + "</div>"
            }
            html += "</div>\n"
        } else {
            html += device(
                selectedTab: frame.selectedTab, tabs: frame.tabs, modals: frame.modals,
                before: (previous?.tabs ?? [], previous?.modals ?? []))
        }
        for problem in frame.problems {
            html +=
                "<div class=\"problem \(problem.kind)\"><b>\(problem.kind == "error" ? "Error" : "Failed"):</b> "
                + HTMLReport.text(problem.message) + "\n"
            if !problem.details.isEmpty { html += HTMLReport.details(problem.details) }
            html += "</div>\n"
        }
        if !frame.leaks.isEmpty {
            html +=
                "<ul class=\"leaks\">"
                + frame.leaks.map { leak in
                    "<li>⚠ leaked: \(HTMLReport.text(leak.label)) (\(HTMLReport.text(leak.kind)), left during \(HTMLReport.text(leak.leftDuring)))</li>"
                }.joined() + "</ul>\n"
        }
        html += tree(frame)
        if !frame.events.isEmpty {
            html +=
                "<ul class=\"events\" title=\"app events during this step\">"
                + frame.events.map { "<li>\(HTMLReport.text($0))</li>" }.joined() + "</ul>\n"
        }
        return html + "</figure>\n"
    }

    /// One window's drawing: the modal chain stacked above the tabs' stacks
    /// and the tab bar; cards new since `before` tinted.
    private func device(
        selectedTab: String, tabs: [StepFrame.Tab], modals: [[String]], before: (tabs: [StepFrame.Tab], modals: [[String]])
    ) -> String {
        var html = "<div class=\"device\">\n"
        for (depth, modal) in modals.enumerated() {
            let previous = depth < before.modals.count ? before.modals[depth] : []
            html +=
                "<div class=\"modal\"><span class=\"label\">modal \(depth + 1)</span>"
                + stack(modal, before: previous, selected: false) + "</div>\n"
        }
        if !tabs.isEmpty {
            html += "<div class=\"stacks\">"
            for tab in tabs {
                let previous = before.tabs.first { $0.name == tab.name }?.stack ?? []
                html += stack(tab.stack, before: previous, selected: tab.name == selectedTab)
            }
            html += "</div>\n<div class=\"tabbar\">"
            for tab in tabs {
                html += "<span class=\"\(tab.name == selectedTab ? "selected" : "")\">\(HTMLReport.text(tab.name))</span>"
            }
            html += "</div>\n"
        }
        return html + "</div>\n"
    }

    /// A stack as cards, bottom to top; a card is new when the previous
    /// frame had another screen (or none) at its place.
    private func stack(_ screens: [String], before: [String], selected: Bool) -> String {
        var html = "<div class=\"stack\(selected ? " selected" : "")\">"
        for (index, screen) in screens.enumerated() {
            var classes = ["card"]
            if index == screens.count - 1 { classes.append("top") }
            if index >= before.count || before[index] != screen { classes.append("new") }
            html += "<div class=\"\(classes.joined(separator: " "))\">\(HTMLReport.text(screen))</div>"
        }
        return html + "</div>"
    }

    /// The coordinator tree from its paths, indented by depth; a
    /// coordinator named by a leak is marked.
    private func tree(_ frame: StepFrame) -> String {
        guard !frame.coordinators.isEmpty else { return "" }
        let leaked = Set(frame.leaks.map(\.label))
        var html = "<ul class=\"tree\" title=\"coordinators\">"
        for path in frame.coordinators {
            let parts = path.split(separator: "/")
            let name = parts.last.map(String.init) ?? path
            let isLeaked = leaked.contains(path) || leaked.contains(name)
            html +=
                "<li class=\"node\(isLeaked ? " leaked" : "")\" style=\"padding-left:\(max(0, parts.count - 1) * 10)px\">"
                + HTMLReport.text(name) + "</li>"
        }
        return html + "</ul>\n"
    }
}
