import NavScript

/// An expectation failure as Lua holds it while it unwinds: an opaque host
/// object, recorded on the scenario's world before it is raised. The
/// runner tells a real failure from anything a script raises by identity —
/// a script can catch this object and raise it again, but cannot make one.
/// A `pcall` that catches it sees a userdata that prints as
/// `navscript failure: <message>` and has the fields `message`, `details`
/// and `location`.
package final class RaisedFailure: CustomStringConvertible {
    /// `file:line: what failed` (without the phase a hook adds).
    package let message: String
    package let details: String
    /// The scenario line it failed at (`file:line`).
    package let location: String

    init(message: String, details: String, location: String) {
        self.message = message
        self.details = details
        self.location = location
    }

    /// What an uncaught raise of it says (a failure while a file loads).
    package var description: String { message }

    /// A field as a script reads it (`e.message`); nil for any other key.
    func field(_ key: String) -> LuaValue {
        switch key {
        case "message": return .string(LuaString(message))
        case "details": return .string(LuaString(details))
        case "location": return .string(LuaString(location))
        default: return .nil
        }
    }
}
