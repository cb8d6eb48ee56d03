import NavigationCore
import Observation

/// A place's page, as the places stack's path holds it.
public enum PlacesRoute: Hashable, Codable, Sendable {
    case place(id: String)
}

/// A place's guide: a value type of its own on the same path (the path is
/// type-erased, as a `NavigationPath` is), registered separately.
public struct GuideRoute: Hashable, Codable, Sendable {
    public let placeID: String
    public init(placeID: String) { self.placeID = placeID }
}

/// The places module: the list, a place, its guide. It owns its routes and
/// their links, and knows nothing of trips or the profile.
public enum PlacesModule {
    public static let tab: TabID = "places"

    public static var routes: [RouteDefinition] {
        let id = ParamSpec("id", pattern: "[a-z][a-z0-9-]{1,23}")
        return [
            RouteDefinition("places", tab: tab, flow: "places", patterns: [RoutePattern("places"), RoutePattern("home")]),
            RouteDefinition(
                "place", parent: "places", flow: "places", params: [id],
                patterns: [RoutePattern("places/:id"), RoutePattern("p/:id")]),
            RouteDefinition("guide", parent: "place", flow: "places", params: [id], patterns: [RoutePattern("places/:id/guide")])
        ]
    }

    /// The outputs each of the module's screens may offer, as its views wire them.
    public static var screens: [ScreenDeclaration] {
        [
            ScreenDeclaration("places", [.place]),
            ScreenDeclaration("place", ["guide", "save"]),
            ScreenDeclaration("guide", [.close])
        ]
    }

    /// A manifest step as the path value that shows it.
    public static func pathValue(for step: RouteStep) -> AnyHashable? {
        let id = step.params["id"] ?? ""
        switch step.id {
        case "place": return AnyHashable(PlacesRoute.place(id: id))
        case "guide": return AnyHashable(GuideRoute(placeID: id))
        default: return nil
        }
    }
}

extension ScreenOutput {
    static let place = ScreenOutput("place", parameters: ["id"], opens: "place")
}

/// A place page's view model (what the real view keeps in `@State`).
public final class PlaceModel {
    public let placeID: String
    public var isSaved = false
    public init(placeID: String) { self.placeID = placeID }
}

/// The places tab's coordinator: the path the stack binds, and the view
/// models of the places on it.
@Observable
public final class PlacesCoordinator {
    /// Bound to the stack: `NavigationStack(path: $places.path)`.
    public var path: [AnyHashable] = [] {
        didSet { if !evictsOnlyOnOwnBack { evictModels() } }
    }
    /// Place models by id, kept while their place is on the path.
    @ObservationIgnored private var models: [String: PlaceModel] = [:]
    /// Bug switch: models are evicted only by the coordinator's own back
    /// action — the system back button and the swipe write the path directly.
    @ObservationIgnored public var evictsOnlyOnOwnBack = false
    /// Bug switch: a reset is written as removeAll() then append — two writes in one frame.
    @ObservationIgnored public var resetsInTwoWrites = false

    public init() {}

    public func model(for placeID: String) -> PlaceModel {
        if let model = models[placeID] { return model }
        let model = PlaceModel(placeID: placeID)
        models[placeID] = model
        return model
    }

    public func open(place id: String) { path.append(PlacesRoute.place(id: id)) }
    public func openGuide(for placeID: String) { path.append(GuideRoute(placeID: placeID)) }

    /// The module's own "close" action (a toolbar button on a guide).
    public func goBack() {
        guard !path.isEmpty else { return }
        path.removeLast()
        evictModels()
    }

    /// A link's stack: the whole path replaced.
    public func reset(to values: [AnyHashable]) {
        if resetsInTwoWrites {
            path.removeAll()
            path.append(contentsOf: values)
        } else {
            path = values
        }
    }

    private func evictModels() {
        let onPath = Set(
            path.compactMap { value -> String? in
                if case .place(let id)? = value.base as? PlacesRoute { return id }
                return nil
            })
        models = models.filter { onPath.contains($0.key) }
    }
}

/// The module's destinations, as its views show them: the screen (named as
/// scenarios name it), its view model and its buttons.
public enum PlacesDestinations {
    /// `navigationDestination(for:)` registrations for the places stack.
    /// `registersGuides` is a bug switch: false forgets the guide's type.
    public static func register(on stack: PathStack, coordinator: PlacesCoordinator, registersGuides: Bool = true) {
        stack.navigationDestination(for: PlacesRoute.self) { [weak coordinator] route in
            switch route {
            case .place(let id):
                let screen = Screen("place", params: ["id": id])
                screen.viewModel = coordinator?.model(for: id)
                screen.setOutput("guide") { _ in coordinator?.openGuide(for: id) }
                screen.setOutput("save") { _ in coordinator?.model(for: id).isSaved.toggle() }
                return screen
            }
        }
        guard registersGuides else { return }
        stack.navigationDestination(for: GuideRoute.self) { [weak coordinator] route in
            let screen = Screen("guide", params: ["id": route.placeID])
            screen.setOutput(.close) { _ in coordinator?.goBack() }
            return screen
        }
    }

    /// The list at the root of the tab.
    public static func root(coordinator: PlacesCoordinator) -> Screen {
        let screen = Screen("places")
        screen.setOutput(.place) { [weak coordinator] args in coordinator?.open(place: args["id"] ?? "") }
        return screen
    }
}
