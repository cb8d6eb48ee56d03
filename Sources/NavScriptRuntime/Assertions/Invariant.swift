import NavScript
import NavigationCore

/// What must hold of any app at rest, checked after every scenario (after
/// every step with `--strict-steps`) without a scenario asking — so a green
/// run means nothing leaked, nothing is doubled, nothing hangs, whether or
/// not someone wrote the expectation. A scenario or a run may allow one by
/// name, with a reason.
package enum Invariant: String, CaseIterable, Hashable, Sendable {
    /// No screen, view model or coordinator outlives its place in the navigation.
    case leaks
    /// No coordinator path is alive twice.
    case uniqueCoordinators = "unique_coordinators"
    /// Every screen on screen belongs to a live flow, and every live flow
    /// (but the root) owns something on screen.
    case flowOwnership = "flow_ownership"
    /// The app goes idle: no transition or async work left pending.
    case idle
    /// No gate re-gated until the loop guard stopped it.
    case loopGuard = "loop_guard"
    /// The platform warned of nothing (SwiftUI's runtime warnings: a path
    /// written twice in a frame, a second sheet, an unregistered
    /// destination, a dropped write, a rebuilt screen, state out of sync).
    case platformWarnings = "platform_warnings"
    /// No screen on screen — in any tab, modal or window — needs a
    /// precondition that does not hold (a gated screen left behind by a
    /// sign-out, an expiry, or the other window's sign-out).
    case gatedScreens = "gated_screens"

    /// Checked in each window of an app with several (its own tree and
    /// screens); the others are the app's (one log, one tracker, one clock).
    package var isPerScene: Bool {
        switch self {
        case .uniqueCoordinators, .flowOwnership: return true
        case .leaks, .idle, .loopGuard, .platformWarnings, .gatedScreens: return false
        }
    }

    /// What it checks, for reports and `--help`.
    package var summary: String {
        switch self {
        case .leaks: return "nothing that left the navigation is still alive"
        case .uniqueCoordinators: return "no coordinator path is alive twice"
        case .flowOwnership: return "every screen belongs to a live flow and every live flow owns a screen"
        case .idle: return "the app settles: no transition or async work left pending"
        case .loopGuard: return "no gate looped until the loop guard stopped it"
        case .platformWarnings: return "the platform warned of no misuse (SwiftUI's runtime warnings)"
        case .gatedScreens: return "no screen on screen, in any window, needs a precondition that does not hold"
        }
    }

    /// What a developer usually changes when it does not hold: the concrete
    /// fix, not the rule again.
    package var advice: String {
        switch self {
        case .leaks:
            return "something still holds what left the navigation — a strong reference back to a coordinator or "
                + "screen (make delegates and output closures capture weakly), or a child flow its parent never "
                + "removed (react to the back-swipe's didShow(from:) and the modal's dismissal, not only the back button); "
                + "in a SwiftUI app, a cache keyed by route that is not evicted when the bound path shrinks or a sheet's "
                + "item goes nil (the back button, the swipe and the swipe-down write the state and call none of your "
                + "methods: evict in the path's didSet or in onDismiss)"
        case .uniqueCoordinators:
            return "a flow was started again while the first is alive: look the live child up (or finish it) before "
                + "starting a new one for the same job"
        case .flowOwnership:
            return "build screens through their flow — PushedFlow.push(_:) and a flow's makeScreen via screens(for:) "
                + "set screen.owner; a screen made by hand needs screen.owner = <the flow showing it> — and finish "
                + "a flow (finish(_:)) when its last screen leaves"
        case .idle:
            return "a transition or scheduled work never completed: settle after presenting, and do not leave a "
                + "scheduler task that re-arms itself"
        case .loopGuard:
            return "the gate was satisfied in name only: commit the session (or whatever the precondition reads) "
                + "before the gate's flow reports success, and drop the request when the user cancels"
        case .platformWarnings:
            return "each warning says what SwiftUI did instead of what the state asked for; the fix for the first one: "
                + "see its advice in the details"
        case .gatedScreens:
            return "when a precondition stops holding (sign-out, session expiry), take down every screen that needs it — "
                + "in every tab, every modal and every window (each scene's root hears of it: observe the session, do "
                + "not let only the window that signed out react)"
        }
    }

    /// The invariants that do not hold for `app`, each as a failure that
    /// says what to fix. `stepName` renders the step an object left at.
    /// `leaks` is `app.leaks`, which the caller has at hand (finding them
    /// walks every object the app ever tracked, so it is done once).
    static func violations(
        of app: any AppDriver, leaks: [LifecycleTracker.Leak], checking invariants: [Invariant],
        gates: ScreenGates? = nil, stepName: (Int) -> String
    ) -> [(Invariant, ExpectationFailure)] {
        // Several windows: a window's own tree and screens are checked in each one, the rest once.
        if let scenes = app as? any SceneDriving, scenes.sceneNumbers.count > 1 {
            var found = appViolations(
                of: app, leaks: leaks, checking: invariants.filter { !$0.isPerScene }, gates: gates, stepName: stepName)
            for number in scenes.sceneNumbers {
                let inWindow = scenes.acting(in: number) {
                    appViolations(
                        of: app, leaks: leaks, checking: invariants.filter(\.isPerScene), gates: gates, stepName: stepName)
                }
                for (invariant, failure) in inWindow where !found.contains(where: { $0.0 == invariant }) {
                    found.append((invariant, ExpectationFailure("in scene \(number), \(failure.message)", details: failure.details)))
                }
            }
            return found
        }
        return appViolations(of: app, leaks: leaks, checking: invariants, gates: gates, stepName: stepName)
    }

    /// The invariants of `app` as it acts now (one window).
    private static func appViolations(
        of app: any AppDriver, leaks: [LifecycleTracker.Leak], checking invariants: [Invariant],
        gates: ScreenGates?, stepName: (Int) -> String
    ) -> [(Invariant, ExpectationFailure)] {
        var found: [(Invariant, ExpectationFailure)] = []
        // The tree is walked once for all the invariants that read it.
        var paths: [String]?
        for invariant in invariants {
            if invariant == .gatedScreens {
                if let gates, let failure = gatedScreens(app, gates: gates) { found.append((invariant, failure)) }
                continue
            }
            if let failure = check(invariant, app: app, leaks: leaks, paths: &paths, stepName: stepName) {
                found.append((invariant, failure))
            }
        }
        return found
    }

    private static func check(
        _ invariant: Invariant, app: any AppDriver, leaks: [LifecycleTracker.Leak],
        paths cachedPaths: inout [String]?, stepName: (Int) -> String
    ) -> ExpectationFailure? {
        func coordinatorPaths() -> [String] {
            if let cachedPaths { return cachedPaths }
            let paths = app.coordinatorPaths
            cachedPaths = paths
            return paths
        }
        switch invariant {
        case .leaks:
            guard !leaks.isEmpty else { return nil }
            return ExpectationFailure(
                "\(leaks.count) object\(leaks.count == 1 ? "" : "s") leaked",
                details: leaks.map { "  leaked: \(describe($0, stepName))" }.joined(separator: "\n"))
        case .uniqueCoordinators:
            // A tree holds a handful of coordinators: comparing beats hashing.
            let paths = coordinatorPaths()
            let doubled = paths.indices.filter { index in paths[..<index].contains(paths[index]) }.map { paths[$0] }
            guard !doubled.isEmpty else { return nil }
            return ExpectationFailure(
                "coordinator \(Expectation.render(Array(Set(doubled)).sorted())) is alive twice",
                details: "alive: \(Expectation.render(paths))")
        case .flowOwnership:
            guard let owners = app.screenOwners else { return nil }
            // Arrays, not sets: a screen has a handful of owners and the tree a
            // handful of flows, and hashing every path cost more than comparing.
            let paths = coordinatorPaths()
            // Both sides are built from the same flow names, so equal paths have equal
            // UTF-8 lengths. Most pairs compared differ, and by length: that is checked
            // first (a native string knows its length), before the strings.
            func same(_ one: String, _ other: String?) -> Bool {
                guard let other else { return false }
                return one.utf8.count == other.utf8.count && one == other
            }
            func isOrphan(_ owner: ScreenOwner) -> Bool {
                guard let path = owner.owner else { return true }
                return !paths.contains { same($0, path) }
            }
            // A leaked flow owns nothing either; the leak is the cause, reported as such.
            func isIdle(_ path: String) -> Bool {
                !same(path, paths.first) && !owners.contains { same(path, $0.owner) }
                    && !leaks.contains { $0.kind == .coordinator && $0.label == path }
            }
            // Checked after every scenario, and it nearly always holds: the
            // lists for the message are only built when it does not.
            guard owners.contains(where: isOrphan) || paths.contains(where: isIdle) else { return nil }
            let orphans = owners.filter(isOrphan)
            let idle = paths.filter(isIdle)
            var lines: [String] = []
            for orphan in orphans {
                lines.append("  \(orphan.screen) belongs to " + (orphan.owner.map { "\($0), which is not alive" } ?? "no flow"))
            }
            for path in idle { lines.append("  \(path) is alive but owns nothing on screen") }
            return ExpectationFailure(
                orphans.isEmpty ? "a flow is alive without a screen" : "a screen on screen belongs to no live flow",
                details: lines.joined(separator: "\n"))
        case .idle:
            guard !app.isIdle else { return nil }
            let pending = app.pendingWork
            guard let first = pending.first else {
                return ExpectationFailure("the app did not go idle", details: "settle() left work pending")
            }
            var lines = pending.prefix(10).map { "  \($0)" }
            if pending.count > 10 { lines.append("  … and \(pending.count - 10) more") }
            return ExpectationFailure(
                "the app did not go idle: \(first)" + (pending.count > 1 ? " (and \(pending.count - 1) more)" : ""),
                details: "settle() left pending:\n" + lines.joined(separator: "\n"))
        case .loopGuard:
            guard let event = app.loopGuardEvent else { return nil }
            return ExpectationFailure(
                "a gate looped until the loop guard stopped it: \(event)",
                details: "the satisfying flow reported success but the precondition still did not hold")
        case .platformWarnings:
            let warnings = app.platformWarnings
            guard let first = warnings.first else { return nil }
            var lines = warnings.prefix(10).map { "  \($0.text): \($0.message)" }
            if warnings.count > 10 { lines.append("  … and \(warnings.count - 10) more") }
            lines.append("  to fix (\(first.kind.rawValue)): \(first.kind.advice)")
            return ExpectationFailure(
                "the platform warned \(warnings.count) time\(warnings.count == 1 ? "" : "s"): \(first.text)",
                details: lines.joined(separator: "\n"))
        case .gatedScreens:
            return nil  // needs the manifest: checked by violations(of:…)
        }
    }

    /// Screens whose destination needs a precondition the app says does not
    /// hold, in every window. Nil when the app cannot tell what holds.
    static func gatedScreens(_ app: any AppDriver, gates: ScreenGates) -> ExpectationFailure? {
        // Checked after every step while exploring: when everything holds (signed in), nothing is built.
        let needs = gates.needs
        guard !needs.isEmpty, let satisfied = app.satisfiedPreconditions, !gates.all.allSatisfy(satisfied.contains) else {
            return nil
        }
        var windows: [(scene: Int?, state: NavigationState)] = []
        if let scenes = app as? any SceneDriving, scenes.sceneNumbers.count > 1 {
            for number in scenes.sceneNumbers {
                if let state = scenes.state(ofScene: number) { windows.append((number, state)) }
            }
        } else {
            windows.append((nil, app.state))
        }
        var lines: [String] = []
        // Each screen's place is spelled only when it breaks the invariant (every step checks it).
        func check(_ steps: [RouteStep], at place: @autoclosure () -> String) {
            for step in steps {
                guard let needed = needs[step.id] else { continue }
                let missing = needed.filter { !satisfied.contains($0) }
                guard !missing.isEmpty else { continue }
                lines.append("  \(step) (\(place())) needs \(missing.map(\.rawValue).joined(separator: ", ")), which does not hold")
            }
        }
        for window in windows {
            let place = window.scene.map { "scene \($0), " } ?? ""
            for tab in window.state.tabs { check(window.state.stack(tab), at: "\(place)tab \(tab)") }
            for (index, modal) in window.state.modals.enumerated() { check(modal, at: "\(place)modal \(index + 1)") }
        }
        guard let first = lines.first else { return nil }
        return ExpectationFailure(
            "a screen that needs a precondition is on screen without it:\(first.dropFirst(1))",
            details: lines.joined(separator: "\n"))
    }

    /// What `gated_screens` reads of the app's routes: each destination's own
    /// preconditions, as the engine keeps them (built once with it, not per
    /// scenario nor at every step it is checked after).
    struct ScreenGates {
        let needs: [DestinationID: [Precondition]]
        let all: [Precondition]

        init(_ engine: RoutingEngine) {
            needs = engine.declaredPreconditions
            all = engine.manifest.preconditions
        }
    }

    /// A leak with the step named as the timeline numbers it.
    static func describe(_ leak: LifecycleTracker.Leak, _ stepName: (Int) -> String) -> String {
        "\(leak.label) (\(leak.kind.rawValue)) left the navigation at \(stepName(leak.leftAtStep)) and is still alive"
    }
}
