/// A Lua table copied into Swift: an array part for keys `1...n` and a hash
/// part for every other key.
///
/// Why a value type: scenario results, snapshots and failure details are data;
/// a copy can outlive the Lua state and be compared with `==`. The split
/// mirrors Lua's own sequence notion so `array` is exactly what `ipairs`
/// would visit. Invariant (kept by every mutation): `hash` never holds an
/// integer key in `1...array.count + 1`, `array` never holds `.nil`, and no
/// stored value is `.nil` — so two tables with the same contents are `==`.
/// Float keys with an integral value are normalised to integers, as Lua does.
public struct LuaTable: Hashable, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral,
    CustomStringConvertible
{
    /// Values of keys `1...array.count`, in order.
    public private(set) var array: [LuaValue]
    /// Every other key.
    public var hash: [LuaValue: LuaValue] { fields.dictionary }
    /// The hash part as stored (a few keys without a dictionary).
    package private(set) var fields: LuaTableFields
    /// Pushed to Lua as a record of this type: reading a name it does not declare raises instead of
    /// reading nil (see `LuaRecord`). Not part of the table's value (`==`, hashing).
    package var record: LuaRecord?

    public init() {
        array = []
        fields = LuaTableFields()
    }

    /// An empty table with room for `count` keys in its hash part (the
    /// bridge copies tables whose size it knows).
    package init(reservingCapacity count: Int, arrayCapacity: Int = 0) {
        array = []
        if arrayCapacity > 0 { array.reserveCapacity(arrayCapacity) }
        fields = LuaTableFields(capacity: count)
    }

    public static func == (lhs: LuaTable, rhs: LuaTable) -> Bool {
        lhs.array == rhs.array && lhs.fields.hasSameContents(as: rhs.fields)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(array)
        hasher.combine(fields.dictionary)  // order-independent, as `==` is
    }

    /// Builds a table with Lua semantics: `.nil` values are absent keys, so
    /// `init(array: [1, .nil, 3])` is `{1, nil, 3}` (array `[1]`, hash `[3: 3]`).
    public init(array: [LuaValue] = [], hash: [LuaValue: LuaValue] = [:]) {
        self.init()
        for (index, value) in array.enumerated() { self[.integer(Int64(index + 1))] = value }
        for (key, value) in hash { self[key] = value }
    }

    public init(arrayLiteral elements: LuaValue...) { self.init(array: elements) }

    public init(dictionaryLiteral elements: (LuaValue, LuaValue)...) {
        self.init()
        for (key, value) in elements { self[key] = value }
    }

    /// Length of the array part (`#t` for a proper sequence).
    public var count: Int { array.count }

    /// True when the table has no keys at all.
    public var isEmpty: Bool { array.isEmpty && fields.isEmpty }

    /// Lua's key normalisation: integral floats become integers; nil and NaN cannot be keys.
    static func normalizedKey(_ key: LuaValue) -> LuaValue? {
        switch key {
        case .nil: return nil
        case .number(let d):
            if d.isNaN { return nil }
            if let i = Int64(exactly: d) { return .integer(i) }
            return key
        default: return key
        }
    }

    /// Reads or writes one key with Lua semantics: assigning `.nil` removes
    /// the key; assigning to a nil or NaN key is ignored (Lua forbids them).
    public subscript(key: LuaValue) -> LuaValue {
        get {
            guard let key = LuaTable.normalizedKey(key) else { return .nil }
            if case .integer(let i) = key, i >= 1, i <= Int64(array.count) { return array[Int(i - 1)] }
            return fields.isEmpty ? .nil : fields[key] ?? .nil
        }
        set {
            guard let key = LuaTable.normalizedKey(key) else { return }
            if case .integer(let i) = key, i >= 1, i <= Int64(array.count) + 1 {
                setArrayIndex(Int(i), newValue)
            } else if newValue.isNil {
                if !fields.isEmpty { fields.remove(key) }
            } else {
                fields.set(newValue, for: key)
            }
        }
    }

    /// `t["name"]`.
    public subscript(key: String) -> LuaValue {
        // A string key lives in the hash part: an empty one answers without
        // building the key (bindings look options up in tables that are
        // mostly empty).
        get { fields.isEmpty ? .nil : self[.string(LuaString(key))] }
        set { self[.string(LuaString(key))] = newValue }
    }

    /// `t[index]` with Lua's 1-based indexing.
    public subscript(index: Int) -> LuaValue {
        get { self[.integer(Int64(index))] }
        set { self[.integer(Int64(index))] = newValue }
    }

    /// `index` is in `1...array.count + 1`.
    private mutating func setArrayIndex(_ index: Int, _ value: LuaValue) {
        if index == array.count + 1 {
            guard !value.isNil else { return }
            array.append(value)
            // Later keys already in the hash part may now continue the sequence
            // (an empty hash part, the usual case, is not even hashed into).
            while !fields.isEmpty, let next = fields.remove(.integer(Int64(array.count + 1))) {
                array.append(next)
            }
        } else if !value.isNil {
            array[index - 1] = value
        } else {
            // A hole: keys after it leave the sequence and move to the hash part.
            for position in index..<array.count {
                fields.set(array[position], for: .integer(Int64(position + 1)))
            }
            array.removeSubrange((index - 1)...)
        }
    }

    /// The hash part's pairs sorted by key description, read from the
    /// fields as stored (no dictionary is built for a few keys).
    private var namedPairs: [(key: LuaValue, value: LuaValue)] {
        var pairs: [(key: LuaValue, value: LuaValue)] = []
        pairs.reserveCapacity(fields.count)
        fields.forEach { key, value in pairs.append((key, value)) }
        if pairs.count > 1 { pairs.sort { $0.key.description < $1.key.description } }
        return pairs
    }

    /// Every key/value pair: the array part in order, then the hash part
    /// sorted by key description (deterministic, for messages and tests).
    public var pairs: [(key: LuaValue, value: LuaValue)] {
        var result: [(key: LuaValue, value: LuaValue)] = array.enumerated().map { (.integer(Int64($0.offset + 1)), $0.element) }
        result += namedPairs
        return result
    }

    /// Lua-like constructor syntax, e.g. `{1, 2, name = "x", [10] = true}`.
    public var description: String {
        var parts = array.map(\.description)
        for (key, value) in namedPairs {
            if case .string(let s) = key, let text = s.validUTF8, LuaTable.isIdentifier(text) {
                parts.append("\(text) = \(value)")
            } else {
                parts.append("[\(key)] = \(value)")
            }
        }
        return parts.isEmpty ? "{}" : "{" + parts.joined(separator: ", ") + "}"
    }

    package static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic) else {
            return false
        }
        return text.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) }
    }
}
