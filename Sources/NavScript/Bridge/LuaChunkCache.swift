import CLua
import Foundation

/// navscript's own Lua (the sandbox prelude, the scenario prelude), compiled
/// once per process and loaded into every new state as bytecode.
///
/// Why: every scenario file gets a fresh state, and parsing these few
/// hundred lines was the largest single cost of a small file (profiled with
/// callgrind: about 40% of a one-scenario file). Loading the dumped function
/// is several times cheaper than compiling it and gives the same function:
/// the dump keeps the debug information (source name, lines, locals), so
/// messages and tracebacks are unchanged.
///
/// Only sources compiled by ``LuaState/loadPrecompiled(_:source:chunkName:)``
/// — navscript's own, never a script's — are dumped; scripts still cannot
/// load binary chunks by any path. Thread-safe: states on different threads
/// share the cache.
final class LuaChunkCache: @unchecked Sendable {
    static let shared = LuaChunkCache()

    private struct Entry {
        let source: String
        let bytecode: [UInt8]
    }

    private let lock = NSLock()
    private var entries: [String: Entry] = [:]

    /// The bytecode of `source` compiled as `chunkName`, if it was stored.
    func bytecode(for source: String, chunkName: String) -> [UInt8]? {
        lock.lock()
        defer { lock.unlock() }
        guard let entry = entries[chunkName], entry.source == source else { return nil }
        return entry.bytecode
    }

    func store(_ bytecode: [UInt8], for source: String, chunkName: String) {
        lock.lock()
        entries[chunkName] = Entry(source: source, bytecode: bytecode)
        lock.unlock()
    }
}

extension LuaState {
    /// Pushes navscript's own chunk `source`: bytecode from the cache, or
    /// compiled from text (and then dumped into the cache). Throws like
    /// `loadChunk` (stack unchanged on error).
    func loadPrecompiled(_ L: OpaquePointer, source: String, chunkName: String) throws(LuaError) {
        let name = LuaState.chunkName(chunkName)
        rememberChunk(name)
        if let bytecode = LuaChunkCache.shared.bytecode(for: source, chunkName: name) {
            precondition(lua_checkstack(L, 2) != 0, "Lua stack exhausted")
            let status = loadBinary(L, bytecode, chunkName: name)
            guard status == LUA_OK else { throw takeError(L, status: status) }
            return
        }
        // In the region (a state being prepared for the image), compiling
        // here would leave the parser's scratch memory as holes every file's
        // copy of the image carries (16 KB of its 86 KB once the scenario
        // prelude grew): compile on the heap in a throwaway state, then load
        // the bytecode here like any later state does.
        if region != nil {
            let scratch = try LuaState()
            _ = try scratch.loadPrecompiled(source: source, chunkName: chunkName)
            if let bytecode = LuaChunkCache.shared.bytecode(for: source, chunkName: name) {
                precondition(lua_checkstack(L, 2) != 0, "Lua stack exhausted")
                let status = loadBinary(L, bytecode, chunkName: name)
                guard status == LUA_OK else { throw takeError(L, status: status) }
                return
            }
        }
        try loadChunk(L, bytes: Array(source.utf8), chunkName: name)
        if let bytecode = dumpFunction(L) {
            LuaChunkCache.shared.store(bytecode, for: source, chunkName: name)
        }
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

    /// `lua_load` of a binary chunk, with the memory cap on as for text
    /// chunks (`clua_loadbuffer`). lua_load is internally protected.
    private func loadBinary(_ L: OpaquePointer, _ bytecode: [UInt8], chunkName: String) -> Int32 {
        struct Reader {
            var base: UnsafeRawPointer?
            var count: Int
        }
        let savedSide = control.pointee.lua_side
        control.pointee.lua_side = 1
        control.pointee.memory_refused = 0
        defer { control.pointee.lua_side = savedSide }
        return bytecode.withUnsafeBytes { buffer in
            var reader = Reader(base: buffer.baseAddress, count: buffer.count)
            return chunkName.withCString { name in
                lua_load(L, { _, data, size in
                    let reader = data!.assumingMemoryBound(to: Reader.self)
                    guard let base = reader.pointee.base, reader.pointee.count > 0 else {
                        size!.pointee = 0
                        return nil
                    }
                    size!.pointee = reader.pointee.count
                    reader.pointee.base = nil
                    return base.assumingMemoryBound(to: CChar.self)
                }, &reader, name, "b")
            }
        }
    }

    /// The function on top of the stack as bytecode with debug information,
    /// or nil if it cannot be dumped. Leaves the stack unchanged.
    private func dumpFunction(_ L: OpaquePointer) -> [UInt8]? {
        var bytecode: [UInt8] = []
        let status = withUnsafeMutablePointer(to: &bytecode) { pointer in
            lua_dump(L, { _, data, size, target in
                guard size > 0 else { return 0 }
                let bytes = UnsafeRawBufferPointer(start: data, count: size)
                target!.assumingMemoryBound(to: [UInt8].self).pointee.append(contentsOf: bytes)
                return 0
            }, pointer, 0)
        }
        return status == 0 && !bytecode.isEmpty ? bytecode : nil
    }
}
