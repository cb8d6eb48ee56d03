/// The Lua half of the sandbox, run once when a state is created.
///
/// Why Lua: reshaping the standard library (wrapping `load`, replacing
/// `require`'s searchers, deleting functions) is shortest and most idiomatic
/// in Lua. The C half (`clua_sb_resolve`, `clua_sb_loadtext` in CNavScriptLua/shim.c)
/// does what needs the file system: `realpath` confinement to the root and
/// text-only loading. Both C helpers reach the script only as upvalues of the
/// wrappers below; nothing the prelude keeps is reachable from scripts
/// (the `debug` library is never opened).
///
/// What remains, by design:
/// - base (with `load` text-only, `loadfile`/`dofile` confined to the root,
///   `setmetatable` refusing `__gc` — finalizers run with hooks off, outside
///   the instruction budget, so a looping finalizer could never be stopped),
///   `collectgarbage` kept; `xpcall` runs its handler after unwinding (see
///   the prelude: Lua runs handlers with hooks off after a hook error).
/// - `os`: `clock`, `time`, `date`, `difftime` only. `getenv` is removed:
///   scenarios must not depend on (or leak) the CI environment.
///   `setlocale` is removed: it changes process-wide state.
/// - `io`: `open` (read-only modes `r`/`rb`, inside the root), `write` (to
///   stdout, like `print`), `stdout`, `stderr`, `type`. Gone: `popen`,
///   `tmpfile`, `input`/`output`/`lines` (they open arbitrary paths), `read`
///   and `stdin` (a CI job would block on stdin), `close`.
/// - `require`: `package.preload`, then `<root>/support/` only; no C searchers,
///   no `package.loadlib`, no `package.searchpath`.
/// - `string.dump` removed; binary chunks cannot be loaded by any path.
package enum LuaSandbox {
    /// How the sandbox prelude's frames are named: they are navscript's, not the user's.
    package static let sourceName = "navscript sandbox"
    package static let chunkName = "=" + sourceName

    static let prelude = #"""
        local resolve, loadtext, rootname, noteopen, packagepath, unchainer = ...
        local type, select, error, rawget, tostring, ipairs = type, select, error, rawget, tostring, ipairs
        local rawload, rawsetmetatable = load, setmetatable
        local gsub, format, concat, find, sub = string.gsub, string.format, table.concat, string.find, string.sub
        local io, os, string, package = io, os, string, package
        local rawopen, iotype, next, collect = io.open, io.type, next, collectgarbage
        -- Files the script holds open: a process has only so many descriptors, and a worker that
        -- runs out of them cannot even report its own crash. Bounded well below the system's limit.
        local handles, maxopen = rawsetmetatable({}, { __mode = "k" }), 256
        local function openhandles()
          local count = 0
          for handle in next, handles do
            if iotype(handle) == "file" then count = count + 1 else handles[handle] = nil end
          end
          return count
        end

        -- Text chunks only, whatever mode the script asks for.
        function load(chunk, chunkname, mode, ...)
          if select("#", ...) > 0 then return rawload(chunk, chunkname, "t", (...)) end
          return rawload(chunk, chunkname, "t")
        end

        local function sandboxed_loadfile(path, mode, ...)
          if type(path) ~= "string" then
            return nil, "loadfile: a path inside the suite is required (stdin is not available)"
          end
          local real, display = resolve(path)
          if not real then return nil, display end
          if select("#", ...) > 0 then return loadtext(real, display, (...)) end
          return loadtext(real, display)
        end
        loadfile = sandboxed_loadfile

        function dofile(path)
          local chunk, message = sandboxed_loadfile(path)
          if not chunk then error(message, 2) end
          return chunk()
        end

        -- xpcall runs the message handler after unwinding, as an ordinary call.
        -- Why: Lua runs a message handler with hooks disabled when the error came
        -- from a hook, so a looping handler could never be stopped by the budget.
        -- Without the debug library a handler cannot inspect the failing stack
        -- anyway, so the observable behaviour is the same.
        local pcall, pack, unpack = pcall, table.pack, table.unpack
        function xpcall(f, msgh, ...)
          if type(msgh) ~= "function" then
            error("bad argument #2 to 'xpcall' (function expected, got " .. type(msgh) .. ")", 2)
          end
          local results = pack(pcall(f, ...))
          if results[1] then return unpack(results, 1, results.n) end
          local _, handled = pcall(msgh, results[2])
          return false, handled
        end

        function setmetatable(t, mt)
          -- Lua's own errors, under its name and at the script's line (raised from inside, they named
          -- 'rawsetmetatable' at a place in the sandbox).
          if type(t) ~= "table" then
            error(format("bad argument #1 to 'setmetatable' (table expected, got %s)", type(t) == "nil" and "no value" or type(t)), 2)
          end
          if mt ~= nil and type(mt) ~= "table" then error("bad argument #2 to 'setmetatable' (nil or table expected)", 2) end
          if type(mt) == "table" and rawget(mt, "__gc") ~= nil then
            error("setmetatable: __gc metamethods are not allowed in the navscript sandbox", 2)
          end
          return rawsetmetatable(t, mt)
        end

        function io.open(path, mode)
          if mode == nil then mode = "r" end
          if mode ~= "r" and mode ~= "rb" then
            return nil, format("%s: io.open is read-only in the navscript sandbox (mode '%s' refused)",
                               tostring(path), tostring(mode))
          end
          if type(path) ~= "string" then
            error("bad argument #1 to 'open' (string expected, got " .. type(path) .. ")", 2)
          end
          local real, display = resolve(path)
          if not real then return nil, display end
          if openhandles() >= maxopen then
            collect()   -- handles no longer referenced are closed when collected
            if openhandles() >= maxopen then
              return nil, format("%s: too many files open at once (%d, the sandbox's limit): close each file once it is "
                                 .. "read (file:close())", path, maxopen)
            end
          end
          noteopen()   -- the handle's finalizer must run when the state closes
          local handle, problem, code = rawopen(real, mode)
          if handle then handles[handle] = true end
          return handle, problem, code
        end
        for _, name in ipairs{ "popen", "tmpfile", "input", "output", "lines", "read", "close", "stdin" } do
          io[name] = nil
        end
        for _, name in ipairs{ "execute", "exit", "remove", "rename", "tmpname", "getenv", "setlocale" } do
          os[name] = nil
        end
        string.dump = nil
        package.loadlib = nil
        package.searchpath = nil
        package.cpath = ""
        -- package.path is the state's root's, read when used and never kept here (one prepared state
        -- image serves every suite, and a restored state sets nothing per file). The support searcher
        -- below does not need it; scripts and tools that read it do.
        package.path = nil
        rawsetmetatable(package, { __index = function(_, key)
          if key == "path" then return packagepath() end
        end })

        -- The modules being loaded, in order: Lua's require marks a module loaded only when its
        -- chunk returns, so a module that requires itself through others recursed until the C
        -- stack overflowed ("C stack overflow", no word of the cycle). Each chunk runs under a
        -- to-be-closed guard instead (closed on an error too: no pcall, tracebacks intact), whose
        -- __close is C (unchainer): it must run no Lua instruction while a spent budget raises.
        local chain = {}
        local function guarded(name, chunk, display)
          return function(...)
            for index = 1, #chain do
              if chain[index] == name then
                local cycle = {}
                for at = index, #chain do cycle[#cycle + 1] = chain[at] end
                cycle[#cycle + 1] = name
                error(format("require cycle: %s — module '%s' is required again while it is still loading; "
                  .. "move what the modules share into one that requires neither", concat(cycle, " → "), name), 3)
              end
            end
            chain[#chain + 1] = name
            local guard <close> = rawsetmetatable({}, { __close = unchainer(chain, #chain) })
            return chunk(...)
          end, display
        end

        local function support_searcher(name)
          local root = rootname()
          if root == nil then
            return "no sandbox root: require resolves modules only in <suite>/support/"
          end
          -- Dots separate a module's folders (flows.auth): '..' would read as a path out of support/.
          if find(name, "..", 1, true) or sub(name, 1, 1) == "/" then
            return format("module names cannot contain '..' or start with '/' (require resolves modules only in "
              .. "'%s/support/', folders separated by dots: 'flows.auth')", root)
          end
          local relative = gsub(name, "%.", "/")
          local tried = {}
          for _, pattern in ipairs{ "support/?.lua", "support/?/init.lua" } do
            local path = gsub(pattern, "%?", function() return relative end)
            local real, display = resolve(path, "support")
            if real then
              local chunk, message = loadtext(real, display)
              if not chunk then
                -- Level 3, past require itself: the message starts at the line that required it.
                error(format("error loading module '%s' from file '%s':\n\t%s", name, display, message), 3)
              end
              return guarded(name, chunk, display)
            end
            tried[#tried + 1] = display
          end
          tried[#tried + 1] = "(require resolves modules only in '" .. root .. "/support/')"
          return concat(tried, "\n\t")
        end
        local searchers = package.searchers
        searchers[2] = support_searcher
        for i = #searchers, 3, -1 do searchers[i] = nil end
        """#
}
