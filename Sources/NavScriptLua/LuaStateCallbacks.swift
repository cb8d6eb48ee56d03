import CLua
import CNavScriptLua
import Foundation

/// The Swift context of one Lua function: retained by the userdata upvalue
/// of its C closure and released by that userdata's `__gc` (`makeFunction`),
/// or, for a global defined with `register`, owned by the state and
/// released when it closes.
final class LuaCallbackBox {
    let name: String
    let body: LuaCallback

    init(name: String, body: @escaping LuaCallback) {
        self.name = name
        self.body = body
    }
}

extension LuaState {
    // MARK: - Registering Swift functions

    /// Makes a Lua function backed by `body`. `name` is used in argument
    /// error messages (`bad argument #1 to 'name' (…)`).
    ///
    /// The closure travels as an upvalue (a userdata holding one retain) —
    /// no global registry — and is released when Lua collects the function
    /// and the last `LuaFunction` reference to it is gone, or when the state
    /// closes. Capture the state weakly (or use `LuaCall.state`) to avoid a
    /// retain cycle.
    public func makeFunction(_ name: String, _ body: @escaping LuaCallback) -> LuaFunction {
        referencing { L in pushFunction(L, name, body) }
    }

    /// Defines the global function `name`. Its Swift context lives as long
    /// as the state (no userdata and finalizer per function: a file's state
    /// registers some fifty of them, and both showed in its cost), or as
    /// long as the image the state was prepared for (see `LuaStateImage`).
    public func register(_ name: String, _ body: @escaping LuaCallback) {
        setRawGlobal(name) { L in pushOwnedFunction(L, name, body) }
    }

    /// Lets scripts read host objects (``LuaValue/hostObject(_:)``):
    /// `tostring(object)` is `describe(object)`, and `object.key` is
    /// `field(object, key)` (nil for a key it does not know). Every host
    /// object of the state shares these two; they live as long as the state
    /// (or the image it was prepared for), like a registered function.
    public func readHostObjects(
        describe: @escaping (AnyObject) -> String,
        field: @escaping (AnyObject, String) -> LuaValue
    ) {
        let L = self.L
        let base = lua_gettop(L)
        defer { lua_settop(L, base) }
        precondition(lua_checkstack(L, 4) != 0, "Lua stack exhausted")
        clua_pushhostmeta(L)
        pushString(L, "__tostring")
        pushOwnedFunction(L, "tostring") { call in
            guard let object = call[1].hostObjectValue else { return .values([.string("host object")]) }
            return .values([.string(LuaString(describe(object)))])
        }
        lua_rawset(L, -3)
        pushString(L, "__index")
        pushOwnedFunction(L, "index") { call in
            guard let object = call[1].hostObjectValue, let key = call[2].stringValue else { return .values([.nil]) }
            return .values([field(object, key)])
        }
        lua_rawset(L, -3)
    }

    /// Makes a Lua function backed by `body` whose Swift context lives as
    /// long as the state, like a function defined with `register`: the kind
    /// a state image's preparation may create.
    public func makeOwnedFunction(_ name: String, _ body: @escaping LuaCallback) -> LuaFunction {
        referencing { L in pushOwnedFunction(L, name, body) }
    }

    /// A Lua function (in C) returning the line of the call that led to it,
    /// as its author reads it: the innermost frame in the file being run
    /// (the chunk at the bottom of the stack), else the innermost frame
    /// outside `skipping` (chunk names as given to `load`, e.g. `=prelude`),
    /// else 0. For a DSL that records where each declaration was written:
    /// asked once per declaration, it needs no Swift callback.
    public func makeCallerLineFunction(skipping chunks: [String]) -> LuaFunction {
        referencing { L in
            precondition(lua_checkstack(L, Int32(chunks.count) + 2) != 0, "Lua stack exhausted")
            for chunk in chunks { pushString(L, LuaState.chunkName(chunk)) }
            clua_pushcallerline(L, Int32(chunks.count))
        }
    }

    /// A Lua function (in C) telling whether its argument is a function
    /// `coroutine.wrap` made: called, such a function returns at the
    /// coroutine's first yield, so a DSL that calls a body once and takes its
    /// return as "finished" must refuse it.
    public func makeWrappedCoroutineTest() -> LuaFunction {
        referencing { L in clua_pushcfunction(L, clua_iswrapped) }
    }

