import Foundation
import NavigationCore
import Observation

/// A trip screen as the trips stack's path holds it.
public struct TripsRoute: Hashable, Codable, Sendable, Identifiable {
    public enum Page: String, Hashable, Codable, Sendable {
        case trip
        case booking
    }

    public let page: Page
    public let tripID: String
    /// Its identity: the page and the trip — equal intent, equal value.
    public let id: String

    public init(_ page: Page, tripID: String, id: String) {
        self.page = page
        self.tripID = tripID
        self.id = id
    }
}

/// The trips module: the list, a trip, its booking — behind sign-in. It
/// asks for gated screens through `send`, so the app's engine applies the
/// gate; it never presents sign-in itself.
public enum TripsModule {
    public static let tab: TabID = "trips"

    public static var routes: [RouteDefinition] {
        let id = ParamSpec("id", kind: .integer, maxLength: 9)
        return [
            RouteDefinition("trips", tab: tab, flow: "trips", patterns: [RoutePattern("trips")]),
            RouteDefinition(
                "trip", parent: "trips", flow: "trips", params: [id], preconditions: ["auth"],
                patterns: [RoutePattern("trips/:id"), RoutePattern("t/:id")]),
            RouteDefinition(
                "booking", parent: "trip", flow: "trips", params: [id], preconditions: ["auth"],
                patterns: [RoutePattern("trips/:id/booking")])
        ]
    }

    /// The outputs each of the module's screens may offer, as its views wire them.
    public static var screens: [ScreenDeclaration] {
        [
            ScreenDeclaration("trips", [.trip]),
            ScreenDeclaration("trip", ["book"]),
            ScreenDeclaration("booking", ["done"])
        ]
    }
}

extension ScreenOutput {
    static let trip = ScreenOutput("trip", parameters: ["id"], opens: "trip")
}

/// The trips tab's coordinator: the path its stack binds.
@Observable
public final class TripsCoordinator {
    public var path: [TripsRoute] = []
    /// Sends an in-app request through the app's engine (gates apply).
    @ObservationIgnored public var send: (RouteRequest) -> Void = { _ in }
    /// Bug switch: each route gets a fresh `UUID()` as its identity.
    @ObservationIgnored public var freshIdentities = false

    public init() {}

    /// The route showing `page` of `tripID`.
    public func route(_ page: TripsRoute.Page, _ tripID: String) -> TripsRoute {
        TripsRoute(page, tripID: tripID, id: freshIdentities ? UUID().uuidString : "\(page.rawValue)/\(tripID)")
    }

    /// A manifest step as the route that shows it.
    public func route(for step: RouteStep) -> TripsRoute? {
        guard let page = TripsRoute.Page(rawValue: step.id.rawValue), let id = step.params["id"] else { return nil }
        return route(page, id)
    }

    /// A link's stack: the whole path replaced in one write.
    public func reset(to steps: [RouteStep]) {
        path = steps.compactMap(route(for:))
    }
}

/// The module's destinations, as its views show them.
public enum TripsDestinations {
    public static func register(on stack: PathStack, coordinator: TripsCoordinator) {
        stack.navigationDestination(for: TripsRoute.self) { [weak coordinator] route in
            let screen = Screen(DestinationID(route.page.rawValue), params: ["id": route.tripID])
            switch route.page {
            case .trip:
                screen.setOutput("book") { _ in coordinator?.send(RouteRequest("booking", params: ["id": route.tripID])) }
            case .booking:
                screen.setOutput("done") { _ in coordinator?.path = [] }
            }
            return screen
        }
    }

    public static func root(coordinator: TripsCoordinator) -> Screen {
        let screen = Screen("trips")
        screen.setOutput(.trip) { [weak coordinator] args in
            coordinator?.send(RouteRequest("trip", params: ["id": args["id"] ?? ""]))
        }
        return screen
    }
}
