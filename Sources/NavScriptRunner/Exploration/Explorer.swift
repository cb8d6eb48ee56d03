import Foundation
import NavScript
import NavScriptRuntime
import NavigationCore

/// Model-based exploration: seeded random walks over the app's action
/// space, the invariants and differential properties checked after every
/// step, and every violation shrunk (delta debugging) to a minimal walk
/// written as an ordinary scenario. Same seed, same walks, same reproducer.
public final class Explorer {
    public struct Configuration: Sendable {
        package var seed: UInt64
        /// Stop after this many seconds of exploring (0: no limit).
        package var seconds: Double
        /// Stop after this many steps in all (0: no limit).
        package var steps: Int
        /// Steps per walk before a fresh launch.
        package var walkLength: Int
        package var faults: [String]
        /// Stop as soon as everything the app offers was covered.
        package var untilCovered: Bool
        /// Stop at the first violation verified against the healthy app
        /// (`--stop-at-first`; mutate --explore, whose row needs only that one).
        package var stopAtFirst: Bool
        package var options: RunOptions
        /// The manifest the app was given (`--manifest`), named in a reproducer's replay lines.
        package var manifest: String?
        /// Where each fresh app and each line is written before it runs, for a
        /// supervising process to read if this one crashes or hangs.
        package var trace: ExplorationTrace?
        /// Asked before every step: true stops the exploration there (an interrupt).
        package var shouldStop: (@Sendable () -> Bool)?
        /// Driving calls from the suite's scenario files (``SuiteSeeds``), drawn
        /// from besides the generated actions (`explore --from`).
        package var suiteCalls: [String] = []
        /// The `--from` paths `suiteCalls` came from: the exploration that finds a reproducer again names them.
        package var seedPaths: [String] = []
        /// The exploration's `--timeout`: a hang's replay is judged by it, not by `run`'s own (a minute).
        package var replayTimeout: Double?
        /// The executable a reproducer's replay lines name (`navscript`, `myapp-navscript`):
        /// the one that explored, so a line copied from the header runs the same app.
        package var executable = "navscript"

        /// Steps per walk unless told otherwise (`--walk-length`).
        public static let defaultWalkLength = 25

        public init(
            seed: UInt64, seconds: Double = 10, steps: Int = 0, walkLength: Int = defaultWalkLength, faults: [String] = [],
            untilCovered: Bool = false, stopAtFirst: Bool = false, options: RunOptions = RunOptions(),
            manifest: String? = nil, trace: ExplorationTrace? = nil,
            shouldStop: (@Sendable () -> Bool)? = nil
        ) {
            self.seed = seed
            self.seconds = seconds
            self.steps = steps
            self.walkLength = walkLength
            self.faults = faults
            self.untilCovered = untilCovered
            self.stopAtFirst = stopAtFirst
            self.options = options
            self.manifest = manifest
            self.trace = trace
            self.shouldStop = shouldStop
        }
    }

    /// A violation, shrunk, with its reproducer.
    public struct Finding: Sendable {
        package var property: String
        package var message: String
        /// The walk as found, then shrunk.
        package var originalSteps: Int
        package var steps: [String]
        /// The shrunk walk as its reproducer's timeline numbers it (the
        /// implicit launch first, one entry per step a call recorded, with
        /// where the app ended up): the numbers the message's "after step N"
        /// and a leak's "left at step N" use.
        package var timeline: [String]
        /// The scenario file's text.
        package var reproducer: String
        /// The reproducer fails with the run's faults and passes without them.
        package var verified: Bool
        /// Seconds from the start of the exploration to the violation.
        package var timeToFind: Double
    }

    /// What was reached.
    package struct Coverage: Sendable {
        package var covered: Set<String>
        package var all: Set<String>
        package var missing: [String] { all.subtracting(covered).sorted() }
    }

    public struct Report: Sendable {
        package var findings: [Finding]
        package var walks: Int
        public var steps: Int
        public var seconds: Double
        package var coverage: Coverage
        /// Whether it ended at its first verified violation (`--stop-at-first`) before its limits.
        package var stoppedAtFirst = false
    }

    let host: any ScenarioHost
    /// Watches each step's events for a gate's flow completing too early.
    private let gateWatch = GateCompletionWatch()
    /// Reads each step's new events for requests a gate held and nobody answered.
    private let requestReading = UnansweredRequest.LogReading()
    /// Reads each step's new events for a resumed request gated again by its own gate.
    private let resumeReading = RegatedResumeReader.LogReading()
    /// Reads each step's new events for a window brought forward out of order after a close.
    private let focusReading = EventLogReading<WindowFocusOrder.Reader>()
    /// Reads each step's new events for cold-start links held and never delivered.
    private let stashReading = EventLogReading<StashedLinks.Reader>()
    /// Reads each step's new events for a request of the app's own that its router refused.
    private let selfSentReading = EventLogReading<SelfSentRejection.Reader>()
    /// Judges a refused value by its spec, not by the engine's code.
    private let oracle = ParamOracle()
    /// The scenario language every walk and replay runs in, prepared once.
    private lazy var language = ScenarioLanguage(host: host)
    let configuration: Configuration
    /// What each host verb ensures (``ScriptFunction/postcondition``), by name.
    let postconditions: [String: String]

