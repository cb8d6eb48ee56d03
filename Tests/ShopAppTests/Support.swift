import NavigationCore
import Testing

@testable import ShopApp

/// One engine for the whole test run: it is pure and building it compiles regexes.
let sharedEngine: RoutingEngine = {
    do { return try ShopApplication.loadEngine() } catch { fatalError("routes.json does not load: \(error)") }
}()

func launch(_ options: LaunchOptions = LaunchOptions()) throws -> ShopApplication {
    let app = try ShopApplication(options: options, engine: sharedEngine)
    try app.settle()
    return app
}

func launch(
    loggedIn: Bool = false, faults: Set<Fault> = [], paymentMethod: Bool = true,
    twoFactor: Bool = false
) throws -> ShopApplication {
    try launch(LaunchOptions(loggedIn: loggedIn, twoFactor: twoFactor, paymentMethod: paymentMethod, faults: faults))
}

extension ShopApplication {
    /// The stack of a tab, spelled as scenarios spell it.
    func stack(_ tab: TabID) -> [String] { state.stack(tab).map(\.description) }
    var modalRoots: [String] { state.modals.compactMap { $0.first?.description } }
    var screen: String? { visibleScreen?.label }
    var eventTexts: [String] { log.texts }

    @discardableResult
    func link(_ url: String, via entry: EntryPoint = .scheme) throws -> LinkOutcome {
        let outcome = deepLink(.url(url), via: entry)
        try settle()
        return outcome
    }

    func tapSettled(_ output: String, _ args: [String: String] = [:]) throws {
        try tap(output, args)
        try settle()
    }

    /// Index of the first event starting with `prefix`, if any.
    func eventIndex(_ prefix: String) -> Int? {
        eventTexts.firstIndex { $0 == prefix || $0.hasPrefix(prefix + " ") }
    }
}
