/// One step of a scenario's timeline as data: where in the script it was
/// taken, what it did, and where the app ended up. The timeline's text
/// line (``line``) is rendered from it, and the `--json` stream sends its
/// fields, so a consumer never parses the line back.
public struct TimelineStep: Hashable, Sendable, Codable {
    /// `file:line` of the script call (empty for a note the run adds, such
    /// as the invariants a scenario allowed).
    package var location: String
    /// What the step did, as the script would spell it, with its outcome
    /// (`deep_link("myapp://cart", via scheme) → gated auth`).
    package var action: String
    /// The screen on top afterwards (`nothing` when none); nil for a note.
    package var screen: String?
    /// The selected tab afterwards (`-` when none); nil for a note.
    package var tab: String?
    /// The window the screen and tab are of, when the app has several open
    /// (the one the step acted in); nil with one window.
    package var scene: Int?

    package init(location: String, action: String, screen: String?, tab: String?, scene: Int? = nil) {
        self.location = location
        self.action = action
        self.screen = screen
        self.tab = tab
        self.scene = scene
    }

    /// A line the run adds to the timeline that is no step of the script.
    package static func note(_ text: String) -> TimelineStep {
        TimelineStep(location: "", action: text, screen: nil, tab: nil)
    }

    /// The timeline's line: `file:line  action  → screen [tab t]` (`[tab t,
    /// scene 2]` with several windows), or a note's text alone.
    package var line: String {
        guard let screen, let tab else { return location.isEmpty ? action : location + "  " + action }
        guard let scene else { return String(concatenating: location, "  ", action, "  → ", screen, " [tab ", tab, "]") }
        return String(concatenating: location, "  ", action, "  → ", screen, " [tab ", tab, ", scene ", String(scene), "]")
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
