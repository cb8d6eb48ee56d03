import NavScript

/// Every function a scenario file sees for one host: the built-in
/// declarations and the host's own, in reference order. Registration,
/// the LuaLS definitions and the README's reference table all read this
/// one list.
package struct ScriptLibrary {
    package let functions: [ScriptFunction]
    /// The names a host declared that the language already has; the host's
    /// declaration is ignored (reported by `navscript types`).
    package let conflicts: [String]

    package init(host: any ScenarioHost) {
        let builtIn = Self.builtIn
        let taken = Set(builtIn.map(\.name))
        var seen = taken
        var conflicts: [String] = []
        var added: [ScriptFunction] = []
        for function in host.functions {
            guard seen.insert(function.name).inserted else {
                conflicts.append(function.name)
                continue
            }
            added.append(function)
        }
        functions = builtIn + added
        self.conflicts = conflicts
    }

    /// The language's own functions.
    static var builtIn: [ScriptFunction] {
        StructureFunctions.functions + DrivingBindings.functions + SceneBindings.functions + ObservingBindings.functions
            + AssertionBindings.functions
    }

    /// The functions of one category, in declaration order.
    package func functions(in category: ScriptFunction.Category) -> [ScriptFunction] {
        functions.filter { $0.category == category }
    }

    /// Registers every Swift-backed function in `state`. They find the file
    /// they serve as the state's ``LuaState/context`` (a `BindingContext`),
    /// so one registration serves every state restored from an image.
    /// `tables` checks the table arguments whose types declare their fields.
    func install(_ state: LuaState, checking tables: TableArgumentCheck) {
        for function in functions {
            var body: (LuaCall, BindingContext) throws -> [LuaValue]
            switch function.body {
            case .prelude, .preludeTable: continue
            case .native(let native):
                guard let binding = native as? ContextBinding else { continue }  // only the runtime makes them
                body = binding.body
            case .verb(let perform): body = Self.verb(function.name, perform)
            case .observer(let observe): body = Self.observer(function.name, observe)
            }
            let announced = function.category == .driving || function.category == .asserting
            // What it returns as a record of a type whose fields are fixed (an outcome, a snapshot, a
            // host's session): a misspelt field of it raises instead of reading nil.
            let records: [(index: Int, record: LuaRecord)] = function.returns.enumerated().compactMap { index, returned in
                let type = returned.type.hasSuffix("?") ? String(returned.type.dropLast()) : returned.type
                return tables.fieldNames(of: type).map { (index, LuaRecord(type: type, fields: $0)) }
            }
            if !records.isEmpty {
                let inner = body
                body = { call, context in
                    var values = try inner(call, context)
                    for (index, record) in records where index < values.count {
                        if case .table(var table) = values[index] {
                            table.record = record
                            values[index] = .table(table)
                        }
                    }
                    return values
                }
            }
            Self.register(
                function.name, body, announced: announced, checks: function.category == .asserting,
                maximumArguments: function.maximumArgumentCount,
                tables: (tables, tables.checkedParameters(of: function)), in: state)
        }
    }

    /// A host's verb as a binding: run against the scenario's app (launched
    /// with defaults when the scenario did not launch one), settled, recorded
    /// on the timeline — with a ✗ and the reason when the app refused.
    private static func verb(_ name: String, _ perform: @escaping (ScriptStep) throws -> Void)
        -> (LuaCall, BindingContext) throws -> [LuaValue]
    {
        let called = name + "()"  // the timeline's words unless the host says more; spelled once, not per call
        return { call, context in
            let world = try context.requireWorld(call)
            let location = context.location(of: call)
            let step = ScriptStep(app: try world.ensureApp(at: location), arguments: call, description: called)
            world.checkBeforeTeardown(called, at: location)
            do {
                try perform(step)
                try step.app.settle()
            } catch {
                world.record("\(step.description) ✗ \((error as? HostError)?.message ?? "\(error)")", at: location)
                throw error
            }
            world.record(step.description, at: location)
            return []
        }
    }

    /// A host's observer as a binding: it reads the scenario's app.
    private static func observer(_ name: String, _ observe: @escaping (ScriptStep) throws -> LuaValue)
        -> (LuaCall, BindingContext) throws -> [LuaValue]
    {
        let called = name + "()"
        return { call, context in
            let world = try context.requireWorld(call)
            let step = ScriptStep(
                app: try world.ensureApp(at: context.location(of: call)), arguments: call,
                description: called)
            return [try observe(step)]
        }
    }

    /// Registers `body` under `name`; thrown binding errors become Lua
    /// errors (scenario mistakes) or failure tables (expectations). A table
    /// argument that is not of its declared type is a bad argument.
    private static func register(
        _ name: String, _ body: @escaping (LuaCall, BindingContext) throws -> [LuaValue],
        announced: Bool, checks: Bool, maximumArguments: Int?,
        tables: (check: TableArgumentCheck, parameters: [(position: Int, type: String)]),
        in state: LuaState
    ) {
        state.register(name) { call in
            guard let context = call.state.context as? BindingContext else {
                return .error("navscript: \(name) called outside a scenario file")
            }
            // The checks below place their errors at the call: inside `serving`, so the place they
            // find is forgotten when the call ends (it was kept, and the next call — in the next
            // scenario too — was placed at this one's line).
            return try context.serving { () throws -> LuaCallResult in
                // An extra argument was meant for something (`expect_tab("home", "orders")`): it
                // must not pass unread. Trailing nils are Lua's own padding, not arguments.
                if let maximumArguments, call.count > maximumArguments,
                    let extra = (maximumArguments..<call.count).first(where: { !call.arguments[$0].isNil })
                {
                    throw context.noting(
                        call.argumentError(
                            extra + 1,
                            (maximumArguments == 0
                                ? "\(name) takes no arguments"
                                : "\(name) takes at most \(maximumArguments) argument" + (maximumArguments == 1 ? "" : "s"))
                                + ", got \(call.count)" + (Self.extraArgumentHints[name].map { "; " + $0 } ?? "")), of: call)
                }
                for (position, type) in tables.parameters {
                    if case .table(let table) = call[position], let problem = tables.check.problem(with: table, as: type) {
                        throw context.noting(call.argumentError(position, problem), of: call)
                    }
                }
                if announced, let world = context.world {
                    if checks { world.checkedSomething = true }
                    if let onCall = world.observer.call {
                        onCall(String(concatenating: context.location(of: call), "  ", name, Self.arguments(call)))
                    }
                }
                let pastBefore = announced && call.state.isPastDeadline
                defer {
                    if announced, let world = context.world {
                        world.observer.returned?()
                        if !pastBefore, world.overrunCall == nil, call.state.isPastDeadline {
                            world.overrunCall = (context.location(of: call), name + Self.arguments(call))
                        }
                    }
                }
                do {
                    return .values(try body(call, context))
                } catch let error as BindingError {
                    switch error {
                    case .error(let message):
                        let located = "\(context.location(of: call)): \(message)"
                        context.noteMistake(located)
                        return .error(.string(LuaString(located)), addPosition: false)
                    case .failure(let failure):
                        return context.raise(failure, at: context.location(of: call))
                    }
                } catch let error as LuaArgumentError {
                    throw context.noting(error, of: call)
                } catch let failure as LaunchFailure {
                    // The app could not be launched at all: an error of the scenario (a launch
                    // error, see ScenarioProblem), not a failure of the call that needed the app.
                    return .error(.hostObject(failure), addPosition: false)
                } catch let error as HostError {
                    // The app refused a step the scenario asked for: the app is
                    // not where the scenario expected it to be.
                    // (A host's message may name the call already: `login{}: already signed in`.)
                    let named = ["{", "(", ":"].contains { error.message.hasPrefix(name + $0) }
                    let message = named ? error.message : "\(name): \(error.message)"
                    return context.raise(ExpectationFailure(message), at: context.location(of: call))
                }
            }
        }
    }

    /// What a call with one argument too many most likely meant, by function.
    private static let extraArgumentHints = [
        "expect_events": "to check only the events after a mark, use expect_events_since(mark, { … })"
    ]

    /// A call's arguments as a crash report shows them, as the script would
    /// write them (`("myapp://x", { via = "widget" })`, or `{ url = "…" }`
    /// for a table alone: `launch{ url = "…" }`): short strings quoted,
    /// numbers and booleans as written, a table's first few entries (the one
    /// that crashed the app is often in them), tables inside it elided.
    /// Built for every announced call in a worker (it keeps only the last),
    /// so cheap.
    static func arguments(_ call: LuaCall) -> String {
        if call.arguments.count == 1, case .table(let table) = call.arguments[0] { return shown(table) }
        return "(" + call.arguments.map { shown($0, inTable: false) }.joined(separator: ", ") + ")"
    }

    /// `{ url = "myapp://x", via = "widget" }`: at most six entries, then `…`.
    private static func shown(_ table: LuaTable) -> String {
        let pairs = table.pairs
        guard !pairs.isEmpty else { return "{}" }
        var parts: [String] = []
        for (index, pair) in pairs.prefix(6).enumerated() {
            let value = shown(pair.value, inTable: true)
            if case .integer(let position) = pair.key, position == index + 1 {
                parts.append(value)
            } else if case .string(let key) = pair.key, let text = key.validUTF8, LuaTable.isIdentifier(text) {
                parts.append(text + " = " + value)
            } else {
                parts.append("[" + shown(pair.key, inTable: true) + "] = " + value)
            }
        }
        if pairs.count > 6 { parts.append("…") }
        return "{ " + parts.joined(separator: ", ") + " }"
    }

    private static func shown(_ value: LuaValue, inTable: Bool) -> String {
        switch value {
        case .nil: return "nil"
        case .boolean(let flag): return flag ? "true" : "false"
        case .integer(let number): return String(number)
        case .number(let number): return String(number)
        case .string(let string):
            let text = string.string
            return LuaSource.string(text.count > 80 ? String(text.prefix(80)) + "…" : text)
        case .table(let table): return inTable ? "{…}" : shown(table)
        default: return value.typeName
        }
    }

}
