import CLua
import CNavScriptLua
import Foundation

/// A freshly prepared Lua state kept as bytes, so that the next state with
/// the same preparation is a copy instead of a rebuild.
///
/// Why: each scenario file gets a fresh Lua state, and preparing one — the
/// standard libraries, the sandbox, then the caller's own setup (the
/// scenario language registers its bindings and runs its prelude) — cost
/// more than running a typical scenario. A state lives entirely in memory
/// its allocator hands out; prepared inside the process's state region
/// (CNavScriptLua/region.c, mapped once at a fixed address), it can be copied out
/// byte for byte, and copying the bytes back gives a state identical to a
/// freshly prepared one. Nothing of a previous file survives: the copy is
/// taken before any file runs, and the next state starts from the copy.
///
/// What a preparation may do: anything that leaves the state independent
/// of the file it will run — define globals, register functions with
/// `register` or `makeOwnedFunction` (their Swift contexts then belong to
/// the image and must find their per-file data through
/// ``LuaState/context``), run Lua. It must not create functions or objects
/// whose userdata owns a Swift object (`makeFunction`, host objects): each
/// restored state would release it again when it closes. That is checked.
///
/// One state lives in the region at a time; when it is taken (another
/// state is open, e.g. on another thread), the state is prepared the
/// ordinary way on the heap — the same preparation, so the same state.
/// Thread-safe: the image's bytes are only read or written by the holder of
/// the region.
package final class LuaStateImage: @unchecked Sendable {
    /// Sets a new state up; returns the functions every state needs a handle
    /// to (e.g. a collector the prelude returned), in a fixed order.
    package typealias Preparation = (LuaState) throws(LuaError) -> [LuaFunction]

    private let prepare: Preparation
    /// Where the image is taken and restored.
    let region: LuaStateRegion
    /// The region's bytes from its base when the preparation had finished; empty until taken.
    private var bytes: [UInt8] = []
    /// The kept functions' registry slots, identities and types, valid in every restored state.
    private var kept: [(ref: Int32, identity: UInt, typeName: String)] = []
    /// The chunk names the preparation loaded (see `LuaState.sourceNames`): a
    /// restored state starts with them.
    private(set) var sourceNames: [(chunk: String, name: String)] = []
    /// The Swift contexts of the functions the preparation registered, owned by the image.
    private var callbacks: [Unmanaged<LuaCallbackBox>] = []
    /// The last sandbox root a restored state had, resolved: a runner's
    /// files share one root, and resolving it (cwd, `realpath`) showed in
    /// the cost of a file.
    private var lastRoot: (url: URL, root: LuaState.SandboxRoot)?

    package init(region: LuaStateRegion = .shared, prepare: @escaping Preparation) {
        self.region = region
        self.prepare = prepare
    }

    deinit {
        for box in callbacks { box.release() }
    }

    /// Whether the image has been taken (the next state in the region is a
    /// copy). Read without the region: for tests, while no state is being made.
    var isTaken: Bool { !bytes.isEmpty }

    /// Bytes every state restored from the image copies (0 before it is taken).
    var byteCount: Int { bytes.count }

    /// A fresh, prepared state with `options`' limits and root, and the
    /// functions the preparation kept.
    package func makeState(options: LuaState.Options) throws(LuaError) -> (LuaState, [LuaFunction]) {
        guard let region = region.acquire() else {
            let state = try LuaState(options: options.unbudgeted)
            let functions = try prepare(state)
            state.setInstructionBudget(options.instructionBudget)
            return (state, functions)
        }
        guard !bytes.isEmpty else { return try take(region, options: options) }
        let root: LuaState.SandboxRoot?
        do {
            root = try options.sandboxRoot.map { url throws(LuaError) in
                if let lastRoot, lastRoot.url == url { return lastRoot.root }
                let resolved = try LuaState.resolveRoot(url)
                lastRoot = (url, resolved)
                return resolved
            }
        } catch {
            clua_region_release(region)
            throw error
        }
        let restored = bytes.withUnsafeBytes { buffer in
            Result { () throws(LuaError) in
                try LuaState(restoring: buffer, into: region, options: options, root: root, image: self)
            }
        }
        let state = try restored.get()
        let functions = kept.map {
            LuaFunction(state: state, ref: $0.ref, identity: $0.identity, typeName: $0.typeName)
        }
        return (state, functions)
    }

    /// Prepares a state in the region and takes the image from it; the state is the caller's.
    private func take(
        _ region: UnsafeMutablePointer<clua_Region>,
        options: LuaState.Options
    ) throws(LuaError) -> (LuaState, [LuaFunction]) {
        let state = try LuaState(options: options.unbudgeted, region: region)
        let functions = try prepare(state)
        state.setInstructionBudget(options.instructionBudget)
        precondition(
            state.control.pointee.boxes == 0,
            "a state image's preparation created userdata that owns a Swift object "
                + "(makeFunction or a host object); use register or makeOwnedFunction")
        let size = clua_region_capture(region)
        guard size > 0 else { return (state, functions) }  // it needed the heap: no image, prepare again next time
        bytes = Array(UnsafeRawBufferPointer(start: UnsafeRawPointer(region), count: size))
        kept = functions.map { ($0.ref, $0.identity, $0.typeName) }
        sourceNames = state.sourceNames
        callbacks = state.ownedCallbacks
        state.ownedCallbacks = []
        state.image = self
        return (state, functions)
    }
}
