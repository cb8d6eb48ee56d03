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
    /// Every destination compiled, in manifest order.
    private let routes: [CompiledRoute]
    /// A destination's position in ``routes``.
    private let routeIndex: [DestinationID: Int]
    /// The patterns by number of path segments (a link can only match
    /// those of its own length), manifest order kept within each, with
    /// the position of their route: matching a link hashes no string.
    private let patternsByLength: [[PatternEntry]]
    /// Each destination's own preconditions (the ones it declares, not its
    /// ancestors'), for the destinations that declare any. Kept here, built
    /// once with the engine: a harness checks after every step that no
    /// screen is shown without them, and building the table per scenario
    /// was a tenth of a scenario that only launches.
    public let declaredPreconditions: [DestinationID: [Precondition]]

    /// What matching needs of a pattern, and the position of its route. A
    /// class holding the pattern's parts, not the pattern: reaching them
    /// through a stored `RoutePattern` (or a struct in the list) copied,
    /// retained and released every field, for every pattern tried.
    private final class PatternEntry: Sendable {
        let path: [RoutePattern.Segment]
        let query: [(key: String, value: RoutePattern.Segment)]
        let entryBits: UInt8
        let route: Int
        /// The first byte of the pattern's first segment when that is a
        /// literal starting with an ASCII byte: a link whose first component
        /// starts with another ASCII byte (once lower-cased) cannot match,
        /// so the pattern is passed over without being tried.
        let firstByte: UInt8?

        init(_ pattern: RoutePattern, route: Int) {
            path = pattern.path
            query = pattern.query
            entryBits = pattern.entryBits
            self.route = route
            if case .literal(let literal)? = pattern.path.first, let byte = literal.utf8.first, byte < 0x80 {
                firstByte = byte
            } else {
                firstByte = nil
            }
        }

        func match(_ link: RouteLink) -> RouteParams? {
            RoutePattern.match(link, path: path, query: query, entryBits: entryBits)
        }
    }

    /// A class, not a struct: a resolve hands it around several times, and
    /// copying a struct of arrays retained and released each field.
    private final class CompiledRoute: Sendable {
        let definition: RouteDefinition
        /// `definition.id`, kept apart: reading it through the definition
        /// copied the whole definition.
        let id: DestinationID
        let params: [CompiledParam]
        /// The steps of the canonical path, root first, this destination last.
        let steps: [Step]
        let tab: TabID
        let preconditions: [Precondition]
        /// How many of `steps` are pushed on the tab before any modal.
        let baseRunCount: Int

        /// What building a target needs of one ancestor, and no more (a
        /// class, for the same reason as the route).
        final class Step: Sendable {
            let id: DestinationID
            let isModal: Bool
            /// Declares exactly the destination's params (the destination
            /// itself always does): the step takes the request's params as
            /// they are, without a copy.
            let sharesParams: Bool
            /// The names of the params it declares.
            let paramNames: [String]

            init(_ definition: RouteDefinition, destinationParams: Set<String>) {
                id = definition.id
                isModal = definition.presentation == .modal
                paramNames = definition.params.map(\.name)
                sharesParams = Set(paramNames) == destinationParams
            }
        }

        init(
            definition: RouteDefinition, params: [CompiledParam], ancestry: [RouteDefinition],
            tab: TabID, preconditions: [Precondition]
        ) {
            self.definition = definition
            id = definition.id
            self.params = params
            let names = Set(definition.params.map(\.name))
            steps = ancestry.map { Step($0, destinationParams: names) }
            self.tab = tab
            self.preconditions = preconditions
            baseRunCount = steps.firstIndex { $0.isModal } ?? steps.count
        }
    }

    public init(manifest: RouteManifest) throws(ManifestError) {
        try manifest.validate()
        self.manifest = manifest
        self.adapter = EntryPointAdapter(manifest: manifest)
        var routes: [CompiledRoute] = []
        var routeIndex: [DestinationID: Int] = [:]
        for (definition, ancestry) in zip(manifest.destinations, manifest.ancestries()) {
            let preconditions = RouteManifest.preconditions(along: ancestry)
            let params: [CompiledParam]
            do { params = try definition.params.map(CompiledParam.init) } catch {
                throw .invalidParamPattern(entry: definition.id, param: "?", pattern: "?")
            }
            routeIndex[definition.id] = routes.count
            routes.append(
                CompiledRoute(
                    definition: definition, params: params, ancestry: ancestry,
                    tab: ancestry.first?.tab ?? manifest.tabs[0], preconditions: preconditions))
        }
        self.routes = routes
        self.routeIndex = routeIndex
        var byLength: [[PatternEntry]] = []
        for (index, definition) in manifest.destinations.enumerated() {
            for pattern in definition.patterns {
                while byLength.count <= pattern.path.count { byLength.append([]) }
                byLength[pattern.path.count].append(PatternEntry(pattern, route: index))
            }
        }
        self.patternsByLength = byLength
        var declared: [DestinationID: [Precondition]] = [:]
        for definition in manifest.destinations where !definition.preconditions.isEmpty {
            declared[definition.id] = definition.preconditions
        }
        declaredPreconditions = declared
    }

    // MARK: - Front doors

    /// External door: lifts `input` as `entry` delivers it, then resolves.
    public func resolve(_ input: EntryInput, entry: EntryPoint, context: RouteContext) throws(RouteError) -> RouteResolution {
        // `match` has validated the parameters and found the route: evaluate only.
        let (request, route) = try match(try adapter.link(for: input, via: entry))
        return evaluate(request, route: routes[route], context: context)
    }

    /// External door for URL strings (scheme, universal and widget links).
    public func resolve(url: String, entry: EntryPoint, context: RouteContext) throws(RouteError) -> RouteResolution {
        try resolve(.url(url), entry: entry, context: context)
    }

    /// In-app door: the intent is already typed, so only validation of its
    /// parameters and precondition evaluation run.
    public func resolve(request: RouteRequest, context: RouteContext) throws(RouteError) -> RouteResolution {
        let route = try compiled(request)
        try validate(request, route)
        return evaluate(request, route: route, context: context)
    }

    /// Gated at the first unmet precondition, else the canonical target.
    private func evaluate(_ request: RouteRequest, route: CompiledRoute, context: RouteContext) -> RouteResolution {
        if let unmet = route.preconditions.first(where: { !context.satisfied.contains($0) }) {
            return .gated(unmet, resume: request)
        }
        return .proceed(target(request, route))
    }

    // MARK: - Pieces, public for adapters, tools and tests

    /// Matches a link against the manifest's patterns and validates the
    /// captured parameters; no precondition is evaluated.
    public func request(for link: RouteLink) throws(RouteError) -> RouteRequest {
        try match(link).request
    }

    /// The first pattern of the link's length that matches it (manifest
    /// order), with its parameters validated, and the position of its route.
    private func match(_ link: RouteLink) throws(RouteError) -> (request: RouteRequest, route: Int) {
        if link.path.count < patternsByLength.count {
            // Lower-cased as literals are; nil (no pass-over) when not ASCII,
            // which may lower-case to anything.
            let first = link.path.first?.utf8.first.flatMap { $0 < 0x80 ? $0.asciiLowercased : nil }
            for entry in patternsByLength[link.path.count] {
                if let wanted = entry.firstByte, let first, wanted != first { continue }
                guard let captured = entry.match(link) else { continue }
                let route = entry.route
                let request = RouteRequest(routes[route].id, params: captured)
                try validate(request, routes[route])
                return (request, route)
            }
        }
        throw .unknownRoute(input: link.raw)
    }

    /// The canonical path for a request: ancestry from the manifest split
    /// into the tab's push run and the modal chain.
    public func target(for request: RouteRequest) throws(RouteError) -> Target {
        let route = try compiled(request)
        try validate(request, route)
        return target(request, route)
    }

    private func target(_ request: RouteRequest, _ route: CompiledRoute) -> Target {
        var baseRun: [RouteStep] = []
        baseRun.reserveCapacity(route.baseRunCount)
        var modals: [[RouteStep]] = []
        // Validation saw every declared name, so equal counts mean no extras.
        let exact = request.params.count == route.params.count
        for step in route.steps {
            let routeStep: RouteStep
            if step.sharesParams && exact {
                routeStep = RouteStep(step.id, params: request.params)
            } else {
                var params = RouteParams()
                for name in step.paramNames { params[name] = request.params[name] }
                routeStep = RouteStep(step.id, params: params)
            }
            if step.isModal {
                modals.append([routeStep])
            } else if modals.isEmpty {
                baseRun.append(routeStep)
            } else {
                modals[modals.count - 1].append(routeStep)
            }
        }
        return Target(tab: route.tab, baseRun: baseRun, modals: modals)
    }

    /// The compiled route of a request's destination.
    private func compiled(_ request: RouteRequest) throws(RouteError) -> CompiledRoute {
        guard let index = routeIndex[request.destination] else { throw .unknownRoute(input: request.description) }
        return routes[index]
    }

    /// Every precondition on the path to `destination`, ancestors first.
    public func preconditions(of destination: DestinationID) -> [Precondition] {
        routeIndex[destination].map { routes[$0].preconditions } ?? []
    }

    public func definition(of destination: DestinationID) -> RouteDefinition? {
        routeIndex[destination].map { routes[$0].definition }
    }

    /// Why `value` can never be `destination`'s parameter `name` (its pattern, kind or length
    /// refuses it), or nil when it can (or either is unknown): a literal segment facing that
    /// parameter in another pattern (`orders/latest`, `orders/:id` of integers) keeps the two apart.
    public func paramProblem(of destination: DestinationID, name: String, value: String) -> String? {
        guard let index = routeIndex[destination], let param = routes[index].params.first(where: { $0.name == name }) else {
            return nil
        }
        return param.problem(with: value)
    }

    /// Why `value` can never be `destination`'s primary parameter — the one
    /// a screen label spells after the colon (`product:p1`): `id`, or the
    /// first by name — or nil when it can (or the destination is unknown).
    /// A destination with no parameter takes none.
    public func primaryParamProblem(of destination: DestinationID, value: String) -> String? {
        guard let index = routeIndex[destination] else { return nil }
        let params = routes[index].params
        guard let primary = params.first(where: { $0.name == "id" }) ?? params.min(by: { $0.name < $1.name }) else {
            return "takes no parameter"
        }
        return primary.problem(with: value).map { "\(primary.name) \(value) \($0)" }
    }

    /// Checks a request's parameters against its destination's specs —
    /// what a tap that opens `request.destination` must satisfy. Throws the
    /// same ``RouteError`` a link with those parameters would.
    public func validateParams(of request: RouteRequest) throws(RouteError) {
        try validate(request, try compiled(request))
    }

    private func validate(_ request: RouteRequest, _ route: CompiledRoute) throws(RouteError) {
        for param in route.params {
            guard let value = request.params[param.name] else {
                throw .validationFailed(
                    destination: request.destination, parameter: param.name,
                    value: "", reason: "missing")
            }
            if let problem = param.problem(with: value) {
                throw .validationFailed(
                    destination: request.destination, parameter: param.name,
                    value: value, reason: problem)
            }
        }
    }
}
