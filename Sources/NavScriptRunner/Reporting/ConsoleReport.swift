import Foundation
import NavScript
import NavScriptRuntime

/// The terminal report of `navscript run`, in the style of busted and pytest.
///
/// Why it exists: a QA engineer reads this first, so it must answer "what
/// failed, where, and after which step" without opening the JUnit file.
/// While the run goes on it prints one progress line per scenario file
/// (`scenarios/gate_resume/login.lua  ....F.s  (7)`: `.` passed, `F`
/// failed, `E` error, `s` skipped); at the end, each failure and error with
/// its `file:line`, message, details, the last steps of its timeline and
/// what it printed, then the summary line
/// `12 passed, 1 failed, 0 errors, 2 skipped in 0.041s`.
///
/// The output is a pure function of the calls made (durations use a fixed
/// format, or the injected formatter), so it can be compared against a
/// golden file. Colour is an option the CLI decides with
/// `shouldUseColor(environment:isTTY:)`; without it the report contains no
/// escape sequence at all, and escape sequences or control characters in
/// scenario text are always removed.
///
/// The runner may call the progress methods from any thread, and for files
/// running concurrently: each file's line is kept whole, later files waiting
/// (buffered) until the line on screen is finished.
package final class ConsoleReport: @unchecked Sendable {  // state guarded by `lock`
    /// Presentation choices; all have deterministic defaults.
    package struct Options: Sendable {
        /// ANSI colours (green/red/yellow) and bold headers.
        package var color: Bool
        /// How many of the last timeline steps a failure shows.
        package var timelineLimit: Int
        /// Also show what passing scenarios printed (`--show-output`).
        package var showOutput: Bool
        /// The invariants checked after every scenario, for the closing lines.
        package var invariants: [String]
        /// They are checked after every step too (`--strict-steps`).
        package var invariantsAfterEveryStep: Bool
        /// On a terminal: end each file's line with the running count and
        /// the elapsed time, for long runs (`[412 done, 3.2s]`).
        package var runningTotals: Bool
        /// On a terminal: a file that finishes while an earlier one still
        /// runs (another worker's, hung maybe) is printed at once above that
        /// one's line, which is drawn again below it — not held until it ends.
        package var redrawsLines: Bool
        /// How long the open progress line may stand still before a file
        /// whose scenarios finish meanwhile takes it — on a terminal 0.1 s
        /// (the line is erased), in a pipe 2 s (the line is ended where it
        /// is: a CI log keeps file order unless a file really stalls). A hung
        /// or slow file must not keep another worker's results off the screen
        /// or out of the log until it ends; the line it gave up is printed
        /// again, whole, in its turn.
        package var stallAfter: TimeInterval
        /// Formats a duration in seconds for the summary line, e.g. `0.041s`.
        package var formatDuration: @Sendable (Double) -> String

        package init(
            color: Bool = false,
            timelineLimit: Int = 15,
            showOutput: Bool = false,
            invariants: [String] = [],
            invariantsAfterEveryStep: Bool = false,
            runningTotals: Bool = false,
            redrawsLines: Bool = false,
            stallAfter: TimeInterval? = nil,
            formatDuration: @escaping @Sendable (Double) -> String = ConsoleReport.formatSeconds
        ) {
            self.color = color
            self.timelineLimit = timelineLimit
            self.showOutput = showOutput
            self.invariants = invariants
            self.invariantsAfterEveryStep = invariantsAfterEveryStep
            self.runningTotals = runningTotals
            self.redrawsLines = redrawsLines
            self.stallAfter = stallAfter ?? (redrawsLines ? 0.1 : 2)
            self.formatDuration = formatDuration
        }
    }

    /// `--color`: whether to colour the report.
    package enum ColorChoice: String, CaseIterable, Sendable {
        /// On a terminal, unless the environment says otherwise.
        case auto
        case always
        case never
    }

    /// Whether the CLI should colour its output. `always` and `never` win;
    /// `auto` follows the environment's conventions: `NO_COLOR` (non-empty)
    /// turns colour off (https://no-color.org), `FORCE_COLOR` (non-empty,
    /// not `0`) or `CLICOLOR_FORCE` (not `0`) turns it on even in a pipe (CI
    /// logs that render ANSI), `TERM=dumb` turns it off, else a terminal.
    package static func shouldUseColor(_ choice: ColorChoice = .auto, environment: [String: String], isTTY: Bool) -> Bool {
        switch choice {
        case .always: return true
        case .never: return false
        case .auto: break
        }
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        if let force = environment["FORCE_COLOR"], !force.isEmpty, force != "0" { return true }
        if let force = environment["CLICOLOR_FORCE"], !force.isEmpty, force != "0" { return true }
        if environment["TERM"] == "dumb" { return false }
        return isTTY
    }

    /// `0.041s`: three decimals, '.' separator whatever the locale.
    @Sendable package static func formatSeconds(_ seconds: Double) -> String {
        ReportText.seconds(seconds) + "s"
    }

    private let options: Options
    private let write: @Sendable (String) -> Void
    private let lock = NSLock()

    // Progress state, guarded by `lock`.
    private struct PendingLine {
        var path: String
        var marks = ""
        var reported = 0
        var finishedCount: Int?
        /// Marks for scenarios the runner never reported, known at the end.
        var trailingMarks = ""
    }
    private var openPath: String?
    private var openReported = 0
    /// The open line's marks so far, to draw it again (``Options/redrawsLines``).
    private var openMarks = ""
    /// When the open line last moved (opened, or a mark added): a line still
    /// for ``Options/stallAfter`` gives way to a file whose scenarios are finishing.
    private var openMoved = Date()
    private var waiting: [PendingLine] = []
    /// A check of the open line is due (see ``scheduleHandOver()``).
    private var handOverScheduled = false
    private var wroteSomething = false
    /// Scenarios whose file line is finished, and when the report began.
    private var finishedCount = 0
    private let started = Date()

    /// - Parameters:
    ///   - write: receives the report in pieces (progress marks arrive without
    ///     a newline, so the sink should not wait for one before flushing).
    package init(options: Options = Options(), write: @escaping @Sendable (String) -> Void) {
        self.options = options
        self.write = write
    }

    // MARK: Progress

    /// A scenario file begins. `path` must be the path its results carry
    /// (`ScenarioResult.file`, `FileResult.file`).
    package func fileStarted(_ path: String) {
        locked { track(path) }
    }

    /// One scenario is done: prints its progress mark.
    package func scenarioFinished(_ result: ScenarioResult) {
        locked {
            track(result.file)
            let mark = progressMark(result.status)
            giveStalledOpenLine(to: result.file)
            if result.file == openPath {
                openMoved = Date()
                openReported += 1
                openMarks += mark
                emit(mark)
            } else if let index = waiting.firstIndex(where: { $0.path == result.file }) {
                waiting[index].marks += mark
                waiting[index].reported += 1
                scheduleHandOver()
            }
        }
    }

    /// A scenario file is done: closes its progress line with the count.
    /// Scenarios of the file that were never reported through
    /// `scenarioFinished` get their marks here.
    package func fileFinished(_ result: FileResult) {
        locked {
            track(result.file)
            // (On a terminal a finished file is printed above the open line instead.)
            if !options.redrawsLines { giveStalledOpenLine(to: result.file) }
            if result.file == openPath {
                let missing = result.scenarios.dropFirst(openReported).map { progressMark($0.status) }.joined()
                let hasMarks = openReported > 0 || !missing.isEmpty
                emit(missing + lineEnd(count: result.scenarios.count, hasMarks: hasMarks))
                openPath = nil
                openReported = 0
                openMarks = ""
                drainWaiting()
            } else if let index = waiting.firstIndex(where: { $0.path == result.file }) {
                waiting[index].trailingMarks = result.scenarios.dropFirst(waiting[index].reported)
                    .map { progressMark($0.status) }.joined()
                waiting[index].finishedCount = result.scenarios.count
                if !options.redrawsLines { scheduleHandOver() }
                if options.redrawsLines, let openPath {
                    // Erase the open line, print the finished one, draw the open one again.
                    let line = waiting.remove(at: index)
                    let marks = line.marks + line.trailingMarks
                    emit(
                        "\r\u{1B}[2K" + ReportText.pathForTerminal(line.path) + "  " + marks
                            + lineEnd(count: result.scenarios.count, hasMarks: !marks.isEmpty)
                            + ReportText.pathForTerminal(openPath) + "  " + openMarks)
                }
            }
        }
    }

    // MARK: Final report

    /// After the run: pending scenarios, every failure and error with its
    /// context, then the seed (when the run was ordered by one) and the
    /// summary line, which is always the last line. `interruptedBy` (e.g.
    /// "interrupted (SIGTERM)") turns the summary yellow and says so — an
    /// interrupted run is never green.
    package func finish(_ run: RunResult, interruptedBy: String? = nil) {
        locked {
            closeProgress()
            var sections: [String] = []

            let skipped = run.scenarios.filter { $0.status == .skipped }
            let notRun = skipped.filter { $0.outcome != .skipped(.pending) }
            let pending = skipped.filter { $0.outcome == .skipped(.pending) }
            if !pending.isEmpty {
                sections.append(pending.map(pendingLine).joined())
            }
            // A suite of placeholders would bury the failures: the first few, then how many more.
            let warned = Array(run.scenarios.filter(\.passedWithWarning))
            if !warned.isEmpty {
                var lines = warned.prefix(Self.warningsListed).map(warningLine).joined(separator: "")
                if warned.count > Self.warningsListed {
                    lines +=
                        paint("WARN", .yellow) + " and \(warned.count - Self.warningsListed) more scenarios that checked nothing "
                        + "(every report names each: --json, --junit, --html)\n"
                }
                sections.append(lines)
            }
            for scenario in run.scenarios where scenario.status.isProblem {
                sections.append(problemBlock(scenario))
            }
            if options.showOutput {
                for scenario in run.scenarios where scenario.status == .passed && !scenario.output.isEmpty {
                    sections.append(outputBlock(scenario))
                }
            }
            if !notRun.isEmpty {
                // A file never started is one entry: counted as a file, its scenarios were not listed.
                let files = notRun.count { $0.outcome == .skipped(.notStarted) }
                let scenarios = notRun.count - files
                let parts = [
                    scenarios > 0 ? "\(scenarios) scenario\(scenarios == 1 ? "" : "s")" : nil,
                    files > 0 ? "\(files) file\(files == 1 ? "" : "s")" : nil
                ].compactMap { $0 }
                let why = "the run stopped early: a signal, --fail-fast, or a scenario that could not be stopped"
                sections.append(paint(parts.joined(separator: " and ") + " not run (\(why))", .yellow) + "\n")
            }

            var closing = ""
            if !options.invariants.isEmpty {
                closing +=
                    "invariants checked after every " + (options.invariantsAfterEveryStep ? "step" : "scenario")
                    + ": " + options.invariants.joined(separator: ", ") + "\n"
            }
            if let seed = run.seed { closing += "seed: \(seed)\n" }
            let summary = run.summary + " in " + options.formatDuration(run.duration)
            if let interruptedBy {
                closing += paint("\(interruptedBy): " + summary, .yellow) + "\n"
            } else {
                closing += paint(summary, run.isSuccess ? .boldGreen : .boldRed) + "\n"
            }
            sections.append(closing)

            emit((wroteSomething ? "\n" : "") + sections.joined(separator: "\n"))
        }
    }

    // MARK: Progress internals (call with `lock` held)

    private func locked(_ body: () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        body()
    }

    /// Gives `path` a progress line if it has none yet: on screen when no
    /// other line is, else waiting its turn.
    private func track(_ path: String) {
        guard path != openPath, !waiting.contains(where: { $0.path == path }) else { return }
        if openPath == nil, waiting.isEmpty {
            openPath = path
            openReported = 0
            openMarks = ""
            openMoved = Date()
            emit(ReportText.pathForTerminal(path) + "  ")
        } else {
            waiting.append(PendingLine(path: path))
        }
    }

    /// Hands the open line to `file`'s waiting line when the open one has
    /// stood still for ``Options/stallAfter``. The open one is ended (on a terminal,
    /// erased) and waits first in line, its marks kept: it is drawn again,
    /// whole, when its turn comes.
    private func giveStalledOpenLine(to file: String) {
        guard let path = openPath, file != path, Date().timeIntervalSince(openMoved) >= options.stallAfter,
            let index = waiting.firstIndex(where: { $0.path == file && $0.finishedCount == nil })
        else { return }
        emit(options.redrawsLines ? "\r\u{1B}[2K" : "\n")
        let taking = waiting.remove(at: index)
        waiting.insert(PendingLine(path: path, marks: openMarks, reported: openReported), at: 0)
        openPath = taking.path
        openReported = taking.reported
        openMarks = taking.marks
        openMoved = Date()
        emit(ReportText.pathForTerminal(taking.path) + "  " + taking.marks)
    }

    /// A waiting line has news (marks, or its end) while another is open: if
    /// the open one then stands still, the news is shown when its
    /// ``Options/stallAfter`` is up — not when the next event happens to
    /// come, which for a file hung in a worker may be its timeout.
    private func scheduleHandOver() {
        guard !handOverScheduled, openPath != nil, options.stallAfter.isFinite else { return }
        handOverScheduled = true
        let wait = max(0, options.stallAfter - Date().timeIntervalSince(openMoved)) + 0.01
        DispatchQueue.global().asyncAfter(deadline: .now() + wait) { [weak self] in self?.handOverIfStalled() }
    }

    private func handOverIfStalled() {
        locked {
            handOverScheduled = false
            guard let path = openPath else { return }
            guard Date().timeIntervalSince(openMoved) >= options.stallAfter else {
                if waiting.contains(where: { $0.reported > 0 || $0.finishedCount != nil }) { scheduleHandOver() }
                return
            }
            if let line = waiting.first(where: { $0.finishedCount == nil && $0.reported > 0 }) {
                giveStalledOpenLine(to: line.path)
            } else if !options.redrawsLines, waiting.contains(where: { $0.finishedCount != nil }) {
                // In a pipe: the open line ends where it is, the finished files are printed, and it
                // goes on, printed again with its marks so far.
                emit("\n")
                var kept: [PendingLine] = []
                for line in waiting {
                    guard let count = line.finishedCount else {
                        kept.append(line)
                        continue
                    }
                    let marks = line.marks + line.trailingMarks
                    emit(ReportText.pathForTerminal(line.path) + "  " + marks + lineEnd(count: count, hasMarks: !marks.isEmpty))
                }
                waiting = kept
                openMoved = Date()
                emit(ReportText.pathForTerminal(path) + "  " + openMarks)
            }
        }
    }

    /// Prints every finished waiting line in start order, then opens the
    /// first unfinished one.
    private func drainWaiting() {
        while !waiting.isEmpty {
            let line = waiting.removeFirst()
            let marks = line.marks + line.trailingMarks
            if let count = line.finishedCount {
                emit(ReportText.pathForTerminal(line.path) + "  " + marks + lineEnd(count: count, hasMarks: !marks.isEmpty))
            } else {
                openPath = line.path
                openReported = line.reported
                openMarks = marks
                openMoved = Date()
                emit(ReportText.pathForTerminal(line.path) + "  " + marks)
                return
            }
        }
    }

    /// Ends lines the runner left open (an interrupted run) so the final
    /// report starts on a fresh line.
    private func closeProgress() {
        if openPath != nil {
            emit("\n")
            openPath = nil
            openReported = 0
            openMarks = ""
        }
        for line in waiting {
            let marks = line.marks + line.trailingMarks
            emit(
                ReportText.pathForTerminal(line.path) + "  " + marks
                    + (line.finishedCount.map { lineEnd(count: $0, hasMarks: !marks.isEmpty) } ?? "\n"))
        }
        waiting.removeAll()
    }

    private func lineEnd(count: Int, hasMarks: Bool) -> String {
        finishedCount += count
        var end = (hasMarks ? "  " : "") + "(\(count))"
        if options.runningTotals {
            end += paint("  [\(finishedCount) done, " + options.formatDuration(Date().timeIntervalSince(started)) + "]", .yellow)
        }
        return end + "\n"
    }

    private func progressMark(_ status: ScenarioResult.Status) -> String {
        switch status {
        case .passed: paint(".", .green)
        case .failed: paint("F", .red)
        case .errored: paint("E", .red)
        case .skipped: paint("s", .yellow)
        }
    }

    private func emit(_ text: String) {
        guard !text.isEmpty else { return }
        wroteSomething = true
        write(text)
    }

    // MARK: Final report internals

    private func location(_ scenario: ScenarioResult) -> String {
        let file = ReportText.pathForTerminal(scenario.file)
        return scenario.line > 0 ? "\(file):\(scenario.line)" : file
    }

    private func pendingLine(_ scenario: ScenarioResult) -> String {
        var line = paint("PENDING", .yellow) + " " + location(scenario) + "  " + displayName(scenario)
        let reason = singleLine(scenario.message)
        if !reason.isEmpty { line += ": " + reason }
        return line + "\n"
    }

    /// How many passed scenarios' warnings the final report lists one by one.
    static let warningsListed = 20

    /// `WARN file:line  name: checked nothing: …` — a passed scenario that could not have failed.
    private func warningLine(_ scenario: ScenarioResult) -> String {
        paint("WARN", .yellow) + " " + location(scenario) + "  " + displayName(scenario) + ": " + singleLine(scenario.message) + "\n"
    }

    /// ```
    /// FAIL scenarios/x.lua:12  describe chain scenario name
    ///     message
    ///     details…
    ///     timeline (last 15 of 40 steps):
    ///       26. tap "cart"
    ///     output:
    ///       …
    /// ```
    /// What a passing scenario printed (`--show-output`).
    private func outputBlock(_ scenario: ScenarioResult) -> String {
        paint("PASS", .boldGreen) + " " + location(scenario) + "  " + paint(displayName(scenario), .bold) + "\n"
            + "    " + paint("output:", .bold) + "\n" + indented(trimmedLines(scenario.output), by: 6)
    }

    private func problemBlock(_ scenario: ScenarioResult) -> String {
        let label = scenario.status == .failed ? "FAIL" : "ERROR"
        var block =
            paint(label, .boldRed) + " " + location(scenario) + "  "
            + paint(displayName(scenario), .bold) + "\n"

        let message = trimmedLines(scenario.message)
        let details = trimmedLines(scenario.details)
        block += indented(message, by: 4)
        if details != message { block += indented(details, by: 4) }
        if message.isEmpty, details.isEmpty {
            block += indented([scenario.kind.isEmpty ? "(no message)" : singleLine(scenario.kind)], by: 4)
        }

        let steps = scenario.timeline
        if !steps.isEmpty {
            let limit = max(1, options.timelineLimit)
            // The last steps, never across the gap a long timeline left out.
            let shown = (steps.omitted > 0 ? steps.tail : steps.kept).suffix(limit)
            let firstNumber = steps.count - shown.count + 1
            let width = String(steps.count).count
            let heading =
                shown.count < steps.count
                ? "timeline (last \(shown.count) of \(steps.count) steps):"
                : "timeline:"
            block += "    " + paint(heading, .bold) + "\n"
            for (offset, step) in shown.enumerated() {
                let number = String(firstNumber + offset)
                let label = String(repeating: " ", count: width - number.count) + number + ". "
                let lines = trimmedLines(step)
                block += "      " + label + (lines.first ?? "") + "\n"
                block += indented(Array(lines.dropFirst()), by: 6 + label.count)
            }
        }

        let output = trimmedLines(scenario.output)
        if !output.isEmpty {
            block += "    " + paint("output:", .bold) + "\n"
            block += indented(output, by: 6)
        }
        return block
    }

    /// Cleaned lines without trailing blank lines or trailing spaces.
    private func trimmedLines(_ text: String) -> [String] {
        var lines = ReportText.cleanForTerminal(text)
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { line -> String in
                // Trailing blanks trimmed by UTF-8 byte: walking Characters back from the end of a
                // 300,000-character line took a minute (each step looks back for a grapheme boundary).
                let bytes = line.utf8
                guard let last = bytes.lastIndex(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) else {
                    return ""
                }
                return String(line[...last])
            }
        while let last = lines.last, last.isEmpty { lines.removeLast() }
        while let first = lines.first, first.isEmpty { lines.removeFirst() }
        return lines
    }

    private func indented(_ lines: [String], by width: Int) -> String {
        let pad = String(repeating: " ", count: width)
        return lines.map { $0.isEmpty ? "\n" : pad + $0 + "\n" }.joined()
    }

    private func displayName(_ scenario: ScenarioResult) -> String {
        let name = singleLine(scenario.name)
        return name.isEmpty ? "(unnamed)" : name
    }

    private func singleLine(_ text: String) -> String {
        trimmedLines(text).joined(separator: " ")
    }

    // MARK: Colour

    private enum Style: String {
        case bold = "1"
        case green = "32"
        case red = "31"
        case yellow = "33"
        case boldGreen = "1;32"
        case boldRed = "1;31"
    }

    private func paint(_ text: String, _ style: Style) -> String {
        guard options.color, !text.isEmpty else { return text }
        return "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m"
    }
}

extension ConsoleReport: RunReporter {
    package var name: String { "the console report" }

    /// Every file gets its progress line in run order when the run starts,
    /// so marks stream per scenario and still print file by file whatever
    /// finishes first.
    package func receive(_ event: RunEvent) {
        switch event {
        case .runStarted(let plan): for file in plan.files { fileStarted(file) }
        case .fileStarted(let file): fileStarted(file)
        case .scenarioFinished(let result): scenarioFinished(result)
        case .fileFinished(let result): fileFinished(result)
        case .runFinished(let result, let interruption): finish(result, interruptedBy: interruption)
        case .fileLoaded, .scenarioStarted, .step, .output: break
        }
    }
}