    /// A Lua function (in C) that notes the running coroutine among those
    /// ``suspendedCoroutineThatCalledSwift()`` looks at, as a call of a
    /// Swift function from it does: for what a script does in Lua alone
    /// (a declaration) that must not stop halfway at a yield either.
    public func makeCoroutineNoter() -> LuaFunction {
        referencing { L in clua_pushcfunction(L, clua_notedriverfn) }
    }

    /// A Lua function (in C) that puts the tables modules live in back as a
    /// snapshot left them: `(tables, copies, metatables, fields)` as the
    /// scenario prelude keeps them (see `clua_restoremodules`). It runs before
    /// every scenario but a file's first; the same loops in Lua cost about as
    /// much as an empty scenario.
    public func makeModuleRestorer() -> LuaFunction {
        referencing { L in clua_pushcfunction(L, clua_restoremodules) }
    }

    /// A Lua function (in C) that takes the snapshot ``makeModuleRestorer()``'s
    /// function puts back: `(tables, package, globals, libraries)` → copies,
    /// fields, metatables (see `clua_snapshotmodules`).
    public func makeModuleSnapshotter() -> LuaFunction {
        referencing { L in clua_pushcfunction(L, clua_snapshotmodules) }
    }

    /// A reference to the function `push` leaves on top (stack restored).
    private func referencing(_ push: (OpaquePointer) -> Void) -> LuaFunction {
        let L = self.L
        let base = lua_gettop(L)
        defer { lua_settop(L, base) }
        push(L)
        do {
            return try functionReference(L)
        } catch {
            // clua_ref only fails when allocation fails, which aborts while Swift is on the stack.
            preconditionFailure("cannot reference a new Lua function: \(error)")
        }
    }

    private func pushOwnedFunction(_ L: OpaquePointer, _ name: String, _ body: @escaping LuaCallback) {
        precondition(lua_checkstack(L, 4) != 0, "Lua stack exhausted")
        let box = Unmanaged.passRetained(LuaCallbackBox(name: name, body: body))
        ownedCallbacks.append(box)
        clua_pushownedswiftfunction(L, box.toOpaque())
    }

    /// A table of functions, e.g. for a module: set it with `setGlobal` or
    /// `setLoadedModule`. Messages name each function `prefix.name` when a
    /// prefix is given. The functions live as long as the state (see
    /// `makeOwnedFunction`).
    public func makeTable(of functions: [String: LuaCallback], prefix: String? = nil) -> LuaTable {
        var table = LuaTable()
        for (name, body) in functions {
            let qualified = prefix.map { "\($0).\(name)" } ?? name
            table[name] = .function(makeOwnedFunction(qualified, body))
        }
        return table
    }

    private func pushFunction(_ L: OpaquePointer, _ name: String, _ body: @escaping LuaCallback) {
        precondition(lua_checkstack(L, 4) != 0, "Lua stack exhausted")
        let box = Unmanaged.passRetained(LuaCallbackBox(name: name, body: body)).toOpaque()
        clua_pushswiftfunction(L, box)
    }

    // MARK: - Calls from Lua

    /// Entry point from `clua_trampoline` (through `clua_Control.dispatch`).
    /// Returns a result count, or `CLUA_RAISE`/`CLUA_RAISE_WHERE` with the
    /// error value pushed: the trampoline raises after this frame returns.
    static func dispatch(_ L: OpaquePointer, _ object: UnsafeMutableRawPointer) -> Int32 {
        let control = clua_control(L)!
        let state = Unmanaged<LuaState>.fromOpaque(control.pointee.owner).takeUnretainedValue()
        let box = Unmanaged<LuaCallbackBox>.fromOpaque(object).takeUnretainedValue()
        return state.invoke(box, L)
    }