    public init(host: any ScenarioHost, configuration: Configuration) {
        self.host = host
        self.configuration = configuration
        var postconditions: [String: String] = [:]
        for function in host.functions { if let lines = function.postcondition { postconditions[function.name] = lines } }
        self.postconditions = postconditions
    }

    /// Explores until the budget is spent; `onFinding` hears each shrunk violation.
    public func run(onFinding: (Finding) -> Void = { _ in }) -> Report {
        var generator = SeededGenerator(seed: configuration.seed)
        var space = ActionSpace(host: host, seed: configuration.seed, suite: configuration.suiteCalls)
        var covered: Set<String> = []
        var findings: [Finding] = []
        var seen: Set<String> = []
        var walks = 0
        var steps = 0
        let started = Date()
        // Gate states count once an app says which preconditions hold (known after a launch).
        var all = space.allCoverage(gateStates: false)
        var gateStatesKnown = false
        func spent() -> Bool {
            if configuration.shouldStop?() == true { return true }
            if configuration.steps > 0 && steps >= configuration.steps { return true }
            if configuration.seconds > 0 && Date().timeIntervalSince(started) >= configuration.seconds { return true }
            if configuration.untilCovered && all.isSubset(of: covered) { return true }
            // A finding the healthy build shares is the app's own bug, not the fault's: go on looking.
            return configuration.stopAtFirst && findings.contains(where: \.verified)
        }
        while !spent() {
            walks += 1
            guard
                let walker = try? ExplorationWalk(
                    host: host, language: language, faults: configuration.faults, options: configuration.options)
            else { break }
            configuration.trace?.startSegment()
            defer { walker.close() }
            var walk: [ExplorationAction] = []
            let launch = ExplorationAction(lua: space.launch(&generator), coverage: "")
            var violation = step(walker, launch, walk: &walk)
            steps += 1
            var length = 0
            if !gateStatesKnown, walker.app?.satisfiedPreconditions != nil {
                gateStatesKnown = true
                all = space.allCoverage(gateStates: true)
            }
            while violation == nil, length < configuration.walkLength, !spent(), let app = walker.app {
                if let screen = app.state.visible?.id { covered.insert("screen \(screen)") }
                let candidates = space.candidates(app: app, generator: &generator)
                guard let picked = pick(candidates, covered: covered, generator: &generator) else { break }
                let action = space.rendered(picked, generator: &generator)
                violation = step(walker, action, walk: &walk)
                if walk.last == action { covered.insert(action.coverage) }
                if violation == nil, let link = action.link, let url = link.schemeURL, Int.random(in: 0..<6, using: &generator) == 0 {
                    // Every door, or — one check in two — the link's other spellings through its own door
                    // (a URL's capitals and escapes; a push's or a Handoff's other shapes): a launch each.
                    let door = link.entry
                    let spellings = Bool.random(using: &generator)
                    // The doors need only agree: a hostile link refused by each alike is no violation.
                    let check =
                        !spellings
                        ? "expect_same_outcome(\(LuaSource.string(url)), nil, { rejected = \"allowed\" })"
                        : "expect_same_outcome(\(LuaSource.string(url)), { \(LuaSource.string(door.rawValue)) }, "
                            + "{ spellings = true, rejected = \"allowed\" })"
                    violation = step(walker, ExplorationAction(lua: check, coverage: ""), walk: &walk)
                }
                steps += 1
                length += 1
            }
            if let screen = walker.app?.state.visible?.id { covered.insert("screen \(screen)") }
            guard let violation else { continue }
            let key = "\(violation.property)"
            guard seen.insert(key).inserted else { continue }
            let finding = shrink(walk, violation: violation, elapsed: Date().timeIntervalSince(started))
            findings.append(finding)
            onFinding(finding)
        }
        return Report(
            findings: findings, walks: walks, steps: steps, seconds: Date().timeIntervalSince(started),
            coverage: Coverage(covered: covered, all: all),
            stoppedAtFirst: configuration.stopAtFirst && findings.contains(where: \.verified))
    }

    /// Favours actions whose coverage is new.
    private func pick(
        _ actions: [ExplorationAction], covered: Set<String>,
        generator: inout SeededGenerator
    ) -> ExplorationAction? {
        guard !actions.isEmpty else { return nil }
        let weights = actions.map { covered.contains($0.coverage) ? 1 : 6 }
        var roll = Int.random(in: 0..<weights.reduce(0, +), using: &generator)
        for (action, weight) in zip(actions, weights) {
            if roll < weight { return action }
            roll -= weight
        }
        return actions.last
    }

