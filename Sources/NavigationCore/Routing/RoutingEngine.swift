/// The pure, headless resolver: untrusted input in, a typed decision out.
///
/// Two front doors share one evaluator: ``resolve(url:entry:context:)`` for
/// external input (parse, match, validate, evaluate) and
/// ``resolve(request:context:)`` for in-app intents that are already typed
/// (evaluate only). Because both run the same precondition check against the
/// same injected context, there is exactly one auth policy in the app.
///
/// The engine never traps and never performs navigation: it returns
/// ``RouteResolution`` or throws ``RouteError`` when there is no destination.
public struct RoutingEngine: Sendable {
    public let manifest: RouteManifest
    public let adapter: EntryPointAdapter
    private let routes: [DestinationID: CompiledRoute]
    /// Patterns in manifest order, so matching is deterministic.
    /// The patterns by number of path segments (a link can only match
    /// those of its own length), manifest order kept within each.
    private let patternsByLength: [Int: [(pattern: RoutePattern, destination: DestinationID)]]

    private struct CompiledRoute: Sendable {
        let definition: RouteDefinition
        let params: [CompiledParam]
        /// Root first, this destination last.
        let ancestry: [RouteDefinition]
        let tab: TabID
        let preconditions: [Precondition]
    }

    public init(manifest: RouteManifest) throws(ManifestError) {
        try manifest.validate()
        self.manifest = manifest
        self.adapter = EntryPointAdapter(manifest: manifest)
        var byID: [DestinationID: RouteDefinition] = [:]
        for definition in manifest.destinations { byID[definition.id] = definition }
        var routes: [DestinationID: CompiledRoute] = [:]
        for definition in manifest.destinations {
            var ancestry = [definition]
            while let parent = ancestry[0].parent.flatMap({ byID[$0] }) { ancestry.insert(parent, at: 0) }
            var preconditions: [Precondition] = []
            for step in ancestry {
                for p in step.preconditions where !preconditions.contains(p) { preconditions.append(p) }
            }
            let params: [CompiledParam]
            do { params = try definition.params.map(CompiledParam.init) } catch {
                throw .invalidParamPattern(entry: definition.id, param: "?", pattern: "?")
            }
            routes[definition.id] = CompiledRoute(
                definition: definition, params: params, ancestry: ancestry,
                tab: ancestry.first?.tab ?? manifest.tabs[0], preconditions: preconditions)
        }
        self.routes = routes
        self.patternsByLength = Dictionary(grouping: manifest.destinations.flatMap { d in d.patterns.map { ($0, d.id) } },
                                           by: { $0.pattern.path.count })
    }

    // MARK: - Front doors

    /// External door: lifts `input` as `entry` delivers it, then resolves.
    public func resolve(_ input: EntryInput, entry: EntryPoint, context: RouteContext) throws(RouteError) -> RouteResolution {
        // `request(for:)` has validated the parameters: skip the second check.
        try resolve(request: request(for: try adapter.link(for: input, via: entry)), context: context, validated: true)
    }

    /// External door for URL strings (scheme, universal and widget links).
    public func resolve(url: String, entry: EntryPoint, context: RouteContext) throws(RouteError) -> RouteResolution {
        try resolve(.url(url), entry: entry, context: context)
    }

    /// In-app door: the intent is already typed, so only validation of its
    /// parameters and precondition evaluation run.
    public func resolve(request: RouteRequest, context: RouteContext) throws(RouteError) -> RouteResolution {
        try resolve(request: request, context: context, validated: false)
    }

    private func resolve(request: RouteRequest, context: RouteContext, validated: Bool) throws(RouteError) -> RouteResolution {
        let target = try target(for: request, validated: validated)
        guard let route = routes[request.destination] else { throw .unknownRoute(input: request.description) }
        if let unmet = route.preconditions.first(where: { !context.satisfied.contains($0) }) {
            return .gated(unmet, resume: request)
        }
        return .proceed(target)
    }

    // MARK: - Pieces, public for adapters, tools and tests

    /// Matches a link against the manifest's patterns and validates the
    /// captured parameters; no precondition is evaluated.
    public func request(for link: RouteLink) throws(RouteError) -> RouteRequest {
        for (pattern, destination) in patternsByLength[link.path.count] ?? [] {
            guard let captured = pattern.match(link) else { continue }
            let request = RouteRequest(destination, params: captured)
            try validate(request)
            return request
        }
        throw .unknownRoute(input: link.raw)
    }

    /// The canonical path for a request: ancestry from the manifest split
    /// into the tab's push run and the modal chain.
    public func target(for request: RouteRequest) throws(RouteError) -> Target {
        try target(for: request, validated: false)
    }

    private func target(for request: RouteRequest, validated: Bool) throws(RouteError) -> Target {
        guard let route = routes[request.destination] else { throw .unknownRoute(input: request.description) }
        if !validated { try validate(request) }
        var baseRun: [RouteStep] = []
        var modals: [[RouteStep]] = []
        for definition in route.ancestry {
            var params: [String: String] = [:]
            for spec in definition.params { params[spec.name] = request.params[spec.name] }
            let step = RouteStep(definition.id, params: params)
            if definition.presentation == .modal {
                modals.append([step])
            } else if modals.isEmpty {
                baseRun.append(step)
            } else {
                modals[modals.count - 1].append(step)
            }
        }
        return Target(tab: route.tab, baseRun: baseRun, modals: modals)
    }

    /// Every precondition on the path to `destination`, ancestors first.
    public func preconditions(of destination: DestinationID) -> [Precondition] {
        routes[destination]?.preconditions ?? []
    }

    public func definition(of destination: DestinationID) -> RouteDefinition? {
        routes[destination]?.definition
    }

    /// Checks a request's parameters against its destination's specs —
    /// what a tap that opens `request.destination` must satisfy. Throws the
    /// same ``RouteError`` a link with those parameters would.
    public func validateParams(of request: RouteRequest) throws(RouteError) {
        try validate(request)
    }

    private func validate(_ request: RouteRequest) throws(RouteError) {
        guard let route = routes[request.destination] else { throw .unknownRoute(input: request.description) }
        for param in route.params {
            guard let value = request.params[param.spec.name] else {
                throw .validationFailed(destination: request.destination, parameter: param.spec.name,
                                        value: "", reason: "missing")
            }
            if let problem = param.problem(with: value) {
                throw .validationFailed(destination: request.destination, parameter: param.spec.name,
                                        value: value, reason: problem)
            }
        }
    }
}
