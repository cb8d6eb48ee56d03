import CLua
import CNavScriptLua

/// Why a conversion can fail. Thrown internally and reported as a
/// `.conversion` `LuaError` (or as a Lua error inside a callback).
enum LuaConversionFailure: Error {
    case tooDeep
    case cyclic
    /// Past ``LuaState/maxValues`` values a sub-table met again, or past
    /// ``LuaState/maxStringBytes`` of text: a table or a string that appears
    /// several times is copied each time, so forty levels of `{ a = t, b = t
    /// }` would be 2⁴⁰ copies, and one 30 MB string in a hundred slots 3 GB.
    case tooLarge
    case stackExhausted
    case referenceFailed
    case foreignReference
    /// A table with a metatable, given to a Swift function: a copy reads
    /// what it holds, not what its `__index` or `__len` say.
    case proxy

    var reason: String {
        switch self {
        case .tooDeep: return "table nested deeper than \(LuaState.maxDepth) levels"
        case .cyclic: return "cyclic table (a table contains itself)"
        case .tooLarge:
            return "table of more than \(LuaState.maxValues) values or \(LuaState.maxStringBytes >> 20) MiB of text, "
                + "counting a shared sub-table or string once per appearance"
        case .stackExhausted: return "Lua stack exhausted"
        case .referenceFailed: return "cannot keep a reference to a Lua value"
        case .foreignReference: return "the value belongs to another (or a closed) Lua state"
        case .proxy:
            return "a table with a metatable (a proxy or an object): what it holds is not what its __index or __len say, "
                + "and a copy would read it as empty; pass a plain table"
        }
    }
}

extension LuaState {
    /// Deepest table nesting copied across the bridge (either direction).
    static let maxDepth = 200
    /// Past this many keys and values, one copy into Swift refuses a table
    /// it meets a second time: a bound on the work and the memory of copying
    /// shared sub-tables, which the instruction budget does not see. Distinct
    /// tables are copied however many (a file of 45,000 scenarios declares
    /// that many), bounded by what the Lua state itself holds.
    static let maxValues = 100_000
    /// Most bytes of strings one copy into Swift reads (Lua shares a string
    /// wherever it appears; the copy does not).
    static let maxStringBytes = 64 << 20

    enum ReadMode {
        /// Functions, host objects and other references are kept.
        case full
        /// Only data: references become placeholder strings (for `LuaError`).
        case dataOnly
        /// As `full`, for a Swift function's arguments: a table with a
        /// metatable is refused (``LuaConversionFailure/proxy``) rather than
        /// copied as what it holds raw — a read-only proxy read as empty made
        /// `expect_modals(proxy)` check for no modals.
        case arguments
    }

    /// Copies the value at `index` into Swift. Only non-raising API calls:
    /// types are checked before `lua_tolstring`, tables are walked with raw
    /// `lua_next` (no metamethods run), references go through `clua_ref`.
    func read(_ L: OpaquePointer, _ index: Int32, mode: ReadMode = .full) throws(LuaConversionFailure) -> LuaValue {
        // The tables being copied, outermost first: a short stack searched
        // linearly (nesting is shallow; hashing a set cost more than the
        // copy), its first levels on the call stack (an array allocated for
        // every argument table showed in a call's cost).
        let index = lua_absindex(L, index)
        return try withUnsafeTemporaryAllocation(of: UnsafeRawPointer.self, capacity: TableTrail.inlineLevels) {
            slots throws(LuaConversionFailure) -> LuaValue in
            var path = TableTrail(slots: slots)
            // An entry, or 8 bytes, an instruction: copying into Swift (an allocation and a UTF-8 check
            // per string) costs about eight times what Lua's own copies, charged per 64 bytes, do.
            defer { charge(work: path.entries + path.bytes >> 3) }
            return try read(L, index, depth: 0, mode: mode, path: &path)
        }
    }

    /// The identities of the tables being copied, outermost first: the
    /// first ``inlineLevels`` in storage the caller provides (small enough
    /// to stay on the stack), deeper ones in an array.
    struct TableTrail {
        static let inlineLevels = 16
        let slots: UnsafeMutableBufferPointer<UnsafeRawPointer>
        var count = 0
        var deeper: [UnsafeRawPointer] = []
        /// Entries copied so far, across every table of the copy.
        var entries = 0
        /// Bytes of strings copied so far.
        var bytes = 0
        /// Past ``LuaState/maxValues`` entries: the tables copied since, to
        /// tell a shared one met again.
        var lateTables: Set<UnsafeRawPointer> = []

        func contains(_ identity: UnsafeRawPointer) -> Bool {
            for index in 0..<min(count, slots.count) where slots[index] == identity { return true }
            return deeper.contains(identity)
        }

        mutating func append(_ identity: UnsafeRawPointer) {
            if count < slots.count { slots[count] = identity } else { deeper.append(identity) }
            count += 1
        }

