/// One step of a scenario's timeline as data: where in the script it was
/// taken, what it did, and where the app ended up. The timeline's text
/// line (``line``) is rendered from it, and the `--json` stream sends its
/// fields, so a consumer never parses the line back.
public struct TimelineStep: Hashable, Sendable, Codable {
    /// `file:line` of the script call (empty for a note the run adds, such
    /// as the invariants a scenario allowed).
    package var location: String
    /// What the step did, as the script would spell it, with its outcome
    /// (`deep_link("shop://cart", via scheme) → gated auth`).
    package var action: String
    /// The screen on top afterwards (`nothing` when none); nil for a note.
    package var screen: String?
    /// The selected tab afterwards (`-` when none); nil for a note.
    package var tab: String?

    package init(location: String, action: String, screen: String?, tab: String?) {
        self.location = location
        self.action = action
        self.screen = screen
        self.tab = tab
    }

    /// A line the run adds to the timeline that is no step of the script.
    package static func note(_ text: String) -> TimelineStep {
        TimelineStep(location: "", action: text, screen: nil, tab: nil)
    }

    /// The timeline's line: `file:line  action  → screen [tab t]`, or a
    /// note's text alone.
    package var line: String {
        guard let screen, let tab else { return location.isEmpty ? action : location + "  " + action }
        return String(concatenating: location, "  ", action, "  → ", screen, " [tab ", tab, "]")
    }

    /// The function the step called (`deep_link`, `login`, `expect_stack`):
    /// the action's leading name; empty for a note.
    package var verb: String {
        guard screen != nil else { return "" }
        return String(action.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." })
    }

    /// The script file and line of ``location`` (nil for a note).
    package var place: (file: String, line: Int)? {
        guard let colon = location.lastIndex(of: ":"), let line = Int(location[location.index(after: colon)...]) else {
            return nil
        }
        return (String(location[..<colon]), line)
    }
}
