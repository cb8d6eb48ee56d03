/// The hash part of a ``LuaTable``: up to ``smallLimit`` keys in an array
/// searched in order, more in a dictionary.
///
/// Why: nearly every table that crosses the bridge has a handful of named
/// keys — a `deep_link` outcome, launch options, a declaration's options —
/// and allocating and hashing a dictionary for each cost more than the rest
/// of the copy (twice per ten-step scenario, for the outcomes alone). A few
/// keys compared in order need neither.
package struct LuaTableFields {
    /// Beyond this many keys, lookups go through a dictionary.
    static let smallLimit = 8

    private var small: [(key: LuaValue, value: LuaValue)] = []
    private var large: [LuaValue: LuaValue]?

    init() {}

    /// Room for `capacity` keys.
    init(capacity: Int) {
        if capacity > Self.smallLimit {
            large = Dictionary(minimumCapacity: capacity)
        } else if capacity > 0 {
            small.reserveCapacity(capacity)
        }
    }

    package var isEmpty: Bool { large?.isEmpty ?? small.isEmpty }
    var count: Int { large?.count ?? small.count }

    /// The value of `key` (normalised, not nil), or nil when absent.
    subscript(key: LuaValue) -> LuaValue? {
        if let large { return large[key] }
        for entry in small where entry.key == key { return entry.value }
        return nil
    }

    /// Sets `key` (normalised) to a value that is not `.nil`.
    mutating func set(_ value: LuaValue, for key: LuaValue) {
        if large != nil {
            large![key] = value
        } else if let index = small.firstIndex(where: { $0.key == key }) {
            small[index].value = value
        } else if small.count < Self.smallLimit {
            small.append((key, value))
        } else {
            var dictionary = Dictionary(minimumCapacity: small.count + 1) as [LuaValue: LuaValue]
            for entry in small { dictionary[entry.key] = entry.value }
            dictionary[key] = value
            large = dictionary
            small = []
        }
    }

    /// Removes `key`; returns its value, if it had one.
    @discardableResult
    mutating func remove(_ key: LuaValue) -> LuaValue? {
        if large != nil { return large!.removeValue(forKey: key) }
        guard let index = small.firstIndex(where: { $0.key == key }) else { return nil }
        return small.remove(at: index).value
    }

    /// Every key and value, in no particular order.
    func forEach<Failure: Error>(_ body: (LuaValue, LuaValue) throws(Failure) -> Void) throws(Failure) {
        if let large {
            for (key, value) in large { try body(key, value) }
        } else {
            for entry in small { try body(entry.key, entry.value) }
        }
    }

    /// The same keys and values as a dictionary.
    var dictionary: [LuaValue: LuaValue] {
        if let large { return large }
        var dictionary = Dictionary(minimumCapacity: small.count) as [LuaValue: LuaValue]
        for entry in small { dictionary[entry.key] = entry.value }
        return dictionary
    }

    /// The same keys with equal values, in any order.
    func hasSameContents(as other: LuaTableFields) -> Bool {
        guard count == other.count else { return false }
        if let large { return large.allSatisfy { other[$0.key] == $0.value } }
        return small.allSatisfy { other[$0.key] == $0.value }
    }
}
