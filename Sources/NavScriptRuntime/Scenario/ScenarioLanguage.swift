import NavScript
import NavigationCore

/// The scenario language for one host: every function a file sees, and
/// the prepared Lua state each file starts from.
///
/// Why one object per runner: the host's function list is built once (not
/// per file), and the state a file gets — sandbox, bindings, the prelude
/// that collects declarations — is prepared once and then restored from
/// its image for every later file (see `LuaStateImage`): each file still
/// gets a fresh state, at a fraction of the cost of building one.
package final class ScenarioLanguage {
    let host: any ScenarioHost
    let library: ScriptLibrary
    /// The host's screen declarations by id (the first of a repeated id),
    /// read once: a tap checks its output against them.
    let screens: [DestinationID: ScreenDeclaration]
    /// The host's launch options by name, read once: every launch checks its request against them.
    let launchOptions: [String: LaunchOption]
    /// The host's routing engine, read once: every tap checks its parameters against it.
    let engine: RoutingEngine
    private let image: LuaStateImage

    package init(host: any ScenarioHost) {
        self.host = host
        let library = ScriptLibrary(host: host)
        self.library = library
        screens = Dictionary(host.screens.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        launchOptions = host.declaredLaunchOptions
        engine = host.engine
        let tables = TableArgumentCheck(declared: LuaDefinitions(host: host).declaredTypes())
        image = LuaStateImage { state throws(LuaError) in
            state.chargesAllocations(false)  // the language's set-up is not a file's work (a reset turns it back on)
            library.install(state, checking: tables)
            // A failure a pcall caught reads as its message and fields.
            state.readHostObjects(
                describe: { object in
                    (object as? RaisedFailure).map { "navscript failure: " + $0.message } ?? "host object"
                },
                field: { object, key in
                    (object as? RaisedFailure)?.field(key) ?? .nil
                })
            let prelude = try state.loadPrecompiled(source: ScenarioPrelude.source, chunkName: ScenarioPrelude.chunkName)
            guard let collect = try state.call(prelude, [.table(Self.preludeSupport(state))]).first?.functionValue else {
                throw LuaError(kind: .runtime, message: "the scenario prelude returned no collector")
            }
            state.useGenerationalCollector()
            return [collect]
        }
    }

    /// A fresh state for the file `context` serves, and the prelude's
    /// collector (call it after the file ran: it returns the declarations).
    func makeState(_ options: LuaState.Options, for context: BindingContext) throws(LuaError) -> (LuaState, collect: LuaFunction) {
        let (state, kept) = try image.makeState(options: options)
        state.context = context
        state.onBadArgument = { [unowned context] call, message in context.noteBadArgument(call, message) }
        return (state, kept[0])
    }

    /// The prelude's Swift helpers: the line of the user's call, raising
    /// a failure (`assert`) at that place, writing to the scenario's output,
    /// and the running scenario's seed for `math.random`. They find the file through the
    /// state's context, so the image's copies serve every file.
    private static func preludeSupport(_ state: LuaState) -> LuaTable {
        var table = state.makeTable(
            of: [
                "failure": { call in
                    guard let context = call.state.context as? BindingContext else { return .noValues }
                    let message = call[1].stringValue ?? "assertion failed!"
                    return context.serving { context.raise(ExpectationFailure(message), at: context.location(of: call)) }
                },
                // A wrong use of the language the prelude found: kept whatever a pcall does; returned placed.
                "misuse": { call in
                    guard let context = call.state.context as? BindingContext else { return .values([call[1]]) }
                    return context.serving {
                        let located = "\(context.location(of: call)): \(call[1].stringValue ?? "")"
                        context.noteMistake(located)
                        return .values([.string(LuaString(located))])
                    }
                },
                // A passing `assert`: the scenario checked something (see ScenarioWorld.checkedSomething).
                "asserted": { call in
                    (call.state.context as? BindingContext)?.world?.checkedSomething = true
                    return .noValues
                },
                "write": { call in
                    (call.state.context as? BindingContext)?.writeOutput(call[1].stringValue ?? "")
                    return .noValues
                },
                "random_seed": { call in
                    guard let context = call.state.context as? BindingContext else { return .values([.nil]) }
                    return .values([.integer(context.randomSeed)])
                },
                // `in_scene`: makes scene n the acting one; returns the one before, or nil and what is wrong.
                "act_in_scene": { call in
                    guard let context = call.state.context as? BindingContext else { return .values([.nil]) }
                    return context.serving {
                        .values(context.actInScene(call[1], restoring: call[2].isTruthy, at: context.location(of: call)))
                    }
                }
            ], prefix: "navscript")
        // Whether a function is coroutine.wrap's: a body, hook or group given as one stops at its first yield.
        table["wrapped"] = .function(state.makeWrappedCoroutineTest())
        // Notes a coroutine that declares: one left at a yield when the file has loaded dropped the rest.
        table["note_coroutine"] = .function(state.makeCoroutineNoter())
        // Keeps the modules before a file's first scenario, puts them back before each later one.
        table["snapshot_modules"] = .function(state.makeModuleSnapshotter())
        table["restore_modules"] = .function(state.makeModuleRestorer())
        // The scenario file's own line, even when a support/ helper declared it.
        table["caller"] = .function(
            state.makeCallerLineFunction(
                skipping: [ScenarioPrelude.chunkName, LuaSandbox.chunkName]))
        return table
    }
}
