import NavScript
import NavigationCore

/// The verbs and checks of an app with several windows: `open_scene`,
/// `focus_scene`, `close_scene`, `scenes`, `expect_scenes` (and `in_scene`,
/// in the prelude, over the acting scene these share). Everything else in
/// the language acts on the foreground scene, or on the one `in_scene`
/// names, so a scenario written for one window runs unchanged.
enum SceneBindings {
    static var functions: [ScriptFunction] {
        [
            ScriptFunction(
                "open_scene", .driving,
                parameters: [ScriptParameter("options", "navscript.SceneOptions", optional: true)],
                returns: [ScriptReturn("integer", name: "scene"), ScriptReturn("navscript.LinkOutcome?", name: "outcome")],
                documentation: """
                    The user opens a new window of the app, in front, and the app settles; returns its number (the \
                    first window is 1; numbers are not reused). With `url` (and `via`, default `"spotlight"` for an \
                    activity, `"universal"` for an http(s) link, else `"scheme"`), the window opens for that link — a Handoff activity, a link dragged \
                    out — and the link's outcome is returned too. An app whose host drives one window is an error.
                    """,
                example: "local second = open_scene{}",
                body: .binding { call, context in
                    let world = try context.requireWorld(call)
                    let location = context.location(of: call)
                    let scenes = try sceneDriver(try world.ensureApp(at: location), call: call)
                    let options = try call.optionalTable(1) ?? LuaTable()
                    var activity: EntryInput?
                    var entry = EntryPoint.spotlight
                    if options["url"].isNil && !options["via"].isNil {
                        // A door with no link to carry: said, not ignored (a typo in `url` lands here too).
                        throw BindingError.error("open_scene: via names the door of url, and there is no url; give both or neither")
                    }
                    if !options["url"].isNil {
                        guard options["url"].stringValue != nil || options["url"].tableValue != nil else {
                            throw BindingError.error(
                                "open_scene: url is the link the window opens for — a URL string, a push payload or an "
                                    + "activity table — not a \(options["url"].typeName)")
                        }
                        let (input, defaultEntry) = try BindingSupport.linkInput(options["url"], call: call, position: 1)
                        activity = input
                        entry =
                            try options["via"].stringValue.map {
                                try BindingSupport.entryPoint($0, call: call, position: 1, host: context.host)
                            } ?? defaultEntry
                    }
                    let (number, outcome) = try scenes.openScene(with: activity, via: entry)
                    try scenes.settle()
                    world.record(
                        "open_scene{\(activity.map { " url = \"\($0)\", via \(entry.rawValue) " } ?? "")} → scene \(number)"
                            + (outcome.map { " " + $0.status.rawValue } ?? ""), at: location)
                    return [.integer(Int64(number))] + (outcome.map { [BindingSupport.outcomeTable($0)] } ?? [])
                }),
            sceneVerb(
                "focus_scene", documentation: "The user brings window `scene` to the foreground; the app settles.",
                example: "focus_scene(1)"
            ) { (scenes: any SceneDriving, number: Int) throws(HostError) in try scenes.focusScene(number) },
            sceneVerb(
                "close_scene",
                documentation: """
                    The user closes window `scene`: its flows are torn down and everything it showed must be \
                    released; the app settles. The last window cannot be closed.
                    """,
                example: "close_scene(2)"
            ) { (scenes: any SceneDriving, number: Int) throws(HostError) in try scenes.closeScene(number) },
            ScriptFunction(
                "scenes", .observing,
                returns: [ScriptReturn("navscript.Scenes", name: "scenes")],
                documentation: """
                    Returns the open windows' numbers in opening order, with `foreground` the one in front \
                    (`{ 1, 2, foreground = 2 }`); `{ 1, foreground = 1 }` for an app with one window.
                    """,
                example: "assert(scenes().foreground == 2)",
                body: .binding { call, context in
                    let world = try context.requireWorld(call)
                    let app = try world.ensureApp(at: context.location(of: call))
                    let (numbers, foreground) = sceneList(app)
                    var table = LuaTable(array: numbers.map { .integer(Int64($0)) })
                    table["foreground"] = .integer(Int64(foreground))
                    return [.table(table)]
                }),
            ScriptFunction(
                "expect_scenes", .asserting,
                parameters: [ScriptParameter("scenes", "navscript.Scenes")],
                documentation: """
                    Expects exactly these windows open (`{ 1, 3 }`, in opening order) and, with `foreground`, that \
                    one in front.
                    """,
                example: "expect_scenes{ 1, 2, foreground = 2 }",
                body: .binding { call, context in
                    let world = try context.requireWorld(call)
                    world.location = context.location(of: call)
                    let app = try world.ensureApp(at: context.location(of: call))
                    let expected = try call.table(1)
                    var numbers: [Int] = []
                    for index in 0..<expected.count {
                        guard let number = expected[index + 1].intValue else {
                            throw BindingError.error("expect_scenes: entry \(index + 1) is not a scene number")
                        }
                        numbers.append(number)
                    }
                    // Past the list: only `foreground`. A hole (`{ 1, nil, 3 }`) or a misspelt key would
                    // leave out what it was meant to check.
                    for (key, _) in expected.pairs.dropFirst(expected.count) where key.stringValue != "foreground" {
                        throw BindingError.error(
                            key.stringValue.map { "expect_scenes has no field '\($0)'; it takes the scene numbers and foreground" }
                                ?? "expect_scenes: the scenes must be a list with no holes ({ 1, 3 }), got a value at [\(key)]")
                    }
                    let front = expected["foreground"]
                    if !front.isNil && front.intValue == nil {
                        throw BindingError.error("expect_scenes: foreground must be a scene number (an integer), got \(front)")
                    }
                    let (open, foreground) = sceneList(app)
                    var problems: [String] = []
                    if numbers != open {
                        problems.append("the open scenes are \(render(open)), expected \(render(numbers))")
                    }
                    if let front = expected["foreground"].intValue, front != foreground {
                        problems.append("scene \(foreground) is in the foreground, expected \(front)")
                    }
                    guard problems.isEmpty else {
                        throw BindingError.failure(ExpectationFailure(problems.joined(separator: "; ")))
                    }
                    return []
                })
        ]
    }

    /// `focus_scene(n)`, `close_scene(n)`: a user step on a window, settled and recorded.
    private static func sceneVerb(
        _ name: String, documentation: String, example: String,
        _ perform: @escaping (any SceneDriving, Int) throws(HostError) -> Void
    ) -> ScriptFunction {
        ScriptFunction(
            name, .driving, parameters: [ScriptParameter("scene", "integer")], documentation: documentation,
            example: example,
            body: .binding { call, context in
                let world = try context.requireWorld(call)
                let location = context.location(of: call)
                let scenes = try sceneDriver(try world.ensureApp(at: location), call: call)
                let number = try call.integer(1)
                // A window that is not open is the script's mistake, as for in_scene and deep_link's
                // scene: the app was never asked (a failure would blame it).
                guard scenes.sceneNumbers.contains(number) else {
                    throw BindingError.error("\(name): \(SceneError.noSuchScene(number, open: scenes.sceneNumbers))")
                }
                if name == "close_scene", scenes.sceneNumbers.count == 1 {
                    throw BindingError.error("close_scene: \(SceneError.lastScene(number))")
                }
                if name == "close_scene" { world.checkBeforeTeardown("close_scene(\(number))", at: location) }
                do {
                    try perform(scenes, number)
                    try scenes.settle()
                } catch {
                    world.record("\(name)(\(number)) ✗ \(error)", at: location)
                    throw error
                }
                world.record("\(name)(\(number))", at: location)
                return []
            })
    }

    /// The app as one with several windows, or the error that says it has one.
    static func sceneDriver(_ app: any AppDriver, call: LuaCall) throws(BindingError) -> any SceneDriving {
        guard let scenes = app as? any SceneDriving else {
            if call.functionName == "deep_link" {
                throw .error(
                    "deep_link: the scene option names a window, but the app has one window — its host's driver does not "
                        + "adopt SceneDriving; leave scene out")
            }
            throw .error(
                "\(call.functionName): the app has one window — its host's driver does not adopt SceneDriving, so "
                    + "there is no other scene to open, focus or close")
        }
        return scenes
    }

    /// The open scenes and the one in front; one window is scene 1.
    static func sceneList(_ app: any AppDriver) -> (numbers: [Int], foreground: Int) {
        guard let scenes = app as? any SceneDriving else { return ([1], 1) }
        return (scenes.sceneNumbers, scenes.foregroundScene)
    }

    private static func render(_ numbers: [Int]) -> String {
        "{ " + numbers.map(String.init).joined(separator: ", ") + " }"
    }
}
