/// A launch the host could not complete, and where it was asked for.
/// Whichever call launched (an implicit launch by the first verb,
/// `launch{}`, the scenario's `launch` option), the scenario errors as a
/// launch error with it — not as a failure of that call, and even if a
/// `pcall` caught it: no app was ever there to check. In Lua it unwinds as
/// an opaque object, told by identity like a raised failure.
package final class LaunchFailure: Error, CustomStringConvertible {
    package let message: String
    /// The scenario line that asked for the app (`file:line`).
    package let location: String

    init(_ message: String, at location: String) {
        self.message = message
        self.location = location
    }

    package var description: String { "\(location): \(message)" }
}
