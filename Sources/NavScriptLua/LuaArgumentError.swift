/// A bad argument to a Swift callback, worded like Lua's own
/// `bad argument #1 to 'tap' (string expected, got nil)`.
///
/// Why a dedicated error: the `LuaCall` checks throw it, and a callback may
/// simply let it propagate — the bridge raises it in Lua at the caller's
/// position, so scenario authors see the familiar standard-library message.
public struct LuaArgumentError: Error, CustomStringConvertible, Sendable {
    /// The full message, without position.
    public let message: String

    public init(message: String) { self.message = message }

    /// `bad argument #position to 'function' (detail)`.
    public init(position: Int, function: String, detail: String) {
        message = "bad argument #\(position) to '\(function)' (\(detail))"
    }

    public var description: String { message }
}
