/// What a host's verb or observer works with: the running app and the
/// call's arguments.
///
/// Throw ``HostError`` when the app cannot do what the scenario asked (the
/// scenario fails at its line, as a user's thumb would find the button
/// missing); an argument of the wrong type (``LuaCall``'s accessors throw
/// ``LuaArgumentError``) is an error in the scenario itself.
public final class ScriptStep {
    /// The app of the running scenario (launched with defaults if the
    /// scenario did not launch one).
    public let app: any AppDriver
    /// The Lua call: arguments with typed accessors.
    public let arguments: LuaCall
    /// How the step appears on the timeline. Defaults to `name()`; a verb
    /// sets it to a readable form of its arguments (`login{ cancel = true }`).
    public var description: String

    package init(app: any AppDriver, arguments: LuaCall, description: String) {
        self.app = app
        self.arguments = arguments
        self.description = description
    }

    /// The app as the host's own driver type.
    public func app<App>(as type: App.Type) throws(HostError) -> App {
        // The usual case, the host's own driver class exactly: compared by
        // class, without the generic cast through the existential (which
        // showed in the cost of every host verb).
        let object = app as AnyObject
        if ObjectIdentifier(Swift.type(of: object)) == ObjectIdentifier(App.self) {
            return unsafeBitCast(object, to: App.self)
        }
        guard let app = app as? App else {
            throw HostError("\(arguments.functionName): the running app is a \(Swift.type(of: app)), not a \(App.self)")
        }
        return app
    }
}

extension ScriptFunction {
    /// A user step a host adds to the language (`login{}`, `logout()`).
    ///
    /// Like the built-in verbs, it runs against the scenario's app, then
    /// the app is settled and the step is recorded on the timeline with
    /// ``ScriptStep/description``; a ``HostError`` fails the scenario at
    /// the calling line.
    ///
    /// `ensures`: what must hold after every call, in the scenario language
    /// (`expect_modal("login")`, `assert(not session().logged_in)`) — what
    /// the documentation promises, checked by `navscript explore` after each
    /// call it makes (``ScriptFunction/postcondition``).
    public static func verb(
        _ name: String, parameters: [ScriptParameter] = [], documentation: String,
        example: String? = nil, ensures postcondition: String? = nil,
        perform: @escaping (ScriptStep) throws -> Void
    ) -> ScriptFunction {
        ScriptFunction(
            name, .driving, parameters: parameters, documentation: documentation, example: example,
            postcondition: postcondition, body: .verb(perform))
    }

    /// A way of reading the app's state a host adds (`context()`).
    public static func observer(
        _ name: String, parameters: [ScriptParameter] = [], returns: ScriptReturn,
        documentation: String, example: String? = nil,
        observe: @escaping (ScriptStep) throws -> LuaValue
    ) -> ScriptFunction {
        ScriptFunction(
            name, .observing, parameters: parameters, returns: [returns], documentation: documentation,
            example: example, body: .observer(observe))
    }
}
