/// One thing wrong with a route manifest: where (line and column of the
/// offending value or key, and its JSON path), for which destination, and
/// what.
package struct ManifestProblem: Hashable, Sendable, CustomStringConvertible {
    package var path: String
    package var line: Int
    /// 1-based, in Unicode scalars (see ``JSONText``).
    package var column: Int
    package var destination: String?
    package var message: String
    /// A warning describes what a rollout changes for the app — a screen it
    /// shows that the manifest retires — which may be the intent: `routes
    /// check` lists it, but `--manifest` and `routes diff` still take the
    /// manifest (showing what breaks is their job). Everything else makes
    /// the manifest wrong in itself.
    package var isWarning: Bool

    package init(path: String, line: Int, column: Int, destination: String?, message: String, isWarning: Bool = false) {
        self.path = path
        self.line = line
        self.column = column
        self.destination = destination
        self.message = message
        self.isWarning = isWarning
    }

    /// A problem at `node`, the value (or the object missing a key) it is about.
    package init(path: String, at node: JSONText, destination: String?, message: String, isWarning: Bool = false) {
        self.init(
            path: path, line: node.line, column: node.column, destination: destination, message: message, isWarning: isWarning)
    }

    /// `line:col: error: message ($.path, destination "id")`: ``reported(in:)``
    /// without the file.
    /// The manifest's own names and values in it are spelled where a terminal would not show them
    /// (``VisibleText``): a newline in a tab name split the line and forged a `file:line:col:
    /// warning:` line of the kind CI reads as an annotation.
    package var description: String {
        "\(line):\(column): " + (isWarning ? "warning: " : "error: ") + VisibleText.of(message) + " (\(VisibleText.of(path))"
            + (destination.map { ", destination \"\(VisibleText.of($0))\"" } ?? "") + ")"
    }

    /// `file:line:col: error: message ($.path, destination "id")` — the line
    /// compilers print, so editors jump to the value and CI problem matchers
    /// (which want `error` or `warning` after the column) annotate it. The
    /// JSON path and destination come last, where they do not disturb that.
    package func reported(in file: String) -> String { "\(file):\(description)" }
}