    private func invoke(_ box: LuaCallbackBox, _ L: OpaquePointer) -> Int32 {
        let count = lua_gettop(L)
        // This call takes the kept storage (see `argumentScratch`) and puts it back
        // when it is over: each stored property is touched twice per call, as every
        // access to one is an exclusivity check.
        var arguments = argumentScratch
        var locations = locationScratch
        argumentScratch = []
        locationScratch = []
        arguments.reserveCapacity(Int(count))
        if count > 0 {
            for index in 1...count {
                do {
                    arguments.append(try read(L, index, mode: .arguments))
                } catch {
                    let message = "bad argument #\(index) to '\(box.name)' (\(error.reason))"
                    if let onBadArgument {
                        appendCallerLocations(L, to: &locations)
                        onBadArgument(LuaCall(functionName: box.name, arguments: [], callerLocations: locations, state: self), message)
                    }
                    return raise(L, message)
                }
            }
        }
        appendCallerLocations(L, to: &locations)
        let result: LuaCallResult
        do {
            result = try box.body(
                LuaCall(
                    functionName: box.name, arguments: arguments,
                    callerLocations: locations, state: self))
        } catch let error as LuaArgumentError {
            result = .error(.string(LuaString(error.message)))
        } catch let error as LuaError {
            result = .error(error.value, addPosition: false)
        } catch {
            result = .error(.string(LuaString(String(describing: error))))
        }
        // The call is over: its values go now, the storage stays for the next
        // one (unless the callback kept the call, which then keeps its copy).
        arguments.removeAll(keepingCapacity: true)
        locations.removeAll(keepingCapacity: true)
        argumentScratch = arguments
        locationScratch = locations

        let top = lua_gettop(L)
        switch result {
        case .values(let values):
            guard lua_checkstack(L, Int32(clamping: values.count) + 3) != 0 else {
                return raise(L, "too many results (\(values.count)) from '\(box.name)'")
            }
            do {
                for value in values { try push(L, value) }
            } catch {
                lua_settop(L, top)
                return raise(L, "cannot return a value from '\(box.name)' to Lua (\(error.reason))")
            }
            return Int32(values.count)
        case .error(let value, let addPosition):
            do {
                try push(L, value)
            } catch {
                lua_settop(L, top)
                return raise(L, "cannot raise an error value from '\(box.name)' (\(error.reason))")
            }
            return addPosition ? CLUA_RAISE_WHERE : CLUA_RAISE
        }
    }

    private func raise(_ L: OpaquePointer, _ message: String) -> Int32 {
        precondition(lua_checkstack(L, 1) != 0, "Lua stack exhausted")
        pushString(L, message)
        return CLUA_RAISE_WHERE
    }

    /// Appends the Lua frames above the running C function, innermost first.
    /// `lua_getstack` and `lua_getinfo("Sl")` push nothing and never raise.
    func appendCallerLocations(_ L: OpaquePointer, to locations: inout [LuaSourceLocation], limit: Int = 64) {
        locations.reserveCapacity(4)  // a binding is called from a scenario, a hook or a helper: a few frames
        var record = lua_Debug()
        var level: Int32 = 1
        while locations.count < limit, lua_getstack(L, level, &record) != 0 {
            level += 1
            guard lua_getinfo(L, "Sl", &record) != 0, record.currentline > 0 else { continue }
            locations.append(LuaSourceLocation(source: cachedSourceName(&record), line: Int(record.currentline)))
        }
    }

    /// `sourceName(record)`, reusing the String made for the same chunk
    /// name before: every call from Lua lists its frames, and making a new
    /// String for a path per frame per call showed in a scenario's cost. A
    /// hit needs the same bytes, not just the same address (a collected
    /// chunk's name may be replaced by another at that address).
    func cachedSourceName(_ record: inout lua_Debug) -> String {
        guard let source = record.source, record.srclen > 0 else { return LuaState.sourceName(&record) }
        let length = record.srclen
        // Newest first: the file being run is the chunk loaded last, and most frames are its.
        for known in sourceNames.reversed() where known.chunk.utf8.count == length {
            let same = known.chunk.utf8.withContiguousStorageIfAvailable { memcmp($0.baseAddress!, source, length) == 0 }
            if same ?? false { return known.name }
        }
        let name = LuaState.sourceName(&record)
        if sourceNames.count < 16 {
            sourceNames.append((String(decoding: UnsafeRawBufferPointer(start: source, count: length), as: UTF8.self), name))
        }
        return name
    }

    /// The chunk name without `@`/`=`, or Lua's short form for string chunks.
    static func sourceName(_ record: inout lua_Debug) -> String {
        if let source = record.source, record.srclen > 0 {
            let first = UInt8(bitPattern: source.pointee)
            if first == UInt8(ascii: "@") || first == UInt8(ascii: "=") {
                let bytes = UnsafeRawBufferPointer(start: source + 1, count: record.srclen - 1)
                return String(decoding: bytes, as: UTF8.self)
            }
        }
        return withUnsafeBytes(of: &record.short_src) { buffer in
            let bytes = buffer.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
