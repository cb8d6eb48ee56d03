import NavScript
import NavScriptRuntime
import NavigationCore

/// Every action a walk can take from where the app is: the outputs the
/// visible screen really has (with parameters drawn from the specs of the
/// destinations they open: valid, boundary and invalid), back, back-swipes
/// (cancelled, not animated), dismiss, tab switches, links from the
/// manifest's vocabulary through every entry point (plus malformed and
/// hostile ones), the host's own verbs, restarts, two links arriving
/// mid-flight — and the launches that start a walk.
struct ActionSpace {
    let host: any ScenarioHost
    var sampler: ValueSampler
    /// What a value for a spec must be, read from the spec (boundary values are its edges, not the engine's).
    private let oracle = ParamOracle()
    /// The (link pattern, door) pairs already offered with an invalid value:
    /// until one is, its links draw invalid values three times as often, so
    /// each door meets a bad parameter early (where a handler that parses
    /// links itself — a widget's quick path — tends to trap).
    private var invalidOffered: Set<String> = []
    /// Every pattern of the manifest with its destination.
    let patterns: [(destination: RouteDefinition, pattern: RoutePattern)]

    /// Driving calls the suite wrote (`explore --from`), one offered at every step.
    let suiteCalls: [String]
    /// The preconditions along each gated destination's ancestry: a link to
    /// one is covered twice, with its gate open and closed (a gate is where
    /// entry points and flows disagree, and a walk signed in at launch may
    /// otherwise never try the gated path).
    private let gates: [DestinationID: Set<Precondition>]
    /// What is asked of every step, worked out once (building it per step was
    /// most of a tenth of an exploration's time): each pattern's doors, in
    /// the host's order, and the coverage key of a link through each.
    private let doors: [[EntryPoint]]
    private let linkKeys: [[(plain: String, open: String, closed: String)]]
    /// The hostile links' lines (see ``hostileLink(_:)``).
    private let hostileLines: [String]

    init(host: any ScenarioHost, seed: UInt64, suite suiteCalls: [String] = []) {
        self.host = host
        self.suiteCalls = suiteCalls
        sampler = ValueSampler(seed: seed ^ 0x5EED)
        let patterns: [(destination: RouteDefinition, pattern: RoutePattern)] = host.engine.manifest.destinations.flatMap { definition in
            definition.patterns.map { (definition, $0) }
        }
        self.patterns = patterns
        var gates: [DestinationID: Set<Precondition>] = [:]
        let manifest = host.engine.manifest
        for (definition, ancestry) in zip(manifest.destinations, manifest.ancestries()) {
            let preconditions = RouteManifest.preconditions(along: ancestry)
            if !preconditions.isEmpty { gates[definition.id] = Set(preconditions) }
        }
        self.gates = gates
        let entryPoints = host.entryPoints
        doors = patterns.map { _, pattern in entryPoints.filter { pattern.applies(to: $0) } }
        linkKeys = zip(patterns, doors).map { link, doors in
            doors.map { door in
                let key = "link \(link.destination.id) \(link.pattern.template) via \(door)"
                return (key, key + Self.gateOpen, key + Self.gateClosed)
            }
        }
        let scheme = manifest.scheme
        hostileLines = [
            "\(scheme)://%zz", "\(scheme)://" + String(repeating: "a/", count: 40), "\(scheme)://nowhere/at/all",
            "javascript:alert(1)", "\(scheme)://../../etc/passwd", "", "\(scheme)://?\u{0}=1"
        ].map { "deep_link(\(LuaSource.string($0)))" }
    }

