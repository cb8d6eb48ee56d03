import NavScript

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
        local write = ns.write            -- Swift: append text to the running scenario's output
        local asserted = ns.asserted      -- Swift: note that the running scenario checked something
        local misuse = ns.misuse          -- Swift: keep a wrong use whatever a pcall does; returns it with its place
        -- A wrong use of the language, raised at the user's line and kept whatever a pcall does with it.
        local function wrong(message) error(misuse(message), 0) end
        local random_seed = ns.random_seed -- Swift: math.random's seed: the running scenario's, or the file's while it loads
        local wrapped = ns.wrapped        -- C: whether a function is one coroutine.wrap made
        local note_coroutine = ns.note_coroutine -- C: a coroutine that declares is checked for a yield it stopped at
        local snapshot_module_tables = ns.snapshot_modules -- C: keeps what require reads, and the modules' tables
        local restore_module_tables = ns.restore_modules   -- C: puts them back as snapshot_modules kept them
        -- The library as it was: a scenario that defines a global `type` or
        -- `next` must not break the language's own functions.
        local type, next, select, tostring, tonumber, getmetatable, setmetatable, ipairs, error, pcall =
          type, next, select, tostring, tonumber, getmetatable, setmetatable, ipairs, error, pcall
        local format, find, mathtype = string.format, string.find, math.type
        local concat, sort, unpack, pack = table.concat, table.sort, table.unpack, table.pack
        local co_create, co_resume, co_status, co_close = coroutine.create, coroutine.resume, coroutine.status, coroutine.close

        -- What a pcall sees when an expectation fails inside it is the failure
        -- itself, a userdata made by Swift (no script can make one): it prints
        -- as its message and has `message`, `details` and `location`. (The
        -- scenario has failed already: Swift recorded the failure when it happened.)

        -- print (Swift) shows a table by its contents. A value with its own
        -- __tostring prints as tostring says, a table that contains itself,
        -- whose contents have no end (or too large to copy), as tostring
        -- does, and so does a userdata (a caught failure prints as its message).
        local show = print
        local function has_tostring(value)
          local mt = getmetatable(value)
          return type(mt) == "table" and mt.__tostring ~= nil
        end
        -- How many entries print's copy would read (a table held in several places counted in
        -- each, as the copy reads it), or nil when it cannot show them: a table that contains
        -- itself, deeper than print shows, holding a proxy or an object, or past 100,000 entries
        -- (as LuaState.maxValues bounds a copy of shared sub-tables). Each table is sized once,
        -- so a table of shared sub-tables is measured at once, not walked path by path.
        local function size(value, open, sizes, depth)
          if type(value) ~= "table" then return 0 end
          local known = sizes[value]
          if known then return known end
          if open[value] or depth > 100 then return nil end
          local mt = getmetatable(value)
          if mt ~= nil and mt ~= "navscript.record" then return nil end   -- a record navscript returned: its fields
          open[value] = true
          local total = 0
          for key, item in next, value do
            local of_key, of_item = size(key, open, sizes, depth + 1), nil
            if of_key then of_item = size(item, open, sizes, depth + 1) end
            if not of_item then return nil end
            total = total + 1 + of_key + of_item
            if total > 100000 then return nil end
          end
          open[value] = nil
          sizes[value] = total
          return total
        end
        function print(...)
          local count, values = select("#", ...), { ... }
          for index = 1, count do
            local value = values[index]
            if type(value) == "table" then
              -- A table with a metatable (a proxy, an object), or one holding such a table, is
              -- shown as tostring shows it: its raw contents are not what it stands for.
              if not size(value, {}, {}, 0) then values[index] = tostring(value) end
            elseif type(value) == "userdata" then
              values[index] = tostring(value)
            end
          end
          return show(unpack(values, 1, count))
        end

        -- io.write and the standard streams write where print does: a worker's
        -- own stdout is not the terminal (nothing written there was reported),
        -- and in process it would land between the report's lines.
        local function stream(name)
          local file = {}
          function file.write(self, ...)
            for index = 1, select("#", ...) do
              local value = select(index, ...)
              if type(value) ~= "string" and type(value) ~= "number" then
                wrong("bad argument #" .. index .. " to '" .. name .. "' (string expected, got " .. type(value) .. ")")
              end
              write(tostring(value))
            end
            return self
          end
          function file.flush(self) return self end
          function file.setvbuf() return true end
          return setmetatable(file, { __name = "FILE*", __tostring = function() return "file (" .. name .. ")" end })
        end
        io.stdout, io.stderr = stream("write"), stream("write")
        function io.write(...) return io.stdout:write(...) end

        -- warn, as Lua's: off until warn("@on"), a message of its pieces after that — written where
        -- print writes (Lua's goes to the process's stderr, which no report kept).
        local warnings_on = false
        function warn(first, ...)
          local count, pieces = select("#", ...) + 1, { first, ... }
          for index = 1, count do
            if type(pieces[index]) ~= "string" then
              wrong("bad argument #" .. index .. " to 'warn' (string expected, got " .. type(pieces[index]) .. ")")
            end
          end
          if count == 1 and first:sub(1, 1) == "@" then
            if first == "@on" then warnings_on = true elseif first == "@off" then warnings_on = false end
            return
          end
          if warnings_on then write("Lua warning: " .. concat(pieces) .. "\n") end
        end

        local root = { name = nil, before = {}, after = {} }
        local frames = { root }
        local top_level = { root }     -- the frames of every top-level declaration (shared: it never changes)
        local declared = {}            -- the positional records collect() returns, in declaration order
        local declared_frames = {}     -- each record's enclosing frames, whose hooks collect() resolves
        local has_hooks = false        -- no before_each/after_each at all: nothing to resolve
        local names = {}
        local collected = false        -- the runner has the declarations: scenarios are running

        -- A declaration or a hook made while scenarios run would be dropped
        -- without a word (the runner collected the file's declarations before
        -- running the first): it is an error at the user's line instead, kept
        -- whatever a pcall does.
        local function while_running(what)
          if collected then
            wrong(what .. " inside a running scenario does nothing: declare scenarios and hooks at the top level "
              .. "of the file or inside describe()")
          end
        end

        -- A wrong type is the user's mistake, at the user's line (`wrong` finds it).
        local function check(value, expected, what, fname)
          if type(value) ~= expected then
            wrong(fname .. ": " .. what .. " must be a " .. expected .. ", got " .. type(value))
          end
        end

        -- A function coroutine.wrap made returns at its coroutine's first yield, which navscript would
        -- take for the end of the body: what comes after the yield would never run, and pass.
        local function plain(fn, call)
          if wrapped(fn) then
            wrong(call .. ": fn is a function coroutine.wrap made; it returns at its first yield, so the rest "
              .. "of it would never run: pass a plain function (function() … end)")
          end
        end

        local function full_name(name)
          if #frames == 1 then return name, nil end   -- top level: no groups
          local parts = {}
          for i = 2, #frames do parts[#parts + 1] = frames[i].name end
          parts[#parts + 1] = name
          return concat(parts, " "), { unpack(parts, 1, #parts - 1) }
        end

        -- A blank name cannot be told apart in a report, nor selected again with --filter.
        local function named(name, call)
          if not find(name, "%S") then
            wrong(call .. ": the name is " .. (name == "" and "empty" or "only blanks")
              .. "; give it a name that says what it checks, as reports and --filter show it")
          end
        end

        -- Whether a table, or one inside it (a few levels down), has a metatable: the runner reads the
        -- options as they are, so what an __index gives (shared defaults) would be lost without a word.
        local function proxied(t, depth)
          if getmetatable(t) ~= nil then return true end
          if depth >= 4 then return false end
          for _, value in next, t do
            if type(value) == "table" and proxied(value, depth + 1) then return true end
          end
          return false
        end

        local function declare(name, opts, fn, row, pending, has_row)
          if collected then while_running(format("%s(%q)", pending and "pending" or "scenario", name)) end
          note_coroutine()
          if type(opts) == "table" and proxied(opts, 1) then
            wrong(format("scenario(%q, options, fn): the options are (or hold) a table with a metatable; what its "
              .. "__index gives (tags, launch options, allow) is not read, so the scenario would run without it: pass "
              .. "plain tables (copy shared defaults in: for k, v in pairs(defaults) do options[k] = v end)", name))
          end
          if fn and not pending and wrapped(fn) then plain(fn, format("scenario(%q, fn)", name)) end
          -- (A blank name is refused by the runner as it reads the declarations: cheaper there.)
          local full, groups = full_name(name)
          local line = caller()
          if names[full] then
            wrong(format("duplicate scenario name %q (first declared at line %d); "
              .. "CI reporters drop duplicates, so give each scenario a unique name", full, names[full]))
          end
          names[full] = line
          -- Positional, as collect() returns it (see there); hooks are filled in then.
          local record = { full, line, fn or false, opts or false, pending or false, groups or false, false, false }
          if has_row then record[9] = row end
          local index = #declared + 1
          declared[index] = record
          declared_frames[index] = #frames == 1 and top_level or { unpack(frames) }
        end

        function describe(name, fn, ...)
          check(name, "string", "name", "describe(name, fn)")
          if type(fn) == "table" and type((...)) == "function" then   -- describe(name, { tags = … }, fn)
            wrong("describe(\"" .. name .. "\", options, fn): describe takes no options; give them to each scenario "
              .. "inside it (scenario(name, { tags = { … } }, fn))")
          end
          check(fn, "function", "fn", "describe(\"" .. name .. "\", fn)")
          named(name, "describe(name, fn)")
          plain(fn, "describe(\"" .. name .. "\", fn)")
          if select("#", ...) > 0 then
            wrong("describe(\"" .. name .. "\", fn): fn must come last, got " .. select("#", ...) .. " more argument"
              .. (select("#", ...) == 1 and "" or "s") .. " after it (options go on each scenario)")
          end
          while_running(format("describe(%q)", name))
          -- Each level is two nested calls, and Lua stops at 200 with a bare "C stack overflow".
          if #frames > 40 then
            wrong(format("describe(%q): describe blocks nested more than 40 deep; a report cannot show such a "
              .. "name either: flatten the groups (a longer name, or tags)", name))
          end
          frames[#frames + 1] = { name = name, before = {}, after = {} }
          local depth = #frames
          -- The body runs as a coroutine so that the group ends here whatever it did: a yield
          -- (resumed later, its declarations would land in whatever group is open then) or an
          -- error a pcall catches must not leave the declarations after it inside the group.
          local body = co_create(fn)
          local results = pack(co_resume(body))
          local yielded = co_status(body) == "suspended"
          if yielded then co_close(body) end
          for level = #frames, depth, -1 do frames[level] = nil end
          if yielded then
            wrong(format("describe(%q, fn): fn yielded; a group is declared in one go, so yield outside "
              .. "describe", name))
          end
          if not results[1] then
            -- Kept whatever a pcall around describe does: the group's scenarios after the error were
            -- never declared, and a file that loaded without them was green without a word.
            local raised = results[2]
            misuse(format("describe(%q): its body raised an error, so the scenarios after that point were never "
              .. "declared: %s", name, type(raised) == "string" and raised or "a " .. type(raised) .. " value"))
            error(raised, 0)
          end
        end

        function before_each(fn)
          check(fn, "function", "fn", "before_each(fn)")
          plain(fn, "before_each(fn)")
          while_running("before_each()")
          note_coroutine()
          has_hooks = true
          local frame = frames[#frames]
          frame.before[#frame.before + 1] = fn
        end

        function after_each(fn)
          check(fn, "function", "fn", "after_each(fn)")
          plain(fn, "after_each(fn)")
          while_running("after_each()")
          note_coroutine()
          has_hooks = true
          local frame = frames[#frames]
          frame.after[#frame.after + 1] = fn
        end

        -- pending(name, [options,] [fn]) is accepted as busted accepts pending(name, fn): a scenario
        -- being written is parked by renaming `scenario` to `pending` (fn is not run, options are kept
        -- for its tags). Anything else after the name is a mistake.
        function pending(name, ...)
          check(name, "string", "name", "pending(name)")
          local count, opts, fn = select("#", ...), ...
          if type(opts) == "function" then opts, fn, count = nil, opts, count + 1 end   -- pending(name, fn, …)
          local extra = count - 2
          if (opts ~= nil and type(opts) ~= "table") or (fn ~= nil and type(fn) ~= "function") or extra > 0 then
            local got = opts ~= nil and type(opts) ~= "table" and "a " .. type(opts)
              or fn ~= nil and type(fn) ~= "function" and "a " .. type(fn) .. " where fn goes"
              or extra .. " more argument" .. (extra == 1 and "" or "s") .. " after fn"
            wrong("pending(\"" .. name .. "\"): takes the name, and as a scenario would, optionally options and fn (not run); got "
              .. got)
          end
          declare(name, opts or {}, nil, nil, true)
        end

        -- `call` and `name` spell the call in a message (`scenario("name", [options,] fn)`),
        -- built only for a mistake, not for every declaration.
        local function split(opts, fn, call, name)
          if type(opts) == "function" and fn ~= nil then
            wrong(call .. "\"" .. name .. "\", [options,] fn): fn must come last, got a " .. type(fn) .. " after it")
          end
          if fn == nil and type(opts) == "function" then opts, fn = nil, opts end
          -- Level 4: check, split, scenario or scenario.each, then the user's line.
          if opts ~= nil and type(opts) ~= "table" then
            check(opts, "table", "options", call .. "\"" .. name .. "\", [options,] fn)")
          end
          if fn == nil and opts ~= nil then
            -- A table alone is read as the options: say that, not "got nil" (a callable table is not a body).
            wrong(call .. "\"" .. name .. "\", [options,] fn): fn is missing: the table given was taken as the options; "
              .. "the body must be a function (for a callable table t, pass function() t() end)")
          end
          if type(fn) ~= "function" then check(fn, "function", "fn", call .. "\"" .. name .. "\", [options,] fn)") end
          return opts, fn
        end

        -- Nothing may follow fn: an argument there was meant for something.
        local function nothing_after(count, call, name)
          if count > 0 then
            wrong(call .. "\"" .. name .. "\", [options,] fn): fn must come last, got " .. count .. " more argument"
              .. (count == 1 and "" or "s") .. " after it")
          end
        end

        local function scenario_call(_, name, opts, fn, ...)
          -- The usual form, scenario(name, fn), without the general path's checks and calls
          -- (each a call under the budget hook, for every declaration of every file).
          if fn == nil and type(opts) == "function" and type(name) == "string" and select("#", ...) == 0 then
            declare(name, nil, opts)
            return
          end
          check(name, "string", "name", "scenario(name, [options,] fn)")
          opts, fn = split(opts, fn, "scenario(", name)
          nothing_after(select("#", ...), "scenario(", name)
          declare(name, opts, fn)
        end

        -- A row value as a scenario's name shows it: the same in every run
        -- (tostring of a table or function is an address, which a replay
        -- command could never select again).
        local function spelled(value, depth)
          depth = depth or 0
          local kind = type(value)
          if kind == "string" then return depth > 0 and format("%q", value) or value end
          if kind ~= "table" then return kind == "function" and "function" or tostring(value) end
          if depth >= 4 then return "{…}" end
          local parts, keys, count = {}, {}, #value
          for index = 1, count do parts[#parts + 1] = spelled(value[index], depth + 1) end
          for key in next, value do
            if not (mathtype(key) == "integer" and key >= 1 and key <= count) then keys[#keys + 1] = key end
          end
          -- A stable order: numbers, then strings, each by value (tostring of a table key is an address).
          sort(keys, function(a, b)
            local ta, tb = type(a), type(b)
            if ta ~= tb then return ta < tb end
            if ta == "number" or ta == "string" then return a < b end
            return false
          end)
          for _, key in ipairs(keys) do
            local shown = type(key) == "string" and key:match("^[%a_][%w_]*$") and key or "[" .. spelled(key, depth + 1) .. "]"
            parts[#parts + 1] = shown .. " = " .. spelled(value[key], depth + 1)
          end
          return "{" .. concat(parts, ", ") .. "}"
        end

        -- A scenario.each name with its placeholders filled from `row`: `$key` and `${key}`
        -- (row[key]; braces when letters follow), `${1}` (row[1], for rows given as lists: braces
        -- only, so an amount such as `$10` stays as written), `$#` (the row number), `$$` (a dollar
        -- sign). A `$` before anything else stays as it is.
        -- A placeholder the row does not fill is a typo ($tba) or a missing column: an error.
        -- Returns the label and whether anything in it came from the row (or its number).
        local function fill(name, row, index)
          local parts, position, filled = {}, 1, false
          while true do
            local at = find(name, "$", position, true)
            if not at then break end
            parts[#parts + 1] = name:sub(position, at - 1)
            local key, stop
            local next_char = name:sub(at + 1, at + 1)
            if next_char == "$" then
              parts[#parts + 1], stop = "$", at + 1
            elseif next_char == "#" then
              parts[#parts + 1], stop = tostring(index), at + 1
            elseif next_char == "{" then
              local close = find(name, "}", at + 2, true)
              local inner = close and name:sub(at + 2, close - 1)
              if inner and (inner:match("^[%a_][%w_]*$") or inner:match("^%d+$")) then key, stop = inner, close end
            else
              local word = name:match("^[%a_][%w_]*", at + 1)
              if word then key, stop = word, at + #word end
            end
            if key then
              local item = key:match("^%d") and tonumber(key)   -- $1: a row given as a list
              if type(row) ~= "table" then
                wrong(format("scenario.each(rows, %q, …): row %d is a %s, but the name reads its %s $%s; "
                  .. "give each row as a table ({ %s })", name, index, type(row), item and "item" or "field", key,
                  item and "…" or key .. " = …"))
              end
              local value = row[item or key]   -- `false` fills in too
              if value == nil then
                wrong(format("scenario.each(rows, %q, …): row %d has no %s for $%s in the name; give every row "
                  .. "that %s, or take $%s out of the name", name, index,
                  item and format("item %d", item) or format("field %q", key), key, item and "item" or "field", key))
              end
              parts[#parts + 1], filled = spelled(value), true
            elseif next_char == "#" then
              filled = true
            elseif not stop then
              parts[#parts + 1], stop = "$", at
            end
            position = stop + 1
          end
          parts[#parts + 1] = name:sub(position)
          return concat(parts), filled
        end

        -- scenario.each(rows, name, [options,] fn): one scenario per row, named
        -- from the row: `$key` is replaced by row[key] and `$#` by the row number;
        -- a name without placeholders gets the row number appended.
        local function each(rows, name, opts, fn, ...)
          check(rows, "table", "rows", "scenario.each(rows, name, [options,] fn)")
          check(name, "string", "name", "scenario.each(rows, name, [options,] fn)")
          named(name, "scenario.each(rows, name, [options,] fn)")
          opts, fn = split(opts, fn, "scenario.each(rows, ", name)
          nothing_after(select("#", ...), "scenario.each(rows, ", name)
          -- While scenarios run, that is what is wrong, whatever the rows.
          while_running(format("scenario.each(rows, %q, …)", name))
          -- No row would declare nothing, without a word: a data table that came out
          -- empty, or rows given by name (ipairs sees only a list).
          if rows[1] == nil then
            if next(rows) == nil then
              wrong(format("scenario.each(rows, %q, …): rows is empty, so no scenario would be declared; "
                .. "give at least one row", name))
            end
            wrong(format("scenario.each(rows, %q, …): rows must be a list starting at rows[1] ({ row, row, … }); "
              .. "this one has no rows[1], so no scenario would be declared", name))
          end
          -- A hole further on (`{ a, nil, c }`) would drop every row after it the same way.
          local count = 0
          while rows[count + 1] ~= nil do count = count + 1 end
          for key in next, rows do
            if mathtype(key) == "integer" and key > count then
              wrong(format("scenario.each(rows, %q, …): rows has a hole: rows[%d] is nil but rows[%d] is not, so the "
                .. "rows after the hole would be dropped; give the rows as a list without nil", name, count + 1, key))
            end
            -- A row under a name beside the list (`{ a, b, extra = c }`): ipairs never sees it. (A
            -- table.pack's `n`, the list's length, is not a row.)
            if (mathtype(key) ~= "integer" or key < 1) and not (key == "n" and rows.n == count) then
              wrong(format("scenario.each(rows, %s, …): rows has an entry under the key %s beside its list of %d, "
                .. "so that row would be dropped (rows are read as a list); put it in the list", format("%q", name),
                type(key) == "string" and format("%q", key) or tostring(key), count))
            end
          end
          for index, row in ipairs(rows) do
            -- A row crosses to the runner and back as its fields: what a metatable's __index gave (shared
            -- defaults) filled the name but not the row the body got, which checked nothing under that name.
            if type(row) == "table" and proxied(row, 1) then
              wrong(format("scenario.each(rows, %q, …): row %d is (or holds) a table with a metatable; the body gets "
                .. "its own fields only, so what its __index gives would name the scenario but never reach it: pass plain "
                .. "tables (copy shared defaults into each row)", name, index))
            end
            -- The row as declared: changed afterwards (`rows[1].tab = "orders"`), its scenario would run
            -- with one row under the name of another.
            if type(row) == "table" then
              local copy = {}
              for key, value in next, row do copy[key] = value end
              row = copy
            end
            local label, filled = fill(name, row, index)
            if not filled then label = label .. " [" .. index .. "]" end
            if not find(label, "%S") then
              wrong(format("scenario.each(rows, %q, …): row %d names its scenario %q, which is blank; give every row a "
                .. "value that names it, or put words around the placeholder", name, index, label))
            end
            declare(label, opts, fn, row, nil, true)
          end
        end

        -- scenario is a function with a field: a table nothing can change (scenario.each = …
        -- or its metatable's __call replaced would drop declarations without a word).
        scenario = setmetatable({}, {
          __index = { each = each },
          __call = scenario_call,
          __newindex = function(_, name)
            wrong(format("scenario.%s cannot be set: scenario and scenario.each are the language's; "
              .. "give your function another name", tostring(name)))
          end,
          __metatable = "scenario is navscript's",
        })

        -- math.random draws the same numbers in every run of a scenario — alone (a replay of a
        -- failure) or in its suite, whatever ran before it: seeded from the scenario's file and
        -- name on its first draw. math.randomseed(n) in a scenario seeds it as the scenario says.
        do
          local random, randomseed = math.random, math.randomseed
          local seeded   -- the seed of the scenario the generator was last seeded for
          function math.random(...)
            local seed = random_seed()
            if seed ~= nil and seed ~= seeded then seeded = seed randomseed(seed) end
            return random(...)
          end
          function math.randomseed(...)
            seeded = random_seed()
            return randomseed(...)
          end
        end

        -- A failed assert is a failure (an expectation), not an error.
        -- The failure is recorded whatever its message does: one that cannot be shown (a
        -- __tostring, __len or __index that raises or yields) is said as such, not left to raise
        -- an ordinary error a pcall would swallow with the failure.
        local function shown(message)
          if type(message) == "table" and not has_tostring(message) then
            return spelled(message)   -- its contents, not an address
          end
          return tostring(message)
        end
        function assert(value, message, ...)
          if not value then
            local text = "assertion failed!"
            if message ~= nil then
              local ok, said = pcall(shown, message)
              if ok and type(said) == "string" then
                text = said
              else
                -- (An error inside this prelude is placed at its own line: that place says nothing to a reader.)
                text = "assertion failed (its message could not be shown: "
                  .. (type(said) == "string" and (said:gsub("^navscript:%d+: ", "")) or "its error is not a string") .. ")"
              end
            end
            failure(text)
          end
          asserted()
          return value, message, ...
        end

        -- in_scene(n, fn): fn's verbs and observers act on window n; the window they
        -- acted on before is restored after fn, also when fn fails or errors. Acting
        -- on a window is no focus: the app's foreground window stays as it was.
        -- fn runs as a coroutine of its own: a yield inside it would leave the window
        -- acting after in_scene returned, so it is an error instead.
        local act_in_scene = ns.act_in_scene
        function in_scene(n, fn, ...)
          if mathtype(n) ~= "integer" then
            wrong("bad argument #1 to 'in_scene' (a scene number, an integer, expected; got "
              .. (type(n) == "number" and tostring(n) or type(n)) .. ")")
          end
          if type(fn) ~= "function" then
            wrong("bad argument #2 to 'in_scene' (a function expected, got " .. type(fn) .. ")")
          end
          if select("#", ...) > 0 then wrong("in_scene(n, fn) takes no more arguments") end
          plain(fn, "in_scene(" .. n .. ", fn)")
          local previous, problem = act_in_scene(n)
          if problem then wrong(problem) end
          local body = co_create(fn)
          local results = pack(co_resume(body))
          local yielded = co_status(body) == "suspended"
          if yielded then co_close(body) end
          act_in_scene(previous, true)
          if yielded then
            wrong("in_scene(" .. n .. ", fn): fn yielded; the window it acts on cannot be kept across a yield, "
              .. "so yield outside in_scene")
          end
          if not results[1] then error(results[2], 0) end
          return unpack(results, 2, results.n)
        end

        -- Called by the runner after the file has run: every declaration with
        -- its hooks resolved (outermost before first, innermost after first),
        -- as a positional record (no field names to copy into Swift):
        -- { name, line, fn, opts, pending, groups, before, after [, row] },
        -- `false` for what a declaration does not have; `row` last, present
        -- only for scenario.each rows (a row may itself be `false`).
        -- While the file loads, an error a pcall caught after scenarios were declared inside it cut the
        -- declarations short: the ones after the error were never made, and the file ran green without
        -- them. Kept as the file's error whatever the pcall returns (describe says the same of its body).
        local raw_pcall, raw_xpcall = pcall, _ENV.xpcall
        -- A pcall at one line that declares at some calls and at another caught an error before it
        -- declared anything (a row per call, one row's data broken) lost that call's scenario just as
        -- silently: each line's calls are remembered, and the second kind of call is the file's error.
        local sites = {}
        local function cut_short(results, before, line, what)
          if collected then return unpack(results, 1, results.n) end
          local raised = results[2]
          local text = type(raised) == "string" and raised or "a " .. type(raised) .. " value"
          if not results[1] and #declared > before then
            misuse(format("%s caught an error raised after %d scenario%s declared inside it, so the "
              .. "declarations after that point were never made: %s", what, #declared - before,
              #declared - before == 1 and " was" or "s were", text))
          elseif line then
            local site = sites[line] or {}
            sites[line] = site
            if #declared > before then site.declared = true end
            if not results[1] then site.lost = site.lost or text end
            if site.declared and site.lost and not site.said then
              site.said = true
              misuse(format("this %s declares scenarios at some calls, but at another it caught an error before "
                .. "declaring any, so that call's scenarios were never made: %s; fix what it read, or declare the "
                .. "scenario outside it (one that cannot run yet: pending(name))", what == "a pcall" and "pcall" or what,
                site.lost))
            end
          end
          return unpack(results, 1, results.n)
        end
        -- (Assigned through _ENV: `pcall` is a local of this chunk, kept as Lua's for the prelude's own use.)
        _ENV.pcall = function(f, ...)
          if collected then return raw_pcall(f, ...) end
          local before, line = #declared, caller()
          return cut_short(pack(raw_pcall(f, ...)), before, line, "a pcall")
        end
        _ENV.xpcall = function(f, handler, ...)
          if collected then return raw_xpcall(f, handler, ...) end
          local before, line = #declared, caller()
          return cut_short(pack(raw_xpcall(f, handler, ...)), before, line, "a pcall")
        end
        -- coroutine.resume catches a coroutine's error as a pcall does (`coroutine.wrap` raises it).
        coroutine.resume = function(co, ...)
          if collected then return co_resume(co, ...) end
          local before, line = #declared, caller()
          return cut_short(pack(co_resume(co, ...)), before, line, "coroutine.resume")
        end
        -- So does coroutine.close, of an error in a __close handler. And it is counted: Lua 5.4.4
        -- does not count a close that runs a __close handler that closes another coroutine against
        -- its C-stack limit (fixed in 5.4.5), so 20,000 of them nested overflowed the process's stack.
        local closing = 0
        coroutine.close = function(co)
          if closing >= 100 then
            error("C stack overflow: coroutine.close nested 100 deep (a __close handler closing another coroutine "
              .. "whose handler closes the next…); close them one after another instead", 2)
          end
          local before, line = #declared, not collected and caller() or nil
          closing = closing + 1
          local results = pack(pcall(co_close, co))
          closing = closing - 1
          if not results[1] then error(results[2], 2) end  -- closing a running coroutine, a wrong argument
          results = pack(unpack(results, 2, results.n))
          if collected then return unpack(results, 1, results.n) end
          return cut_short(results, before, line, "coroutine.close")
        end

        -- Set below, with the globals' protection: what `require` reads is put back as the file's
        -- top level left it (snapshot_modules before the first scenario, restore_modules before each
        -- later one). The runner calls them: a file whose one scenario runs needs neither.
        local snapshot_modules, restore_modules
        local function collect()
          collected = true
          if not has_hooks then return declared, snapshot_modules, restore_modules end
          for index, record in ipairs(declared) do
            local enclosing, before, after = declared_frames[index], {}, {}
            for _, frame in ipairs(enclosing) do
              for _, h in ipairs(frame.before) do before[#before + 1] = h end
            end
            for i = #enclosing, 1, -1 do
              for _, h in ipairs(enclosing[i].after) do after[#after + 1] = h end
            end
            record[7], record[8] = before[1] and before or false, after[1] and after or false
          end
          return declared, snapshot_modules, restore_modules
        end

        -- The language's and Lua's own globals cannot be replaced: a scenario that set
        -- expect_screen (or assert) to a function that checks nothing passed, and so did every
        -- scenario after it in its file. They move to a table _G reads through; assigning one is
        -- an error at the line that tried. The file's own globals are the file's, as before.
        do
          local builtins, rawset, rawget, rawequal, G = {}, rawset, rawget, rawequal, _G
          for name, value in next, G do builtins[name] = value end
          for name in next, builtins do rawset(G, name, nil) end
          local function refuse(name, value, library)
            local own = format("%s is one of the scenario language's (or Lua's) own %s", tostring(name),
              type(library) == "string" and library or library and "library functions" or "globals")
            if value == nil then
              wrong(own .. " and cannot be removed: every scenario after this one would run without it")
            end
            wrong(format("%s and cannot be replaced: every scenario after this one would run with yours; "
              .. "give your %s another name, or keep it local", own, type(value)))
          end
          local language_table = builtins.scenario
          -- Nor can the functions of Lua's libraries (string.find, math.random, table.insert…):
          -- one scenario's replacement ran every later scenario of the file, which then passed in
          -- its file and failed alone. They move to a table each library reads through; a new
          -- field (a helper of the file's own, string.trim) is the file's, as before.
          local library_fields = {}
          for _, name in ipairs{ "string", "table", "math", "utf8", "coroutine", "os", "io" } do
            local library, fields = builtins[name], {}
            for key, value in next, library do fields[key] = value end
            for key in next, fields do rawset(library, key, nil) end
            library_fields[library] = { name = name, fields = fields }
            setmetatable(library, {
              __index = fields,
              __newindex = function(table, key, value)
                if fields[key] ~= nil then refuse(name .. "." .. tostring(key), value, true) end
                rawset(table, key, value)
              end,
              __pairs = function(table)
                local all = {}
                for key, value in next, fields do all[key] = value end
                for key, value in next, table do all[key] = value end
                return next, all, nil
              end,
              __metatable = name .. " is navscript's",
            })
          end
          -- Nor what `require` reads: a stub one scenario put in package.preload, package.loaded or
          -- package.searchers for a support module ran every later scenario of the file, which then
          -- passed in its file and failed alone. package's fields cannot be replaced (package.path,
          -- which no searcher reads, can); the three
          -- tables cannot take a metatable, and their contents are put back as the file's top level
          -- left them before each scenario (a module first required inside a scenario is loaded
          -- afresh in the next one).
          local package, getmetatable = builtins.package, getmetatable
          local package_index = getmetatable(package).__index  -- the sandbox's (package.path)
          local package_fields = {}
          for key, value in next, package do package_fields[key] = value end
          for key in next, package_fields do rawset(package, key, nil) end
          setmetatable(package, {
            __index = function(table, key)
              local value = package_fields[key]
              if value ~= nil then return value end
              return package_index(table, key)
            end,
            __newindex = function(table, key, value)
              if package_fields[key] ~= nil then refuse("package." .. tostring(key), value, "library fields") end
              rawset(table, key, value)
            end,
            __pairs = function(table)
              local all = { path = package_index(table, "path") }
              for key, value in next, package_fields do all[key] = value end
              for key, value in next, table do all[key] = value end
              return next, all, nil
            end,
            __metatable = "package is navscript's",
          })
          local module_tables = { package_fields.loaded, package_fields.preload, package_fields.searchers }
          for _, name in ipairs{ "loaded", "preload", "searchers" } do
            setmetatable(package_fields[name], { __metatable = "package." .. name .. " is navscript's" })
          end
          local module_snapshots = {}
          -- Each loaded module's tables too — its fields, the tables in them and their metatables, as
          -- deep as they go (100,000 entries in all) — what `m.check = stub`, `m.config.strict = false`
          -- or a new metatable replaces; and a library's fields the file added (string.trim). One
          -- scenario's stub of a support module the top level loaded ran every later scenario, which
          -- passed in its file and failed alone. (A module's local variables are out of reach: state
          -- its functions keep in upvalues is the module's own, as an app's singletons are.)
          -- And the file's own local variables, which its scenarios and hooks hold as upvalues (`local
          -- helpers = {}` at the top, one scenario's `helpers.check = stub`): put back the same way.
          local field_snapshots, metatable_snapshots, upvalue_snapshots = {}, {}, {}
          snapshot_modules = function()
            local functions = {}
            for _, record in ipairs(declared) do
              if type(record[3]) == "function" then functions[#functions + 1] = record[3] end
              for slot = 7, 8 do
                if record[slot] then
                  for _, hook in ipairs(record[slot]) do functions[#functions + 1] = hook end
                end
              end
            end
            module_snapshots, field_snapshots, metatable_snapshots, upvalue_snapshots =
              snapshot_module_tables(module_tables, package, G, library_fields, functions)
          end
          restore_modules = function()
            restore_module_tables(module_tables, module_snapshots, metatable_snapshots, field_snapshots, upvalue_snapshots)
          end
          -- Strings read their methods through this metatable: it is Lua's, kept as it is.
          rawset(getmetatable(""), "__metatable", "the string metatable is navscript's")
          builtins.rawset = function(table, name, value)
            if type(table) ~= "table" then  -- Lua's own error, at the script's line (not at one of navscript's)
              error(format("bad argument #1 to 'rawset' (table expected, got %s)", type(table) == "nil" and "no value" or type(table)), 2)
            end
            if rawequal(table, G) and builtins[name] ~= nil then refuse(name, value) end
            if rawequal(table, language_table) then refuse("scenario." .. tostring(name), value) end
            local library = library_fields[table]
            if library and library.fields[name] ~= nil then refuse(library.name .. "." .. tostring(name), value, true) end
            if rawequal(table, package) and package_fields[name] ~= nil then
              refuse("package." .. tostring(name), value, "library fields")
            end
            return rawset(table, name, value)
          end
          setmetatable(G, {
            __index = builtins,
            __newindex = function(table, name, value)
              if builtins[name] ~= nil then refuse(name, value) end
              rawset(table, name, value)
            end,
            __pairs = function(table)   -- every global, the language's included
              local all = {}
              for name, value in next, builtins do all[name] = value end
              for name, value in next, table do all[name] = value end
              return next, all, nil
            end,
            __metatable = "the global table is navscript's",
          })
        end

        return collect
        """#
}
