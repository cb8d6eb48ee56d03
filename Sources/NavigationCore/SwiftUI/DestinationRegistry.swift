/// A stack's `navigationDestination(for:)` registrations: for each value
/// type a path may hold, the screen that shows a value of it. A value whose
/// type nobody registered shows nothing — SwiftUI logs a warning and the
/// push silently does not happen — so the stack reports it instead.
public struct DestinationRegistry {
    private var builders: [ObjectIdentifier: (AnyHashable) -> Screen?] = [:]
    /// Registered type names, in registration order (for messages).
    public private(set) var typeNames: [String] = []

    public init() {}

    /// Registers how a value of `type` is shown; a later registration for
    /// the same type replaces the earlier one, as the innermost modifier wins.
    public mutating func register<Value: Hashable>(_ type: Value.Type, _ build: @escaping (Value) -> Screen) {
        let key = ObjectIdentifier(type)
        if builders[key] == nil { typeNames.append(Self.name(of: type)) }
        builders[key] = { element in (element.base as? Value).map(build) }
    }

    /// The screen for `element`, or nil when its type is not registered.
    public func screen(for element: AnyHashable) -> Screen? {
        builders[ObjectIdentifier(type(of: element.base))]?(element)
    }

    /// A type's name as messages and events spell it (`ExploreRoute`).
    public static func name(of type: Any.Type) -> String {
        String(describing: type).split(separator: ".").last.map(String.init) ?? String(describing: type)
    }
}