        mutating func removeLast() {
            count -= 1
            if count >= slots.count { deeper.removeLast() }
        }
    }

    private func read(
        _ L: OpaquePointer, _ index: Int32, depth: Int, mode: ReadMode, path: inout TableTrail
    ) throws(LuaConversionFailure) -> LuaValue {
        let type = lua_type(L, index)
        switch type {
        case LUA_TNIL, LUA_TNONE:
            return .nil
        case LUA_TBOOLEAN:
            return .boolean(lua_toboolean(L, index) != 0)
        case LUA_TNUMBER:
            if lua_isinteger(L, index) != 0 { return .integer(lua_tointegerx(L, index, nil)) }
            return .number(lua_tonumberx(L, index, nil))
        case LUA_TSTRING:
            var length = 0
            guard let pointer = clua_tolstring(L, index, &length) else { return .nil }
            path.bytes += length
            guard path.bytes <= LuaState.maxStringBytes else { throw .tooLarge }
            return .string(LuaString(copying: UnsafeRawBufferPointer(start: pointer, count: length)))
        case LUA_TTABLE:
            return .table(try readTable(L, index, depth: depth, mode: mode, path: &path))
        case LUA_TUSERDATA:
            if let object = clua_tohostobject(L, index) {
                if mode == .dataOnly { return "<host object>" }
                return .hostObject(Unmanaged<AnyObject>.fromOpaque(object).takeUnretainedValue())
            }
            fallthrough
        default:
            let name = String(cString: lua_typename(L, type))
            if mode == .dataOnly { return .string(LuaString("<\(name)>")) }
            let reference = try makeReference(L, index, typeName: name)
            if let function = reference as? LuaFunction { return .function(function) }
            return .other(reference)
        }
    }

    private func readTable(
        _ L: OpaquePointer, _ index: Int32, depth: Int, mode: ReadMode, path: inout TableTrail
    ) throws(LuaConversionFailure) -> LuaTable {
        guard depth < LuaState.maxDepth else { throw .tooDeep }
        guard let identity = lua_topointer(L, index) else { return LuaTable() }
        guard !path.contains(identity) else { throw .cyclic }
        if path.entries > LuaState.maxValues, !path.lateTables.insert(identity).inserted { throw .tooLarge }
        guard lua_checkstack(L, 4) != 0 else { throw .stackExhausted }
        // (A record navscript returned is read as it is: its metatable only guards misspelt names.)
        if mode == .arguments && clua_isrecord(L, index) == 0 && lua_getmetatable(L, index) != 0 {
            lua_settop(L, -2)
            throw .proxy
        }
        path.append(identity)
        defer { path.removeLast() }
        // One pass: the sequence's length (its border, a lookup in C) sizes
        // the array part; named keys are few and kept in order without
        // hashing (see LuaTableFields), so counting them first in a second
        // `lua_next` pass cost more than growing for them.
        var table = LuaTable(reservingCapacity: 0, arrayCapacity: Int(lua_rawlen(L, index)))
        lua_pushnil(L)
        while lua_next(L, index) != 0 {
            path.entries += 1
            let top = lua_gettop(L)
            let key: LuaValue
            let value: LuaValue
            do {
                key = try read(L, top - 1, depth: depth + 1, mode: mode, path: &path)
                value = try read(L, top, depth: depth + 1, mode: mode, path: &path)
            } catch {
                clua_pop(L, 2)
                throw error
            }
            table[key] = value
            clua_pop(L, 1)
        }
        return table
    }

    /// A registry reference to the value at `index` (a function or another value with identity).
    func makeReference(_ L: OpaquePointer, _ index: Int32, typeName: String) throws(LuaConversionFailure) -> LuaReference {
        let identity = UInt(bitPattern: lua_topointer(L, index))
        let ref = clua_ref(L, index)
        guard ref != LUA_NOREF, ref != LUA_REFNIL else { throw .referenceFailed }
        if lua_type(L, index) == LUA_TFUNCTION {
            return LuaFunction(state: self, ref: ref, identity: identity, typeName: typeName)
        }
        return LuaReference(state: self, ref: ref, identity: identity, typeName: typeName)
    }

    /// The function on top of the stack as a `LuaFunction` (stack unchanged).
    func functionReference(_ L: OpaquePointer) throws(LuaError) -> LuaFunction {
        let reference: LuaReference
        do {
            reference = try makeReference(L, -1, typeName: "function")
        } catch {
            throw LuaError(kind: .conversion, message: error.reason)
        }
        guard let function = reference as? LuaFunction else {
            throw LuaError(kind: .runtime, message: "expected a function, got \(reference.typeName)")
        }
        return function
    }

    /// Called by `LuaReference.deinit` while the state is alive.
    func releaseReference(_ ref: Int32) {
        clua_unref(L, ref)
    }

