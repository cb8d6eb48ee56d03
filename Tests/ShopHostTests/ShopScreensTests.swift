import NavScript
import NavigationCore
import ShopApp
import Testing

/// `ShopScreens` lists, per screen, the outputs ShopApp's coordinators wire —
/// the tap names `navscript types` and `routes` show. navscript checks on
/// every tap that a screen wires nothing its list leaves out; this walks the
/// app (every tap and tab switch, breadth first, from several launches) and
/// checks the converse too: every listed output is wired somewhere.
@Suite("ShopScreens matches the app")
struct ShopScreensTests {
    typealias Action = (output: String, args: [String: String])

    /// Sample arguments that each parameterised output accepts.
    static let samples: [String: String] = ["id": "p1", "code": "SALE10"]
    static let orderSamples: [String: String] = ["id": "1"]

    static let launches: [LaunchOptions] =
        [
            LaunchOptions(loggedIn: true),
            LaunchOptions(loggedIn: false),
            LaunchOptions(loggedIn: true, paymentMethod: false),
            LaunchOptions(loggedIn: false, twoFactor: true)
        ] + OnboardingExperiment.allCases.map { LaunchOptions(firstLaunch: true, experiment: $0) }

    /// Replays `path` on a fresh app; nil when a step is refused.
    static func replay(_ path: [Action], launch: LaunchOptions, engine: RoutingEngine) -> ShopApplication? {
        guard let app = try? ShopApplication(options: launch, engine: engine) else { return nil }
        do {
            try app.settle()
            for action in path {
                if action.output.hasPrefix("tab:") {
                    try app.selectTab(String(action.output.dropFirst(4)))
                } else {
                    try app.tap(action.output, action.args)
                }
                try app.settle()
            }
        } catch {
            return nil
        }
        return app
    }

    @Test func everyReachedScreenOffersExactlyTheDeclaredOutputs() throws {
        let engine = try ShopApplication.loadEngine()
        let declared = Dictionary(uniqueKeysWithValues: ShopScreens.declarations.map { ($0.id, $0.outputs) })
        var seen: [DestinationID: Set<ScreenOutput>] = [:]
        for launch in Self.launches {
            var frontier: [[Action]] = [[]]
            var visited: Set<String> = []
            for _ in 0..<7 {
                var next: [[Action]] = []
                for path in frontier {
                    guard let app = Self.replay(path, launch: launch, engine: engine),
                        let screen = app.visibleScreen
                    else { continue }
                    let key = "\(app.state)"
                    guard visited.insert(key).inserted else { continue }
                    seen[screen.destination, default: []].formUnion(screen.outputs)
                    let outputs = declared[screen.destination] ?? []
                    for output in outputs {
                        let args =
                            output.parameters.isEmpty
                            ? [:]
                            : (screen.destination == "orders" ? Self.orderSamples : Self.samples)
                        next.append(path + [(output.name, args)])
                    }
                    if app.state.modals.isEmpty {
                        for tab in app.state.tabs { next.append(path + [("tab:\(tab)", [:])]) }
                    }
                }
                frontier = next
            }
        }
        for (destination, outputs) in seen {
            let listed = Set(declared[destination] ?? [])
            #expect(
                outputs == listed,
                "\(destination) wires \(outputs.map(\.description).sorted()) but ShopScreens lists \(listed.map(\.description).sorted())")
        }
        let unreached = Set(declared.keys).subtracting(seen.keys)
        #expect(unreached.isEmpty, "declared but never reached by tapping: \(unreached.map(\.rawValue).sorted())")
        #expect(
            Set(declared.keys) == Set(engine.manifest.destinations.map(\.id)),
            "ShopScreens should declare every destination of the manifest")
    }
}
