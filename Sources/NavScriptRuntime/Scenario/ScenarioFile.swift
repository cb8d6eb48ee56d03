import Foundation
import NavScript

/// One scenario file loaded into its own fresh Lua state: the sandbox, the
/// scenario language, and the scenarios the file declared. Scenarios are
/// then run one by one, each against a fresh app.
package final class ScenarioFile {
    let entry: SuiteFile
    package let scenarios: [ScenarioDefinition]
    let options: RunOptions
    package let state: LuaState
    /// What `require` reads (package.loaded, preload, searchers, and the modules'
    /// tables) as the file's top level left it: taken before the first scenario
    /// that others follow, put back before each later one, so no scenario runs
    /// with a module another one stubbed or loaded. A file's only scenario (or
    /// its last) needs no snapshot: nothing runs after it.
    private var modules: (snapshot: LuaFunction, restore: LuaFunction)?
    private var modulesSnapshotTaken = false
    package let context: BindingContext

    /// Loads `entry`; a syntax error, an error at load time or a duplicate
    /// name is a ``ScenarioLoadError`` for this file only.
    /// `source` stands in for the file's bytes (exploration runs generated
    /// code under the entry's name).
    /// `loadOutput`: told each piece the file's top level prints, as it prints it (a file stuck
    /// while it loads keeps what it printed in its report: a worker's parent, or the in-process watch).
    package init(
        entry: SuiteFile, language: ScenarioLanguage, options: RunOptions,
        source: [UInt8]? = nil, loadOutput: ((String) -> Void)? = nil
    ) throws(ScenarioLoadError) {
        self.entry = entry
        self.options = options
        let context = BindingContext(file: entry.path, entry: entry, language: language)
        context.onLoadOutput = loadOutput
        self.context = context
        let collect: LuaFunction
        do {
            (state, collect) = try language.makeState(
                LuaState.Options(
                    instructionBudget: options.instructionBudget, memoryLimit: options.memoryLimit,
                    sandboxRoot: entry.suiteRoot, interruption: options.interruption), for: context)
        } catch {
            guard error.kind == .memory, let limit = options.memoryLimit else {
                throw ScenarioLoadError("could not create a Lua state: \(error.message)")
            }
            throw ScenarioLoadError(
                "the memory limit (\(limit) bytes, --memory-limit) is too small for a file's Lua "
                    + "state to start; give it at least a megabyte (the default is 64 MiB)")
        }
        // What the file printed before it failed to load goes with the failure.
        // The file's own code starts here: from now on what it allocates counts against the budget too,
        // and its top level runs under the scenarios' time limit.
        let loading = state
        loading.resetLimits(timeout: options.scenarioTimeout)
        defer { loading.clearTimeLimit() }
        do {
            var compiled = false
            do {
                // The file is read by C (no Foundation on the per-file path); `source` stands in for it.
                let chunk: LuaFunction
                if let source {
                    chunk = try state.load(bytes: source, chunkName: entry.path)
                } else {
                    chunk = try state.loadFile(atPath: entry.fileSystemPath, chunkName: entry.path)
                }
                compiled = true
                _ = try state.call(chunk)
                if let caught = state.caughtLimitError() { throw caught }  // a pcall at the top level cannot keep it either
                if let yield = state.suspendedCoroutineThatCalledSwift() {
                    throw ScenarioLoadError(
                        "\(yield): a coroutine that declared scenarios or hooks is still suspended at this yield when the file "
                            + "has loaded, so what comes after the yield was never declared; resume it until it returns, or "
                            + "declare outside the coroutine")
                }
                if let failure = context.loadFailure {
                    throw ScenarioLoadError(failure.message + " (while the file loaded: it does not load, even if a pcall caught it)")
                }
                let collected: [LuaValue]
                do {
                    collected = try state.call(collect)
                } catch {
                    guard error.kind == .conversion else { throw error }
                    // The declarations are read back once the file has run: options that cannot be
                    // copied are the file's mistake, said as one (which scenario, Lua no longer says).
                    let reason = error.message.replacingOccurrences(of: "cannot convert a result to Swift: ", with: "")
                    throw ScenarioLoadError(
                        "\(entry.path): a scenario's options or a scenario.each row cannot be read: \(reason) — pass plain "
                            + "tables of strings, numbers, booleans (and, in rows, functions), without a table that contains itself")
                }
                guard collected.count == 3, let declared = collected[0].tableValue,
                    let snapshot = collected[1].functionValue, let restore = collected[2].functionValue
                else {
                    throw ScenarioLoadError("the scenario prelude returned no declarations")
                }
                modules = (snapshot, restore)
                var scenarios: [ScenarioDefinition] = []
                // The prelude refuses a name declared twice byte for byte; these read the same in a report.
                var lines: [String: Int] = [:]
                for case .table(let table) in declared.array {
                    let definition = try ScenarioDefinition(table, file: entry.path)
                    let key = ScenarioDefinition.readingKey(definition.name)
                    if let first = lines.updateValue(definition.line, forKey: key) {
                        throw ScenarioLoadError(
                            "\(entry.path):\(definition.line): the scenario name \(LuaSource.string(definition.name)) reads the same "
                                + "as the one declared at line \(first) (the same letters written with other code points or other white space, or "
                                + "an invisible character); give each a name of its own")
                    }
                    scenarios.append(definition)
                }
                self.scenarios = scenarios
                collectedBytes = state.memoryInUse
            } catch let error as LuaError where error.kind == .file {
                // A scenario file larger than the memory limit: name the option, not the bridge's term.
                let hint =
                    options.memoryLimit != nil && error.message.hasSuffix("the state's memory limit)")
                    ? "; raise the limit with --memory-limit if the file is legitimately this large" : ""
                throw ScenarioLoadError(error.message + hint)
            } catch let error as LuaError where error.kind == .memory && options.memoryLimit != nil {
                throw ScenarioLoadError(
                    Self.place(of: error) + "memory limit exceeded (\(options.memoryLimit ?? 0) "
                        + "bytes) while the file loaded: it allocates without bound at its top level; raise the limit with "
                        + "--memory-limit if it legitimately needs more", details: Self.userTraceback(error.traceback))
            } catch let error as LuaError where error.kind == .timeout {
                let said = Self.timeLimitWords(error)
                throw ScenarioLoadError(
                    Self.place(of: error) + "timeout while the file loaded: its top level " + said
                        + "; raise the limit with --timeout if it is legitimately long",
                    details: Self.userTraceback(error.traceback))
            } catch let error as LuaError where error.kind == .budget {
                // A load error like any other (exit status 2), in the CLI's terms rather than the bridge's.
                throw ScenarioLoadError(
                    Self.place(of: error) + "instruction budget exceeded ("
                        + "\(options.instructionBudget ?? 0) instructions) while the file loaded: "
                        + Self.budgetCause(error, of: "its top level")
                        + "; raise the limit with --instruction-budget if it is legitimately long",
                    details: Self.userTraceback(error.traceback))
            } catch let error as LuaError {
                let kind = Self.kind(of: error)
                // The memory limit stopped a module the file requires (Lua's own words for a refused
                // allocation while compiling, or the bridge's for a file too large to read): name the option.
                if let limit = options.memoryLimit,
                    error.message.hasSuffix("not enough memory") || error.message.contains("the state's memory limit)")
                {
                    throw ScenarioLoadError(
                        error.message + " — the file's Lua state may hold \(limit) bytes; raise the limit "
                            + "with --memory-limit if it legitimately needs more", details: Self.userTraceback(error.traceback))
                }
                // Lua's words for a precompiled file (luac output), which the sandbox never loads.
                if !compiled && error.message.hasSuffix("attempt to load a binary chunk (mode is 't')") {
                    throw ScenarioLoadError(
                        "\(entry.path): the file is precompiled Lua bytecode (luac output), which navscript does not "
                            + "load: scenarios run from their source — give it the .lua source file", kind: .syntax)
                }
                // Lua's parser recurses once per nested function or table: past its limit it says only
                // "C stack overflow", with no line. Said in the file's terms.
                if !compiled && error.message.hasSuffix("C stack overflow") {
                    throw ScenarioLoadError(
                        "\(entry.path): the file nests too deeply for Lua to read (functions within functions — describe "
                            + "blocks, scenarios, callbacks — or tables within tables, about 60 levels at most; Lua says "
                            + "\"C stack overflow\"): flatten it", kind: .syntax)
                }
                let traceback = Self.userTraceback(error.traceback)
                let message = ScenarioProblem.explained(error.message, traceback: traceback, placing: kind == .luaError) {
                    [state] in try Self.definedGlobals(in: state)
                }
                throw ScenarioLoadError(
                    message, details: traceback,
                    kind: kind == .luaError ? .loadError : kind)
            } catch let error as ScenarioLoadError {
                throw error
            } catch {
                throw ScenarioLoadError("\(error)")
            }
        } catch var error as ScenarioLoadError {
            error.output = context.loadOutput.text
            throw error
        } catch {
            throw ScenarioLoadError("\(error)", output: context.loadOutput.text)
        }
    }

    /// Where Lua was when a limit stopped it, as the bridge's message begins:
    /// `chunk:line: ` (the file's own line, or a module's it requires), or
    /// nothing when the message names no line.
    /// A scenario's own loop that ran out: often one waiting for the app to change, which it never
    /// does between steps — raising the budget is then the wrong fix.
    static let waitingAdvice =
        " (a loop that waits for the app — until a screen shows — waits for ever: the app changes only when a step "
        + "runs, and settles before each call returns; check once after the step instead)"

    /// Why a budget ran out: `who`'s own loop, or one library call doing
    /// that much work (a backtracking pattern, a huge `table.move`).
    static func budgetCause(_ error: LuaError, of who: String) -> String {
        guard let spender = error.budgetSpentBy else { return "\(who) may loop forever" }
        if spender == "a pattern match" {
            return "a pattern match backtracked that far (each `*`, `-` or `+` retries every length; anchor it, or "
                + "match a simpler pattern)"
        }
        return "spent by \(spender) — work done inside a single call or operator counts too, so a short loop "
            + "doing much of it is stopped"
    }

    /// What the time limit's error says after its place and `timeout: `
    /// (`ran longer than 2s (--timeout) in its own Lua code`), for a
    /// message that says what ran long: a scenario, or a file's top level.
    static func timeLimitWords(_ error: LuaError) -> String {
        error.message.range(of: "timeout: ").map { String(error.message[$0.upperBound...]) } ?? error.message
    }

    static func place(of error: LuaError) -> String {
        // "chunk:123: …": the part up to the first ": ", when it ends in a colon and digits.
        guard let end = error.message.range(of: ": ")?.lowerBound else { return "" }
        let head = error.message[..<end]
        guard let colon = head.lastIndex(of: ":"), head.index(after: colon) < head.endIndex,
            head[head.index(after: colon)...].allSatisfy(\.isNumber)
        else { return "" }
        // Inside navscript's own Lua (the prelude running a scenario.each of 200,000 rows): the
        // user's line that called it, from the traceback, is the place to name.
        if BindingContext.isInternal(String(head[..<colon])) {
            return ScenarioProblem.at(userTraceback(error.traceback))
        }
        return String(head) + ": "
    }

    /// The names of every global the file's state defines (the standard
    /// library, the scenario language, the file's own), sorted.
    func definedGlobals() throws(LuaError) -> [String] {
        try Self.definedGlobals(in: state)
    }

    static func definedGlobals(in state: LuaState) throws(LuaError) -> [String] {
        let chunk = try state.load(
            bytes: Array("local n = {} for k in pairs(_G) do n[#n + 1] = k end return n".utf8),
            chunkName: "=globals")
        let names = try state.call(chunk).first?.tableValue?.array.compactMap(\.stringValue) ?? []
        return names.sorted()
    }

    static func text(_ value: LuaValue) -> String {
        switch value {
        case .nil: return "nil"
        case .boolean(let flag): return String(flag)
        case .integer(let number): return String(number)
        case .number(let number): return String(number)
        case .string(let text): return text.string
        default: return value.description
        }
    }

    // MARK: - Running

    /// Runs one scenario against a fresh app and reports what happened.
    ///
    /// Failures are read from the world, where each was recorded when it
    /// happened — a `pcall` around an expectation cannot hide one. After
    /// the body and the `after_each` hooks, the invariants not allowed are
    /// checked on the settled app. The outcome is the first thing that went
    /// wrong: a failure, or an error that came before any failure (a budget
    /// or memory error always wins); everything else is listed after it.
    /// `last`: no scenario of this file runs after this one (so the modules need no snapshot to be
    /// put back from); a caller that is not sure leaves it false.
    package func run(
        _ definition: ScenarioDefinition, host: any ScenarioHost, faults: [String],
        observer: ScenarioObserver = ScenarioObserver(), last: Bool = false
    ) -> ScenarioResult {
        let started = Date()
        var result = ScenarioResult(
            name: definition.name, groups: definition.groups, file: definition.file,
            line: definition.line, tags: definition.tags, outcome: .passed)
        if definition.isPending {
            result.outcome = .skipped(.pending)
            result.message = "pending"
            return result
        }
        let world = ScenarioWorld(
            host: host, faults: faults, launchOptions: context.launchOptions,
            strictSteps: options.strictSteps, recordsFrames: options.recordsFrames,
            eventRetention: options.eventRetention, scenario: (definition.file, definition.name))
        world.observer = observer
        for name in options.allow { if let invariant = Invariant(rawValue: name) { world.allowed[invariant] = "--allow" } }
        for (invariant, reason) in definition.allow { world.allowed[invariant] = reason }
        context.world = world
        if let modules, modulesSnapshotTaken || !last {
            // Keeping and putting back the modules as the top level left them is navscript's work, not
            // this scenario's: under no budget and no time limit (an earlier scenario that grew a
            // module's table by a million entries made the next trivial one exceed its budget).
            state.setInstructionBudget(nil)
            state.resetLimits(timeout: nil)
            state.chargesAllocations(false)
            _ = try? state.call(modulesSnapshotTaken ? modules.restore : modules.snapshot)
            modulesSnapshotTaken = true
            state.setInstructionBudget(options.instructionBudget)
        }
        state.resetLimits(timeout: options.scenarioTimeout)
        state.forgetCoroutinesThatCalledSwift()
        let heldAtStart = state.memoryInUse  // what earlier scenarios and the top level kept (see the memory error below)
        defer {
            state.clearTimeLimit()
            context.world = nil
            collectGarbageIfGrown()
        }

        var error: ScenarioProblem?
        /// Errors after the first (an `after_each` that raises after the body did), or the one a
        /// budget or memory error took the lead from: reported after it, never dropped.
        var otherErrors: [ScenarioProblem] = []
        var failuresBeforeError = 0
        func attempt(_ phase: String, _ body: () throws -> Void) {
            world.phase = phase
            defer { world.phase = "scenario" }
            do {
                try body()
            } catch let thrown {
                var found = ScenarioProblem(
                    thrown, phase: phase, recorded: world.raisedFailure, launchFailure: world.launchFailure,
                    interruptionReason: options.interruption?.reason
                ) { [state] in
                    try Self.definedGlobals(in: state)
                }
                found.message = Self.placed(found.message, in: entry.path, traceback: found.details)
                if found.outcome == .errored(.timeout), let overrun = world.overrunCall,
                    let said = found.message.range(of: "timeout: the scenario ")
                {
                    // The time ran out inside one call; the hook stopped Lua only at its next line.
                    found.message =
                        "\(overrun.location): timeout: the scenario "
                        + found.message[said.upperBound...].replacingOccurrences(
                            of: " in its own Lua code", with: ", inside \(overrun.call) (the app's own work, not the script's)")
                }
                if found.outcome == .errored(.luaError),
                    let hint = NameSuggestion.hostFunctionsHint(forLuaMessage: found.message, host: host)
                {
                    found.message += hint
                }
                guard found.outcome.status == .errored else { return }  // a failure: recorded on the world already
                if error == nil || found.outcome == .errored(.budget) || found.outcome == .errored(.memory) {
                    if let earlier = error { otherErrors.append(earlier) } else { failuresBeforeError = world.failureCount }
                    error = found
                } else {
                    otherErrors.append(found)
                }
            }
        }
        let at = String(source: definition.file, line: definition.line)
        if let launch = definition.launch {
            attempt("launch") {
                let request = try DrivingBindings.launchRequest(launch) { ScenarioProblem.launch("\(at): launch option: \($0)") }
                do {
                    try world.launch(request, at: at, byScenarioOption: true)
                } catch let failure as LaunchFailure {
                    throw ScenarioProblem.launch(failure.description)
                } catch {
                    throw ScenarioProblem.launch("\(at): \(error)")
                }
            }
        }
        let clean = { error == nil && world.failures.isEmpty }
        /// Calls Lua; a memory-limit error the script caught with `pcall` is thrown all the same,
        /// and so is a budget that ran out in a coroutine or a `pcall` the script went on after.
        /// (A memory error caught first is the cause of what came after it — a loop that retries
        /// the allocation until the budget runs out — so it is the one reported.)
        func call(_ function: LuaFunction, _ arguments: [LuaValue] = []) throws {
            context.runningLines = state.lineRange(of: function)
            defer { context.runningLines = nil }
            do {
                _ = try state.call(function, arguments)
            } catch {
                if let caught = state.caughtMemoryError() { throw caught }
                throw error
            }
            if let caught = state.caughtLimitError() { throw caught }
        }
        for hook in definition.before where clean() {
            attempt("before_each") { try call(hook) }
        }
        if clean(), let body = definition.body {
            attempt("scenario") { try call(body, definition.row.isNil ? [] : [definition.row]) }
            // What the body left is checked before the after_each hooks run: a hook that logs out,
            // launches or restarts would otherwise tear down a leak before anything looked.
            if error == nil, !definition.after.isEmpty, let app = world.app {
                let settled = (try? app.settle()) != nil
                world.checkInvariants(after: "after the scenario's body (before its after_each hooks)", at: at, settled: settled)
            }
        }
        for hook in definition.after where !state.isInstructionBudgetExhausted && state.caughtInterruption() == nil {
            attempt("after_each") { try call(hook) }
        }
        // The time limit is looked at every thousand instructions: one operation that reaches none
        // for seconds (a metamethod chain, a long C call, the app's own work) and then ends by itself
        // left a scenario past its --timeout that passed — in process until the watch's grace, in a
        // worker until it was killed. Its verdict must not depend on where it ran.
        if state.isPastDeadline, error?.outcome != .errored(.timeout), let limit = options.scenarioTimeout {
            let took = Date().timeIntervalSince(started)
            let place = world.overrunCall.map { "\($0.location): timeout: the scenario " } ?? "\(at): timeout: the scenario "
            let inside = world.overrunCall.map { "inside \($0.call)" } ?? "inside one operation no instruction check could stop"
            let shown = limit == limit.rounded() && limit < 1e15 ? String(Int(limit)) : String(limit)
            let found = ScenarioProblem(
                outcome: .errored(.timeout),
                message: place + "ran longer than \(shown)s (--timeout): it took \(String(format: "%.1f", took))s, the time "
                    + "running out \(inside), which ended by itself after the limit; raise the limit with --timeout "
                    + "if it is legitimately long",
                details: "")
            if error != nil {
                otherErrors.append(found)
            } else {
                failuresBeforeError = world.failureCount
                error = found
            }
        }
        // An app that could not launch is the scenario's error even when a pcall caught it.
        if error == nil, let failure = world.launchFailure {
            error = ScenarioProblem.launch(failure.description)
        }
        // So is a wrong call of the language (a misspelt item, an unknown option): a pcall
        // around it must not turn the check it could not make into a pass.
        if error == nil, let mistake = world.mistakes.first {
            error = ScenarioProblem(
                outcome: .errored(.luaError),
                message: mistake + " (a pcall caught this error, but a wrong call is the scenario's error whatever catches it)",
                details: "")
        }
        // A coroutine that drove the app and was left at a yield: what came after the yield never ran
        // (a body or hook calling a coroutine.wrap function that yields after its first steps).
        if error == nil, let yield = state.suspendedCoroutineThatCalledSwift() {
            error = ScenarioProblem(
                outcome: .errored(.luaError),
                message: "\(yield): a coroutine that drove the app or checked it is still suspended at this yield when "
                    + "the scenario ends, so what comes after the yield never ran; resume it until it returns, or "
                    + "coroutine.close() it where stopping early is meant",
                details: "")
        }
        if error == nil, let app = world.app {
            do {
                try app.settle()
            } catch {
                world.recordFailure(
                    ExpectationFailure("\(at): invariant 'idle' violated after the scenario: \(error.message)", invariant: .idle))
            }
            world.checkInvariants(after: "after the scenario", at: at)
        }

        let failures = world.failures
        if let error, error.outcome != .errored(.luaError) || failuresBeforeError == 0 {
            result.outcome = error.outcome
            result.message = error.message
            result.details = Self.joined(error.details, also: failures, errors: otherErrors)
            // The file's state is shared by its scenarios: when most of the limit was already
            // held at the start, this scenario only tipped it over.
            if error.outcome == .errored(.memory), let limit = options.memoryLimit, heldAtStart > limit / 2 {
                result.message +=
                    "; the file's Lua state already held \(heldAtStart) bytes when this scenario started "
                    + "(kept by the file's top level or an earlier scenario, e.g. in a global)"
            }
        } else if let first = failures.first {
            result.outcome = .failed(.expectation)
            let more = world.failureCount - 1
            result.message = first.message + (more > 0 ? " (and \(more) more failure\(more == 1 ? "" : "s"))" : "")
            result.details = Self.joined(
                first.details, also: Array(failures.dropFirst()),
                errors: (error.map { [$0] } ?? []) + otherErrors)
        }
        if world.failuresNotKept > 0 {
            result.details +=
                "\n… and \(world.failuresNotKept) more failure\(world.failuresNotKept == 1 ? "" : "s") after these, counted "
                + "(a scenario keeps its first \(ScenarioWorld.keptFailures))"
        }
        if result.status == .passed, !world.checkedSomething {
            if world.app == nil && world.timeline.isEmpty {
                result.message = ScenarioResult.checkedNothing
            } else if world.allowed.count == Invariant.allCases.count {
                result.message = ScenarioResult.checkedNothingAllowed
            }
        }
        if !world.allowed.isEmpty {
            world.note(
                "invariants allowed: "
                    + world.allowed.sorted { $0.key.rawValue < $1.key.rawValue }
                    .map { "\($0.key.rawValue) (\($0.value))" }.joined(separator: ", "))
        }
        if let error, result.status == .errored {
            world.attachToLastFrame(StepFrame.Problem(kind: "error", message: error.message, details: error.details))
        }
        result.timeline = world.timeline
        // Frames are for storyboards of what went wrong: a passing scenario drops them.
        if result.status.isProblem { result.frames = world.frames }
        result.output = world.output.text
        if !context.loadOutput.isEmpty {
            // Printed at the file's top level: shown with its first scenario.
            result.output = "(printed while the file loaded)\n" + context.loadOutput.text + result.output
            context.loadOutput = BoundedOutput()
        }
        result.message = TextCap.capped(result.message, to: TextCap.message)
        result.details = TextCap.capped(result.details, to: TextCap.details)
        result.duration = Date().timeIntervalSince(started)
        return result
    }

    /// `details`, then every further failure, each under "also failed".
    package static func joined(_ details: String, also failures: [ExpectationFailure], errors: [ScenarioProblem] = []) -> String {
        var text = details
        let items = failures.map { ("also failed: ", $0.message, $0.details) } + errors.map { ("also an error: ", $0.message, $0.details) }
        for (label, message, more) in items {
            if !text.isEmpty { text += "\n" }
            text += label + message
            if !more.isEmpty { text += "\n" + more }
        }
        return text
    }

    /// Bytes in use once the file loaded, then after each full collection
    /// between scenarios.
    private var collectedBytes = 0

    /// A full collection between scenarios only once the heap has grown by
    /// ``collectionThreshold`` since the last one. Why: a full collection
    /// traverses the whole state (standard library, every declaration), and
    /// running one after every scenario was about a tenth of a scenario's
    /// cost (callgrind); Lua's incremental collector and the memory cap's
    /// emergency collection keep garbage bounded in between, and nothing a
    /// scenario can observe depends on when collection happens (`__gc` is
    /// refused by the sandbox; bindings hold no Lua values).
    private func collectGarbageIfGrown() {
        let inUse = state.memoryInUse
        if inUse < collectedBytes + Self.collectionThreshold { return }
        state.collectGarbage()
        collectedBytes = state.memoryInUse
    }

    /// Heap growth (bytes) that triggers a full collection between scenarios.
    static let collectionThreshold = 1 << 20

    /// A traceback without navscript's own frames (the scenario prelude, the
    /// sandbox) and the `error` call they raised through: what is left
    /// points at the user's lines only.
    /// `message` placed in another file (`support/helpers.lua:9: boom`, raised
    /// in a helper the scenario called) is named at the scenario's own line
    /// too, as a failure there is: `a.lua:10 (in support/helpers.lua:9): boom`.
    static func placed(_ message: String, in file: String, traceback: String) -> String {
        guard ScenarioProblem.hasPlace(message), var end = message.range(of: ": ") else { return message }
        var message = message
        // `coroutine.wrap` puts its caller's place before an error that has one already
        // (`a.lua:7: a.lua:7: …`, once per level of nested wraps): said once.
        while message[end.upperBound...].hasPrefix(message[..<end.upperBound]) {
            message = String(message[end.upperBound...])
            guard let again = message.range(of: ": ") else { return message }
            end = again
        }
        // Lua names a long chunk by its last characters (`...suite/a.lua`).
        func isFile(_ source: Substring) -> Bool {
            source == file || (source.hasPrefix("...") && file.hasSuffix(source.dropFirst(3)))
        }
        let place = message[..<end.lowerBound]
        // Already `a.lua:10 (in support/helpers.lua:9)`: the scenario's own place leads.
        let own = place.range(of: " (in ").map { place[..<$0.lowerBound] } ?? place
        guard let colon = own.lastIndex(of: ":"), !isFile(own[..<colon]) else { return message }
        for line in traceback.split(separator: "\n").dropFirst() {
            if let frame = ScenarioProblem.framePlace(line), isFile(frame.source) {
                return "\(file):\(frame.line) (in \(place)): \(message[end.upperBound...])"
            }
        }
        return message
    }

    static func userTraceback(_ traceback: String?) -> String {
        guard let traceback else { return "" }
        let lines = traceback.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var kept: [String] = []
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if BindingContext.internalSources.contains(where: { trimmed.hasPrefix($0 + ":") }) { continue }
            let next = index + 1 < lines.count ? lines[index + 1].trimmingCharacters(in: .whitespaces) : ""
            if trimmed.hasPrefix("[C]:") && BindingContext.internalSources.contains(where: { next.hasPrefix($0 + ":") }) {
                continue
            }
            kept.append(line)
        }
        return kept == ["stack traceback:"] ? "" : kept.joined(separator: "\n")
    }

    static func kind(of error: LuaError) -> ScenarioOutcome.ErrorKind {
        switch error.kind {
        case .budget: return .budget
        case .interrupted: return .interrupted
        case .timeout: return .timeout
        case .memory: return .memory
        case .syntax: return .syntax
        default: return .luaError
        }
    }
}