    /// The coverage keys of everything there is to cover; `gateStates`: a
    /// gated link counts with its gate open and closed (when the app says
    /// which preconditions hold).
    func allCoverage(gateStates: Bool) -> Set<String> {
        var keys: Set<String> = []
        for definition in host.engine.manifest.destinations { keys.insert("screen \(definition.id)") }
        for screen in host.screens { for output in screen.outputs { keys.insert("tap \(screen.id).\(output.name)") } }
        for (definition, pattern) in patterns {
            for entry in host.entryPoints where pattern.applies(to: entry) {
                let key = "link \(definition.id) \(pattern.template) via \(entry)"
                if gateStates && gates[definition.id] != nil {
                    keys.insert(key + Self.gateOpen)
                    keys.insert(key + Self.gateClosed)
                } else {
                    keys.insert(key)
                }
            }
        }
        return keys
    }

    private static let gateOpen = ", gate open"
    private static let gateClosed = ", gate closed"

    // MARK: - Launch

    mutating func launch(_ generator: inout SeededGenerator) -> String {
        var parts: [String] = []
        for option in host.launchOptions {
            switch option.kind {
            case .boolean:
                if Bool.random(using: &generator) { parts.append("\(option.name) = \(Bool.random(using: &generator))") }
            case .oneOf(let values):
                if Bool.random(using: &generator), let value = values.randomElement(using: &generator) {
                    parts.append("\(option.name) = \(LuaSource.string(value))")
                }
            case .string, .number:
                continue
            }
        }
        if Int.random(in: 0..<8, using: &generator) == 0, let link = randomLink(&generator)?.link {
            parts.append("url = \(LuaSource.input(link.input)), via = \(LuaSource.string(link.entry.rawValue))")
        }
        return parts.isEmpty ? "launch{}" : "launch{ " + parts.joined(separator: ", ") + " }"
    }

    // MARK: - Steps

    mutating func candidates(app: any AppDriver, generator: inout SeededGenerator) -> [ExplorationAction] {
        var actions: [ExplorationAction] = []
        let state = app.state
        let screen = state.visible?.id
        // Taps: the outputs the screen really has, with the parameters they were wired with.
        for output in app.visibleOutputs {
            actions.append(
                ExplorationAction(lua: "", coverage: "tap \(screen?.rawValue ?? "?").\(output.name)", unrendered: .tap(output)))
        }
        actions.append(ExplorationAction(lua: "back()", coverage: "back"))
        actions.append(ExplorationAction(lua: "back_swipe{}", coverage: "back_swipe"))
        actions.append(ExplorationAction(lua: "back_swipe{ cancel = true }", coverage: "back_swipe cancelled"))
        actions.append(ExplorationAction(lua: "back_swipe{ animated = false }", coverage: "back_swipe not animated"))
        if !state.modals.isEmpty { actions.append(ExplorationAction(lua: "dismiss()", coverage: "dismiss")) }
        if state.modals.isEmpty {
            for tab in state.tabs where tab != state.selectedTab {
                actions.append(ExplorationAction(lua: "select_tab(\(LuaSource.string(tab.rawValue)))", coverage: "select_tab \(tab)"))
            }
        }
        let satisfied = gates.isEmpty ? nil : app.satisfiedPreconditions
        for _ in 0..<3 {
            if let choice = linkChoice(&generator) {
                actions.append(
                    ExplorationAction(lua: "", coverage: coverage(of: choice, satisfied: satisfied), unrendered: .link(choice)))
            }
        }
        actions.append(hostileLink(&generator))
        // Only with a suite to draw from: without one, a seed's walks stay what they were.
        if let call = suiteCalls.randomElement(using: &generator) {
            actions.append(ExplorationAction(lua: call, coverage: "suite \(call)"))
        }
        for line in host.explorationActions { actions.append(ExplorationAction(lua: line, coverage: line)) }
        if let scenes = app as? any SceneDriving { actions += sceneActions(scenes, generator: &generator) }
        actions.append(ExplorationAction(lua: "restart{}", coverage: "restart", restoresState: true))
        actions.append(ExplorationAction(lua: "restart{ restore = false }", coverage: "restart without restoration", startsFresh: true))
        if let first = linkChoice(&generator), let second = linkChoice(&generator) {
            actions.append(ExplorationAction(lua: "", coverage: "two links mid-flight", unrendered: .twoLinks(first, second)))
        }
        return actions
    }

