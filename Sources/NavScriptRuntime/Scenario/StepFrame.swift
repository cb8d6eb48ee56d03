import NavScript
import NavigationCore

/// The whole navigation state right after one step of a scenario: what a
/// storyboard draws instead of a screenshot. Recorded only when a report
/// asks for it (``RunOptions/recordsFrames``, `--html`) and kept only for
/// scenarios that did not pass: a run without `--html` pays nothing, and
/// its reports and worker messages carry no frames for passing scenarios.
package struct StepFrame: Hashable, Sendable, Codable {
    /// The step's number in the scenario's timeline (1-based; 0 when a
    /// problem came before any step).
    package var number: Int
    /// `file:line` of the call that made the step.
    package var location: String
    /// The step as the timeline shows it (`tap("product", id=p42)`).
    package var action: String
    package var selectedTab: String
    /// Every tab in tab-bar order with its stack, bottom to top.
    package var tabs: [Tab]
    /// The modal chain, outermost first; each a stack of screen labels.
    package var modals: [[String]]
    /// The live coordinator tree as paths (`root/main/home`).
    package var coordinators: [String]
    /// What the app's event log recorded during the step.
    package var events: [String]
    /// Objects that left the navigation but are still alive.
    package var leaks: [Leak]
    /// Failures and errors reported at this step (an expectation right
    /// after it, an invariant after the scenario, an error it raised).
    package var problems: [Problem]
    /// Every open window of an app with several (empty with one): the
    /// storyboard draws them side by side. The fields above are the acting
    /// window's.
    package var windows: [Window] = []
    /// How many frames right before this one a long scenario did not keep
    /// (nil: none) — the storyboard says so where they were.
    package var framesLeftOutBefore: Int?

    /// One window (scene) of the app, as it was after the step.
    package struct Window: Hashable, Sendable, Codable {
        package var number: Int
        package var inFront: Bool
        package var selectedTab: String
        package var tabs: [Tab]
        package var modals: [[String]]

        package init(number: Int, inFront: Bool, selectedTab: String, tabs: [Tab], modals: [[String]]) {
            self.number = number
            self.inFront = inFront
            self.selectedTab = selectedTab
            self.tabs = tabs
            self.modals = modals
        }
    }

    package struct Tab: Hashable, Sendable, Codable {
        package var name: String
        package var stack: [String]

        package init(name: String, stack: [String]) {
            self.name = name
            self.stack = stack
        }
    }

    package struct Leak: Hashable, Sendable, Codable {
        package var label: String
        package var kind: String
        /// The step it left the navigation in (`back_swipe`).
        package var leftDuring: String

        package init(label: String, kind: String, leftDuring: String) {
            self.label = label
            self.kind = kind
            self.leftDuring = leftDuring
        }
    }

    package struct Problem: Hashable, Sendable, Codable {
        /// `failure` or `error`.
        package var kind: String
        package var message: String
        /// Expected vs actual, diffs, traceback.
        package var details: String

        /// Capped as the result's own message and details are: a frame
        /// carries them to the storyboard and the JSON stream too.
        package init(kind: String, message: String, details: String) {
            self.kind = kind
            self.message = TextCap.bounded(message, to: TextCap.message)
            self.details = TextCap.bounded(details, to: TextCap.details)
        }
    }

    package init(
        number: Int, location: String, action: String, selectedTab: String, tabs: [Tab], modals: [[String]],
        coordinators: [String], events: [String], leaks: [Leak], problems: [Problem] = []
    ) {
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

    /// The frame of `app` as it is now (no app yet: an empty frame). The
    /// action and each event are capped as a timeline step is.
    init(number: Int, location: String, action: String, app: (any AppDriver)?, events: [String]) {
        let action = TextCap.bounded(action, to: TextCap.step)
        let events = events.contains { $0.utf8.count > TextCap.step } ? events.map { TextCap.bounded($0, to: TextCap.step) } : events
        guard let app else {
            self.init(
                number: number, location: location, action: action, selectedTab: "-", tabs: [], modals: [],
                coordinators: [], events: events, leaks: [])
            return
        }
        let state = app.state
        self.init(
            number: number, location: location, action: action, selectedTab: state.selectedTab.rawValue,
            tabs: state.tabs.map { Tab(name: $0.rawValue, stack: state.stack($0).map(\.description)) },
            modals: state.modals.map { $0.map(\.description) },
            coordinators: app.coordinatorPaths, events: events,
            leaks: app.leaks.map { Leak(label: $0.label, kind: $0.kind.rawValue, leftDuring: $0.leftDuring) })
        if let scenes = app as? any SceneDriving, scenes.sceneNumbers.count > 1 {
            windows = scenes.sceneNumbers.compactMap { number in
                scenes.state(ofScene: number).map { state in
                    Window(
                        number: number, inFront: number == scenes.foregroundScene, selectedTab: state.selectedTab.rawValue,
                        tabs: state.tabs.map { Tab(name: $0.rawValue, stack: state.stack($0).map(\.description)) },
                        modals: state.modals.map { $0.map(\.description) })
                }
            }
        }
    }
}
