import NavigationCore

/// Everything one scenario run owns: its app (fresh for every scenario),
/// the launch it asked for, the step timeline and what it printed.
final class ScenarioWorld {
    let host: any ScenarioHost
    /// Faults switched on for this run (`--fault`, or the fault `mutate` is testing).
    let faults: [String]
    private(set) var app: (any ScenarioApp)?
    private(set) var launchRequest = LaunchRequest()
    private(set) var timeline: [String] = [] {
        didSet { if let step = timeline.last { onStep?(step) } }
    }
    /// Sees every step as it is recorded (a worker streams them, so a
    /// scenario that crashes its process still has a timeline).
    var onStep: ((String) -> Void)?
    var output = ""
    /// Where the binding currently running was called from.
    var location: String?

    init(host: any ScenarioHost, faults: [String]) {
        self.host = host
        self.faults = faults
    }

    func launch(_ request: LaunchRequest, at location: String) throws(HostError) {
        var request = request
        request.faults = faults
        try host.check(request)
        launchRequest = request
        app = try host.launch(request)
        try app?.settle()
        var described = request.options.sorted { $0.key < $1.key }.map { "\($0.key) = \($0.value)" }
        if let link = request.link { described.append("url = \"\(link)\", via = \"\(request.via)\"") }
        record(described.isEmpty ? "launch{}" : "launch{ \(described.joined(separator: ", ")) }", at: location)
    }

    /// The running app, launched with defaults if the scenario did not launch one.
    func ensureApp(at location: String) throws(HostError) -> any ScenarioApp {
        if let app { return app }
        try launch(LaunchRequest(), at: location)
        guard let app else { throw HostError("the app did not launch") }
        return app
    }

    func replaceApp(_ app: any ScenarioApp) {
        self.app = app
    }

    /// Adds a step to the timeline, with where the app ended up.
    func record(_ step: String, at location: String) {
        let screen = app?.visibleScreen ?? "nothing"
        let tab = app?.state.selectedTab.rawValue ?? "-"
        timeline.append("\(location)  \(step)  → \(screen) [tab \(tab)]")
    }

    func note(_ line: String) {
        timeline.append(line)
    }
}
