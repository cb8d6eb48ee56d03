import NavScript
import NavigationCore

/// Everything one scenario run owns: its app (fresh for every scenario),
/// the launch it asked for, the step timeline, what it printed, and the
/// failures recorded so far — recorded the moment an expectation fails, so
/// no `pcall` can make them go away.
package final class ScenarioWorld {
    let host: any ScenarioHost
    /// Faults switched on for this run (`--fault`, or the fault `mutate` is testing).
    let faults: [String]
    package private(set) var app: (any AppDriver)? {
        didSet {
            windows = app as? any SceneDriving
            if let log = app?.eventLog, (log.retention ?? .max) > eventRetention { log.retention = eventRetention }
        }
    }
    /// ``app`` as an app with several windows, cast once per app rather
    /// than at every step it records.
    private var windows: (any SceneDriving)?
    private(set) var launchRequest = LaunchRequest()
    /// The last launch the host could not complete, and where it was asked for: whichever call
    /// launched (an implicit launch by the first verb, `launch{}`, the scenario's `launch`
    /// option), the scenario errors as a launch error with it — not as a failure of that call,
    /// and even if a `pcall` caught it: no app was ever there to check.
    package private(set) var launchFailure: LaunchFailure?
    /// The app the scenario's `launch` option started: the options, and the timeline's length
    /// then — a `launch{}` with no step since would silently throw those options away.
    private var optionLaunch: (described: String, steps: Int, checks: Int, link: String?)?
    /// Each app's number, from 1: a launch or restart starts a new event log.
    private var appNumber = 0
    /// Marks handed out by `mark()`: on which app, where.
    private var marks: [Int: (app: Int, location: String)] = [:]
    /// The step timeline: the first and last few hundred lines of a long scenario, and how many between.
    package private(set) var timeline = Timeline()
    /// Sees the scenario as it runs: its steps, calls, output and frames.
    var observer = ScenarioObserver()
    /// What the scenario printed (bounded: see ``BoundedOutput``).
    var output = BoundedOutput()
    /// Wrong calls of the language (bad arguments, unknown names), each as
    /// its message: the scenario's error even when a `pcall` caught it.
    var mistakes: [String] = []
    /// Where the binding currently running was called from.
    var location: String?
    /// The part of the scenario running: `launch`, `before_each`, `scenario`, `after_each`.
    var phase = "scenario"
    /// Whether the scenario called an expectation or `assert`: one that did
    /// not, and launched no app (or allowed every invariant the app is
    /// checked for), passes whatever the app does, and its result says so
    /// (``ScenarioResult/checkedNothing``).
    var checkedSomething: Bool {
        get { checksMade > 0 }
        set { if newValue { checksMade += 1 } }
    }
    /// Checks made so far (expectations, passing asserts): a `launch{}` with no step and no check
    /// since the scenario's `launch` option replaced the option's app before anything looked at it.
    private(set) var checksMade = 0
    /// The call of the language during which the scenario's time limit passed
    /// (`deep_link` into a router that backtracks for seconds): the time
    /// ran out in the app's work, and the hook stopped Lua only at the next
    /// line, which the timeout named as if the script's own code were slow.
    var overrunCall: (location: String, call: String)?
    /// The failed expectations, refused verbs and violated invariants, in
    /// order: the first ``keptFailures`` (a report shows the first and
    /// counts the rest; a loop of caught failures kept every one).
    package private(set) var failures: [ExpectationFailure] = []
    /// Failures past the first ``keptFailures``: counted, not kept.
    package private(set) var failuresNotKept = 0
    /// Every failure recorded, kept or not.
    package var failureCount: Int { failures.count + failuresNotKept }
    static let keptFailures = 100
    /// Invariants this scenario (or run) allows, with the reason given.
    var allowed: [Invariant: String] = [:]
    /// Check the invariants after every step (`--strict-steps`), not only at the end.
    /// Constant for the run (as ``recordsFrames``): read after every step, and
    /// a `var` of a class is read through an exclusivity check each time.
    let strictSteps: Bool
    /// Invariants already reported, so a lasting violation is reported once.
    private var reported: Set<Invariant> = []
    /// The timeline number of each of the current app's log steps, by app
    /// step (0: none). An array: steps count up from 0, and hashing a
    /// dictionary key on every step showed in a step's cost.
    private var timelineNumberOfAppStep: [Int] = []
    /// Record a ``StepFrame`` after every step (for storyboards).
    let recordsFrames: Bool
    /// See ``RunOptions/eventRetention``.
    let eventRetention: Int
    /// The navigation after each step, when ``recordsFrames``.
    private var storyboard = StoryboardFrames()
    /// How many of the current app's events the frames have shown.
    private var eventsShown = 0

    /// What `gated_screens` checks, read from the manifest once.
    private lazy var screenGates = Invariant.ScreenGates(host.engine)

    /// The host's launch options by name, built once by the caller.
    private let launchOptions: [String: LaunchOption]
    /// The scenario's file and full name, `math.random`'s seed made from.
    private let scenario: (file: String, name: String)

    /// What `math.random` is seeded with when the scenario first draws: the
    /// same numbers in every run of the scenario, alone (a replay) or in its
    /// suite, whatever ran before it. Made only if the scenario draws, once.
    private var randomSeed: Int64?

    /// The seed for a scenario of the file at `pathInSuite` (see ``BindingContext/seedName``).
    func randomSeed(inFile pathInSuite: @autoclosure () -> String) -> Int64 {
        if let randomSeed { return randomSeed }
        let seed = Int64(bitPattern: SeededGenerator.stableHash(pathInSuite() + "\u{0}" + scenario.name))
        randomSeed = seed
        return seed
    }

    package init(
        host: any ScenarioHost, faults: [String], launchOptions: [String: LaunchOption]? = nil,
        strictSteps: Bool = false, recordsFrames: Bool = false, eventRetention: Int = RunOptions.defaultEventRetention,
        scenario: (file: String, name: String) = ("", "")
    ) {
        self.eventRetention = eventRetention
        self.host = host
        self.faults = faults
        self.launchOptions = launchOptions ?? host.declaredLaunchOptions
        self.strictSteps = strictSteps
        self.recordsFrames = recordsFrames
        self.scenario = scenario
    }

    /// `byScenarioOption`: the scenario's `launch` option asked for it (not a verb).
    /// Throws ``LaunchFailure`` when the host could not launch the app, and
    /// ``HostError`` for a request the scenario got wrong (its options).
    func launch(_ request: LaunchRequest, at location: String, byScenarioOption: Bool = false) throws {
        // A launch{} right after the option's launch — in a before_each, or in the body before any step
        // or check (a print, a mark() first): the option's app was never looked at (a header
        // `logged_in = true` ran signed out without a word). After a step or a check, a launch{} is
        // the scenario's own choice.
        if let optionLaunch = untouchedOptionLaunch {
            throw HostError(
                "launch{} replaces the app the scenario's launch option started (\(optionLaunch.described)) before "
                    + "any step, so those options are lost; give the launch options in one place: the scenario's "
                    + "launch option, or this launch{}")
        }
        // The app being replaced is checked like one that ends a scenario: a leak there must not
        // pass because a later launch threw the app away. (Not `idle`: replacing an app with a
        // link still in flight is a scenario's to choose.)
        if app != nil { checkInvariants(after: "before launch{} replaced the app", at: location, settled: false) }
        var request = request
        request.faults = faults
        try host.check(request, declared: launchOptions)
        var described = request.options.sorted { $0.key < $1.key }.map { String(concatenating: $0.key, " = ", $0.value.description) }
        if let link = request.link { described.append("url = \"\(link)\", via = \"\(request.via)\"") }
        let spelled = described.isEmpty ? "launch{}" : "launch{ \(described.joined(separator: ", ")) }"
        // The scenario's launch option is no call of the script's: announced here, so a crash or a hang
        // in it (its cold-start link) names it as the call it was in.
        if byScenarioOption { observer.call?(String(concatenating: location, "  ", spelled, " (the scenario's launch option)")) }
        defer { if byScenarioOption { observer.returned?() } }
        let launched: any AppDriver
        do {
            launched = try host.launch(request)
            try launched.settle()
        } catch {
            throw failedLaunch("\(host.name) did not launch: its host's launch(_:) threw: \(error.message)", at: location)
        }
        // A host that drops the cold-start link would make `launch{ url = … }` test nothing:
        // refused before the scenario can go on with that app.
        if let link = request.link, !launched.eventLog.entries.contains(where: \.event.receivesLink) {
            throw failedLaunch(
                "\(host.name)'s launch(_:) did not deliver the cold-start link \(link) (the app logged no "
                    + "'deliver' event): a host passes request.link to its dispatcher, via request.via", at: location)
        }
        launchRequest = request
        app = launched
        appNumber += 1
        timelineNumberOfAppStep = []
        eventsShown = 0
        // What became of the cold-start link, as `deep_link` shows it: a rejected one (a typo, the wrong
        // door) left the app at its start screen, which read like a link that led there.
        var shown = spelled
        if request.link != nil {
            let entries = launched.eventLog.entries
            let delivered = entries.firstIndex { $0.event.receivesLink } ?? entries.endIndex
            for entry in entries[delivered...] {
                if case .reject(let kind, _) = entry.event {
                    shown += " → error " + kind
                    break
                }
                if case .gate(let precondition, _) = entry.event {
                    shown += " → gated " + precondition.rawValue
                    break
                }
            }
        }
        record(shown, at: location)
        optionLaunch =
            byScenarioOption && !described.isEmpty
            ? (described.joined(separator: ", "), timeline.count, checksMade, request.link.map { "\($0)" }) : nil
    }

    /// The scenario's launch option, while nothing has looked at the app it started: no step or
    /// check since, in a before_each or in the body.
    private var untouchedOptionLaunch: (described: String, steps: Int, checks: Int, link: String?)? {
        guard let optionLaunch, optionLaunch.steps == timeline.count, optionLaunch.checks == checksMade,
            phase == "before_each" || phase == "scenario"
        else { return nil }
        return optionLaunch
    }

    /// Before `restart{}`: one right after the scenario's launch option delivered a cold-start link
    /// — in a before_each, or in the body before any step or check — would throw that link (and the
    /// log it wrote) away unseen, and every check of what it did would pass on the restarted app.
    func checkRestartKeepsTheOptionsLink() throws(BindingError) {
        guard let optionLaunch = untouchedOptionLaunch, let link = optionLaunch.link else { return }
        throw .error(
            "restart{} replaces the app the scenario's launch option started with the link \(link) before any step, "
                + "so that link and what it did are lost (a restart delivers no link); check what the link did first, "
                + "or leave the url out of the scenario's launch option")
    }

    /// Notes a launch that failed (see ``launchFailure``) and returns it as the error to throw.
    private func failedLaunch(_ message: String, at location: String) -> LaunchFailure {
        let failure = LaunchFailure(message, at: location)
        launchFailure = failure
        return failure
    }

    /// The running app, launched with defaults if the scenario did not launch one.
    func ensureApp(at location: String) throws -> any AppDriver {
        if let app {
            if actingScene != nil { try aim(app) }
            return app
        }
        try launch(LaunchRequest(), at: location)
        guard let app else { throw HostError("the app did not launch") }
        if actingScene != nil { try aim(app) }
        return app
    }

    /// The window `in_scene(n, …)` acts on (nil: the one in front). Kept
    /// here, not only in the app, so an app that replaces it (`restart{}`,
    /// `launch{}` inside `fn`) is aimed at the same window, and a window
    /// closed meanwhile is an error rather than another window checked.
    var actingScene: Int?

    /// Points `app` at ``actingScene``, or says why it cannot.
    private func aim(_ app: any AppDriver) throws {
        guard let wanted = actingScene else { return }
        // The script's window number, not the app's doing: an error (a failure blamed the app).
        guard let scenes = app as? any SceneDriving else {
            guard wanted == 1 else { throw BindingError.error("the app has one window (scene 1); in_scene(\(wanted), …) acts on none") }
            return
        }
        guard scenes.sceneNumbers.contains(wanted) else {
            throw BindingError.error(
                "scene \(wanted), which in_scene(\(wanted), …) acts on, is not open (closed, or not restored); the open scenes are "
                    + scenes.sceneNumbers.map(String.init).joined(separator: ", "))
        }
        if scenes.actingScene != wanted { scenes.actingScene = wanted }
    }

    /// Before a step that may tear flows or windows down — a host's verb
    /// (a sign-out, a session expiry) or `close_scene`: the app as it is then
    /// is judged like one that ends a scenario, so a violation the step would
    /// throw away does not pass. (Not `idle`: such a step may come with a
    /// link still in flight.)
    func checkBeforeTeardown(_ step: String, at location: String) {
        guard app != nil else { return }
        checkInvariants(after: "before \(step)", at: location, settled: false)
    }

    /// `restart()`'s new app; the one it replaces is checked first (see ``launch(_:at:byScenarioOption:)``).
    func replaceApp(_ app: any AppDriver, at location: String) {
        checkInvariants(after: "before restart{} replaced the app", at: location, settled: false)
        self.app = app
        appNumber += 1
        timelineNumberOfAppStep = []
        eventsShown = 0
    }

    /// Notes that `mark()` at `location` returned `mark` for the current app.
    func noteMark(_ mark: Int, at location: String) { marks[mark] = (appNumber, location) }

    /// Whether this scenario's `mark()` returned `mark`.
    func hasHandedOut(_ mark: Int) -> Bool { marks[mark] != nil }

    /// Where `mark` was taken, when that was on an app since replaced (nil: this app's, or never handed out).
    func markTakenEarlier(_ mark: Int) -> String? {
        guard let taken = marks[mark], taken.app != appNumber else { return nil }
        return taken.location
    }

    /// Adds a step to the timeline, with where the app ended up; with
    /// ``strictSteps``, then checks the invariants.
    func record(_ step: String, at location: String, settled: Bool = true) {
        let app = self.app  // read once: every read of a stored `var` is an exclusivity check
        let screen = app?.visibleScreen ?? "nothing"
        let tab = app?.selectedTab.rawValue ?? "-"
        // With several windows, which one the screen and tab are of.
        var scene: Int?
        if let windows, windows.sceneNumbers.count > 1 { scene = windows.actingScene ?? windows.foregroundScene }
        let number = appendToTimeline(TimelineStep(location: location, action: step, screen: screen, tab: tab, scene: scene))
        if let app { Self.note(number, at: app.step, in: &timelineNumberOfAppStep) }
        if recordsFrames {
            let new = app.map { Array($0.events(since: eventsShown).texts) } ?? []
            eventsShown = app?.eventCount ?? 0
            appendFrame(StepFrame(number: number, location: location, action: step, app: app, events: new))
        }
        if strictSteps {
            checkInvariants(after: "after step \(number)", at: location, settled: settled)
        } else {
            // Also after a step that did not settle, when nothing was left pending: a teardown
            // (logout, expire_session, close_scene) after it would release the leak unseen.
            judgeLeaks(after: "after step \(number)", at: location)
        }
    }

    /// Leaks are judged whenever the app has settled, not only at the end: a
    /// flow that leaked on a back-swipe and was released later by a sign-out
    /// or a closed window still leaked. (Not while work is pending: what it
    /// will release is no leak yet.)
    func judgeLeaks(after moment: String, at location: String) {
        // Once reported or allowed, nothing is left to judge: the list is not read again every step.
        guard !reported.contains(.leaks), allowed[.leaks] == nil, let app, !app.leaks.isEmpty, app.isIdle else { return }
        checkInvariants(after: moment, at: location, settled: true, only: .leaks)
    }

    func note(_ line: String) {
        appendToTimeline(.note(line))
    }

    /// Records a failure; `raised` is the object Lua unwinds with, when the
    /// failure is raised (kept, so the runner can tell it by identity).
    func recordFailure(_ failure: ExpectationFailure, raised: RaisedFailure? = nil) {
        if failures.count < Self.keptFailures {
            failures.append(failure)
            observer.failure?(failure)
        } else {
            failuresNotKept += 1
        }
        if let raised {
            raisedIdentities.insert(ObjectIdentifier(raised))
            if raisedFailures.count < Self.keptFailures { raisedFailures.append(raised) }
            lastRaised = raised
        }
        if failures.count < Self.keptFailures || failuresNotKept == 1 {
            attachToLastFrame(StepFrame.Problem(kind: "failure", message: failure.message, details: failure.details))
        }
    }

    /// The objects the first of this scenario's failures were raised as in
    /// Lua, and the last one (the one most likely to reach the top).
    private var raisedFailures: [RaisedFailure] = []
    private var lastRaised: RaisedFailure?
    /// Every failure object this scenario raised. (An identity is an
    /// address: one is reused only by an object made later, which this
    /// world made too — a failure of this scenario either way.)
    private var raisedIdentities: Set<ObjectIdentifier> = []

    /// The failure this scenario raised as the host object `identity`, if it did.
    package func raisedFailure(_ identity: ObjectIdentifier) -> RaisedFailure? {
        if let last = lastRaised, ObjectIdentifier(last) == identity { return last }
        if let kept = raisedFailures.first(where: { ObjectIdentifier($0) == identity }) { return kept }
        guard raisedIdentities.contains(identity) else { return nil }
        return RaisedFailure(
            message: "a failure this scenario raised earlier and caught (one of those past the first \(Self.keptFailures))",
            details: "", location: location ?? "")
    }

    /// Shows a problem on the frame of the step it followed (a frame
    /// "before the first step" when none was recorded yet).
    func attachToLastFrame(_ problem: StepFrame.Problem) {
        guard recordsFrames else { return }
        if storyboard.isEmpty {
            appendFrame(StepFrame(number: 0, location: location ?? "", action: "(before the first step)", app: app, events: []))
        }
        storyboard.attach(problem)
        observer.frame?(.problem(problem))
    }

    private func appendFrame(_ frame: StepFrame) {
        storyboard.append(frame)
        observer.frame?(.appended(frame))
    }

    /// The frames a storyboard draws (see ``StoryboardFrames``).
    var frames: [StepFrame] { storyboard.frames }

    /// `step 3 (tap close)`: a step of the app's log as the timeline numbers it.
    func stepName(_ appStep: Int, during name: String) -> String {
        let number = timelineNumberOfAppStep.indices.contains(appStep) ? timelineNumberOfAppStep[appStep] : 0
        return number > 0 ? "step \(number) (\(name))" : "app step \(appStep) (\(name))"
    }

    /// Appends a step's line to the timeline and shows the step to the ``observer``; returns its number (1-based).
    @discardableResult
    private func appendToTimeline(_ step: TimelineStep) -> Int {
        var step = step
        // A 10 MB link is shown by its ends: every report (and the stream) carries the line.
        step.action = TextCap.bounded(step.action, to: TextCap.step)
        timeline.append(step.line)
        observer.step?(step)
        return timeline.count
    }

    /// Notes which timeline number an app step got, in one access to the
    /// array (each access to a stored property is an exclusivity check).
    private static func note(_ number: Int, at appStep: Int, in numbers: inout [Int]) {
        guard appStep >= 0 else { return }
        if numbers.capacity == 0 { numbers.reserveCapacity(32) }
        if numbers.count <= appStep { numbers.append(contentsOf: repeatElement(0, count: appStep + 1 - numbers.count)) }
        numbers[appStep] = number
    }

    /// Checks the invariants not yet reported or allowed and records each
    /// violation as a failure at `location`. `settled` is false after a
    /// step that left work pending on purpose (`deep_link{ settle = false }`);
    /// `only` checks that one invariant alone.
    func checkInvariants(after moment: String, at location: String, settled: Bool = true, only: Invariant? = nil) {
        guard let app else { return }
        // Nothing allowed or reported, settled: the usual case, with no lookups and no list built.
        // Unsettled (a `settle = false` step): pending work is no finding, and
        // neither is what it will release — a leak is what outlives an idle app.
        let releasesPending = !settled && !app.isIdle
        let due =
            allowed.isEmpty && reported.isEmpty && settled && only == nil
            ? Invariant.allCases
            : Invariant.allCases.filter {
                allowed[$0] == nil && !reported.contains($0) && (settled || $0 != .idle)
                    && !(releasesPending && $0 == .leaks) && (only == nil || only == $0)
            }
        let leaks = app.leaks
        let stepName: (Int) -> String = { step in
            let name = leaks.first { $0.leftAtStep == step }?.leftDuring ?? "?"
            return self.stepName(step, during: name)
        }
        let violations = Invariant.violations(
            of: app, leaks: leaks, checking: due, gates: screenGates, stepName: stepName)
        for (invariant, failure) in violations {
            reported.insert(invariant)
            recordFailure(
                ExpectationFailure(
                    "\(location): invariant '\(invariant.rawValue)' violated \(moment): \(failure.message)",
                    details: failure.details + (failure.details.isEmpty ? "" : "\n")
                        + "to fix: \(invariant.advice); or allow it with scenario(name, { allow = { "
                        + "\(invariant.rawValue) = \"why\" } }, fn) or --allow \(invariant.rawValue)",
                    invariant: invariant))
        }
    }
}
