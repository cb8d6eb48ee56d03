/// An intent to show a destination with parameters — already typed, so an
/// in-app tap never round-trips through a URL string. It is also what a
/// gate carries to resume, so that the engine re-resolves it against fresh
/// state instead of trusting a destination computed before the gate.
public struct RouteRequest: Hashable, Sendable, Codable, CustomStringConvertible {
    public var destination: DestinationID
    public var params: RouteParams

    public init(_ destination: DestinationID, params: RouteParams = [:]) {
        self.destination = destination
        self.params = params
    }

    public var description: String { RouteStep.label(destination, params) }
}

/// One screen of a resolved path: a destination and the parameters it uses.
/// Identity for reconciliation is the destination id plus these parameters.
public struct RouteStep: Hashable, Sendable, Codable, CustomStringConvertible {
    public var id: DestinationID
    public var params: RouteParams

    public init(_ id: DestinationID, params: RouteParams = [:]) {
        self.id = id
        self.params = params
    }

    /// `id` or `id:primary` — the form scenarios write in `expect_stack`.
    public var description: String { Self.label(id, params) }

    /// The primary parameter is `id` when present, otherwise the first by name.
    public var primaryParam: String? { params.primary }

    static func label(_ id: DestinationID, _ params: RouteParams) -> String {
        params.primary.map { "\(id):\($0)" } ?? id.rawValue
    }
}

/// A resolved path as data: which tab, the push run on that tab's stack
/// (canonical ancestry from the manifest), and the modal chain on top —
/// each modal a stack of its own, outermost first.
public struct Target: Hashable, Sendable, Codable, CustomStringConvertible {
    public var tab: TabID
    public var baseRun: [RouteStep]
    public var modals: [[RouteStep]]

    public init(tab: TabID, baseRun: [RouteStep], modals: [[RouteStep]] = []) {
        self.tab = tab
        self.baseRun = baseRun
        self.modals = modals
    }

    /// The screen the user lands on.
    public var leaf: RouteStep? { modals.last?.last ?? baseRun.last }

    public var description: String {
        var text = "\(tab): " + baseRun.map(\.description).joined(separator: " > ")
        for modal in modals { text += " | " + modal.map(\.description).joined(separator: " > ") }
        return text
    }
}
