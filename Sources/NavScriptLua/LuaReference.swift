/// A Lua value with identity (function, coroutine, foreign userdata) held
/// from Swift through a registry reference.
///
/// Why a reference object: the registry slot keeps the Lua value alive while
/// Swift holds it, and `deinit` releases the slot — as long as the state is
/// still open (the state is held weakly, so a reference never keeps a state
/// alive and outliving it is harmless). Two references are `==` when they
/// designate the same Lua value of the same state.
public class LuaReference: Hashable, CustomStringConvertible {
    /// Lua's `type(v)` of the referenced value.
    public let typeName: String
    let ref: Int32
    /// The value's address in its state (`lua_topointer`), for identity.
    let identity: UInt
    /// The owning state's control block address, for identity across states.
    let stateIdentity: UInt
    weak var state: LuaState?

    init(state: LuaState, ref: Int32, identity: UInt, typeName: String) {
        self.state = state
        self.ref = ref
        self.identity = identity
        self.stateIdentity = state.stateIdentity
        self.typeName = typeName
    }

    deinit { state?.releaseReference(ref) }

    /// False once the owning state has been closed: the value is gone.
    public var isAlive: Bool { state != nil }

    public var description: String { "\(typeName): 0x\(String(identity, radix: 16))" }

    public static func == (lhs: LuaReference, rhs: LuaReference) -> Bool {
        lhs.identity == rhs.identity && lhs.stateIdentity == rhs.stateIdentity
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(identity)
        hasher.combine(stateIdentity)
    }
}

/// A Lua function held from Swift. Call it with `LuaState.call(_:_:)`, which
/// runs it protected and reports errors with a full traceback.
public final class LuaFunction: LuaReference {}