    /// Arguments for an output's parameters: usually valid, sometimes at a
    /// boundary, sometimes invalid.
    private mutating func tapArguments(_ output: ScreenOutput, generator: inout SeededGenerator) -> [String: String] {
        guard !output.parameters.isEmpty else { return [:] }
        let specs = output.destination.flatMap { host.engine.definition(of: $0) }?.params ?? []
        var arguments: [String: String] = [:]
        for name in output.parameters {
            guard let spec = specs.first(where: { $0.name == name }) else {
                arguments[name] = sampler.randomWord(length: 3)
                continue
            }
            arguments[name] = value(for: spec, destination: output.destination, generator: &generator)
        }
        return arguments
    }

    private mutating func value(for spec: ParamSpec, destination: DestinationID?, generator: inout SeededGenerator) -> String {
        sample(spec, destination: destination, favouringInvalid: false, generator: &generator).value
    }

    /// A value for `spec` — usually valid, sometimes at a boundary, sometimes
    /// invalid (more often with `favouringInvalid`) — and whether it is invalid.
    private mutating func sample(
        _ spec: ParamSpec, destination: DestinationID?, favouringInvalid: Bool, generator: inout SeededGenerator
    ) -> (value: String, invalid: Bool) {
        let oracle = self.oracle
        let accepts: (String) -> Bool = { oracle.accepts($0, spec: spec) }
        let roll = Int.random(in: 0..<10, using: &generator)
        let valid = sampler.valid(spec, accepts: accepts) ?? "1"
        if roll == 0 || (favouringInvalid && roll >= 7) {
            return (sampler.invalid(spec).randomElement(using: &generator) ?? "!", true)
        }
        if roll == 1 { return (sampler.boundary(spec, from: valid, accepts: accepts).randomElement(using: &generator) ?? valid, false) }
        return (valid, false)
    }

    /// A link to a destination of the manifest, through a door its pattern allows.
    mutating func randomLink(_ generator: inout SeededGenerator, doors allowed: [EntryPoint]? = nil) -> ExplorationAction? {
        linkChoice(&generator, doors: allowed).map { link($0, generator: &generator) }
    }

    /// A pattern and a door for a link, its values not drawn yet.
    func linkChoice(_ generator: inout SeededGenerator, doors allowed: [EntryPoint]? = nil) -> ExplorationAction.LinkChoice? {
        guard let index = patterns.indices.randomElement(using: &generator) else { return nil }
        let doors = allowed.map { allowed in self.doors[index].filter(allowed.contains) } ?? self.doors[index]
        guard let entry = doors.randomElement(using: &generator) else { return nil }
        return .init(pattern: index, entry: entry)
    }

    /// What a link of `choice` covers.
    /// `satisfied`: the preconditions holding now (nil: the app does not say).
    func coverage(of choice: ExplorationAction.LinkChoice, satisfied: Set<Precondition>? = nil) -> String {
        let (definition, pattern) = patterns[choice.pattern]
        guard let door = doors[choice.pattern].firstIndex(of: choice.entry) else {
            return "link \(definition.id) \(pattern.template) via \(choice.entry)"  // not offered: no key of its own
        }
        let keys = linkKeys[choice.pattern][door]
        guard let satisfied, let gate = gates[definition.id] else { return keys.plain }
        return gate.isSubset(of: satisfied) ? keys.open : keys.closed
    }