    // MARK: - One step and its properties

    /// Runs `action`, keeps it in `walk` unless the app refused it, and
    /// returns the first property it broke.
    private func step(
        _ walker: ExplorationWalk, _ action: ExplorationAction,
        walk: inout [ExplorationAction]
    ) -> ExplorationViolation? {
        let line = action.lua
        // A link opened in a window that is not in front is judged in that window.
        let linkScene = action.link?.scene
        let before = linkScene.flatMap { (walker.app as? any SceneDriving)?.state(ofScene: $0) } ?? walker.app?.state
        // Counted from the app's first event: the log may drop its oldest during a long walk.
        let eventCountBefore = walker.app?.eventCount ?? 0
        let rootBefore = walker.app?.rootFlow
        configuration.trace?.step(line)
        gateWatch.watch(walker.app)
        let result = walker.run(line)
        let prematureCompletion = gateWatch.takeFinding()
        gateWatch.watch(walker.app)  // a launch or restart in the step: the new app's log from here on
        let broken = result.failures.filter { $0.invariant != nil }
        let refused = result.error != nil || result.failures.count > broken.count
        if refused && broken.isEmpty && !line.hasPrefix("expect_same_outcome") {
            configuration.trace?.dropLast()
            return nil  // the app could not take this step: it is not part of the walk
        }
        configuration.trace?.stepEnded()
        walk.append(action)
        if let failure = broken.first, let name = failure.invariant?.rawValue {
            return ExplorationViolation(
                property: .invariant(name), step: walk.count - 1, message: failure.message,
                assertion: ["-- the invariant '\(name)' is checked after the scenario"])
        }
        if line.hasPrefix("expect_same_outcome"), let failure = result.failures.first {
            let property: ExplorationProperty = line.contains("spellings = true") ? .equivalentSpellings : .sameOutcome
            return ExplorationViolation(property: property, step: walk.count - 1, message: failure.message, assertion: [])
        }
        if let violation = checkPostcondition(of: line, walker: walker, step: walk.count - 1) { return violation }
        let eventsBefore = max(0, eventCountBefore - (walker.app?.eventsDropped ?? 0))  // in what the log keeps
        if let premature = prematureCompletion {
            return Self.violation(premature, step: walk.count - 1)
        }
        if let app = walker.app, let violation = checkResumes(app.eventLog, since: eventsBefore, step: walk.count - 1) {
            return violation
        }
        if let app = walker.app, let replayed = Self.unresolvedResume(in: app.events, since: eventsBefore) {
            return ExplorationViolation(
                property: .resumeResolves, step: walk.count - 1,
                message: "\(replayed.request) resumed after its gate and went on with '\(replayed.next)' without being resolved again",
                assertion: [
                    "expect_events_since(0, { \(LuaSource.string("resume " + replayed.request)), "
                        + "\(LuaSource.string("resolve " + replayed.request)) })"
                ])
        }
        guard let app = walker.app else { return nil }
        // Settled only: a request may wait for work still scheduled (a commit, then its resume). And only
        // after a step that ended a flow: a request goes unanswered when its gate's flow ends.
        if app.isIdle, let stale = gateWatch.staleGateFlow() {
            return ExplorationViolation(
                property: .gateFlowEnds, step: walk.count - 1,
                message:
                    "the flow \(stale.flow), presented at '\(stale.gateEvent)', is still up though \(stale.precondition) holds: "
                    + "the requests waiting on it are never resumed",
                assertion: [
                    "-- a gate's flow ends once its precondition holds",
                    "expect_events{ \(LuaSource.string(stale.gateEvent)), \(LuaSource.string("start " + stale.flow)), "
                        + "\(LuaSource.string("finish " + stale.flow)) }"
                ])
        }
        if let refused = selfSentReading.read(app.eventLog).refused {
            return ExplorationViolation(
                property: .selfSentAccepted, step: walk.count - 1, message: SelfSentRejection.message(refused),
                assertion: SelfSentRejection.luaAssertion)
        }
        if let wrong = focusReading.read(app.eventLog).wrong {
            return ExplorationViolation(
                property: .focusAfterClose, step: walk.count - 1, message: WindowFocusOrder.message(wrong),
                assertion: WindowFocusOrder.luaAssertion)
        }
        // Up: in the main flow, settled, nothing presented (an app may hold its links until a sheet
        // it put up first — the sign-in after an expiry — is answered).
        if app.isIdle, app.rootFlow == "main", app.state.modals.isEmpty {
            let held = stashReading.read(app.eventLog).undelivered
            if !held.isEmpty {
                return ExplorationViolation(
                    property: .stashedDelivered, step: walk.count - 1, message: StashedLinks.message(held),
                    assertion: StashedLinks.luaAssertion)
            }
        }
        if app.isIdle, Self.endedAFlow(app.events, since: eventsBefore), let unanswered = requestReading.unanswered(in: app.eventLog) {
            return ExplorationViolation(
                property: .requestAnswered, step: walk.count - 1, message: unanswered.message,
                assertion: UnansweredRequest.luaAssertion)
        }
        // A link that arrives during onboarding (any root flow but the main one) is held until it
        // ends; executed at once, it tears onboarding down and the user never sees the rest.
        if let link = action.link, link.scene == nil, let rootBefore, rootBefore != "main", app.isIdle,
            app.rootFlow != rootBefore
        {
            return ExplorationViolation(
                property: .rootFlowKept, step: walk.count - 1,
                message: "the app was in its \(rootBefore) flow and a link ended it (the app is in \(app.rootFlow) now)",
                assertion: [
                    "assert(snapshot().root == \(LuaSource.string(rootBefore)), \"a link ended the \(rootBefore) flow the app was in\")"
                ])
        }
        if let tap = action.tap, app.isIdle,
            let violation = Self.checkTapLanding(tap, app: app, eventsBefore: eventsBefore, step: walk.count - 1)
        {
            return violation
        }
        if let link = action.link {
            let step = walk.count - 1
            let check = { self.checkLanding(link, app: app, before: before, eventsBefore: eventsBefore, step: step) }
            let scenes = app as? any SceneDriving
            var violation = link.scene.flatMap { scene in scenes?.acting(in: scene, check) } ?? (link.scene == nil ? check() : nil)
            if let scene = link.scene, let found = violation {
                // The reproducer checks the window the link was opened in.
                violation?.assertion = ["in_scene(\(scene), function()"] + found.assertion.map { "  " + $0 } + ["end)"]
            }
            if let violation { return violation }
            if let refused = checkValidValues(link, lua: action.lua, step: step) { return refused }
        }
        // (An app still in onboarding starts it again: its modal is the fresh start.)
        if action.startsFresh, app.rootFlow == "main", let violation = checkFreshStart(app.state, step: walk.count - 1) {
            return violation
        }
        if action.restoresState, let before, !Self.sameNavigation(before, app.state) {
            return ExplorationViolation(
                property: .restoration, step: walk.count - 1,
                message: "after restart{}, the navigation is \(Self.describe(app.state)); before it was \(Self.describe(before))",
                assertion: ["expect_snapshot{ tab = before.tab, stacks = before.stacks }"])
        }
        return nil
    }

