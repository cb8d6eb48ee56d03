import NavScript
import NavigationCore

/// The whole navigation state right after one step of a scenario: what a
/// storyboard draws instead of a screenshot. Recorded only when a report
/// asks for it (``RunOptions/recordsFrames``, `--html`) and kept only for
/// scenarios that did not pass: a run without `--html` pays nothing, and
/// its reports and worker messages carry no frames for passing scenarios.
public struct StepFrame: Hashable, Sendable, Codable {
    /// The step's number in the scenario's timeline (1-based; 0 when a
    /// problem came before any step).
    public var number: Int
    /// `file:line` of the call that made the step.
    public var location: String
    /// The step as the timeline shows it (`tap("product", id=p42)`).
    public var action: String
    public var selectedTab: String
    /// Every tab in tab-bar order with its stack, bottom to top.
    public var tabs: [Tab]
    /// The modal chain, outermost first; each a stack of screen labels.
    public var modals: [[String]]
    /// The live coordinator tree as paths (`root/main/home`).
    public var coordinators: [String]
    /// What the app's event log recorded during the step.
    public var events: [String]
    /// Objects that left the navigation but are still alive.
    public var leaks: [Leak]
    /// Failures and errors reported at this step (an expectation right
    /// after it, an invariant after the scenario, an error it raised).
    public var problems: [Problem]

    public struct Tab: Hashable, Sendable, Codable {
        public var name: String
        public var stack: [String]

        public init(name: String, stack: [String]) {
            self.name = name
            self.stack = stack
        }
    }

    public struct Leak: Hashable, Sendable, Codable {
        public var label: String
        public var kind: String
        /// The step it left the navigation in (`back_swipe`).
        public var leftDuring: String

        public init(label: String, kind: String, leftDuring: String) {
            self.label = label
            self.kind = kind
            self.leftDuring = leftDuring
        }
    }

    public struct Problem: Hashable, Sendable, Codable {
        /// `failure` or `error`.
        public var kind: String
        public var message: String
        /// Expected vs actual, diffs, traceback.
        public var details: String

        public init(kind: String, message: String, details: String) {
            self.kind = kind
            self.message = message
            self.details = details
        }
    }

    public init(number: Int, location: String, action: String, selectedTab: String, tabs: [Tab], modals: [[String]],
                coordinators: [String], events: [String], leaks: [Leak], problems: [Problem] = []) {
        self.number = number
        self.location = location
        self.action = action
        self.selectedTab = selectedTab
        self.tabs = tabs
        self.modals = modals
        self.coordinators = coordinators
        self.events = events
        self.leaks = leaks
        self.problems = problems
    }

    /// The frame of `app` as it is now (no app yet: an empty frame).
    init(number: Int, location: String, action: String, app: (any ScenarioApp)?, events: [String]) {
        guard let app else {
            self.init(number: number, location: location, action: action, selectedTab: "-", tabs: [], modals: [],
                      coordinators: [], events: events, leaks: [])
            return
        }
        let state = app.state
        self.init(number: number, location: location, action: action, selectedTab: state.selectedTab.rawValue,
                  tabs: state.tabs.map { Tab(name: $0.rawValue, stack: state.stack($0).map(\.description)) },
                  modals: state.modals.map { $0.map(\.description) },
                  coordinators: app.coordinatorPaths, events: events,
                  leaks: app.leaks.map { Leak(label: $0.label, kind: $0.kind.rawValue, leftDuring: $0.leftDuring) })
    }
}
