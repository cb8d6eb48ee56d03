import NavigationCore

/// ShopApp's own events, logged beside the core's (`expect_events{ "stash" }`).
enum ShopEvent: AppEvent {
    /// A cold-start link held until the root is up: `stash <entry> <input>`.
    case stash(EntryPoint, EntryInput)
    /// The widget's quick path opened an order by its id: `widget-opens-order <id>`.
    case widgetOpensOrder(Int)
    /// A modal chain named a destination no modal flow presents: `no-modal-flow <screen>`.
    case noModalFlow(RouteStep)
    /// The root has no flow that satisfies a precondition: `unsatisfiable <precondition>`.
    case unsatisfiable(Precondition)
    /// A flow was asked to build a screen it does not own: `cannot-build <path> <screen>`.
    case cannotBuild(path: String, RouteStep)

    var text: String {
        switch self {
        case .stash(let entry, let input): return "stash \(entry) \(input)"
        case .widgetOpensOrder(let id): return "widget-opens-order \(id)"
        case .noModalFlow(let step): return "no-modal-flow \(step)"
        case .unsatisfiable(let precondition): return "unsatisfiable \(precondition)"
        case .cannotBuild(let path, let step): return "cannot-build \(path) \(step)"
        }
    }
}
