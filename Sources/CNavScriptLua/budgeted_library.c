/* Standard library functions whose work runs inside one C call, where the count hook never fires:
   string.rep("", math.maxinteger) turns its loop forever copying nothing, table.move({}, 1, 1e12, 2)
   moves a trillion nils, a sort, a long unpack or utf8.len of megabytes take as long as they take.
   Each is wrapped: its work is counted against the instruction budget first (or skipped when it
   produces nothing), then the standard function does it. The patterns are in patterns.c. */

#include <limits.h>
#include <string.h>

#include "navscript_lua.h"

/* Runs the original (upvalue 1) on the wrapper's own arguments, in the wrapper's frame: called
   through lua_call, its argument errors named the function '?' (a function called from C has no
   name), `bad argument #2 to '?'`. The standard functions wrapped here read no upvalues of their
   own, and the wrappers leave the arguments as they found them. */
static int clua_call_original(lua_State *L) {
    lua_CFunction original = lua_tocfunction(L, lua_upvalueindex(1));
    clua_check_limits(L);
    if (original != NULL) return original(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/* string.rep(s, n [, sep]): n copies of an empty string and an empty separator are "" at once. */
static int clua_rep(lua_State *L) {
    size_t length, separator = 0;
    lua_Integer n;
    luaL_checklstring(L, 1, &length);
    n = luaL_checkinteger(L, 2);
    luaL_optlstring(L, 3, "", &separator);
    if (n > 0 && length == 0 && separator == 0) {
        lua_pushliteral(L, "");
        return 1;
    }
    return clua_call_original(L);
}

/* table.move(a1, f, e, t [, a2]): one instruction of budget per element moved. */
static int clua_move(lua_State *L) {
    lua_Integer first = luaL_checkinteger(L, 2);
    lua_Integer last = luaL_checkinteger(L, 3);
    if (last >= first) {
        lua_Unsigned count = (lua_Unsigned)last - (lua_Unsigned)first + 1u;
        clua_budget_charge(L, count > (lua_Unsigned)LLONG_MAX ? LLONG_MAX : (long long)count, "table.move");
    }
    return clua_call_original(L);
}

/* Floor of log2(n) + 1: the comparisons per element a sort makes. */
static long long clua_log2(lua_Unsigned n) {
    long long bits = 1;
    while (n > 1) { n >>= 1; bits++; }
    return bits;
}

/* table.sort(t [, comp]): n log n comparisons, which with the default `<` run no instruction. */
static int clua_sort(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Unsigned n = (lua_Unsigned)lua_rawlen(L, 1);
    if (n > 1) clua_budget_charge(L, (long long)n * clua_log2(n), "table.sort");
    return clua_call_original(L);
}

/* table.insert(t, pos, v) and table.remove(t, pos): one instruction per element shifted. */
static int clua_shift(lua_State *L) {
    if (lua_type(L, 1) == LUA_TTABLE && lua_isinteger(L, 2)) {
        lua_Integer length = (lua_Integer)lua_rawlen(L, 1);
        lua_Integer at = lua_tointeger(L, 2);
        if (at >= 1 && at <= length) clua_budget_charge(L, (long long)(length - at + 1), "shifting a table's elements");
    }
    return clua_call_original(L);
}

/* A position in a string of `length` as Lua's string functions read it (negative: from the end). */
static lua_Integer clua_position(lua_Integer position, size_t length) {
    if (position >= 0) return position;
    if ((size_t)-position > length) return 0;
    return (lua_Integer)length + position + 1;
}

/* The range [i, j] of the string argument a function works on: `j_default` of 0 means i (one
   position), -1 the string's end. One instruction per `bytes_per` bytes of it, from 1,024 bytes on. */
static void clua_charge_range(lua_State *L, lua_Integer j_default, int bytes_per, const char *what) {
    size_t length = 0;
    lua_Integer first, last;
    if (lua_type(L, 1) != LUA_TSTRING) return;
    lua_tolstring(L, 1, &length);
    first = clua_position(lua_isinteger(L, 2) ? lua_tointeger(L, 2) : 1, length);
    last = lua_isinteger(L, 3) ? lua_tointeger(L, 3) : (j_default == 0 ? first : j_default);
    last = clua_position(last, length);
    if (last > (lua_Integer)length) last = (lua_Integer)length;
    if (first < 1) first = 1;
    if (last - first + 1 >= 1024) clua_budget_charge(L, (long long)((last - first + 1) / bytes_per), what);
}

/* string.byte(s, i, j) and utf8.codepoint(s, i, j): a value per byte or character of the slice. */
static int clua_slice(lua_State *L) {
    clua_charge_range(L, 0, 8, "reading a long slice of a string");
    return clua_call_original(L);
}

/* utf8.len(s, i, j): a scan of the range (all of the string by default). */
static int clua_utf8_len(lua_State *L) {
    clua_charge_range(L, -1, 32, "scanning a long string");
    return clua_call_original(L);
}

/* tonumber(s): a scan of the string. */
static int clua_tonumber(lua_State *L) {
    size_t length = 0;
    if (lua_type(L, 1) == LUA_TSTRING) lua_tolstring(L, 1, &length);
    if (length >= 1024) clua_budget_charge(L, (long long)(length >> 5), "scanning a long string");
    return clua_call_original(L);
}

/* table.unpack(t, i, j): one instruction per value it returns. More values than a Lua stack holds
   are refused by the original at once ("too many results to unpack", an error a pcall may catch):
   not charged, or the budget would be spent on work that never happens. */
static int clua_unpack(lua_State *L) {
    lua_Integer first = luaL_optinteger(L, 2, 1);
    lua_Integer last = lua_isnoneornil(L, 3) ? (lua_type(L, 1) == LUA_TTABLE ? (lua_Integer)lua_rawlen(L, 1) : 0)
                                            : luaL_checkinteger(L, 3);
    if (last >= first) {
        lua_Unsigned count = (lua_Unsigned)last - (lua_Unsigned)first + 1u;
        if (count < (lua_Unsigned)LUAI_MAXSTACK) clua_budget_charge(L, (long long)count, "table.unpack");
    }
    return clua_call_original(L);
}

/* collectgarbage("collect"): a full collection walks the whole heap; one instruction per 256 bytes held. */
static int clua_collect(lua_State *L) {
    const char *option = luaL_optstring(L, 1, "collect");
    if (strcmp(option, "collect") == 0) {
        clua_budget_charge(L, (long long)(clua_control(L)->bytes_in_use >> 8), "collectgarbage(\"collect\")");
    }
    return clua_call_original(L);
}

/* Any other library function: only the time limit and an interruption are looked at on entry (see
   clua_check_limits). A table.concat whose elements come from an __index that is itself a C function
   runs no Lua instruction at all, and string.packsize or load of megabytes take tens of milliseconds
   a call: the count hook, every thousand instructions, came seconds late or never. */
static int clua_checked(lua_State *L) {
    return clua_call_original(L);
}

/* Wraps, with clua_checked, every function of the table at the top of the stack that is not wrapped
   already (a wrapper is a closure; the standard functions have no upvalues), but the pattern functions,
   which look at the limits as they match (patterns.c). */
static void clua_wrap_rest(lua_State *L) {
    static const char *const own_checks[] = {"find", "match", "gmatch", "gsub", NULL};
    lua_pushnil(L);
    while (lua_next(L, -2) != 0) {
        int skip = lua_type(L, -2) != LUA_TSTRING || !lua_iscfunction(L, -1);
        if (!skip && lua_getupvalue(L, -1, 1) != NULL) {
            lua_pop(L, 1);
            skip = 1;
        }
        for (int i = 0; !skip && own_checks[i] != NULL; i++) skip = strcmp(lua_tostring(L, -2), own_checks[i]) == 0;
        if (!skip) {
            lua_pushvalue(L, -2);
            lua_pushvalue(L, -2);
            lua_pushcclosure(L, clua_checked, 1);
            lua_rawset(L, -5); /* an existing key: allowed while traversing */
        }
        lua_pop(L, 1);
    }
}

/* Replaces `name` in the table at the top of the stack with `wrapper` over the original. */
static void clua_wrap(lua_State *L, const char *name, lua_CFunction wrapper) {
    lua_getfield(L, -1, name);
    lua_pushcclosure(L, wrapper, 1);
    lua_setfield(L, -2, name);
}

void clua_open_budgeted_library(lua_State *L) {
    lua_getglobal(L, LUA_STRLIBNAME);
    clua_open_budgeted_patterns(L);
    clua_wrap(L, "rep", clua_rep);
    clua_wrap(L, "byte", clua_slice);
    clua_wrap_rest(L);
    lua_pop(L, 1);
    lua_getglobal(L, LUA_TABLIBNAME);
    clua_wrap(L, "move", clua_move);
    clua_wrap(L, "sort", clua_sort);
    clua_wrap(L, "insert", clua_shift);
    clua_wrap(L, "remove", clua_shift);
    clua_wrap(L, "unpack", clua_unpack);
    clua_wrap_rest(L);
    lua_pop(L, 1);
    lua_getglobal(L, LUA_UTF8LIBNAME);
    clua_wrap(L, "len", clua_utf8_len);
    clua_wrap(L, "codepoint", clua_slice);
    clua_wrap_rest(L);
    lua_pop(L, 1);
    lua_getglobal(L, LUA_MATHLIBNAME);
    clua_wrap_rest(L); /* math.abs of a 20 MB numeral converts all of it */
    lua_pop(L, 1);
    lua_pushglobaltable(L);
    clua_wrap(L, "tonumber", clua_tonumber);
    clua_wrap(L, "collectgarbage", clua_collect);
    clua_wrap(L, "load", clua_checked);
    lua_pop(L, 1);
}
