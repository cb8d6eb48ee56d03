/* string.rep and table.move, whose loops run inside one C call where the count hook never fires:
   string.rep("", math.maxinteger) turns its loop forever copying nothing, table.move({}, 1, 1e12, 2)
   moves a trillion nils. Each is wrapped: the work is counted against the instruction budget
   first (or skipped when it produces nothing), then the standard function does it. */

#include <limits.h>

#include "navscript_lua.h"

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
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

/* table.move(a1, f, e, t [, a2]): one instruction of budget per element moved. */
static int clua_move(lua_State *L) {
    lua_Integer first = luaL_checkinteger(L, 2);
    lua_Integer last = luaL_checkinteger(L, 3);
    if (last >= first) {
        lua_Unsigned count = (lua_Unsigned)last - (lua_Unsigned)first + 1u;
        clua_budget_charge(L, count > (lua_Unsigned)LLONG_MAX ? LLONG_MAX : (long long)count, "table.move");
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
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
    lua_pop(L, 1);
    lua_getglobal(L, LUA_TABLIBNAME);
    clua_wrap(L, "move", clua_move);
    lua_pop(L, 1);
}
