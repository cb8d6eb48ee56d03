import NavigationCore

/// ShopApp's own events, logged beside the core's.
enum ShopEvent: AppEvent {
    /// The widget's quick path opened an order by its id: `widget-opens-order <id>`.
    case widgetOpensOrder(Int)

    var text: String {
        switch self {
        case .widgetOpensOrder(let id): return "widget-opens-order \(id)"
        }
    }
}
