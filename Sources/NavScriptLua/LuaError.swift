/// An error from running Lua code, copied out of the state when it is created.
///
/// Why copies: the error outlives the protected call (and often the state),
/// so nothing in it points into Lua. The kind comes from the `lua_pcall`
/// status and from the budget/memory flags the C side records — never from
/// matching message text — so callers can tell a runaway script from a bug.
///
/// `value` is the raw error value converted to data only (functions, host
/// objects and other references inside it are replaced by a placeholder
/// string such as `"<function>"`). That invariant, enforced by the only
/// initialisers that take a `LuaValue`, is what makes the type `Sendable`.
public struct LuaError: Error, CustomStringConvertible, @unchecked Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        /// The chunk does not compile.
        case syntax
        /// A Lua runtime error (`error(...)`, a failed `assert`, a bad call, an error raised by a Swift callback).
        case runtime
        /// The memory limit was exceeded (or the process ran out of memory).
        case memory
        /// The instruction budget was exhausted.
        case budget
        /// The run was stopped while the script ran (``LuaInterruption``).
        case interrupted
        /// The scenario ran past its time limit inside Lua code (``LuaState/resetLimits(timeout:)``).
        case timeout
        /// The message handler itself failed (e.g. while handling a C stack overflow).
        case errorInHandler
        /// A file could not be read (`runFile`, sandbox root).
        case file
        /// A value could not cross the bridge (a cyclic or too deeply nested table).
        case conversion
    }

    public let kind: Kind
    /// The message as Lua produced it, usually `chunk:line: text`. For a
    /// non-string error value: its `message` field when it is a table with a
    /// string `message`, else `(error object is a <type> value)`.
    public let message: String
    /// `stack traceback:` … from the message handler (runtime and budget
    /// errors), or for the memory limit the Lua frames when it was reached.
    public let traceback: String?
    /// The raw error value (data only, see above): a string, or the table a
    /// script or a Swift callback raised.
    public let value: LuaValue
    /// When the error value was a host object (``LuaValue/hostObject(_:)``):
    /// which one. A host that raises its own objects (an expectation's
    /// record, say) tells them by identity, which no script can forge —
    /// while `value` holds only a placeholder for them.
    public let errorObject: ObjectIdentifier?
    /// For a budget error: the library function that spent it inside one
    /// call (`a pattern match`, `table.move`), where no instruction of the
    /// script ran; nil when the script's own instructions did.
    public let budgetSpentBy: String?

    init(
        kind: Kind, message: String, traceback: String? = nil, dataOnlyValue: LuaValue,
        errorObject: ObjectIdentifier? = nil, budgetSpentBy: String? = nil
    ) {
        self.kind = kind
        self.message = message
        self.traceback = traceback
        self.value = dataOnlyValue
        self.errorObject = errorObject
        self.budgetSpentBy = budgetSpentBy
    }

    /// An error built on the Swift side (no Lua value involved).
    package init(kind: Kind, message: String) {
        self.init(kind: kind, message: message, dataOnlyValue: .string(LuaString(message)))
    }

    /// The message followed by the traceback, when there is one.
    public var description: String {
        guard let traceback, !traceback.isEmpty else { return message }
        return message + "\n" + traceback
    }
}