    /// The link of `choice` with its values drawn.
    mutating func link(_ choice: ExplorationAction.LinkChoice, generator: inout SeededGenerator) -> ExplorationAction {
        let (definition, pattern) = patterns[choice.pattern]
        let entry = choice.entry
        var values: [String: String] = [:]
        let pair = "\(pattern.template) via \(entry)"
        let favouringInvalid = !definition.params.isEmpty && !invalidOffered.contains(pair)
        for spec in definition.params {
            let (value, invalid) = sample(spec, destination: definition.id, favouringInvalid: favouringInvalid, generator: &generator)
            if invalid { invalidOffered.insert(pair) }
            values[spec.name] = value
        }
        let path = pattern.filled(with: values)
        let schemeURL = "\(host.engine.manifest.scheme)://\(path)"
        let input = host.input(for: schemeURL, via: entry)
        let lua = "deep_link(\(LuaSource.input(input)), { via = \(LuaSource.string(entry.rawValue)) })"
        return ExplorationAction(
            lua: lua, coverage: coverage(of: choice),
            link: .init(input: input, entry: entry, schemeURL: pattern.entries == nil ? schemeURL : nil))
    }

    /// `action` ready to run: a link candidate gets its values and its line.
    mutating func rendered(_ action: ExplorationAction, generator: inout SeededGenerator) -> ExplorationAction {
        switch action.unrendered {
        case nil:
            return action
        case .tap(let output):
            let arguments = tapArguments(output, generator: &generator)
            let lua =
                arguments.isEmpty
                ? "tap(\(LuaSource.string(output.name)))"
                : "tap(\(LuaSource.string(output.name)), \(LuaSource.table(arguments)))"
            var tapped = ExplorationAction(lua: lua, coverage: action.coverage)
            if output.destination != nil { tapped.tap = ExplorationAction.Tap(output: output, arguments: arguments) }
            return tapped
        case .link(let choice):
            var rendered = link(choice, generator: &generator)
            rendered.coverage = action.coverage  // with the gate's state when it was offered
            return rendered
        case .linkInScene(let choice, let number):
            var target = link(choice, generator: &generator).link!
            target.scene = number
            target.schemeURL = nil
            return ExplorationAction(
                lua: "deep_link(\(LuaSource.input(target.input)), { via = \(LuaSource.string(target.entry.rawValue)), "
                    + "scene = \(number) })",
                coverage: action.coverage, link: target)
        case .twoLinks(let firstChoice, let secondChoice):
            let first = link(firstChoice, generator: &generator).link!
            var landing = link(secondChoice, generator: &generator).link!
            // The second lands while the first executes: where it ends is checked (a race shows there).
            landing.followsAnother = true
            return ExplorationAction(
                lua: "deep_link(\(LuaSource.input(first.input)), { via = \(LuaSource.string(first.entry.rawValue)), settle = false })"
                    + " deep_link(\(LuaSource.input(landing.input)), { via = \(LuaSource.string(landing.entry.rawValue)) })",
                coverage: action.coverage, link: landing)
        }
    }

    /// An app with several windows: open one (up to three), bring another
    /// to the front, close one, and open a link in a window that is not in
    /// front (a scheme or universal link the system gives that window).
    private mutating func sceneActions(_ scenes: any SceneDriving, generator: inout SeededGenerator) -> [ExplorationAction] {
        var actions: [ExplorationAction] = []
        let numbers = scenes.sceneNumbers
        if numbers.count < 3 { actions.append(ExplorationAction(lua: "open_scene{}", coverage: "open_scene")) }
        for number in numbers where number != scenes.foregroundScene {
            actions.append(ExplorationAction(lua: "focus_scene(\(number))", coverage: "focus_scene"))
            if let choice = linkChoice(&generator, doors: [.scheme, .universal]) {
                actions.append(
                    ExplorationAction(
                        lua: "", coverage: "link in a background scene", unrendered: .linkInScene(choice, scene: number)))
            }
        }
        if numbers.count > 1, let number = numbers.randomElement(using: &generator) {
            actions.append(ExplorationAction(lua: "close_scene(\(number))", coverage: "close_scene"))
        }
        return actions
    }

    /// Input no route should accept: malformed, hostile, unknown.
    mutating func hostileLink(_ generator: inout SeededGenerator) -> ExplorationAction {
        ExplorationAction(lua: hostileLines.randomElement(using: &generator)!, coverage: "hostile link")
    }
}
