/// One thing wrong with a route manifest: where (JSON path and line), for
/// which destination, and what.
package struct ManifestProblem: Hashable, Sendable, CustomStringConvertible {
    package var path: String
    package var line: Int
    package var destination: String?
    package var message: String
    /// A warning describes what a rollout changes for the app — a screen it
    /// shows that the manifest retires — which may be the intent: `routes
    /// check` lists it, but `--manifest` and `routes diff` still take the
    /// manifest (showing what breaks is their job). Everything else makes
    /// the manifest wrong in itself.
    package var isWarning: Bool

    package init(path: String, line: Int, destination: String?, message: String, isWarning: Bool = false) {
        self.path = path
        self.line = line
        self.destination = destination
        self.message = message
        self.isWarning = isWarning
    }

    package var description: String {
        "line \(line)  \(path)" + (destination.map { "  (\($0))" } ?? "") + ": " + (isWarning ? "warning: " : "") + message
    }
}
