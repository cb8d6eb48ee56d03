import Foundation

/// A Lua value on the Swift side of the bridge.
///
/// Why an enum with copies: Swift code never holds pointers into a Lua state.
/// Data (nil, booleans, numbers, strings, tables) is copied; things with
/// identity in Lua (functions, coroutines, foreign userdata) are held through
/// registry references; host objects are the Swift objects themselves.
/// Lua 5.4's number subtypes are kept apart: `.integer(3)` and `.number(3.0)`
/// are different values (`==` is structural, unlike Lua's `3 == 3.0`).
public enum LuaValue: Hashable, CustomStringConvertible, ExpressibleByBooleanLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    case `nil`
    case boolean(Bool)
    /// A Lua integer (`math.type(x) == "integer"`).
    case integer(Int64)
    /// A Lua float (`math.type(x) == "float"`).
    case number(Double)
    case string(LuaString)
    case table(LuaTable)
    /// A Lua function, callable with `LuaState.call`.
    case function(LuaFunction)
    /// A Swift object handed to Lua as a userdata (see `LuaState` host objects).
    case hostObject(AnyObject)
    /// Any other Lua value with identity (a coroutine, a light userdata, a
    /// userdata that is not a host object such as an io file), kept by
    /// reference so it can be handed back to Lua unchanged.
    case other(LuaReference)

    public init(booleanLiteral value: Bool) { self = .boolean(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(stringLiteral value: String) { self = .string(LuaString(value)) }
    public init(arrayLiteral elements: LuaValue...) { self = .table(LuaTable(array: elements)) }
    public init(dictionaryLiteral elements: (LuaValue, LuaValue)...) {
        var table = LuaTable()
        for (key, value) in elements { table[key] = value }
        self = .table(table)
    }

    public init(_ value: String) { self = .string(LuaString(value)) }
    public init(_ value: Int) { self = .integer(Int64(value)) }
    public init(_ value: Double) { self = .number(value) }
    public init(_ value: Bool) { self = .boolean(value) }
    public init(_ value: LuaTable) { self = .table(value) }
    /// `.nil` when `value` is nil.
    public init(_ value: String?) { self = value.map { .string(LuaString($0)) } ?? .nil }

    public var isNil: Bool {
        if case .nil = self { return true }
        return false
    }

    /// Lua truthiness: everything except nil and false.
    public var isTruthy: Bool {
        switch self {
        case .nil, .boolean(false): return false
        default: return true
        }
    }

    /// Lua's `type(v)`.
    public var typeName: String {
        switch self {
        case .nil: return "nil"
        case .boolean: return "boolean"
        case .integer, .number: return "number"
        case .string: return "string"
        case .table: return "table"
        case .function: return "function"
        case .hostObject: return "userdata"
        case .other(let reference): return reference.typeName
        }
    }

    /// Lossy text of a `.string` (nil for every other case, numbers included).
    public var stringValue: String? {
        if case .string(let s) = self { return s.string }
        return nil
    }

    /// The raw bytes of a `.string`.
    public var luaStringValue: LuaString? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// An `.integer`, or a `.number` with an exact integral value, as `Int`.
    public var intValue: Int? {
        switch self {
        case .integer(let i): return Int(exactly: i)
        case .number(let d): return Int(exactly: d)
        default: return nil
        }
    }

    /// An `.integer`, or a `.number` with an exact integral value, as `Int64`.
    public var int64Value: Int64? {
        switch self {
        case .integer(let i): return i
        case .number(let d): return Int64(exactly: d)
        default: return nil
        }
    }

    /// Any number as `Double` (integers converted).
    public var doubleValue: Double? {
        switch self {
        case .integer(let i): return Double(i)
        case .number(let d): return d
        default: return nil
        }
    }

    /// The value of a `.boolean` (nil otherwise; see `isTruthy` for Lua truthiness).
    public var boolValue: Bool? {
        if case .boolean(let b) = self { return b }
        return nil
    }

    public var tableValue: LuaTable? {
        if case .table(let t) = self { return t }
        return nil
    }

    public var functionValue: LuaFunction? {
        if case .function(let f) = self { return f }
        return nil
    }

    public var hostObjectValue: AnyObject? {
        if case .hostObject(let o) = self { return o }
        return nil
    }

    /// The host object when it is a `T`.
    public func hostObject<T: AnyObject>(as type: T.Type) -> T? {
        hostObjectValue as? T
    }

    /// Table lookup (`.nil` when this is not a table).
    public subscript(key: LuaValue) -> LuaValue { tableValue?[key] ?? .nil }
    /// `v["name"]` on a table value.
    public subscript(key: String) -> LuaValue { tableValue?[key] ?? .nil }
    /// `v[index]` (1-based) on a table value.
    public subscript(index: Int) -> LuaValue { tableValue?[index] ?? .nil }

    /// Lua-like rendering: `nil`, `true`, `3`, `3.0`, `"text"`, `{1, x = 2}`.
    public var description: String {
        switch self {
        case .nil: return "nil"
        case .boolean(let b): return b ? "true" : "false"
        case .integer(let i): return String(i)
        case .number(let d): return LuaValue.format(d)
        case .string(let s): return s.debugDescription
        case .table(let t): return t.description
        case .function(let f): return f.description
        case .hostObject(let o): return "host object: \(type(of: o))"
        case .other(let r): return r.description
        }
    }

    /// Lua's float formatting (`%.14g`, with `.0` added to integral values).
    static func format(_ d: Double) -> String {
        if d.isNaN { return d.sign == .minus ? "-nan" : "nan" }
        if d.isInfinite { return d < 0 ? "-inf" : "inf" }
        let text = String(format: "%.14g", d)
        let looksIntegral = text.allSatisfy { $0 == "-" || $0.isASCII && $0.isNumber }
        return looksIntegral ? text + ".0" : text
    }

    /// What Lua's `tostring` gives for strings and numbers (used by argument
    /// checks that accept numbers for strings, as `luaL_checkstring` does).
    var stringCoercion: LuaString? {
        switch self {
        case .string(let s): return s
        case .integer(let i): return LuaString(String(i))
        case .number(let d): return LuaString(LuaValue.format(d))
        default: return nil
        }
    }

    public static func == (lhs: LuaValue, rhs: LuaValue) -> Bool {
        switch (lhs, rhs) {
        case (.nil, .nil): return true
        case (.boolean(let a), .boolean(let b)): return a == b
        case (.integer(let a), .integer(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.table(let a), .table(let b)): return a == b
        case (.function(let a), .function(let b)): return a == b
        case (.hostObject(let a), .hostObject(let b)): return a === b
        case (.other(let a), .other(let b)): return a == b
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .nil: hasher.combine(0)
        case .boolean(let b): hasher.combine(1); hasher.combine(b)
        case .integer(let i): hasher.combine(2); hasher.combine(i)
        case .number(let d): hasher.combine(3); hasher.combine(d)
        case .string(let s): hasher.combine(4); hasher.combine(s)
        case .table(let t): hasher.combine(5); hasher.combine(t)
        case .function(let f): hasher.combine(6); hasher.combine(f)
        case .hostObject(let o): hasher.combine(7); hasher.combine(ObjectIdentifier(o))
        case .other(let r): hasher.combine(8); hasher.combine(r)
        }
    }
}
