/// One function of the scenario language, declared once: its name,
/// parameters, documentation and body. The runtime registers it from this
/// declaration, `navscript types` writes its LuaLS definition from it and
/// the README's reference table lists it — so the three cannot drift.
///
/// Built-in functions are declared by the runtime; a host adds its own app
/// verbs and observers with ``verb(_:parameters:documentation:example:perform:)``
/// and ``observer(_:returns:documentation:example:observe:)``.
public struct ScriptFunction {
    /// Where a function belongs in the reference.
    public enum Category: String, CaseIterable, Sendable {
        /// Declaring scenarios and hooks.
        case structure
        /// User steps: each is recorded on the timeline and settles the app.
        case driving
        /// Reading the app's state.
        case observing
        /// Checks that fail the scenario with expected vs actual.
        case asserting
    }

    /// The global's name (`expect_stack`, or `scenario.each` for a field of a global table).
    public let name: String
    public let category: Category
    public let parameters: [ScriptParameter]
    public let returns: [ScriptReturn]
    /// Further LuaLS signatures (`fun(tab: navscript.Tab, entries: string[])`).
    public let overloads: [String]
    /// A LuaLS generic name the signature uses (`T`), if any.
    public let generic: String?
    /// What the function does, in prose (Markdown). The first sentence is
    /// the summary in the reference table.
    public let documentation: String
    /// A short Lua example, shown in the editor and the reference.
    public let example: String?
    /// What must hold after a host verb, as lines of the scenario language
    /// (`expect_modal("login")`): `navscript explore` checks them after
    /// every call it makes, so a verb documented to present the sign-in is
    /// held to it; a finding's reproducer ends with them. Nil: none.
    public let postcondition: String?
    package let body: Body

    /// How the function is implemented. The runtime registers each kind:
    /// this layer only says what a function is, so a host's declarations
    /// never depend on the machinery that runs them.
    package enum Body {
        /// In navscript's Lua prelude (the structural functions).
        case prelude
        /// A global table the prelude defines (`scenario`), declared for docs.
        case preludeTable
        /// A host's user step (``ScriptFunction/verb(_:parameters:documentation:example:perform:)``):
        /// the runtime runs it against the scenario's app, settles the app and records the step.
        case verb((ScriptStep) throws -> Void)
        /// A host's way of reading the app (``ScriptFunction/observer(_:parameters:returns:documentation:example:observe:)``).
        case observer((ScriptStep) throws -> LuaValue)
        /// One of the language's own Swift bindings, whose body only the
        /// runtime can name (it takes the file being run): the runtime
        /// registers it typed, so a call pays no extra indirection or cast.
        case native(any NativeBinding)
    }

    /// A built-in binding's body, opaque at this layer (see ``Body/native(_:)``).
    package protocol NativeBinding {}

    package init(
        _ name: String, _ category: Category, parameters: [ScriptParameter] = [], returns: [ScriptReturn] = [],
        overloads: [String] = [], generic: String? = nil, documentation: String, example: String? = nil,
        postcondition: String? = nil, body: Body
    ) {
        self.name = name
        self.category = category
        self.parameters = parameters
        self.returns = returns
        self.overloads = overloads
        self.generic = generic
        self.documentation = documentation
        self.example = example
        self.postcondition = postcondition
        self.body = body
    }

    /// The first sentence of the documentation.
    public var summary: String {
        let text = documentation.replacingOccurrences(of: "\n", with: " ")
        guard let end = text.range(of: ". ") else { return text }
        return String(text[..<end.lowerBound]) + "."
    }

    /// `name(a, b)` as the reference shows a call.
    public var signature: String {
        if case .preludeTable = body { return name }
        return name + "(" + parameters.map { $0.isOptional ? "[\($0.name)]" : $0.name }.joined(separator: ", ") + ")"
    }

    /// The most arguments a call may pass, nil when it takes any number
    /// (`...`): the parameters, or an overload's when it has more.
    package var maximumArgumentCount: Int? {
        guard !parameters.contains(where: { $0.name == "..." }) else { return nil }
        let overloadCounts = overloads.map { signature in
            LuaTypeText.topLevelParts(of: signature.dropFirst("fun(".count), separatedBy: ",")
                .filter { !$0.allSatisfy(\.isWhitespace) }.count
        }
        return ([parameters.count] + overloadCounts).max()
    }

    /// Whether the runtime defines this name as a global function (not a
    /// table or a field of one).
    package var isGlobalFunction: Bool {
        if case .preludeTable = body { return false }
        return !name.contains(".")
    }
}

/// A parameter of a ``ScriptFunction``.
public struct ScriptParameter: Sendable {
    public let name: String
    /// The LuaLS type (`string`, `navscript.Tab`, `navscript.LinkOptions`).
    public let type: String
    public let isOptional: Bool
    public let documentation: String

    public init(_ name: String, _ type: String, optional: Bool = false, _ documentation: String = "") {
        self.name = name
        self.type = type
        self.isOptional = optional
        self.documentation = documentation
    }
}

/// A value a ``ScriptFunction`` returns.
public struct ScriptReturn: Sendable {
    public let type: String
    public let name: String?
    public let documentation: String

    public init(_ type: String, name: String? = nil, _ documentation: String = "") {
        self.type = type
        self.name = name
        self.documentation = documentation
    }
}
