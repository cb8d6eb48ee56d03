/// What a Swift callback returns to Lua.
///
/// Why a value and not a throw into Lua: raising a Lua error is a longjmp,
/// which must never cross a Swift frame. The callback *returns* the error; the
/// C trampoline raises it after the Swift frame is gone.
public enum LuaCallResult {
    /// Return these values to Lua (possibly none).
    case values([LuaValue])
    /// Raise `value` in Lua. A string value gets the caller's position
    /// prepended (`chunk:line: message`, like `luaL_error`) unless
    /// `addPosition` is false; other values (a structured failure table) are
    /// raised unchanged.
    case error(LuaValue, addPosition: Bool = true)

    /// Return nothing.
    public static var noValues: LuaCallResult { .values([]) }

    /// Return one value.
    public static func value(_ value: LuaValue) -> LuaCallResult { .values([value]) }

    /// Raise a message at the caller's position.
    public static func error(_ message: String) -> LuaCallResult { .error(.string(LuaString(message))) }
}
