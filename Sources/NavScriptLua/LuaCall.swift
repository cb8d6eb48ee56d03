/// One call of a Swift callback from Lua: the arguments (already copied into
/// Swift), where the call came from, and checks that produce Lua's standard
/// argument messages.
///
/// Why eager copies: a `LuaCall` never points into the Lua stack, so its
/// arguments and locations stay valid even if a callback stores it. `state`
/// lets a callback call back into Lua (e.g. a scenario body) — that nested
/// call is protected like any other; it is `unowned`, so do not use it after
/// the state is gone.
public struct LuaCall {
    /// The name the function was registered under, used in messages.
    public let functionName: String
    /// The arguments, first argument first.
    public let arguments: [LuaValue]
    /// The Lua frames that led to this call, innermost first (C frames such
    /// as `pcall` are skipped). The first entry is the line that made the
    /// call; a DSL picks the first one whose source is the scenario file.
    public let callerLocations: [LuaSourceLocation]
    /// The state running the call.
    public unowned let state: LuaState

    init(functionName: String, arguments: [LuaValue], callerLocations: [LuaSourceLocation], state: LuaState) {
        self.functionName = functionName
        self.arguments = arguments
        self.callerLocations = callerLocations
        self.state = state
    }

    /// The number of arguments actually passed (`select('#', ...)`).
    public var count: Int { arguments.count }

    /// The innermost Lua caller's position.
    public var callerLocation: LuaSourceLocation? { callerLocations.first }

    /// Argument `position` (1-based, as in Lua's messages); `.nil` when absent.
    public subscript(position: Int) -> LuaValue {
        position >= 1 && position <= arguments.count ? arguments[position - 1] : .nil
    }

    /// `bad argument #position to 'name' (detail)`, to throw or return.
    public func argumentError(_ position: Int, _ detail: String) -> LuaArgumentError {
        LuaArgumentError(position: position, function: functionName, detail: detail)
    }

    /// Lua's name for what was passed: a type name, or `no value` when absent.
    public func typeName(_ position: Int) -> String {
        position >= 1 && position <= arguments.count ? arguments[position - 1].typeName : "no value"
    }

    /// `bad argument #n to 'f' (<expected> expected, got <type>)`.
    public func typeError(_ position: Int, expected: String) -> LuaArgumentError {
        argumentError(position, "\(expected) expected, got \(typeName(position))")
    }

    /// A string argument; numbers are accepted and converted like `luaL_checkstring`.
    public func string(_ position: Int) throws(LuaArgumentError) -> String {
        try luaString(position).string
    }

    /// A string argument as raw bytes.
    public func luaString(_ position: Int) throws(LuaArgumentError) -> LuaString {
        guard let s = self[position].stringCoercion else { throw typeError(position, expected: "string") }
        return s
    }

    /// A string argument, or nil when absent or nil.
    public func optionalString(_ position: Int) throws(LuaArgumentError) -> String? {
        self[position].isNil ? nil : try string(position)
    }

    /// An integer argument; floats with an integral value are accepted like `luaL_checkinteger`.
    public func integer(_ position: Int) throws(LuaArgumentError) -> Int {
        switch self[position] {
        case .integer(let i):
            if let value = Int(exactly: i) { return value }
        case .number(let d):
            if let value = Int(exactly: d) { return value }
            throw argumentError(position, "number has no integer representation")
        default:
            break
        }
        throw typeError(position, expected: "number")
    }

    /// An integer argument, or nil when absent or nil.
    public func optionalInteger(_ position: Int) throws(LuaArgumentError) -> Int? {
        self[position].isNil ? nil : try integer(position)
    }

    /// A number argument.
    public func number(_ position: Int) throws(LuaArgumentError) -> Double {
        guard let d = self[position].doubleValue else { throw typeError(position, expected: "number") }
        return d
    }

    /// A boolean argument with Lua truthiness (never fails, like `lua_toboolean`).
    public func boolean(_ position: Int) -> Bool { self[position].isTruthy }

    /// A table argument.
    public func table(_ position: Int) throws(LuaArgumentError) -> LuaTable {
        guard let t = self[position].tableValue else { throw typeError(position, expected: "table") }
        return t
    }

    /// A table argument, or nil when absent or nil.
    public func optionalTable(_ position: Int) throws(LuaArgumentError) -> LuaTable? {
        self[position].isNil ? nil : try table(position)
    }

    /// A function argument.
    public func function(_ position: Int) throws(LuaArgumentError) -> LuaFunction {
        guard let f = self[position].functionValue else { throw typeError(position, expected: "function") }
        return f
    }

    /// A host object of type `T`; `expected` names it in the message.
    public func hostObject<T: AnyObject>(_ position: Int, as type: T.Type, expected: String) throws(LuaArgumentError) -> T {
        guard let object = self[position].hostObject(as: type) else { throw typeError(position, expected: expected) }
        return object
    }

    /// Any argument, checked against a Lua type name (`"string"`, `"table"`, …).
    public func check(_ position: Int, isType expected: String) throws(LuaArgumentError) -> LuaValue {
        guard typeName(position) == expected else { throw typeError(position, expected: expected) }
        return self[position]
    }
}

/// The Swift side of a Lua function. Throwing is allowed and safe: the
/// bridge turns a thrown `LuaArgumentError` or other error into a Lua error
/// at the caller's position, and rethrows a `LuaError` from a nested call
/// with its original value (no second position).
public typealias LuaCallback = (LuaCall) throws -> LuaCallResult
