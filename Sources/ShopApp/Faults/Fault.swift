/// ShopApp's catalogue of injectable bugs — each one a real navigation bug
/// from the reference articles, switched on per launch and off by default.
///
/// A fault changes ShopApp's own code path at the place a team would make
/// the mistake (the auth coordinator's finish, a tab flow's pop handling,
/// the root's op application…). The harness never fakes a symptom: with a
/// fault on, the app really loops, leaks, diverges or mis-orders, and the
/// core sees it through ARC, the event log and the navigation state.
public enum Fault: String, CaseIterable, Hashable, Sendable, Codable, CustomStringConvertible {
    case commitAfterFinish = "commit-after-finish"
    case noPopDetection = "no-pop-detection"
    case animatedPopOnly = "animated-pop-only"
    case strongBackReference = "strong-back-reference"
    case teardownOnDisappear = "teardown-on-disappear"
    case cancelResumes = "cancel-resumes"
    case cachedDestination = "cached-destination"
    case universalLinkSkipsGate = "universal-link-skips-gate"
    case pushOwnVocabulary = "push-own-vocabulary"
    case graftExternalLink = "graft-external-link"
    case unserializedDispatch = "unserialized-dispatch"
    case logoutKeepsStacks = "logout-keeps-stacks"
    case presentBeforeTab = "present-before-tab"
    case duplicateSignIn = "duplicate-sign-in"
    case forceUnwrapCrash = "force-unwrap-crash"
    case mainThreadDeadlock = "main-thread-deadlock"
    case signOutOneScene = "sign-out-one-scene"
    case expiryForegroundOnly = "expiry-foreground-only"
    case linkToForegroundScene = "link-to-foreground-scene"
    case sceneCopiesSession = "scene-copies-session"
    case restoreCrossesScenes = "restore-crosses-scenes"
    case closedSceneKept = "closed-scene-kept"
    case signInOneScene = "sign-in-one-scene"
    case universalHostCaseSensitive = "universal-host-case-sensitive"
    case onboardingDoneAtLaunch = "onboarding-done-at-launch"

    public var description: String { rawValue }

    /// The real bug this fault models, in one line.
    public var summary: String {
        switch self {
        case .commitAfterFinish:
            return "login signals success before committing the session, so the re-dispatched gate sees a logged-out context and loops"
        case .noPopDetection:
            return "tab flows ignore the navigation delegate, so a system back-swipe or back button leaves the child coordinator alive"
        case .animatedPopOnly:
            return "pop detection relies on the transition's 'from' screen, which a non-animated pop does not have, so that child leaks"
        case .strongBackReference:
            return "screens hold their coordinator strongly instead of through a weak delegate, a retain cycle that leaks modal flows"
        case .teardownOnDisappear:
            return "child flows tear down on 'will disappear', so a cancelled back-swipe kills a flow that is still on screen"
        case .cancelResumes:
            return "a cancelled login still reports the gate satisfied, so the app resumes where the user bailed out"
        case .cachedDestination:
            return
                "after a gate the app navigates to the destination computed before it, instead of re-resolving, so a chained gate is skipped"
        case .universalLinkSkipsGate:
            return "the universal-link handler resolves with a context that assumes the user is signed in, bypassing the auth gate"
        case .pushOwnVocabulary:
            return "the push handler parses payloads with its own vocabulary instead of the engine's, so aliases and validation diverge"
        case .graftExternalLink:
            return "an external link is grafted onto the current stack instead of resetting to canonical ancestry (a duplicate Home)"
        case .unserializedDispatch:
            return "links are executed as they arrive, not queued, so a second link interleaves with one still executing"
        case .logoutKeepsStacks:
            return "logout clears the session but keeps the old stacks, modals and flow coordinators"
        case .presentBeforeTab:
            return
                "the root applies reconcile ops out of order, presenting the modal chain before dismissing stale modals and selecting the tab"
        case .duplicateSignIn:
            return
                "the root presents a new sign-in for every gated request, so two gated links stack two sign-in sheets and commit the session twice"
        case .forceUnwrapCrash:
            return "the widget handler force-unwraps the order id of its links, so a widget link with a non-numeric id crashes the app"
        case .signOutOneScene: return "signing out resets the window it happened in; the other windows keep their signed-in screens"
        case .expiryForegroundOnly:
            return "a session expiry is handled by the window in front only; the other windows keep their signed-in screens"
        case .linkToForegroundScene:
            return "a link the system opened in a background window is executed in the window in front"
        case .sceneCopiesSession:
            return
                "a window opened later routes with a copy of the session taken when it opened, stale after a sign-in or sign-out elsewhere"
        case .restoreCrossesScenes: return "state restoration restores every window from the first window's archive"
        case .closedSceneKept: return "a closed window's scene is kept for a quick reopen, so its flows and screens outlive it"
        case .onboardingDoneAtLaunch:
            return
                "the first-launch flag is cleared at launch, not when onboarding ends: after a restart the restored welcome screen sits over an app that executes links, and the first link tears onboarding down"
        case .universalHostCaseSensitive:
            return
                "the universal-link handler compares the link's host with its own spelling, so the same link with the host in capitals is refused"
        case .signInOneScene:
            return
                "a sign-in is heard by the window it happened in only: another window's sign-in sheet stays up for a signed-in user, its links waiting on it"
        case .mainThreadDeadlock:
            return
                "the two-factor step blocks the main thread until the session is committed, but the commit is scheduled on that same thread: the app hangs"
        }
    }

    /// Faults whose symptom ends the process (a trap) or never returns (a
    /// hang): they can only be observed from outside, by the runner's worker
    /// isolation, not inside one process.
    public var isProcessFatal: Bool {
        self == .forceUnwrapCrash || self == .mainThreadDeadlock
    }
}