/// The first thing that went wrong in a scenario, classified: an
/// expectation failure, or an error (Lua, budget, memory, launch).
package struct ScenarioProblem: Error {
    package var outcome: ScenarioOutcome
    package var message: String
    var details: String

    static func launch(_ message: String) -> ScenarioProblem {
        ScenarioProblem(outcome: .errored(.launchError), message: message, details: "")
    }

    /// `file.lua:3: ` of a traceback's innermost frame of the scenario's files (what was
    /// running when a limit stopped it), or nothing.
    static func at(_ traceback: String) -> String {
        for line in traceback.split(separator: "\n").dropFirst() where !line.trimmingCharacters(in: .whitespaces).hasPrefix("[C]") {
            if let place = framePlace(line) { return "\(place.source):\(place.line): " }
        }
        return ""
    }

    /// The `source` and `line` of a traceback frame (`\tsource:12: in …`): the
    /// first colon followed by digits and a colon ends the source.
    static func framePlace(_ line: Substring) -> (source: Substring, line: Substring)? {
        let frame = line.drop { $0 == " " || $0 == "\t" }
        var search = frame.startIndex
        while let colon = frame[search...].firstIndex(of: ":") {
            let rest = frame[frame.index(after: colon)...]
            let digits = rest.prefix(while: \.isNumber)
            if !digits.isEmpty, rest.dropFirst(digits.count).first == ":" { return (frame[..<colon], digits) }
            search = frame.index(after: colon)
        }
        return nil
    }

    /// A Lua error's message as a scenario's author reads it: placed at the
    /// script's line when it has no place of the script's (a library
    /// function's error, an error object, one raised inside navscript's own
    /// wrappers) and `placing`, with what usually causes it.
    static func explained(
        _ message: String, traceback: String, placing: Bool = true, globals: () throws -> [String]
    ) -> String {
        let hint =
            RecursionAdvice.hint(forLuaMessage: message) ?? NameSuggestion.hint(forLuaMessage: message, names: globals) ?? ""
        let own = withoutInternalPlace(message)
        return (hasPlace(own) || !placing ? "" : at(traceback)) + own + hint
    }

    /// `message` without a place inside navscript's own chunks
    /// (`navscript:393: `), where a standard function the prelude or the
    /// sandbox wraps raised it: that line means nothing to a script's author.
    static func withoutInternalPlace(_ message: String) -> String {
        for source in BindingContext.internalSources where message.hasPrefix(source + ":") {
            let rest = message.dropFirst(source.count + 1)
            let digits = rest.prefix(while: \.isNumber)
            if !digits.isEmpty, rest.dropFirst(digits.count).hasPrefix(": ") {
                return String(rest.dropFirst(digits.count + 2))
            }
        }
        return message
    }

    /// Whether `message` starts with a place, `chunk:123: ` (or
    /// `chunk:123 (in module:45): `).
    static func hasPlace(_ message: String) -> Bool {
        guard let end = message.range(of: ": ")?.lowerBound else { return false }
        var head = message[..<end]
        // `a.lua:10 (in support/helpers.lua:9): …`, a place in a module called from the scenario's line.
        if head.hasSuffix(")"), let inner = head.range(of: " (in ") { head = head[..<inner.lowerBound] }
        guard let colon = head.lastIndex(of: ":") else { return false }
        let digits = head[head.index(after: colon)...]
        return !digits.isEmpty && digits.allSatisfy(\.isNumber)
    }

    init(outcome: ScenarioOutcome, message: String, details: String) {
        self.outcome = outcome
        self.message = message
        self.details = details
    }

    /// Classifies what a phase threw. A failure object the world recorded
    /// (``RaisedFailure``, told by identity) is that failure; one it did not
    /// record — raised again by the script in another scenario — is an
    /// error. `globals` names what the script could have meant when it
    /// called or indexed a nil global (see ``NameSuggestion``). The world's
    /// ``LaunchFailure`` unwinding (`launchFailure`) is the launch error.
    package init(
        _ error: Error, phase: String, recorded: (ObjectIdentifier) -> RaisedFailure? = { _ in nil },
        launchFailure: LaunchFailure? = nil, interruptionReason: String? = nil, globals: () throws -> [String] = { [] }
    ) {
        let suffix = phase == "scenario" ? "" : " (in \(phase))"
        switch error {
        case let error as LuaError:
            if let identity = error.errorObject, let raised = recorded(identity) {
                self.init(outcome: .failed(.expectation), message: raised.message + suffix, details: raised.details)
            } else if let launchFailure, error.errorObject == ObjectIdentifier(launchFailure) {
                self.init(outcome: .errored(.launchError), message: launchFailure.description + suffix, details: "")
            } else if error.errorObject != nil && error.kind == .runtime {
                // A failure object kept from an earlier scenario (in a global) and raised again.
                self.init(
                    outcome: .errored(.luaError),
                    message: "the script raised a failure that is not this scenario's (\(error.message))" + suffix
                        + "; a failure caught in one scenario cannot fail another: fail with assert or expect_*, "
                        + "raise errors with error(\"…\")",
                    details: ScenarioFile.userTraceback(error.traceback))
            } else if error.kind == .interrupted {
                self.init(
                    outcome: .errored(.interrupted),
                    message: Self.at(ScenarioFile.userTraceback(error.traceback)) + "stopped while running: "
                        + (interruptionReason ?? "the run was interrupted"),
                    details: ScenarioFile.userTraceback(error.traceback))
            } else if error.kind == .budget {
                let traceback = ScenarioFile.userTraceback(error.traceback)
                // Where it ran out (the error says), not where it was raised again after a pcall caught it.
                let place = ScenarioFile.place(of: error)
                self.init(
                    outcome: .errored(.budget),
                    message: (place.isEmpty ? Self.at(traceback) : place) + "instruction budget exceeded\(suffix): "
                        + ScenarioFile.budgetCause(error, of: "the scenario")
                        + (error.budgetSpentBy == nil ? ScenarioFile.waitingAdvice : "")
                        + "; raise the limit with --instruction-budget if it is legitimately long",
                    details: traceback)
            } else if error.kind == .timeout {
                let traceback = ScenarioFile.userTraceback(error.traceback)
                let place = ScenarioFile.place(of: error)
                let said = ScenarioFile.timeLimitWords(error)
                self.init(
                    outcome: .errored(.timeout),
                    message: (place.isEmpty ? Self.at(traceback) : place) + "timeout\(suffix): the scenario " + said
                        + "; raise the limit with --timeout if it is legitimately long",
                    details: traceback)
            } else if error.kind == .memory || error.message.contains("memory limit exceeded") {
                let traceback = ScenarioFile.userTraceback(error.traceback)
                self.init(
                    outcome: .errored(.memory),
                    message: Self.at(traceback) + "memory limit exceeded\(suffix): the scenario allocates without bound; "
                        + "raise the limit with --memory-limit if it legitimately needs more",
                    details: traceback)
            } else {
                let traceback = ScenarioFile.userTraceback(error.traceback)
                // An error a library function raised (`table.sort`'s "invalid order function"), an
                // error object, or one placed inside navscript's own wrappers (`navscript:393:`) has no
                // place of the script's: the innermost line of the scenario's files is named.
                let message = Self.explained(error.message, traceback: traceback, globals: globals)
                self.init(outcome: .errored(.luaError), message: message + suffix, details: traceback)
            }
        case let problem as ScenarioProblem:
            self = problem
        case let error as HostError:
            self.init(outcome: .failed(.expectation), message: error.message + suffix, details: "")
        default:
            self.init(outcome: .errored(.luaError), message: "\(error)" + suffix, details: "")
        }
    }
}
