/// The structural half of the scenario language, written in Lua because it
/// is plain Lua semantics: `describe` runs its body at once, hooks attach to
/// the enclosing block, and nothing here touches the app. It collects
/// scenario declarations; the runner (Swift) runs them, each against a
/// fresh app. The driving verbs and expectations are Swift functions.
///
/// Loaded once per file's Lua state as the chunk `=navscript`, so Lua
/// frames from this chunk can be skipped when reporting a user's `file:line`.
enum ScenarioPrelude {
    static let chunkName = "=navscript"
    static let sourceName = "navscript"

    static let source = #"""
    local ns = ...
    local caller = ns.caller          -- Swift: the line of the user's call (the scenario file's, if any)
    local failure = ns.failure        -- Swift: raise an expectation failure
    local marker = ns.marker          -- the field that marks a raised failure

    -- What a pcall sees when an expectation fails inside it: a failure
    -- object that prints as its message. (The scenario has failed already:
    -- Swift recorded the failure when it happened.)
    local failure_mt = {
      __name = "navscript.failure",
      __tostring = function(f) return "navscript failure: " .. tostring(rawget(f, "message")) end,
    }
    local function as_failure(e)
      if type(e) == "table" and rawget(e, marker) ~= nil and getmetatable(e) == nil then
        setmetatable(e, failure_mt)
      end
      return e
    end
    local rawpcall, rawxpcall = pcall, xpcall
    local function caught(ok, ...)
      if ok then return ok, ... end
      return ok, as_failure((...)), select(2, ...)
    end
    function pcall(f, ...)
      return caught(rawpcall(f, ...))
    end
    function xpcall(f, handler, ...)
      return rawxpcall(f, function(e) return handler(as_failure(e)) end, ...)
    end

    local root = { name = nil, before = {}, after = {} }
    local frames = { root }
    local declared = {}
    local names = {}

    local function check(value, expected, what, fname)
      if type(value) ~= expected then
        error(fname .. ": " .. what .. " must be a " .. expected .. ", got " .. type(value), 3)
      end
    end

    local function full_name(name)
      if #frames == 1 then return name, nil end   -- top level: no groups
      local parts = {}
      for i = 2, #frames do parts[#parts + 1] = frames[i].name end
      parts[#parts + 1] = name
      return table.concat(parts, " "), { table.unpack(parts, 1, #parts - 1) }
    end

    local function declare(name, opts, fn, row, pending, has_row)
      local full, groups = full_name(name)
      local line = caller()
      if names[full] then
        error(string.format("duplicate scenario name %q (first declared at line %d); "
          .. "CI reporters drop duplicates, so give each scenario a unique name", full, names[full]), 3)
      end
      names[full] = line
      -- Only what a declaration has: every field crosses into Swift.
      declared[#declared + 1] = {
        name = full, groups = groups, line = line,
        opts = opts, fn = fn, row = row, has_row = has_row, pending = pending,
        frames = { table.unpack(frames) },
      }
    end

    function describe(name, fn)
      check(name, "string", "name", "describe(name, fn)")
      check(fn, "function", "fn", "describe(\"" .. name .. "\", fn)")
      frames[#frames + 1] = { name = name, before = {}, after = {} }
      fn()
      frames[#frames] = nil
    end

    function before_each(fn)
      check(fn, "function", "fn", "before_each(fn)")
      local frame = frames[#frames]
      frame.before[#frame.before + 1] = fn
    end

    function after_each(fn)
      check(fn, "function", "fn", "after_each(fn)")
      local frame = frames[#frames]
      frame.after[#frame.after + 1] = fn
    end

    function pending(name)
      check(name, "string", "name", "pending(name)")
      declare(name, {}, nil, nil, true)
    end

    local function split(opts, fn, fname)
      if fn == nil and type(opts) == "function" then opts, fn = nil, opts end
      if opts ~= nil then check(opts, "table", "options", fname) end
      check(fn, "function", "fn", fname)
      return opts, fn
    end

    local function scenario_call(_, name, opts, fn)
      check(name, "string", "name", "scenario(name, [options,] fn)")
      opts, fn = split(opts, fn, "scenario(\"" .. name .. "\", [options,] fn)")
      declare(name, opts, fn)
    end

    -- scenario.each(rows, name, [options,] fn): one scenario per row, named
    -- from the row: `$key` is replaced by row[key] and `$#` by the row number;
    -- a name without placeholders gets the row number appended.
    local function each(rows, name, opts, fn)
      check(rows, "table", "rows", "scenario.each(rows, name, [options,] fn)")
      check(name, "string", "name", "scenario.each(rows, name, [options,] fn)")
      opts, fn = split(opts, fn, "scenario.each(rows, \"" .. name .. "\", [options,] fn)")
      for index, row in ipairs(rows) do
        local label = name:gsub("%$#", tostring(index)):gsub("%$([%a_][%w_]*)", function(key)
          local value = nil
          if type(row) == "table" then value = row[key] end   -- `false` fills in too
          if value == nil then return "$" .. key end
          return tostring(value)
        end)
        if label == name then label = name .. " [" .. index .. "]" end
        declare(label, opts, fn, row, nil, true)
      end
    end

    scenario = setmetatable({ each = each }, { __call = scenario_call })

    -- A failed assert is a failure (an expectation), not an error.
    function assert(value, message, ...)
      if not value then
        failure(message == nil and "assertion failed!" or tostring(message))
      end
      return value, message, ...
    end

    -- Called by the runner after the file has run: every declaration with
    -- its hooks resolved (outermost before first, innermost after first),
    -- as a positional record (no field names to copy into Swift):
    -- { name, line, fn, opts, pending, groups, before, after [, row] },
    -- `false` for what a declaration does not have; `row` last, present
    -- only for scenario.each rows (a row may itself be `false`).
    local function collect()
      local records = {}
      for index, d in ipairs(declared) do
        local before, after = {}, {}
        for _, frame in ipairs(d.frames) do
          for _, h in ipairs(frame.before) do before[#before + 1] = h end
        end
        for i = #d.frames, 1, -1 do
          for _, h in ipairs(d.frames[i].after) do after[#after + 1] = h end
        end
        local record = { d.name, d.line, d.fn or false, d.opts or false, d.pending or false, d.groups or false,
                         before[1] and before or false, after[1] and after or false }
        if d.has_row then record[9] = d.row end
        records[index] = record
      end
      return records
    end

    return collect
    """#
}