    /// After a tap of an output that declares the destination it opens: that destination, with the
    /// tap's arguments, is the screen on top — a copy-pasted request (`order` for `tracking`), a
    /// push of the wrong screen or one without the tapped value break what the declaration promises.
    /// A tap a gate held, or whose request the router refused, lands elsewhere by design (other
    /// properties judge those), and one that logged nothing did nothing.
    static func checkTapLanding(
        _ tap: ExplorationAction.Tap, app: any AppDriver, eventsBefore: Int, step: Int
    ) -> ExplorationViolation? {
        guard let destination = tap.output.destination else { return nil }
        let events = app.events
        let from = eventsBefore <= events.count ? eventsBefore : 0
        // A tap that did nothing (a button the app disables: sign-in while signed in) promised nothing.
        let logged = events[from...]
        if logged.isEmpty || logged.contains(where: { $0.hasPrefix("gate ") || $0.hasPrefix("reject ") || $0.hasPrefix("join-gate ") }) {
            return nil
        }
        var expected = RouteParams()
        for name in tap.output.parameters { if let value = tap.arguments[name] { expected[name] = value } }
        let wanted = RouteStep(destination, params: expected)
        let state = app.state
        let visible = state.visible
        // Where the tap may have put it: on top of what shows, or of the selected tab under a sheet the
        // app raised as well (a tip, a prompt) — only a tap that put it nowhere on top broke the promise.
        let tops = [visible, state.stack(state.selectedTab).last] + state.modals.map(\.last)
        if tops.contains(where: { top in
            guard let top, top.id == destination else { return false }
            return expected.allSatisfy { top.params[$0.key] == $0.value }
        }) {
            return nil
        }
        /// `note(id = 7)`: a screen with every value, as the tap gave them.
        func spelled(_ step: RouteStep) -> String {
            step.params.isEmpty
                ? step.id.rawValue : "\(step.id)(" + step.params.map { "\($0.key) = \($0.value)" }.joined(separator: ", ") + ")"
        }
        return ExplorationViolation(
            property: .tapOpens, step: step,
            message:
                "output '\(tap.output.name)' declares it opens \(destination), so the tap should show \(spelled(wanted)); "
                + "the screen on top after it is \(visible.map(spelled) ?? "none")",
            assertion: [
                "-- a tap opens the destination its output declares (ScreenOutput(…, opens:))",
                "expect_screen(\(LuaSource.string(wanted.description)))"
            ])
    }

