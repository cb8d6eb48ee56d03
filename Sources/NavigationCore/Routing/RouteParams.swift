/// A destination's parameters by name — what a link captured, what a screen
/// shows, what identifies a step for reconciliation — kept in name order.
///
/// Why not `[String: String]`: nearly every step has no parameter or one
/// (`id`), and a single resolve builds several of them; a dictionary
/// allocates its storage for each, where none or one pair lives inline here
/// (and short strings inline in those). Name order also makes iteration,
/// labels and encodings deterministic. It reads like a dictionary:
/// `params["id"]`, a `["id": "p1"]` literal, `for (name, value) in params`.
public struct RouteParams: Hashable, Sendable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    public typealias Element = (key: String, value: String)

    fileprivate struct Pair: Hashable, Sendable {
        var key: String
        var value: String
    }

    /// Canonical: `.many` only for two or more pairs, sorted by key with
    /// unique keys — so the synthesized equality and hash are by content.
    fileprivate enum Storage: Hashable, Sendable {
        case none
        case one(Pair)
        case many([Pair])
    }

    private var storage: Storage

    public init() { storage = .none }

    /// A later value for a repeated name replaces the earlier one.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements.lazy.map { (key: $0.0, value: $0.1) })
    }

    public init(_ dictionary: [String: String]) {
        self.init(dictionary.lazy.map { (key: $0.key, value: $0.value) })
    }

    /// A later value for a repeated name replaces the earlier one.
    public init<S: Sequence>(_ pairs: S) where S.Element == Element {
        storage = .none
        for (key, value) in pairs { self[key] = value }
    }

    public var count: Int {
        switch storage {
        case .none: 0
        case .one: 1
        case .many(let pairs): pairs.count
        }
    }

    public var isEmpty: Bool {
        if case .none = storage { true } else { false }
    }

    /// The names, in order.
    public var keys: [String] { map(\.key) }

    /// The value named `key`; assigning nil removes it.
    public subscript(key: String) -> String? {
        get {
            switch storage {
            case .none: return nil
            case .one(let pair): return pair.key == key ? pair.value : nil
            case .many(let pairs): return pairs.first { $0.key == key }?.value
            }
        }
        set {
            // The common first (and only) pair, without building an array.
            if case .none = storage, let newValue {
                storage = .one(Pair(key: key, value: newValue))
                return
            }
            var pairs: [Pair]
            switch storage {
            case .none: pairs = []
            case .one(let pair): pairs = [pair]
            case .many(let existing): pairs = existing
            }
            let position = pairs.firstIndex { $0.key >= key } ?? pairs.endIndex
            let present = position < pairs.endIndex && pairs[position].key == key
            switch (newValue, present) {
            case (let value?, true): pairs[position].value = value
            case (let value?, false): pairs.insert(Pair(key: key, value: value), at: position)
            case (nil, true): pairs.remove(at: position)
            case (nil, false): return
            }
            switch pairs.count {
            case 0: storage = .none
            case 1: storage = .one(pairs[0])
            default: storage = .many(pairs)
            }
        }
    }

    /// The parameter a screen is known by: `id` when present, otherwise the
    /// first by name (what `product:p1` spells after the colon).
    public var primary: String? {
        switch storage {
        case .none: nil
        case .one(let pair): pair.value
        case .many(let pairs): pairs.first { $0.key == "id" }?.value ?? pairs[0].value
        }
    }

    /// The pairs `isIncluded` keeps, still as parameters.
    public func filter(_ isIncluded: (Element) throws -> Bool) rethrows -> RouteParams {
        var kept = RouteParams()
        for element in self where try isIncluded(element) { kept[element.key] = element.value }
        return kept
    }

    public func makeIterator() -> Iterator { Iterator(storage: storage) }

    /// Walks the pairs in name order without copying them out.
    public struct Iterator: IteratorProtocol {
        fileprivate let storage: Storage
        private var index = 0

        fileprivate init(storage: Storage) { self.storage = storage }

        public mutating func next() -> Element? {
            defer { index += 1 }
            switch storage {
            case .none: return nil
            case .one(let pair): return index == 0 ? (pair.key, pair.value) : nil
            case .many(let pairs): return index < pairs.count ? (pairs[index].key, pairs[index].value) : nil
            }
        }
    }

    public var underestimatedCount: Int { count }

    /// `["id": "p1"]`, as a dictionary prints (in name order).
    public var description: String {
        isEmpty ? "[:]" : "[" + map { "\"\($0.key)\": \"\($0.value)\"" }.joined(separator: ", ") + "]"
    }
}

/// Encoded as a JSON object of strings, exactly as the dictionary it
/// replaces was, so archives and reports keep their shape.
extension RouteParams: Codable {
    public init(from decoder: Decoder) throws {
        self.init(try [String: String](from: decoder))
    }

    public func encode(to encoder: Encoder) throws {
        var dictionary: [String: String] = [:]
        for (key, value) in self { dictionary[key] = value }
        try dictionary.encode(to: encoder)
    }
}
