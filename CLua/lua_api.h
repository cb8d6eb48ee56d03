/* Lua 5.4's C API, as Debian's liblua5.4-dev installs it (found through
 * pkg-config lua5.4). navscript's own C over it is the CNavScriptLua target. */
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>
