import CLua

/// The process's cache of compiled chunks (CLua/chunks.h): every file the
/// bridge loads — a scenario file, a support module — and navscript's own
/// Lua (the sandbox prelude, the scenario prelude) is compiled once per
/// process and loaded as bytecode after that.
///
/// Why: parsing is the largest cost of loading a small file, and a process
/// compiles the same text many times — a support module for every file that
/// requires it, every file once per fault under `mutate`, the preludes for
/// every state prepared. Loading the dump gives the same function: it keeps
/// the debug information (source name, lines, locals), so messages and
/// tracebacks are unchanged. An entry is found by chunk name and the exact
/// bytes compiled, so a file edited since is compiled again; scripts still
/// cannot load binary chunks by any path.
public enum LuaChunkCache {
    /// What the cache holds and how it was used, since the process started.
    public struct Statistics: Equatable, Sendable {
        /// Chunks held.
        public var entries: Int
        /// Bytes of source and bytecode held (the cache stops storing at 64 MB).
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

    /// Whether the next load of these bytes as `chunkName` (with its `@`)
    /// comes from bytecode rather than the parser.
    static func holdsBytecode(for bytes: [UInt8], chunkName: String) -> Bool {
        bytes.withUnsafeBytes { buffer in
            clua_chunks_contains(buffer.baseAddress?.assumingMemoryBound(to: CChar.self), buffer.count, chunkName) != 0
        }
    }
}

extension LuaState {
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
                if region != nil && clua_chunks_contains(base, text.count, name) == 0,
                   let scratch = try? LuaState() {
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
    func loadPrecompiled(source: String, chunkName: String) throws(LuaError) -> LuaFunction {
        let L = self.L
        let base = lua_gettop(L)
        try loadPrecompiled(L, source: source, chunkName: chunkName)
        defer { lua_settop(L, base) }
        return try functionReference(L)
    }
}
