import NavigationCore

/// The bindings' view of the file being run: which file, which host, and
/// the world of the scenario currently running (nil while the file loads,
/// so verbs at the top level of a file are reported, not executed).
final class ScenarioSession {
    let file: String
    let host: any ScenarioHost
    var world: ScenarioWorld?

    init(file: String, host: any ScenarioHost) {
        self.file = file
        self.host = host
    }

    /// The user's line for a call: the innermost frame that is not the
    /// navscript prelude, preferring the scenario file itself, so an
    /// expectation in a support helper still points at the scenario line.
    func location(of call: LuaCall) -> String {
        let user = call.callerLocations.filter { !Self.internalSources.contains($0.source) }
        guard let innermost = user.first else { return file }
        if innermost.source == file { return innermost.description }
        if let inFile = user.first(where: { $0.source == file }) {
            return "\(inFile) (in \(innermost))"
        }
        return innermost.description
    }

    /// Chunks of navscript's own Lua (the DSL prelude, the sandbox prelude).
    static let internalSources: Set<String> = [ScenarioPrelude.sourceName, "navscript sandbox"]

    /// Output printed while the file loads (outside any scenario).
    var loadOutput = ""

    func requireWorld(_ call: LuaCall) throws(BindingError) -> ScenarioWorld {
        guard let world else {
            throw .error("\(call.functionName) can only be used inside a scenario (or a before_each/after_each hook), not while the file loads")
        }
        return world
    }
}

/// Why a binding refused: a scenario mistake (an error) or an app state
/// that did not match (a failure, with expected vs actual).
enum BindingError: Error {
    case error(String)
    case failure(ExpectationFailure)
}