    /// Whether a `finish` or `release` was logged at or after `start` (all of
    /// the log when the app was replaced and its log is shorter).
    static func endedAFlow(_ events: [String], since start: Int) -> Bool {
        let from = start <= events.count ? start : 0
        return events[from...].contains { $0.hasPrefix("finish ") || $0.hasPrefix("release ") }
    }

    /// After a host verb that declares what it ensures, runs that as a check
    /// of its own (not a step of the walk): a verb documented to present the
    /// sign-in that did not is a finding under the verb's name.
    private func checkPostcondition(of line: String, walker: ExplorationWalk, step: Int) -> ExplorationViolation? {
        let verb = String(line.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
        guard let postcondition = postconditions[verb], walker.app?.isIdle == true else { return nil }
        let result = walker.run(postcondition)
        guard let failure = result.failures.first else {
            if let error = result.error {
                return ExplorationViolation(property: .postcondition(verb), step: step, message: "\(error)", assertion: [])
            }
            return nil
        }
        var message = failure.message
        if message.hasPrefix(ExplorationWalk.chunkName + ":") {
            message = String(message.drop { $0 != " " }.dropFirst())
        }
        return ExplorationViolation(
            property: .postcondition(verb), step: step, message: message,
            assertion: ["-- what \(verb) ensures"] + postcondition.split(separator: "\n").map(String.init))
    }

    /// A gate's flow reported success before its precondition held. The
    /// reproducer checks the order the healthy app keeps: the event that
    /// satisfied the precondition before the completion.
    static func violation(_ premature: GateCompletionWatch.Premature, step: Int) -> ExplorationViolation {
        let items = [premature.gateEvent, premature.satisfiedBy, premature.completion].map(LuaSource.string)
        return ExplorationViolation(
            property: .gateCompletion, step: step,
            message:
                "'\(premature.completion)' was logged while \(premature.precondition) did not hold (it held only after "
                + "'\(premature.satisfiedBy)'): the request the gate holds resumes into the same gate, or lands only because "
                + "the commit won a race",
            assertion: [
                "-- a gate's flow reports success only once its precondition holds",
                "expect_events{ " + items.joined(separator: ", ") + " }"
            ])
    }

    /// `gate P R … resume R`, then `resolve R gated P`: the gate reported
    /// success but the resumed request meets the same gate again (a walker
    /// committed too late, a cancelled sign-in reported as done).
    private func checkResumes(_ log: EventLog, since start: Int, step: Int) -> ExplorationViolation? {
        guard let regated = resumeReading.regatedResume(in: log, since: start) else { return nil }
        return ExplorationViolation(
            property: .gateResume, step: step,
            message:
                "the gate \(regated.precondition) reported success, but \(regated.request) was gated by \(regated.precondition) again when it resumed",
            assertion: Self.regatedResumeLua)
    }

    /// ``regatedResume(in:since:)`` as Lua, for a reproducer's end: exactly
    /// the property — no count of events, which a legitimate second gate
    /// (two links waiting on one sign-in, a chained gate) makes differ.
    static let regatedResumeLua: [String] = [
        "-- a request resumed after its gate reported success is not gated by that gate again",
        "local waiting, log = {}, events()",
        "for i, e in ipairs(log) do",
        "  local p, r = e:match(\"^gate (%S+) (.+)$\")",
        "  if p then",
        "    waiting[r] = waiting[r] or {}",
        "    table.insert(waiting[r], p)",
        "  else",
        "    local dropped, resumed = e:match(\"^drop (.+)$\"), e:match(\"^resume (.+)$\")",
        "    local list = waiting[dropped or resumed or \"\"]",
        "    if dropped and list and #list > 0 then",
        "      local same = true",
        "      for _, q in ipairs(list) do same = same and q == list[1] end",
        "      if same then table.remove(list, 1) else waiting[dropped] = nil end",
        "    elseif resumed and list and #list > 0 then",
        "      local p = table.remove(list, 1)",
        "      for j = i + 1, #log do",
        "        if log[j]:sub(1, #(\"resolve \" .. resumed .. \" \")) == \"resolve \" .. resumed .. \" \" then",
        "          assert(log[j] ~= \"resolve \" .. resumed .. \" gated \" .. p,",
        "            \"the gate \" .. p .. \" reported success, but \" .. resumed .. \" was gated by it again when it resumed\")",
        "          break",
        "        end",
        "      end",
        "    end",
        "  end",
        "end"
    ]

    /// The first `resume R` at or after `start` whose request is gated again
    /// by the precondition it waited on, in a whole log (see ``RegatedResumeReader``,
    /// which exploration keeps with the log it reads).
    static func regatedResume(in events: [String], since start: Int)
        -> (precondition: String, request: String, event: String)?
    {
        var reader = RegatedResumeReader()
        return reader.read(events, since: start)
    }

    /// The first `resume R` at or after `start` not followed at once by R's
    /// own dispatch — `resolve R …`, `queue R` or `reject <kind> R` — which
    /// is what the dispatcher does with a satisfied gate's request; anything
    /// else means the app acted on a destination from before the gate.
    static func unresolvedResume(in events: [String], since start: Int) -> (request: String, next: String)? {
        guard start < events.count else { return nil }
        for index in start..<events.count where events[index].hasPrefix("resume ") {
            let request = String(events[index].dropFirst("resume ".count))
            let next = index + 1 < events.count ? events[index + 1] : "nothing"
            if next.hasPrefix("resolve \(request) ") || next == "queue \(request)"
                || (next.hasPrefix("reject ") && next.hasSuffix(" \(request)"))
            {
                continue
            }
            return (request, next)
        }
        return nil
    }

    /// A link that proceeded must land on its canonical target — or, as the
    /// reconciler rules, leave the stack alone when its top already was the
    /// target: the user is looking at it. Only this step's events say how it
    /// went: a link the app held back (`stash`) resolved nothing yet, and an
    /// earlier link's `resolve` is not its own.
    private func checkLanding(
        _ link: ExplorationAction.Link, app: any AppDriver, before: NavigationState?, eventsBefore: Int,
        step: Int
    ) -> ExplorationViolation? {
        let everything = RouteContext(satisfied: Set(host.engine.manifest.preconditions))
        let events = app.events
        guard eventsBefore <= events.count,
            let timeline = events[eventsBefore...].last(where: {
                $0.hasPrefix("resolve ") || $0.hasPrefix("reject ") || $0.hasPrefix("deliver ")
            }),
            timeline.hasPrefix("resolve"), timeline.hasSuffix(" proceed"),
            case .proceed(let target)? = try? host.engine.resolve(link.input, entry: link.entry, context: everything),
            app.isIdle, app.rootFlow == "main"
        else { return nil }
        let state = app.state
        let stack = state.stack(target.tab).map(\.description)
        let expected = target.baseRun.map(\.description)
        let modals = state.modals.flatMap { $0.map(\.description) }
        let expectedModals = target.modals.flatMap { $0.map(\.description) }
        let stackBefore = before.map { $0.stack(target.tab).map(\.description) }
        guard
            state.selectedTab != target.tab || !Self.landed(stack, expected: expected, stackBefore: stackBefore)
                || modals != expectedModals
        else {
            // After two links, the first may have changed another tab: only the second's landing is judged.
            if link.followsAnother { return nil }
            return before.flatMap { checkOtherTabs(target, before: $0, after: state, step: step) }
        }
        return ExplorationViolation(
            property: .canonicalLanding, step: step,
            message: "the link landed on tab \(state.selectedTab) \(Expectation.render(stack)) "
                + (modals.isEmpty ? "" : "under modals \(Expectation.render(modals)) ")
                + "instead of \(target.tab) \(Expectation.render(expected))"
                + (expectedModals.isEmpty ? "" : " with modals \(Expectation.render(expectedModals))"),
            assertion: [
                "expect_tab(\(LuaSource.string(target.tab.rawValue)))",
                "expect_stack(\(LuaSource.string(target.tab.rawValue)), { " + expected.map(LuaSource.string).joined(separator: ", ")
                    + " })",
                expectedModals.isEmpty
                    ? "expect_modals{}"
                    : "expect_modals{ " + expectedModals.map(LuaSource.string).joined(separator: ", ") + " }"
            ])
    }

    /// A link refused because a parameter's value does not meet its spec,
    /// where the spec, read plainly (``ParamOracle``), accepts that value:
    /// the app's validation is wrong (a length limit off by one). The value
    /// refused is the engine's own account of the refusal.
    private func checkValidValues(_ link: ExplorationAction.Link, lua: String, step: Int) -> ExplorationViolation? {
        let everything = RouteContext(satisfied: Set(host.engine.manifest.preconditions))
        let refusal: RouteError
        do {
            _ = try host.engine.resolve(link.input, entry: link.entry, context: everything)
            return nil
        } catch {
            refusal = error
        }
        guard case .validationFailed(let destination, let parameter, let value, let reason) = refusal,
            let spec = host.engine.definition(of: destination)?.params.first(where: { $0.name == parameter }),
            oracle.accepts(value, spec: spec), lua.hasPrefix("deep_link("), !lua.contains(" deep_link(")
        else { return nil }
        var limits: [String] = []
        if let min = spec.minLength { limits.append("at least \(min) characters") }
        if let max = spec.maxLength { limits.append("at most \(max) characters") }
        if let pattern = spec.pattern { limits.append("matching \(pattern)") }
        if spec.kind == .integer { limits.append("an integer") }
        let said = "\(destination).\(parameter) = \(value) meets its spec (\(limits.joined(separator: ", ")))"
        return ExplorationViolation(
            property: .validValuesAccepted, step: step,
            message: "the link was refused (\(reason)), yet \(said)",
            assertion: [
                "local again = \(lua)",
                "assert(again.error ~= \"validation_failed\", \(LuaSource.string(said + ", and the app refused it: ")) .. tostring(again.message))"
            ])
    }

    /// After `restart{ restore = false }`: every tab at its root, no modal.
    private func checkFreshStart(_ state: NavigationState, step: Int) -> ExplorationViolation? {
        let deep = state.tabs.filter { state.stack($0).count > 1 }
        guard !deep.isEmpty || !state.modals.isEmpty else { return nil }
        let shown =
            deep.map { "\($0) \(Expectation.render(state.stack($0).map(\.description)))" }
            + (state.modals.isEmpty ? [] : ["modals \(Expectation.render(state.modals.flatMap { $0.map(\.description) }))"])
        return ExplorationViolation(
            property: .freshStart, step: step,
            message: "after restart{ restore = false } the app shows " + shown.joined(separator: ", ")
                + " instead of every tab at its root",
            assertion: ["expect_no_modal()"]
                + deep.compactMap { tab in
                    state.stack(tab).first.map {
                        "expect_stack(\(LuaSource.string(tab.rawValue)), { \(LuaSource.string($0.description)) })"
                    }
                })
    }

    /// After a link that proceeded to `target`: the tabs other than its own
    /// show what they showed before it.
    private func checkOtherTabs(
        _ target: Target, before: NavigationState, after: NavigationState, step: Int
    ) -> ExplorationViolation? {
        let changed = before.tabs.filter { $0 != target.tab && before.stack($0) != after.stack($0) }
        guard let tab = changed.first else { return nil }
        let was = before.stack(tab).map(\.description)
        return ExplorationViolation(
            property: .otherTabsKept, step: step,
            message: "a link to \(target.leaf?.description ?? "?") on tab \(target.tab) changed tab \(tab) from "
                + "\(Expectation.render(was)) to \(Expectation.render(after.stack(tab).map(\.description)))",
            assertion: ["expect_stack(\(LuaSource.string(tab.rawValue)), { " + was.map(LuaSource.string).joined(separator: ", ") + " })"])
    }

    /// Whether a link's target tab shows `stack` rightly: the canonical
    /// stack, or an untouched stack whose top already was the target's leaf.
    static func landed(_ stack: [String], expected: [String], stackBefore: [String]?) -> Bool {
        stack == expected || (stack == stackBefore && stack.last != nil && stack.last == expected.last)
    }

    /// The selected tab and every tab's stack. Modals are left out: an app
    /// may rightly not bring a sheet (a sign-in, onboarding) back on a cold start.
    static func sameNavigation(_ a: NavigationState, _ b: NavigationState) -> Bool {
        a.selectedTab == b.selectedTab && a.tabs.allSatisfy { a.stack($0) == b.stack($0) }
    }

    static func describe(_ state: NavigationState) -> String {
        "tab \(state.selectedTab), "
            + state.tabs.map { "\($0) \(Expectation.render(state.stack($0).map(\.description)))" }
            .joined(separator: ", ")
            + (state.modals.isEmpty ? "" : ", modals \(Expectation.render(state.modals.flatMap { $0.map(\.description) }))")
    }

    static func snapshotAssertion(_ state: NavigationState) -> String {
        let stacks = state.tabs.map { tab in
            "\(tab) = { " + state.stack(tab).map { LuaSource.string($0.description) }.joined(separator: ", ") + " }"
        }.joined(separator: ", ")
        return "expect_snapshot{ tab = \(LuaSource.string(state.selectedTab.rawValue)), stacks = { \(stacks) } }"
    }

    // MARK: - Replaying and shrinking

    /// Replays `walk` in a fresh walker; the first property broken, if any.
    func replay(_ walk: [ExplorationAction], faults: [String]) -> ExplorationViolation? {
        replayed(walk, faults: faults, keepingTimeline: false).violation
    }

    /// Replays `lines` from a fresh launch: the first property they break,
    /// and (when asked: shrinking replays many times and needs none) the
    /// timeline up to it, each entry without the walker's internal
    /// `explore.lua:1` location.
    func replayed(
        _ walk: [ExplorationAction], faults: [String],
        keepingTimeline: Bool = true
    ) -> (violation: ExplorationViolation?, timeline: [String]) {
        guard let walker = try? ExplorationWalk(host: host, language: language, faults: faults, options: configuration.options) else {
            return (nil, [])
        }
        defer { walker.close() }
        configuration.trace?.startSegment()
        var kept: [ExplorationAction] = []
        var generator = SeededGenerator(seed: 0)
        var space = ActionSpace(host: host, seed: 0)
        _ = space.launch(&generator)
        var violation: ExplorationViolation?
        for action in walk {
            violation = step(walker, action, walk: &kept)
            if violation != nil { break }
        }
        guard keepingTimeline else { return (violation, []) }
        let timeline = walker.world.timeline.kept.map { entry in
            entry.range(of: "  ").map { String(entry[$0.upperBound...]) } ?? entry
        }
        return (violation, timeline)
    }

    /// The smallest walk found that still breaks the same property, then
    /// the reproducer checked both ways.
    private func shrink(_ walk: [ExplorationAction], violation: ExplorationViolation, elapsed: Double) -> Finding {
        let property = violation.property
        let current = WalkShrinker<ExplorationAction>().shrink(Array(walk.prefix(violation.step + 1))) { candidate in
            replay(candidate, faults: configuration.faults)?.property == property
        }
        let (replayed, timeline) = replayed(current, faults: configuration.faults)
        var final = replayed ?? violation
        // The walker runs each step as a chunk of its own, `explore.lua`,
        // whose line is always 1: no place a reader can look up.
        if final.message.hasPrefix(ExplorationWalk.chunkName + ":1: ") {
            final.message.removeFirst(ExplorationWalk.chunkName.count + 4)
        }
        let steps = current.map(\.lua)
        let reproducer = Self.reproducer(
            steps, violation: final, configuration: configuration, originalSteps: walk.count,
            host: host)
        return Finding(
            property: property.description, message: final.message, originalSteps: walk.count, steps: steps,
            timeline: timeline,
            reproducer: reproducer, verified: verify(reproducer), timeToFind: elapsed)
    }

    /// Runs the reproducer as the runner would: it must fail with the
    /// exploration's faults and, when there are faults, pass without them.
    func verify(_ reproducer: String) -> Bool {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("navscript-explore-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("reproducer.lua")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(reproducer.utf8).write(to: url)
        } catch {
            return false
        }
        let entry = SuiteFile(path: url.path, url: url, suiteRoot: folder)
        func status(_ faults: [String]) -> ScenarioResult.Status? {
            var options = configuration.options
            options.faults = faults
            options.strictSteps = false
            return ScenarioRunner(host: host, options: options).runFile(entry, filter: nil).scenarios.first?.status
        }
        guard status(configuration.faults) == .failed else { return false }
        return configuration.faults.isEmpty || status([]) == .passed
    }

    /// A reproducer's first lines: the exploration that finds it again, and
    /// the run that replays it (with the faults and manifest the walk had;
    /// `run` takes neither the seed nor the walk length).
    /// `hang`: the reproducer replays a hang, judged by the exploration's time limit.
    package static func replayHeader(_ configuration: Configuration, host: any ScenarioHost, hang: Bool = false) -> String {
        let faults = configuration.faults.map { " --fault " + ShellWord.quoted($0) }.joined()
        let manifest = configuration.manifest.map { " --manifest " + ShellWord.quoted($0) } ?? ""
        let walk = configuration.walkLength == Configuration.defaultWalkLength ? "" : " --walk-length \(configuration.walkLength)"
        // The walks drew calls from --from's files: without them the same seed walks elsewhere.
        let from = configuration.seedPaths.map { " --from " + ShellWord.quoted($0) }.joined()
        let timeout = (hang ? configuration.replayTimeout : nil).map { " --timeout " + WorkerPool.seconds($0).dropLast() } ?? ""
        let executable = ShellWord.quoted(configuration.executable)
        return "-- Found by `\(executable) explore --seed \(configuration.seed)\(faults)\(walk)\(manifest)\(from)` against \(host.name).\n"
            + "-- Run it: `\(executable) run <this file>\(faults)\(manifest)\(timeout)`"
            + (configuration.faults.isEmpty ? ".\n" : " (without the faults it passes).\n")
    }

    /// The reproducer as a scenario file.
    static func reproducer(
        _ lines: [String], violation: ExplorationViolation, configuration: Configuration,
        originalSteps: Int, host: any ScenarioHost
    ) -> String {
        let seed = configuration.seed
        var text = Self.replayHeader(configuration, host: host)
        text += "-- Property: \(violation.property).\n"
        text += "-- Shrunk from \(originalSteps) steps to \(lines.count).\n"
        text += "-- \(violation.message.replacingOccurrences(of: "\n", with: " "))\n\n"
        let name = "explore seed \(seed): \(violation.property)"
        text += "scenario(\(LuaSource.string(name)), function()\n"
        for (index, line) in lines.enumerated() {
            if case .restoration = violation.property, index == lines.count - 1 { text += "  local before = snapshot()\n" }
            text += "  \(line)\n"
        }
        for line in violation.assertion { text += "  \(line)\n" }
        text += "end)\n"
        return text
    }
}
