/// Every function a scenario file sees for one host: the built-in
/// declarations and the host's own, in reference order. Registration,
/// the LuaLS definitions and the README's reference table all read this
/// one list.
public struct ScriptLibrary {
    public let functions: [ScriptFunction]
    /// The names a host declared that the language already has; the host's
    /// declaration is ignored (reported by `navscript types`).
    public let conflicts: [String]

    public init(host: any ScenarioHost) {
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
        StructureFunctions.functions + DrivingBindings.functions + ObservingBindings.functions
            + AssertionBindings.functions
    }

    /// The functions of one category, in declaration order.
    public func functions(in category: ScriptFunction.Category) -> [ScriptFunction] {
        functions.filter { $0.category == category }
    }

    /// Registers every Swift-backed function in `state`. They find the file
    /// they serve as the state's ``LuaState/context`` (a `ScenarioSession`),
    /// so one registration serves every state restored from an image.
    /// `tables` checks the table arguments whose types declare their fields.
    func install(_ state: LuaState, checking tables: TableArgumentCheck) {
        for function in functions {
            guard case .binding(let body) = function.body else { continue }
            let announced = function.category == .driving || function.category == .asserting
            Self.register(function.name, body, announced: announced, maximumArguments: function.maximumArgumentCount,
                          tables: (tables, tables.checkedParameters(of: function)), in: state)
        }
    }

    /// Registers `body` under `name`; thrown binding errors become Lua
    /// errors (scenario mistakes) or failure tables (expectations). A table
    /// argument that is not of its declared type is a bad argument.
    private static func register(_ name: String, _ body: @escaping (LuaCall, ScenarioSession) throws -> [LuaValue],
                                 announced: Bool, maximumArguments: Int?,
                                 tables: (check: TableArgumentCheck, parameters: [(position: Int, type: String)]),
                                 in state: LuaState) {
        state.register(name) { call in
            guard let session = call.state.context as? ScenarioSession else {
                return .error("navscript: \(name) called outside a scenario file")
            }
            // An extra argument was meant for something (`expect_tab("home", "orders")`): it
            // must not pass unread. Trailing nils are Lua's own padding, not arguments.
            if let maximumArguments, call.count > maximumArguments,
               let extra = (maximumArguments..<call.count).first(where: { !call.arguments[$0].isNil }) {
                throw call.argumentError(extra + 1, (maximumArguments == 0 ? "\(name) takes no arguments"
                    : "\(name) takes at most \(maximumArguments) argument" + (maximumArguments == 1 ? "" : "s"))
                    + ", got \(call.count)")
            }
            for (position, type) in tables.parameters {
                if case .table(let table) = call[position], let problem = tables.check.problem(with: table, as: type) {
                    throw call.argumentError(position, problem)
                }
            }
            return try session.serving { () throws -> LuaCallResult in
                if announced, let onCall = session.world?.onCall {
                    onCall(String(concatenating: session.location(of: call), "  ", name, "(…)"))
                }
                do {
                    return .values(try body(call, session))
                } catch let error as BindingError {
                    switch error {
                    case .error(let message):
                        return .error(.string(LuaString("\(session.location(of: call)): \(message)")), addPosition: false)
                    case .failure(let failure):
                        return session.raise(failure, at: session.location(of: call))
                    }
                } catch let error as HostError where error.message == session.world?.launchFailure?.message {
                    // The app could not be launched at all: an error of the scenario (a launch
                    // error, see ScenarioFile), not a failure of the call that needed the app.
                    return .error(.string(LuaString("\(session.location(of: call)): \(error.message)")), addPosition: false)
                } catch let error as HostError {
                    // The app refused a step the scenario asked for: the app is
                    // not where the scenario expected it to be.
                    // (A host's message may name the call already: `login{}: already signed in`.)
                    let named = ["{", "(", ":"].contains { error.message.hasPrefix(name + $0) }
                    let message = named ? error.message : "\(name): \(error.message)"
                    return session.raise(ExpectationFailure(message), at: session.location(of: call))
                }
            }
        }
    }
}
