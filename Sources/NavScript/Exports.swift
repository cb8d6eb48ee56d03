// A host's one import: its verbs read their arguments and return values
// through the Lua bridge's safe types (`LuaCall`, `LuaValue`, `LuaTable`).
@_exported import NavScriptLua
