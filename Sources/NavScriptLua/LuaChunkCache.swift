import CLua
import CNavScriptLua

/// The process's cache of compiled chunks (CNavScriptLua: chunks.c, and navscript_lua.h where the why is):
/// a file the bridge loads — a scenario file, a support module — is kept as
/// bytecode once it was compiled a second time, navscript's own Lua (the
/// sandbox prelude, the scenario prelude) once compiled; later loads of the
/// same bytes under the same name take the bytecode. Messages and tracebacks
/// are unchanged; scripts still cannot load binary chunks by any path.
public enum LuaChunkCache {
    /// What the cache holds and how it was used, since the process started.
    public struct Statistics: Equatable, Sendable {
        /// Chunks held.
        public var entries: Int
        /// Bytes held: entries, names, and the sources and bytecode of chunks
        /// compiled twice (the cache stops storing at 64 MB).
        public var bytes: Int
        /// Loads served from bytecode.
        public var hits: Int
        /// Loads that compiled text.
        public var compiles: Int
    }

    public static var statistics: Statistics {
        var entries = 0, bytes = 0, hits = 0, compiles = 0
        clua_chunks_statistics(&entries, &bytes, &hits, &compiles)
        return Statistics(entries: entries, bytes: bytes, hits: hits, compiles: compiles)
    }

    /// Whether the next load of these bytes as `chunkName` (with its `@`) —
    /// a file's, or with `asFile` false a source's — comes from bytecode.
    static func holdsBytecode(for bytes: [UInt8], chunkName: String, asFile: Bool = true) -> Bool {
        bytes.withUnsafeBytes { buffer in
            clua_chunks_contains(
                buffer.baseAddress?.assumingMemoryBound(to: CChar.self), buffer.count, chunkName,
                asFile ? 1 : 0) != 0
        }
    }
}

extension LuaState {
    /// Chunks this state loaded from the cache's bytecode (tests: the global
    /// figures mix every state's loads).
    var chunksLoadedFromBytecode: Int { Int(control.pointee.chunks_from_bytecode) }

    /// Pushes navscript's own chunk `source` through the cache. Throws like
    /// `loadChunk` (stack unchanged on error).
    func loadPrecompiled(_ L: OpaquePointer, source: String, chunkName: String) throws(LuaError) {
        let name = LuaState.chunkName(chunkName)
        rememberChunk(name)
        var source = source
        let status = source.withUTF8 { text in
            let base = UnsafeRawPointer(text.baseAddress)?.assumingMemoryBound(to: CChar.self)
            return name.withCString { name in
                // In the region (a state being prepared for the image), compiling here
                // would leave the parser's scratch memory as holes every file's copy of
                // the image carries (16 KB of its 86 KB once the scenario prelude grew):
                // compile on the heap in a throwaway state first, then load the bytecode.
                // (Should the throwaway state fail, the chunk is compiled here: holes, not an error.)
                if region != nil && clua_chunks_contains(base, text.count, name, 0) == 0,
                    let scratch = try? LuaState(), clua_chunks_contains(base, text.count, name, 0) == 0
                {
                    _ = clua_loadcached(scratch.mainThread, base, text.count, name, 0, 1)
                }
                precondition(lua_checkstack(L, 2) != 0, "Lua stack exhausted")
                return clua_loadcached(L, base, text.count, name, 0, 1)
            }
        }
        guard status == LUA_OK else { throw takeError(L, status: status) }
    }

    /// Compiles (or takes from the cache) navscript's own chunk `source`
    /// into a function without running it.
    package func loadPrecompiled(source: String, chunkName: String) throws(LuaError) -> LuaFunction {
        let L = self.L
        let base = lua_gettop(L)
        try loadPrecompiled(L, source: source, chunkName: chunkName)
        defer { lua_settop(L, base) }
        return try functionReference(L)
    }
}
