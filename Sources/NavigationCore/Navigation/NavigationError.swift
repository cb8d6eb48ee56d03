/// A user gesture or tap that is impossible on the current screen. These are
/// scenario mistakes or app bugs worth reporting, never silent no-ops.
public enum NavigationError: Error, Hashable, Sendable, CustomStringConvertible {
    case noSuchOutput(screen: String, output: String, available: [String])
    case nothingToPop(screen: String)
    case noModal
    case noScreen
    case unknownTab(String, tabs: [String])
    case tabBarCovered(by: String)
    /// A full-screen cover or an alert has no swipe-down.
    case notSwipeDismissible(String, style: String)

    public var description: String {
        switch self {
        case .noSuchOutput(let screen, let output, let available):
            let list = available.isEmpty ? "it has none" : "its outputs are: " + available.joined(separator: ", ")
            return "screen '\(screen)' has no output '\(output)'; \(list)"
        case .nothingToPop(let screen):
            return "'\(screen)' is the root of its stack: there is no back button and nothing to swipe back to"
        case .noModal:
            return "no modal is presented, so there is nothing to dismiss"
        case .noScreen:
            return "nothing is on screen (was the app launched?)"
        case .tabBarCovered(let modal):
            return "the tab bar is covered by the modal '\(modal)'; close it first: tap one of its buttons (a close or "
                + "cancel output; an alert's are its buttons), or dismiss() a sheet that can be swiped down"
        case .notSwipeDismissible(let screen, let style):
            let how = style == "alert" ? "tap one of its buttons" : "tap its own close button"
            return "'\(screen)' is presented as \(style == "alert" ? "an" : "a") \(style), which cannot be swiped down; \(how) instead"
        case .unknownTab(let tab, let tabs):
            return "unknown tab '\(tab)'; tabs are: " + tabs.joined(separator: ", ")
        }
    }
}
