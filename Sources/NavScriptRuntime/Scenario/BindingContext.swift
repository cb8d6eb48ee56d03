import NavScript
import NavigationCore

/// The bindings' view of the file being run: which file, which host, and
/// the world of the scenario currently running (nil while the file loads,
/// so verbs at the top level of a file are reported, not executed).
package final class BindingContext {
    let file: String
    let host: any ScenarioHost
    /// The host's screen declarations by id.
    let screens: [DestinationID: ScreenDeclaration]
    /// The host's launch options by name.
    let launchOptions: [String: LaunchOption]
    /// The host's routing engine.
    let engine: RoutingEngine
    package var world: ScenarioWorld?

    /// The file's path inside its suite (`cart/gated.lua`), whatever folder the run started
    /// in: what `math.random`'s seeds are made from, so a scenario draws the same numbers from
    /// any working directory. Spelled only when a script draws (paths are not cheap to compare).
    private(set) lazy var seedName: String = entry?.pathInSuite ?? file
    private let entry: SuiteFile?

    init(file: String, entry: SuiteFile? = nil, language: ScenarioLanguage) {
        self.file = file
        self.entry = entry
        host = language.host
        screens = language.screens
        launchOptions = language.launchOptions
        engine = language.engine
    }

    /// `math.random`'s seed while the file loads (no scenario runs): the same in every run, so
    /// rows a file builds with it (`scenario.each`) keep their names and a replay finds them.
    var loadSeed: Int64 { Int64(bitPattern: SeededGenerator.stableHash(seedName)) }

    /// `math.random`'s seed now: the running scenario's, or the file's while it loads.
    var randomSeed: Int64 { world?.randomSeed(inFile: seedName) ?? loadSeed }

    /// The user's line for a call: the innermost frame that is not the
    /// navscript prelude, preferring the scenario file itself, so an
    /// expectation in a support helper still points at the scenario line.
    /// The location of the call from Lua being served, once computed: a
    /// binding asks for it several times (announcement, timeline, failures).
    private var currentCallLocation: String?

    /// Serves one call from Lua: its location is computed when first asked
    /// for and forgotten when the call returns (a call that runs Lua may
    /// serve another one inside; the outer one's location comes back after).
    /// Every Swift function the file's Lua can call runs through here.
    func serving<T>(_ body: () throws -> T) rethrows -> T {
        let outer = currentCallLocation
        currentCallLocation = nil
        defer { currentCallLocation = outer }
        return try body()
    }

    func location(of call: LuaCall) -> String {
        if let currentCallLocation { return currentCallLocation }
        let location = locate(call)
        currentCallLocation = location
        return location
    }

    /// The lines of the scenario's body or hook running now (nil while the file loads): a failure
    /// in a helper outside them is placed at the line inside them that led to it.
    var runningLines: ClosedRange<Int>?

    private func locate(_ call: LuaCall) -> String {
        // Called for every step: no filtered copy, no hashing of sources.
        let locations = call.callerLocations
        // The file's own frames are asked about first: the state names them with
        // the very string `file` is, so that comparison is one of identity, and the
        // usual call (from the scenario file itself) needs no other.
        guard let first = locations.firstIndex(where: { $0.source == file || !Self.isInternal($0.source) }) else { return file }
        let innermost = locations[first]
        if innermost.source == file, let running = runningLines {
            // Inside the body or hook itself (an inline pcall's function too): that line. In a helper
            // of the file's own outside it — called directly, through pcall or a library function —
            // the line of the body that led there, with the helper's after it.
            if running.contains(innermost.line) { return innermost.description }
            if let inside = locations[(first + 1)...].first(where: { $0.source == file && running.contains($0.line) }) {
                return "\(inside) (in \(innermost))"
            }
        }
        if innermost.source == file {
            // A helper of the file's own (`local function open_order(id)`) called from the scenario:
            // the place is the scenario's line that called it, as for a helper in `support/` — the
            // helper's line alone was outside the scenario (a CI annotation there, a replay of that
            // line selecting nothing). The outermost of the file's frames that called one another
            // directly is the scenario's (or hook's, or top level's) line.
            var outer = first
            while outer + 1 < locations.count, locations[outer + 1].source == file { outer += 1 }
            if outer == first || locations[outer].line == innermost.line { return innermost.description }
            return "\(locations[outer]) (in \(innermost))"
        }
        if let inFile = locations[first...].first(where: { $0.source == file && !Self.isInternal($0.source) }) {
            return "\(inFile) (in \(innermost))"
        }
        return innermost.description
    }

    static func isInternal(_ source: String) -> Bool {
        internalSources.contains(source)
    }

    /// Chunks of navscript's own Lua (the DSL prelude, the sandbox prelude);
    /// two names, compared without hashing.
    static let internalSources = [ScenarioPrelude.sourceName, LuaSandbox.sourceName]

    /// Records `failure` on the running scenario at once (so `pcall`
    /// cannot swallow it) and returns the value to raise in Lua.
    func raise(_ failure: ExpectationFailure, at location: String) -> LuaCallResult {
        var phase = world.map { $0.phase == "scenario" ? "" : " (in \($0.phase))" } ?? ""
        // With several windows, which one was checked: the one in_scene named, or the one in front.
        if let scenes = world?.app as? any SceneDriving, scenes.sceneNumbers.count > 1 {
            let window = world?.actingScene ?? scenes.foregroundScene
            phase += world?.actingScene == nil ? " (in scene \(window), in front)" : " (in scene \(window))"
        }
        // Capped as a result keeps them: a pcall loop of failures with megabyte messages held gigabytes.
        let message = TextCap.capped(failure.message, to: TextCap.message)
        let details = TextCap.capped(failure.details, to: TextCap.details)
        let located = ExpectationFailure("\(location): \(message)\(phase)", details: details)
        let raised = RaisedFailure(message: "\(location): \(message)", details: details, location: location)
        if let world {
            world.recordFailure(located, raised: raised)
        } else if loadFailure == nil {
            loadFailure = located  // while the file loads: kept, whatever a pcall does with the error
        }
        return .error(.hostObject(raised), addPosition: false)
    }

    /// Notes a wrong call on the running scenario (see ``ScenarioWorld/mistakes``)
    /// and returns the error to raise.
    func noting(_ error: LuaArgumentError, of call: LuaCall) -> LuaArgumentError {
        noteMistake("\(location(of: call)): \(error.message)")
        return error
    }

    /// An argument the bridge could not read (a cyclic table): a wrong call like any other.
    func noteBadArgument(_ call: LuaCall, _ message: String) {
        noteMistake("\(locate(call)): \(message)")
    }

    /// Keeps a wrong use of the language (`located`: with its `file:line`)
    /// whatever a `pcall` does with the error raised for it: the running
    /// scenario's error, or while the file loads, the file's.
    func noteMistake(_ located: String) {
        if let world {
            world.mistakes.append(located)
        } else if loadFailure == nil {
            loadFailure = ExpectationFailure(located)
        }
    }

    /// The first failure raised while the file loaded (a top-level `assert`):
    /// the file does not load, even when a `pcall` caught it.
    var loadFailure: ExpectationFailure?

    /// Output printed while the file loads (outside any scenario).
    var loadOutput = BoundedOutput()
    /// Told of each piece of ``loadOutput`` as it is printed.
    var onLoadOutput: ((String) -> Void)?

    /// Appends what a script printed (`print`, `io.write`) to the running
    /// scenario's output, or to the file's while it loads.
    func writeOutput(_ text: String) {
        if let world {
            // Kept bounded here; streamed whole, so a worker's parent keeps the last lines of a
            // scenario that crashes or hangs after a flood of prints (it bounds what it keeps).
            world.output.append(text)
            world.observer.output?(text)
        } else {
            loadOutput.append(text)
            onLoadOutput?(text)
        }
    }

    func requireWorld(_ call: LuaCall) throws(BindingError) -> ScenarioWorld {
        guard let world else {
            throw .error(
                "\(call.functionName) can only be used inside a scenario (or a before_each/after_each hook), not while the file loads")
        }
        return world
    }
}

