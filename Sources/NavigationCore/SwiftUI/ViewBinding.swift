/// SwiftUI's `Binding`, headless: how a container reads and writes the
/// state it is bound to. Built from a key path on the team's own
/// coordinator (`ViewBinding(coordinator, \.path)`, what `$coordinator.path`
/// is in a view), or from a getter and a setter, as a custom
/// `Binding(get:set:)` is — including one whose setter drops a write,
/// which the platform then reports.
public struct ViewBinding<Value> {
    public let get: () -> Value
    public let set: (Value) -> Void

    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
        self.get = get
        self.set = set
    }

    /// Binds `keyPath` of `root`, holding `root` strongly as `$root.keyPath` does.
    public init<Root: AnyObject>(_ root: Root, _ keyPath: ReferenceWritableKeyPath<Root, Value>) {
        get = { root[keyPath: keyPath] }
        set = { root[keyPath: keyPath] = $0 }
    }
}
