import NavigationCore

/// ShopApp's delivery layer — the scene/app delegate stand-in. Entry points
/// hand it untrusted input and coordinators hand it typed intents; it
/// stashes a cold-start link until the root is up and otherwise forwards
/// everything to the one dispatcher.
///
/// Several faults live here, because this is where teams take shortcuts
/// around the dispatcher: a push handler with its own parser, a universal
/// link handler with its own context, a "pending destination" instead of a
/// re-resolved intent, links executed as they arrive.
final class ShopRouter {
    let engine: RoutingEngine
    let dispatcher: RouteDispatcher
    private let env: ShopEnvironment
    private weak var root: AppCoordinator?
    private let context: () -> RouteContext
    private let readyGate: ReadyGate

    init(
        engine: RoutingEngine, dispatcher: RouteDispatcher, env: ShopEnvironment, root: AppCoordinator,
        context: @escaping () -> RouteContext
    ) {
        self.engine = engine
        self.dispatcher = dispatcher
        self.env = env
        self.root = root
        self.context = context
        self.readyGate = ReadyGate(log: env.log)
    }

    /// The root is up: deliver what arrived during the cold start.
    func rootDidBecomeReady() {
        readyGate.open { input, entry in deliver(input, via: entry) }
    }

    // MARK: - External door

    @discardableResult
    func deliver(_ input: EntryInput, via entry: EntryPoint) -> LinkOutcome {
        if readyGate.hold(input, via: entry) { return LinkOutcome(status: .stashed) }
        if entry == .push && env.has(.pushOwnVocabulary) { return deliverWithOwnPushParser(input) }
        if entry == .widget && env.has(.forceUnwrapCrash), case .url(let url) = input,
            let range = url.range(of: "orders/")
        {
            // The bug: the widget's quick path trusts its own links.
            let id = url[range.upperBound...].prefix { $0 != "/" && $0 != "?" }
            env.log.record(ShopEvent.widgetOpensOrder(Int(id)!))
        }
        if entry == .universal && env.has(.universalLinkSkipsGate) { return deliverSkippingGate(input) }
        if entry == .universal && env.has(.universalHostCaseSensitive), case .url(let url) = input,
            let host = engine.manifest.universalHosts.first, !url.hasPrefix("https://" + host + "/")
        {
            // The bug: `url.host == "shop.example.com"`, but hosts are case-insensitive.
            env.log.record(.deliver(entry, input.description))
            let error = RouteError.unknownRoute(input: input.description)
            env.log.record(.reject(kind: error.kind, input: input.description))
            return LinkOutcome(.rejected(error))
        }
        if env.has(.unserializedDispatch) || env.has(.cachedDestination) {
            env.log.record(.deliver(entry, input.description))
            do {
                return route(try engine.request(for: try engine.adapter.link(for: input, via: entry)), source: .external)
            } catch {
                env.log.record(.reject(kind: error.kind, input: input.description))
                return LinkOutcome(.rejected(error))
            }
        }
        return LinkOutcome(dispatcher.deliver(input, via: entry))
    }

    // MARK: - In-app door

    /// Where coordinators send intents that need the engine's policy.
    func request(_ request: RouteRequest) {
        _ = route(request, source: .internal)
    }

    private func route(_ request: RouteRequest, source: RouteSource) -> LinkOutcome {
        guard env.has(.unserializedDispatch) || env.has(.cachedDestination), let root else {
            return LinkOutcome(dispatcher.dispatch(request, source: source))
        }
        let resolution: RouteResolution
        do {
            resolution = try engine.resolve(request: request, context: context())
        } catch {
            env.log.record(.reject(kind: error.kind, input: request.description))
            return LinkOutcome(.rejected(error))
        }
        switch resolution {
        case .proceed(let target) where env.has(.unserializedDispatch):
            // The bug: no queue — this runs even while another link is mid-flight.
            env.log.record(.resolveProceed(request))
            root.execute(target, source: source) {}
            return LinkOutcome(.proceed(target))
        case .gated(let precondition, let resume) where env.has(.cachedDestination):
            // The bug: the destination is computed now and replayed after the
            // gate, so a second precondition is never evaluated.
            env.log.record(.resolveGated(request, precondition))
            env.log.record(.gate(precondition, resume))
            let cached = try? engine.target(for: resume)
            root.satisfy(precondition) { [weak root, env] satisfied in
                guard satisfied, let cached, let root else {
                    env.log.record(.drop(resume))
                    return
                }
                env.log.record(.resume(resume))
                root.execute(cached, source: source) {}
            }
            return LinkOutcome(.gated(precondition, resume: resume))
        default:
            return LinkOutcome(dispatcher.dispatch(request, source: source))
        }
    }

    // MARK: - Faulty doors

    /// The push handler that predates the engine: it knows one payload
    /// shape, `route = "product/<id>"`, and nothing else.
    private func deliverWithOwnPushParser(_ input: EntryInput) -> LinkOutcome {
        env.log.record(.deliver(.push, input.description))
        guard case .payload(let payload) = input, let route = payload["route"], route.hasPrefix("product/") else {
            let error = RouteError.unknownRoute(input: input.description)
            env.log.record(.reject(kind: error.kind, input: input.description))
            return LinkOutcome(.rejected(error))
        }
        let id = String(route.dropFirst("product/".count))
        return LinkOutcome(dispatcher.dispatch(RouteRequest("product", params: ["id": id]), source: .external))
    }

    /// The universal-link handler that builds its own context and assumes
    /// the user is signed in.
    private func deliverSkippingGate(_ input: EntryInput) -> LinkOutcome {
        env.log.record(.deliver(.universal, input.description))
        let everything = RouteContext(satisfied: Set(engine.manifest.preconditions))
        do {
            let request = try engine.request(for: try engine.adapter.link(for: input, via: .universal))
            guard case .proceed(let target) = try engine.resolve(request: request, context: everything), let root else {
                return LinkOutcome(status: .error, message: "the app is not ready for the link")
            }
            env.log.record(.resolveProceed(request))
            root.execute(target, source: .external) {}
            return LinkOutcome(.proceed(target))
        } catch {
            env.log.record(.reject(kind: error.kind, input: input.description))
            return LinkOutcome(.rejected(error))
        }
    }
}
