/// A misuse the platform noticed — what SwiftUI prints to the console at
/// run time and carries on from, which is why it ships: the app looks
/// fine until the path, the sheet or the tab is not what the state says.
/// Recorded as a `warning <kind> <subject>` event, and checked after every
/// scenario by the `platform_warnings` invariant.
public struct PlatformWarning: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// A path value whose type has no `navigationDestination(for:)`.
        case unregisteredDestination = "unregistered-destination"
        /// A bound value was written more than once in one frame.
        case multipleUpdates = "multiple-updates"
        /// A presentation was asked for while another is up at the same level.
        case secondPresentation = "second-presentation"
        /// A presentation was asked for while a presentation transition runs.
        case writeDuringTransition = "write-during-transition"
        /// A gesture wrote the binding and the state did not take the write.
        case droppedWrite = "dropped-write"
        /// A shown element was replaced by an unequal value that shows the
        /// same screen: its view and view state are rebuilt.
        case recreated
        /// The bound state names something no container can show.
        case outOfSync = "out-of-sync"

        /// The fix a developer usually makes.
        public var advice: String {
            switch self {
            case .unregisteredDestination:
                return "register a navigationDestination(for:) for the value's type on the stack (or on the view the feature "
                    + "module exposes), and for every type a restored path can hold"
            case .multipleUpdates:
                return "write the bound value once per change: build the new path and assign it in one go "
                    + "(path = [a, b]), not removeAll() then append"
            case .secondPresentation:
                return "one sheet, cover or alert per level: dismiss the presented one (or present from its content) "
                    + "before setting another"
            case .writeDuringTransition:
                return "present the next sheet from the previous one's onDismiss, not in the same update that dismissed it"
            case .droppedWrite:
                return "a custom Binding(get:set:) must store what SwiftUI writes (a back-swipe removes the last element, "
                    + "a swipe-down writes nil); put the side effect beside the write, not instead of it"
            case .recreated:
                return "give route values a stable identity (no UUID() in a Hashable route, no id computed afresh): equal "
                    + "intent must be an equal value, or SwiftUI rebuilds the screen and drops its state"
            case .outOfSync:
                return "keep the bound state to values the containers can show (a tab selection the TabView has, "
                    + "an item the presentation can build)"
            }
        }
    }

    public let kind: Kind
    /// What it concerns: a stack, a presentation, a value type, a screen.
    public let subject: String
    /// What happened, in SwiftUI's terms.
    public let message: String

    public init(_ kind: Kind, _ subject: String, _ message: String) {
        self.kind = kind
        self.subject = subject
        self.message = message
    }

    /// The event's text: `warning <kind> <subject>`.
    public var text: String { "warning \(kind.rawValue) \(subject)" }
    public var description: String { "\(text): \(message)" }
}
