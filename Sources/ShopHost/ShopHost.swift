import NavScript
import NavigationCore
import ShopApp

/// Plugs ShopApp into the scenario language. This is the only place the
/// two meet: NavScript knows the host protocols, ShopApp knows nothing of Lua.
public struct ShopHost: ScenarioHost {
    public let engine: RoutingEngine
    /// Faults switched on for every launch (`--fault`).
    public let runFaults: Set<Fault>

    /// `faults` are switched on in every launch (`--fault`); unknown names throw.
    public init(faults: [String] = []) throws {
        engine = try ShopApplication.loadEngine()
        runFaults = try Self.parse(faults)
    }

    public var name: String { "ShopApp" }

    public var launchOptionNames: [String] {
        ["logged_in", "first_launch", "experiment", "two_factor", "payment_method", "url", "via"]
    }

    public var faults: [HostFault] { Fault.allCases.map { HostFault(name: $0.rawValue, summary: $0.summary) } }

    public static func parse(_ names: [String]) throws(HostError) -> Set<Fault> {
        var faults: Set<Fault> = []
        for name in names {
            guard let fault = Fault(rawValue: name) else {
                throw HostError("unknown fault '\(name)'; ShopApp's faults are: "
                    + Fault.allCases.map(\.rawValue).joined(separator: ", "))
            }
            faults.insert(fault)
        }
        return faults
    }

    public func launch(_ request: LaunchRequest) throws(HostError) -> any ScenarioApp {
        var options = LaunchOptions(faults: runFaults.union(try Self.parse(request.faults)))
        for (key, value) in request.options.sorted(by: { $0.key < $1.key }) {
            switch (key, value) {
            case ("logged_in", .bool(let flag)): options.loggedIn = flag
            case ("first_launch", .bool(let flag)): options.firstLaunch = flag
            case ("two_factor", .bool(let flag)): options.twoFactor = flag
            case ("payment_method", .bool(let flag)): options.paymentMethod = flag
            case ("experiment", .string(let name)):
                guard let experiment = OnboardingExperiment(rawValue: name) else {
                    throw HostError("launch{ experiment = \"\(name)\" }: unknown experiment; expected one of "
                        + OnboardingExperiment.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))
                }
                options.experiment = experiment
            case ("logged_in", _), ("first_launch", _), ("two_factor", _), ("payment_method", _):
                throw HostError("launch{ \(key) = \(value) }: expected a boolean")
            case ("experiment", _):
                throw HostError("launch{ experiment = \(value) }: expected a string")
            default:
                throw HostError("launch{}: unknown option '\(key)'; ShopApp accepts: "
                    + launchOptionNames.joined(separator: ", "))
            }
        }
        options.url = request.link
        options.via = request.via
        do {
            return ShopAppDriver(try ShopApplication(options: options, engine: engine))
        } catch {
            throw HostError("ShopApp failed to launch: \(error)")
        }
    }

    public func input(for url: String, via entry: EntryPoint) -> EntryInput {
        let prefix = "shop://"
        guard url.lowercased().hasPrefix(prefix) else { return .url(url) }
        let path = String(url.dropFirst(prefix.count))
        switch entry {
        case .scheme, .widget: return .url(url)
        case .universal: return .url("https://shop.example.com/" + path)
        case .push: return .payload(["route": path])
        case .spotlight: return .activity(type: "com.shop.view", userInfo: ["identifier": path])
        }
    }

    public func flowGraph() -> String {
        FlowGraph(manifest: engine.manifest).dot()
    }
}

/// Drives one ShopApplication on behalf of a scenario.
final class ShopAppDriver: ScenarioApp {
    private var app: ShopApplication

    init(_ app: ShopApplication) { self.app = app }

    func perform(_ action: AppAction) throws(HostError) -> LinkOutcome? {
        do {
            switch action {
            case .tap(let output, let args): try app.tap(output, args)
            case .selectTab(let tab): try app.selectTab(tab)
            case .back: try app.back()
            case .backSwipe(let cancel, let animated): try app.backSwipe(cancel: cancel, animated: animated)
            case .dismiss: try app.dismiss()
            case .deepLink(let input, let entry):
                return app.deepLink(input, via: entry)
            case .login(let cancel): try app.login(cancel: cancel)
            case .logout: app.logout()
            case .expireSession: app.expireSession()
            }
        } catch {
            throw HostError(error.message)
        }
        return nil
    }

    func settle() throws(HostError) {
        do { try app.settle() } catch { throw HostError(error.message) }
    }

    func relaunch(restore: Bool) throws(HostError) -> any ScenarioApp {
        do {
            return ShopAppDriver(try app.relaunched(restore: restore))
        } catch {
            throw HostError("ShopApp failed to relaunch: \(error)")
        }
    }

    var state: NavigationState { app.state }
    var visibleScreen: String? { app.visibleScreen?.label }
    var coordinatorPaths: [String] { app.coordinatorPaths }
    var events: [String] { app.log.texts }
    var step: Int { app.log.step }
    var rootFlow: String { app.rootFlow }
    var session: [String: LaunchValue] {
        ["logged_in": .bool(app.isLoggedIn), "payment_method": .bool(app.hasPaymentMethod)]
    }
    var leaks: [LifecycleTracker.Leak] { app.leaks }
}
