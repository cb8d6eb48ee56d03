/// Wander's catalogue of injectable bugs: slips SwiftUI teams make, each
/// switched on where a team would write it — a feature coordinator, a
/// module's destinations, the app coordinator, the window's bindings.
public enum WanderFault: String, CaseIterable, Sendable {
    case modelCacheNeverEvicted = "model-cache-never-evicted"
    case routeFreshIdentity = "route-fresh-identity"
    case linkTwoWrites = "link-two-writes"
    case secondSheetModifier = "second-sheet-modifier"
    case guideUnregistered = "guide-unregistered"
    case bindingDropsBack = "binding-drops-back"
    case restoreRegistryMissesTrips = "restore-registry-misses-trips"
    case onDismissNotClearing = "on-dismiss-not-clearing"
    case resumeBeforeDismiss = "resume-before-dismiss"
    case signOutKeepsAlert = "sign-out-keeps-alert"

    /// The bug, in one line.
    public var summary: String {
        switch self {
        case .modelCacheNeverEvicted:
            return "place models are evicted only by the coordinator's own back action, so a system back or swipe leaks them"
        case .routeFreshIdentity: return "trip routes take a fresh UUID() as identity, so every link rebuilds the screen it shows"
        case .linkTwoWrites: return "a link resets the places path with removeAll() then append: two writes in one frame"
        case .secondSheetModifier:
            return "sign-in has its own .sheet modifier beside the app's, so a gate over settings asks for a second sheet"
        case .guideUnregistered: return "the places module never registers a destination for GuideRoute, so guides never show"
        case .bindingDropsBack: return "the profile stack's analytics Binding(get:set:) stores pushes only, dropping the back-swipe's write"
        case .restoreRegistryMissesTrips: return "the restoration registry lacks TripsRoute, so a restored trips path comes back empty"
        case .onDismissNotClearing:
            return "sign-in cleans up in its buttons, not in onDismiss, so a swipe-down leaves its model and its gate waiting"
        case .resumeBeforeDismiss: return "sign-in resumes the gated link before its sheet is dismissed, writing the sheet twice"
        case .signOutKeepsAlert:
            return "sign-out resets the paths and the sheet but not the alert: signed out elsewhere, the user still sees \"Sign out?\""
        }
    }
}
