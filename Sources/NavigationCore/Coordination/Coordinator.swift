/// A coordinator owns one flow: it builds that flow's screens, wires their
/// outputs, and holds its child flows strongly so they live exactly as long
/// as the flow needs them. Children report back through ``onFinish``; they
/// never hold their parent.
public protocol Coordinator: AnyObject {
    /// The path component naming this coordinator in the live tree (`browse`, `auth`).
    var name: String { get }
    var children: [Coordinator] { get }
    func start()
}

extension Coordinator {
    /// Every live coordinator below and including this one, as paths
    /// (`app`, `app/browse`, `app/browse/cart`), depth first.
    public func treePaths(prefix: String? = nil) -> [String] {
        var paths: [String] = []
        paths.reserveCapacity(16)
        appendTreePaths(to: &paths, prefix: prefix)
        return paths
    }

    /// One array for the whole tree (invariants read it after every
    /// scenario). A flow's children are walked in its own array: `children`
    /// would copy them into a new array of existentials at every node.
    /// A flow adopted under this very prefix reuses the path it keeps: no
    /// string is built, and the checks that compare these paths with screen
    /// owners (which hold the same kept strings) compare them by identity.
    private func appendTreePaths(to paths: inout [String], prefix: String?) {
        guard let flow = self as? FlowCoordinator else {
            let path = prefix.map { $0 + "/" + name } ?? name
            paths.append(path)
            for child in children { child.appendTreePaths(to: &paths, prefix: path) }
            return
        }
        let path = flow.pathPrefix == prefix ? flow.path : prefix.map { $0 + "/" + name } ?? name
        paths.append(path)
        for child in flow.childFlows { child.appendTreePaths(to: &paths, prefix: path) }
    }
}

/// The shared mechanics of a flow coordinator: a strong children array,
/// a finish callback with a completed/cancelled result, lifecycle
/// registration and `start`/`finish` events. Subclasses add the flow.
open class FlowCoordinator: Coordinator, LifecycleTracked {
    public let name: String
    public private(set) var childFlows: [FlowCoordinator] = []
    public var children: [Coordinator] { childFlows }
    /// Set by the parent; called once when the flow ends.
    public var onFinish: ((FlowResult) -> Void)?
    public var lifecycleToken: LifecycleToken?
    public let log: EventLog
    /// The parent's path, set when the parent adopts this flow.
    fileprivate var pathPrefix: String? {
        didSet { path = pathPrefix.map { $0 + "/" + name } ?? name }
    }
    public private(set) var isFinished = false

    public init(name: String, log: EventLog) {
        self.name = name
        self.log = log
        path = name
    }

    /// `app/checkout/auth` — where this coordinator sits in the tree. Kept,
    /// not derived on each read: events name it, and the checks after every
    /// scenario compare every screen's owner against the live tree.
    public private(set) var path: String

    open func start() {
        log.record(.start(path))
    }

    /// Adopts `child` (held strongly) and starts it.
    public func startChild(_ child: FlowCoordinator) {
        childFlows.append(child)
        child.pathPrefix = path
        child.start()
    }

    /// Drops a child; with nothing else holding it, it deallocates.
    public func removeChild(_ child: FlowCoordinator) {
        childFlows.removeAll { $0 === child }
    }

    public func removeAllChildren() {
        childFlows.removeAll()
    }

    /// Ends the flow and tells the parent. Idempotent: a flow ends once.
    public func finish(_ result: FlowResult) {
        guard !isFinished else { return }
        isFinished = true
        log.record(.finish(path, result))
        onFinish?(result)
    }
}

/// What the dispatcher needs from the app's root coordinator — and nothing
/// more: it never sees an engine, a URL or a screen type.
public protocol RootCoordinating: AnyObject {
    /// Carries out a resolved target; `completion` runs once every
    /// transition has finished, which is what lets dispatch be serialized.
    func execute(_ target: Target, source: RouteSource, completion: @escaping () -> Void)
    /// Tries to satisfy a precondition (present login, add a payment
    /// method); reports `true` only when it is now satisfied.
    func satisfy(_ precondition: Precondition, completion: @escaping (Bool) -> Void)
}
