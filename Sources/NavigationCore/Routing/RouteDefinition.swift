/// How a destination is put on screen.
public enum Presentation: String, Hashable, Sendable, Codable {
    /// Pushed onto the owning stack (a tab's, or the enclosing modal's).
    case push
    /// Presented modally with a stack of its own.
    case modal
}

/// One destination of the route manifest: what it is called, how links
/// reach it, what it needs and where it sits. Ancestry is declared here as
/// data so the engine can build a canonical back stack without knowing the UI.
public struct RouteDefinition: Hashable, Sendable, Codable {
    public var id: DestinationID
    /// The destination below this one in the canonical back stack.
    public var parent: DestinationID?
    /// The owning tab; inherited from the parent when absent.
    public var tab: TabID?
    /// The flow (coordinator) that owns the screen, e.g. `browse`, `checkout`.
    public var flow: String
    public var presentation: Presentation
    public var params: [ParamSpec]
    /// Requirements checked, in order, before the destination may be shown.
    public var preconditions: [Precondition]
    public var patterns: [RoutePattern]

    public init(
        _ id: DestinationID, parent: DestinationID? = nil, tab: TabID? = nil, flow: String,
        presentation: Presentation = .push, params: [ParamSpec] = [],
        preconditions: [Precondition] = [], patterns: [RoutePattern] = []
    ) {
        self.id = id
        self.parent = parent
        self.tab = tab
        self.flow = flow
        self.presentation = presentation
        self.params = params
        self.preconditions = preconditions
        self.patterns = patterns
    }

    enum CodingKeys: String, CodingKey { case id, parent, tab, flow, presentation, params, preconditions, patterns }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(DestinationID.self, forKey: .id)
        parent = try c.decodeIfPresent(DestinationID.self, forKey: .parent)
        tab = try c.decodeIfPresent(TabID.self, forKey: .tab)
        flow = try c.decode(String.self, forKey: .flow)
        presentation = try c.decodeIfPresent(Presentation.self, forKey: .presentation) ?? .push
        params = try c.decodeIfPresent([ParamSpec].self, forKey: .params) ?? []
        preconditions = try c.decodeIfPresent([Precondition].self, forKey: .preconditions) ?? []
        patterns = try c.decodeIfPresent([RoutePattern].self, forKey: .patterns) ?? []
    }
}
