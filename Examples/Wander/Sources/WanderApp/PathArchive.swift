import Foundation
import NavigationCore

/// The app's navigation as `Codable` data for state restoration: the tab
/// and each stack's path. The places path is type-erased (it holds places
/// and guides), so every element is stored with its type's name, and
/// reading one back needs a registry of the types a path can hold — the
/// part teams forget when they add a destination type.
public struct PathArchive: Codable, Equatable, Sendable {
    public struct Element: Codable, Equatable, Sendable {
        public var type: String
        public var value: Data
    }

    public var tab: String
    public var paths: [String: [Element]]
}

/// The destination types restoration can read back, by name.
public struct PathRegistry {
    private var encoders: [String: (AnyHashable) -> Data?] = [:]
    private var decoders: [String: (Data) -> AnyHashable?] = [:]

    public init() {}

    public mutating func register<Value: Codable & Hashable & SendableMetatype>(_ type: Value.Type) {
        let name = String(describing: type)
        encoders[name] = { value in (value.base as? Value).flatMap { try? JSONEncoder().encode($0) } }
        decoders[name] = { data in (try? JSONDecoder().decode(Value.self, from: data)).map(AnyHashable.init) }
    }

    /// `values` as archive elements; a value of an unregistered type ends the path there.
    public func encode(_ values: [AnyHashable]) -> [PathArchive.Element] {
        var elements: [PathArchive.Element] = []
        for value in values {
            let name = String(describing: type(of: value.base))
            guard let data = encoders[name]?(value) else { break }
            elements.append(PathArchive.Element(type: name, value: data))
        }
        return elements
    }

    /// The values back; an element of a type the registry lacks ends the path there.
    public func decode(_ elements: [PathArchive.Element]) -> [AnyHashable] {
        var values: [AnyHashable] = []
        for element in elements {
            guard let value = decoders[element.type]?(element.value) else { break }
            values.append(value)
        }
        return values
    }
}