    /// Pushes a copy of `value`. May leave partial work on the stack when it
    /// throws: callers restore their saved top. Allocation cannot raise here:
    /// the memory cap is off while Swift runs.
    func push(_ L: OpaquePointer, _ value: LuaValue, depth: Int = 0) throws(LuaConversionFailure) {
        guard lua_checkstack(L, 3) != 0 else { throw .stackExhausted }
        switch value {
        case .nil:
            lua_pushnil(L)
        case .boolean(let b):
            lua_pushboolean(L, b ? 1 : 0)
        case .integer(let i):
            lua_pushinteger(L, i)
        case .number(let d):
            lua_pushnumber(L, d)
        case .string(let s):
            s.withBytes { pushBuffer(L, $0) }
        case .table(let table):
            guard depth < LuaState.maxDepth else { throw .tooDeep }
            lua_createtable(L, Int32(clamping: table.array.count), Int32(clamping: table.fields.count))
            for (offset, element) in table.array.enumerated() {
                try push(L, element, depth: depth + 1)
                lua_rawseti(L, -2, lua_Integer(offset + 1))
            }
            try table.fields.forEach { key, element throws(LuaConversionFailure) in
                try push(L, key, depth: depth + 1)
                try push(L, element, depth: depth + 1)
                lua_rawset(L, -3)
            }
            if let record = table.record { Self.setRecordMetatable(L, record) }
        case .function(let function):
            try pushReference(L, function)
        case .other(let reference):
            try pushReference(L, reference)
        case .hostObject(let object):
            _ = clua_pushhostobject(L, Unmanaged.passUnretained(object).toOpaque()) { object in
                UnsafeMutableRawPointer(Unmanaged<AnyObject>.fromOpaque(object!).retain().toOpaque())
            }
        }
    }

    /// Gives the table on top `record`'s metatable (``LuaRecord``).
    private static func setRecordMetatable(_ L: OpaquePointer, _ record: LuaRecord) {
        // Made once per state: every later record of the type only looks it up (a deep_link per step).
        if clua_setknownrecordmeta(L, record.type) != 0 { return }
        var names = record.fields.map { strdup($0) }
        defer { for name in names { free(name) } }
        names.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) { pointer in
                clua_setrecordmeta(L, record.type, pointer, Int32(buffer.count))
            }
        }
    }

    func pushReference(_ L: OpaquePointer, _ reference: LuaReference) throws(LuaConversionFailure) {
        guard reference.stateIdentity == stateIdentity, reference.state === self else { throw .foreignReference }
        guard lua_checkstack(L, 1) != 0 else { throw .stackExhausted }
        lua_rawgeti(L, clua_registryindex(), lua_Integer(reference.ref))
    }

    /// Where a Lua function was written (`suite/a.lua:12`, its source and
    /// the line its definition starts on), or nil for a C function or a
    /// function of another state. `lua_getinfo(">S")` pops the function and
    /// never raises.
    /// With `withDigest`, the place ends in a digest of the function's
    /// bytecode (`suite/a.lua:12#3f2a…`): two functions written on one line
    /// are told apart.
    public func definitionPlace(of function: LuaFunction, withDigest: Bool = false) -> String? {
        guard (try? pushReference(L, function)) != nil else { return nil }
        let digest = withDigest ? clua_function_digest(L, -1) : 0
        var record = lua_Debug()
        guard lua_getinfo(L, ">S", &record) != 0, record.linedefined > 0 else { return nil }
        return "\(Self.sourceName(&record)):\(record.linedefined)" + (withDigest ? "#" + String(digest, radix: 16) : "")
    }

    /// The lines a Lua function's definition spans (`function` to `end`),
    /// or nil for a C function or a function of another state.
    public func lineRange(of function: LuaFunction) -> ClosedRange<Int>? {
        guard (try? pushReference(L, function)) != nil else { return nil }
        var record = lua_Debug()
        guard lua_getinfo(L, ">S", &record) != 0, record.linedefined > 0, record.lastlinedefined >= record.linedefined
        else { return nil }
        return Int(record.linedefined)...Int(record.lastlinedefined)
    }

    /// Lua copies the bytes; `buffer` need not outlive the call.
    func pushBuffer(_ L: OpaquePointer, _ buffer: UnsafeRawBufferPointer) {
        // Lua never reads the pointer of an empty string, so nil is fine for count 0.
        _ = lua_pushlstring(L, buffer.baseAddress?.assumingMemoryBound(to: CChar.self), buffer.count)
    }

    func pushString(_ L: OpaquePointer, _ string: String) {
        var string = string
        string.withUTF8 { pushBuffer(L, UnsafeRawBufferPointer($0)) }
    }

    /// The string at `index`; the caller checked `lua_type == LUA_TSTRING`.
    func stringAt(_ L: OpaquePointer, _ index: Int32) -> String {
        var length = 0
        guard let pointer = clua_tolstring(L, index, &length) else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self)
    }
}