extension ScriptFunction.Body {
    /// One of the language's own bindings, given the file it serves
    /// (``ScriptLibrary/install(_:checking:)`` hands it the state's context).
    static func binding(_ body: @escaping (LuaCall, BindingContext) throws -> [LuaValue]) -> Self {
        .native(ContextBinding(body: body))
    }
}

/// The body of a built-in binding: what ``ScriptFunction/Body/native(_:)`` holds.
struct ContextBinding: ScriptFunction.NativeBinding {
    let body: (LuaCall, BindingContext) throws -> [LuaValue]
}

/// Why a binding refused: a scenario mistake (an error) or an app state
/// that did not match (a failure, with expected vs actual).
enum BindingError: Error {
    case error(String)
    case failure(ExpectationFailure)
}

extension BindingContext {
    /// `in_scene`'s helper: makes scene `number` the acting one (`false`:
    /// the one in front again). Returns the scene acting before (`false`:
    /// the one in front), or nil and what is wrong — the prelude raises it
    /// (no Lua error crosses a Swift frame). Restoring never fails.
    /// `restoring`: the window acting before `fn`, put back whatever became of
    /// it — a window `fn` closed is then an error at the next call, not another window.
    func actInScene(_ requested: LuaValue, restoring: Bool, at location: String) -> [LuaValue] {
        func problem(_ text: String) -> [LuaValue] { [.nil, .string(LuaString(text))] }
        guard let world else { return problem("in_scene can only be used inside a scenario (or a before_each/after_each hook)") }
        let previous: LuaValue = world.actingScene.map { .integer(Int64($0)) } ?? .boolean(false)
        if restoring {
            world.actingScene = requested.intValue
            if let scenes = world.app as? any SceneDriving {
                scenes.actingScene = requested.intValue.flatMap { scenes.sceneNumbers.contains($0) ? $0 : nil }
            }
            return [previous]
        }
        guard let number = requested.intValue else {
            world.actingScene = nil
            (world.app as? any SceneDriving)?.actingScene = nil
            return [previous]
        }
        return serving {
            let app: any AppDriver
            do { app = try world.ensureApp(at: location) } catch { return problem("in_scene: \(error)") }
            guard let scenes = app as? any SceneDriving else {
                guard number == 1 else {
                    return problem("in_scene: the app has one window (scene 1); its host's driver does not adopt SceneDriving")
                }
                world.actingScene = 1
                return [previous]
            }
            guard scenes.sceneNumbers.contains(number) else {
                return problem("in_scene: \(SceneError.noSuchScene(number, open: scenes.sceneNumbers))")
            }
            world.actingScene = number
            scenes.actingScene = number
            return [previous]
        }
    }
}
