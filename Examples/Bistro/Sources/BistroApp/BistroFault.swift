/// Bistro's catalogue of injectable bugs, each switched on at the place a
/// team would write it: a module's flow, the composition root, the root flow.
public enum BistroFault: String, CaseIterable, Sendable {
    case signalBeforeCommit = "signal-before-commit"
    case signInPerLink = "sign-in-per-link"
    case ordersParserSkipsGate = "orders-parser-skips-gate"
    case linkGraftsStack = "link-grafts-stack"
    case observerNeverRemoved = "observer-never-removed"
    case settingsIgnoresSwipe = "settings-ignores-swipe"
    case logoutKeepsOrders = "logout-keeps-orders"
    case linkBeforeOnboarding = "link-before-onboarding"
    case cancelResumes = "cancel-resumes"
    case teardownOnDisappear = "teardown-on-disappear"
    case pushOwnParser = "push-own-parser"
    case orderHandoffSkipsGate = "order-handoff-skips-gate"
    case linkResetsOtherTab = "link-resets-other-tab"
    case restartAlwaysRestores = "restart-always-restores"

    /// The bug, in one line.
    public var summary: String {
        switch self {
        case .signalBeforeCommit: return "sign-in reports success before the session is stored, so the resumed gate loops"
        case .signInPerLink: return "every gated link presents its own sign-in sheet instead of waiting for the one on screen"
        case .ordersParserSkipsGate: return "the orders module's quick parser opens tracking links directly, skipping the sign-in gate"
        case .linkGraftsStack: return "an external link is appended to the current stack instead of resetting to its canonical path"
        case .observerNeverRemoved: return "a restaurant flow registers as an observer and is never removed, so it leaks after back"
        case .settingsIgnoresSwipe: return "the settings flow ignores the swipe-down, so the flow outlives its modal"
        case .logoutKeepsOrders: return "sign-out resets every tab except orders, whose stack and flows survive the session"
        case .linkBeforeOnboarding: return "a cold-start link is executed at once instead of waiting for onboarding, which it tears down"
        case .cancelResumes: return "a cancelled sign-in is reported as satisfied, so the waiting link resumes and asks again"
        case .teardownOnDisappear:
            return "a restaurant flow ends on 'will disappear', so a cancelled back-swipe kills a flow still on screen"
        case .pushOwnParser: return "the push handler knows only `restaurants/<id>`, not the catalog's aliases"
        case .orderHandoffSkipsGate: return "a placed order is shown by executing its target directly, skipping the sign-in gate"
        case .linkResetsOtherTab: return "a link to one tab also resets the tab the user left"
        case .restartAlwaysRestores: return "a cold start restores the last navigation even when restoration is off"
        }
    }
}
