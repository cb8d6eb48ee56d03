/*
 * CLua shim: the only C the navscript Lua bridge needs.
 *
 * Why this file exists: a Lua error is a longjmp, and a longjmp across a Swift
 * frame is undefined behaviour. Everything that may raise therefore happens
 * here, in C: the trampoline that calls Swift and raises *after* the Swift
 * frame has returned, the instruction-budget hook, the capped allocator, the
 * message handler and the sandbox's file helpers. Lua's API macros are not
 * imported into Swift, so the few the bridge needs are wrapped below as
 * `clua_` static inline functions. No global or static mutable data lives
 * here: each Lua state carries its own clua_Control, reachable from the
 * allocator's `ud` and from lua_getextraspace. (region.h holds the one
 * process-wide block in which a state can be restored from an image;
 * chunks.h the process's cache of compiled chunks.)
 */
#ifndef CLUA_SHIM_H
#define CLUA_SHIM_H

#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* What a Swift callback returns to the trampoline, besides a result count >= 0. */
#define CLUA_RAISE (-1)       /* the error value is on top: raise it unchanged */
#define CLUA_RAISE_WHERE (-2) /* a string error is on top: prefix "chunk:line: " as luaL_error does, then raise */

/* Interval of the count hook while the budget is not exhausted. */
#define CLUA_HOOK_INTERVAL 1000

/* Swift entry points, stored per state (C cannot call Swift by name). */
typedef int (*clua_Dispatch)(lua_State *L, void *object); /* run a Swift callback */
typedef void (*clua_Release)(void *object);               /* release one Unmanaged retain */

/* Per-state bookkeeping shared by the allocator, the hook, the trampoline and Swift. */
typedef struct clua_Control {
    /* memory cap */
    size_t bytes_in_use;      /* live bytes handed out by clua_alloc */
    size_t memory_limit;      /* 0 = unlimited */
    int lua_side;             /* 1 while Lua runs under a bridge pcall and no Swift frame is above it: only then may the cap refuse */
    int cap_suspended;        /* >0 while the message handler builds a traceback: never refuse there */
    int memory_refused;       /* the cap refused an allocation since the bridge's pcall started */
    int refused_last;         /* the last growth the cap saw was refused (Lua's one retry after a collection follows) */
    int memory_raised;        /* the cap refused Lua's retry too: after a full collection the state still does not
                                 fit, and Lua raised "not enough memory" (or, for a string table that could not
                                 grow, went on without growing it). Sticky until clua_resetlimits: a pcall that
                                 caught the error does not undo the limit. (An allocation Lua cannot retry —
                                 during a collection — raises on its first refusal and is not noted here.) */
    char refused_at[96];      /* where Lua was when it last did, `chunk:line` (or ""): memory errors have no message handler */
    char refused_frames[320]; /* the Lua frames then, as traceback lines ("\n\tchunk:line: in …"), innermost first */
    /* instruction budget */
    long long instruction_budget; /* 0 = unlimited */
    long long instructions;       /* cumulative, counted in hook intervals */
    int budget_tripped;           /* sticky until clua_resetlimits: every later hook raises again */
    /* Swift side */
    lua_State *main;          /* the main thread */
    lua_State *current;       /* the thread Swift API calls use: the main thread, or the thread that called into Swift */
    void *owner;              /* the LuaState, unretained */
    clua_Dispatch dispatch;
    clua_Release release;
    int callback_meta_ref;    /* registry refs of the bridge's metatables and host-object cache */
    int host_meta_ref;
    int host_cache_ref;
    int boxes;                /* live userdata boxes (each owns a retain its finalizer gives back) */
    int files_opened;         /* a script opened a file (io.open): closing must run its finalizer */
    int chunks_from_bytecode; /* chunks this state loaded from the chunk cache's bytecode (chunks.h) */
    /* sandbox */
    char *root_real;          /* realpath of the sandbox root; NULL = no root */
    char *root_display;       /* the root as the host spelled it, used in chunk names */
    char traceback_key;       /* its address is the registry key of the last traceback */
} clua_Control;

/* A full userdata holding one Unmanaged retain of a Swift object (callback context or host object). */
typedef struct clua_Box {
    void *object;
} clua_Box;

/* ---------------------------------------------------------------- macro wrappers */

/* lua_getextraspace is a macro: the per-state control pointer lives in the extra space. */
static inline clua_Control *clua_control(lua_State *L) {
    return *(clua_Control **)lua_getextraspace(L);
}

/* LUA_REGISTRYINDEX is a macro built on LUAI_MAXSTACK, which Swift does not import. */
static inline int clua_registryindex(void) { return LUA_REGISTRYINDEX; }

/* LUA_MULTRET is a negative macro constant; wrapped so Swift needs no literal. */
static inline int clua_multret(void) { return LUA_MULTRET; }

/* lua_pop is a macro; lua_settop only runs code for to-be-closed slots, which the bridge never creates. */
static inline void clua_pop(lua_State *L, int n) { lua_settop(L, -(n)-1); }

/* lua_newtable is a macro. */
static inline void clua_newtable(lua_State *L) { lua_createtable(L, 0, 0); }

/* lua_tostring is a macro; Swift calls it only after lua_type said LUA_TSTRING (no in-place conversion). */
static inline const char *clua_tolstring(lua_State *L, int idx, size_t *len) { return lua_tolstring(L, idx, len); }

/* lua_isnoneornil is a macro. */
static inline int clua_isnoneornil(lua_State *L, int idx) { return lua_type(L, idx) <= 0; }

/* lua_insert is a macro (lua_rotate never raises). */
static inline void clua_insert(lua_State *L, int idx) { lua_rotate(L, idx, 1); }

/* lua_remove is a macro (lua_rotate + pop; never raises). */
static inline void clua_remove(lua_State *L, int idx) { lua_rotate(L, idx, -1); lua_settop(L, -2); }

/* ---------------------------------------------------------------- allocator and panic */

/* Notes where Lua was when the cap refused. Why here: Lua raises a memory error without running
 * the message handler, so once the error unwinds nothing can tell the line. Reading the frames
 * inside the allocator is safe in Lua 5.4.0-5.4.4 only: lua_getstack/lua_getinfo("Sl") read the
 * call chain, which those versions keep as pointers that stay valid across an allocation (growing
 * the stack allocates the new block before it copies), and allocate nothing; snprintf writes into
 * the control block. From 5.4.5 on, growing the stack first turns every frame's pointers into
 * offsets and then allocates, so a refusal there must not read frames: those versions note nothing.
 * The line is the frame's last saved instruction: some (a table constructor) allocate without
 * saving it, so it is the line or one near it. A frame that does not fit is left out whole.
 * `current` may be the thread that resumed a coroutine: then its lines are the ones. */
static inline void clua_note_refusal(clua_Control *c) {
#if LUA_VERSION_RELEASE_NUM <= 50404
    lua_State *L = c->current;
    lua_Debug ar;
    char at[sizeof c->refused_at], frames[sizeof c->refused_frames];
    size_t used = 0;
    int level, n;
    if (L == NULL) return;
    at[0] = '\0';
    frames[0] = '\0';
    for (level = 0; lua_getstack(L, level, &ar); level++) {
        if (!lua_getinfo(L, "Sl", &ar)) break;
        if (ar.currentline <= 0) continue; /* a C function: the Lua line that called it says where */
        if (at[0] == '\0') snprintf(at, sizeof at, "%s:%d", ar.short_src, ar.currentline);
        if (*ar.what == 'm')
            n = snprintf(frames + used, sizeof frames - used, "\n\t%s:%d: in main chunk", ar.short_src, ar.currentline);
        else
            n = snprintf(frames + used, sizeof frames - used, "\n\t%s:%d: in function <%s:%d>",
                         ar.short_src, ar.currentline, ar.short_src, ar.linedefined);
        if (n < 0 || (size_t)n >= sizeof frames - used) {
            frames[used] = '\0';
            break;
        }
        used += (size_t)n;
    }
    /* No Lua line (the stack shrunk back after the error, with only C frames left): keep the last note. */
    if (at[0] == '\0') return;
    memcpy(c->refused_at, at, sizeof at);
    memcpy(c->refused_frames, frames, sizeof frames);
#else
    (void)c;
#endif
}

/* Whether clua_note_refusal can note anything with this Lua (5.4.0-5.4.4). */
static inline int clua_refusals_have_lines(void) { return LUA_VERSION_RELEASE_NUM <= 50404; }

/* Where the cap last refused (see clua_note_refusal); Swift cannot index a C array field. */
static inline const char *clua_refused_at(clua_Control *c) { return c->refused_at; }
static inline const char *clua_refused_frames(clua_Control *c) { return c->refused_frames; }

/* Whether the cap refuses growing a block from `old` to `nsize` bytes: only while Lua (not Swift) runs. */
static inline int clua_cap_refuses(clua_Control *c, size_t old, size_t nsize) {
    if (nsize > old && c->memory_limit != 0 && c->lua_side && c->cap_suspended == 0
        && c->bytes_in_use - old + nsize > c->memory_limit) {
        if (!c->memory_refused) { c->refused_at[0] = '\0'; c->refused_frames[0] = '\0'; } /* nothing from an earlier call */
        clua_note_refusal(c);     /* every time: an earlier refusal may have been recovered from (pcall, collection) */
        c->memory_refused = 1;    /* Lua collects garbage, retries once, then raises "not enough memory" */
        if (c->refused_last) c->memory_raised = 1; /* this was the retry: the error is raised */
        c->refused_last = 1;
        return 1;
    }
    if (nsize > old) c->refused_last = 0; /* a growth that fits: a refusal before it was recovered from */
    return 0;
}

/* What an allocator returns when the system had no memory for a block. */
static inline void *clua_alloc_failed(clua_Control *c, void *ptr, size_t old, size_t nsize) {
    if (nsize <= old) return ptr; /* a shrink that failed: keep the old block, Lua assumes shrinks succeed */
    if (!c->lua_side) {
        /* A real out-of-memory while Swift is on the stack: raising would longjmp through Swift. */
        fputs("navscript: out of memory while Swift code was calling into Lua; aborting\n", stderr);
        abort();
    }
    return NULL;
}

/* The allocator: counts bytes, refuses growth past the cap only while Lua (not Swift) is running. */
static inline void *clua_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    clua_Control *c = (clua_Control *)ud;
    size_t old = ptr ? osize : 0; /* with ptr == NULL, osize encodes the object type */
    void *block;
    if (nsize == 0) {             /* a free: never refused */
        free(ptr);
        c->bytes_in_use -= old;
        return NULL;
    }
    if (clua_cap_refuses(c, old, nsize)) return NULL;
    block = realloc(ptr, nsize);
    if (block == NULL) return clua_alloc_failed(c, ptr, old, nsize);
    c->bytes_in_use = c->bytes_in_use - old + nsize;
    return block;
}

/* lua_atpanic handler: an unprotected error is a bridge bug; say so clearly before abort(). */
static inline int clua_panic(lua_State *L) {
    const char *msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "(error object is not a string)";
    fprintf(stderr, "navscript: unprotected Lua error (a bug in the Lua bridge): %s\n", msg);
    fflush(stderr);
    return 0; /* Lua calls abort() after this returns */
}

/* Set a zeroed control block's limits and "no reference yet" markers. */
static inline void clua_control_init(clua_Control *c, size_t memory_limit, long long instruction_budget) {
    c->memory_limit = memory_limit;
    c->instruction_budget = instruction_budget;
    c->callback_meta_ref = LUA_NOREF;
    c->host_meta_ref = LUA_NOREF;
    c->host_cache_ref = LUA_NOREF;
}

/* Allocate a zeroed control block (malloc, not the Lua allocator: it outlives the state). */
static inline clua_Control *clua_control_new(size_t memory_limit, long long instruction_budget) {
    clua_Control *c = (clua_Control *)calloc(1, sizeof(clua_Control));
    if (c == NULL) return NULL;
    clua_control_init(c, memory_limit, instruction_budget);
    return c;
}

/* Free the sandbox root strings of a control block (the block itself may live in the region). */
static inline void clua_control_clearroot(clua_Control *c) {
    free(c->root_real);
    free(c->root_display);
    c->root_real = NULL;
    c->root_display = NULL;
}

/* Free a control block after lua_close. */
static inline void clua_control_free(clua_Control *c) {
    if (c == NULL) return;
    clua_control_clearroot(c);
    free(c);
}

/* Record the sandbox root, resolved (`real`) and as the host spelled it; returns 0 when out of memory. */
static inline int clua_control_setroot(clua_Control *c, const char *real, const char *display) {
    c->root_real = strdup(real);
    c->root_display = strdup(display);
    return c->root_real != NULL && c->root_display != NULL;
}

/* lua_newstate with `alloc`, the control block in the extra space, and the panic handler. */
static inline lua_State *clua_newstate_with(clua_Control *c, lua_Alloc alloc, void *ud) {
    lua_State *L = lua_newstate(alloc, ud);
    if (L == NULL) return NULL;
    *(clua_Control **)lua_getextraspace(L) = c;
    c->main = L;
    c->current = L;
    lua_atpanic(L, clua_panic);
    return L;
}

/* A new state on the heap, with the capped allocator. */
static inline lua_State *clua_newstate(clua_Control *c) {
    return clua_newstate_with(c, clua_alloc, c);
}

/* ---------------------------------------------------------------- instruction budget */

/* The count hook: raises (so it must be C); once tripped it raises on every instruction so pcall cannot swallow it. */
static inline void clua_budget_hook(lua_State *L, lua_Debug *ar) {
    clua_Control *c = clua_control(L);
    if (!c->budget_tripped) {
        c->instructions += lua_gethookcount(L);
        if (c->instruction_budget == 0 || c->instructions <= c->instruction_budget) return;
        c->budget_tripped = 1;
    }
    lua_sethook(L, clua_budget_hook, LUA_MASKCOUNT, 1); /* from now on: every instruction of this thread */
    lua_getinfo(L, "Sl", ar);
    if (ar->currentline > 0)
        lua_pushfstring(L, "%s:%d: ", ar->short_src, ar->currentline);
    else
        lua_pushliteral(L, "");
    lua_pushfstring(L,
        "instruction budget exceeded (%I instructions): the script may loop forever; "
        "raise LuaState.Options.instructionBudget if it is legitimately long",
        (LUAI_UACINT)c->instruction_budget);
    lua_concat(L, 2);
    lua_error(L);
}

/* Give the state fresh limits — an instruction budget (count and trip flag), no memory error raised
   yet — and reinstall the hook on the main thread. */
static inline void clua_resetlimits(lua_State *L) {
    clua_Control *c = clua_control(L);
    c->instructions = 0;
    c->budget_tripped = 0;
    c->memory_raised = 0;
    c->refused_last = 0;
    if (c->instruction_budget != 0)
        lua_sethook(L, clua_budget_hook, LUA_MASKCOUNT, CLUA_HOOK_INTERVAL);
    else
        lua_sethook(L, NULL, 0, 0);
}

/* ---------------------------------------------------------------- Swift boxes and the trampoline */

/* __gc of a box: hand the retain back to Swift (with the cap off: Swift is now on the stack). */
static inline int clua_box_gc(lua_State *L) {
    clua_Box *box = (clua_Box *)lua_touserdata(L, 1);
    if (box != NULL && box->object != NULL) {
        clua_Control *c = clua_control(L);
        void *object = box->object;
        int saved_side = c->lua_side;
        lua_State *saved_current = c->current;
        box->object = NULL;
        c->boxes--;
        c->lua_side = 0;
        c->current = L;
        c->release(object);
        c->lua_side = saved_side;
        c->current = saved_current;
    }
    return 0;
}

/* The C function behind every Swift callback: calls Swift, then raises (if asked) after Swift has returned. */
/* Calls the Swift context `object` for the running C function and raises
   its error, if any, from here — after the Swift frame has returned. */
static inline int clua_invoke(lua_State *L, void *object) {
    clua_Control *c = clua_control(L);
    int saved_side = c->lua_side;
    lua_State *saved_current = c->current;
    int n;
    c->lua_side = 0; /* Swift is on the stack: the allocator must not refuse */
    c->current = L;
    n = c->dispatch(L, object);
    c->lua_side = saved_side;
    c->current = saved_current;
    if (n >= 0) return n;
    if (n == CLUA_RAISE_WHERE && lua_type(L, -1) == LUA_TSTRING) {
        luaL_where(L, 1);
        lua_insert(L, -2);
        lua_concat(L, 2);
    }
    return lua_error(L);
}

/* A function whose upvalue is a box (a full userdata that owns its Swift context). */
static inline int clua_trampoline(lua_State *L) {
    clua_Box *box = (clua_Box *)lua_touserdata(L, lua_upvalueindex(1));
    return clua_invoke(L, box->object);
}

/* A function whose upvalue is the Swift context itself (a light userdata),
   owned by the LuaState for as long as the state lives. */
static inline int clua_trampoline_owned(lua_State *L) {
    return clua_invoke(L, lua_touserdata(L, lua_upvalueindex(1)));
}

/* Push a Lua function over `object`, which the state keeps alive until it
   closes: no userdata, metatable or finalizer per function (scripts cannot
   reach a C function's upvalues, the debug library being absent). */
static inline void clua_pushownedswiftfunction(lua_State *L, void *object) {
    lua_pushlightuserdata(L, object);
    lua_pushcclosure(L, clua_trampoline_owned, 1);
}

/* Push a Lua function whose upvalue is a box owning `retained` (one Unmanaged retain of the Swift context). */
static inline void clua_pushswiftfunction(lua_State *L, void *retained) {
    clua_Control *c = clua_control(L);
    clua_Box *box = (clua_Box *)lua_newuserdatauv(L, sizeof(clua_Box), 0);
    box->object = retained;
    c->boxes++;
    lua_rawgeti(L, LUA_REGISTRYINDEX, c->callback_meta_ref);
    lua_setmetatable(L, -2);
    lua_pushcclosure(L, clua_trampoline, 1);
}

/* Push the userdata for a host object: reuse the live one for the same object, else box a new retain. */
static inline int clua_pushhostobject(lua_State *L, void *object, void *(*retain)(void *)) {
    clua_Control *c = clua_control(L);
    clua_Box *box;
    lua_rawgeti(L, LUA_REGISTRYINDEX, c->host_cache_ref);
    if (lua_rawgetp(L, -1, object) == LUA_TUSERDATA) {
        lua_remove(L, -2);
        return 0; /* existing userdata, no new retain */
    }
    lua_pop(L, 1);
    box = (clua_Box *)lua_newuserdatauv(L, sizeof(clua_Box), 0);
    box->object = retain(object);
    c->boxes++;
    lua_rawgeti(L, LUA_REGISTRYINDEX, c->host_meta_ref);
    lua_setmetatable(L, -2);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, -3, object); /* cache[object] = userdata (weak values) */
    lua_remove(L, -2);
    return 1;
}

/* The Swift object inside a bridge host-object userdata at idx, or NULL. Uses only non-raising calls. */
static inline void *clua_tohostobject(lua_State *L, int idx) {
    clua_Control *c = clua_control(L);
    clua_Box *box;
    int same;
    if (lua_type(L, idx) != LUA_TUSERDATA || !lua_checkstack(L, 2) || !lua_getmetatable(L, idx)) return NULL;
    lua_rawgeti(L, LUA_REGISTRYINDEX, c->host_meta_ref);
    same = lua_rawequal(L, -1, -2);
    lua_settop(L, -3);
    if (!same) return NULL;
    box = (clua_Box *)lua_touserdata(L, idx);
    return box ? box->object : NULL;
}

/* Push the metatable every host-object userdata shares. */
static inline void clua_pushhostmeta(lua_State *L) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, clua_control(L)->host_meta_ref);
}

/* ---------------------------------------------------------------- protected calls and errors */

/* The bridge's message handler: stores a full traceback in the registry and keeps the error value unchanged. */
static inline int clua_msgh(lua_State *L) {
    clua_Control *c = clua_control(L);
    c->cap_suspended++; /* the traceback must not fail for want of memory near the cap */
    luaL_traceback(L, L, NULL, 1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &c->traceback_key);
    c->cap_suspended--;
    lua_settop(L, 1);
    return 1;
}

/* lua_pcall is a macro: call the function below nargs arguments with the message handler and the cap on. */
static inline int clua_bridgecall(lua_State *L, int nargs, int nresults) {
    clua_Control *c = clua_control(L);
    int base = lua_gettop(L) - nargs; /* index of the function */
    int saved_side = c->lua_side;
    int status;
    lua_pushcfunction(L, clua_msgh); /* a light C function: no allocation */
    lua_rotate(L, base, 1);
    c->lua_side = 1;
    c->memory_refused = 0;
    status = lua_pcall(L, nargs, nresults, base);
    c->lua_side = saved_side;
    clua_remove(L, base);
    return status;
}

/* Push the traceback the message handler stored (or nil), clearing it. */
static inline void clua_taketraceback(lua_State *L) {
    clua_Control *c = clua_control(L);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &c->traceback_key);
    lua_pushnil(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &c->traceback_key);
}

/* luaL_ref may raise (memory); run it in protected mode. Returns LUA_NOREF on failure. Pops nothing: refs the value at idx. */
static inline int clua_ref_body(lua_State *L) {
    lua_pushinteger(L, luaL_ref(L, LUA_REGISTRYINDEX));
    return 1;
}
static inline int clua_ref(lua_State *L, int idx) {
    int ref = LUA_NOREF;
    idx = lua_absindex(L, idx);
    if (!lua_checkstack(L, 3)) return LUA_NOREF;
    lua_pushcfunction(L, clua_ref_body);
    lua_pushvalue(L, idx);
    if (lua_pcall(L, 1, 1, 0) == LUA_OK) ref = (int)lua_tointeger(L, -1);
    lua_settop(L, -2);
    return ref;
}

/* luaL_unref never raises; guarded by lua_checkstack because it pushes two values. */
static inline void clua_unref(lua_State *L, int ref) {
    if (lua_checkstack(L, 2)) luaL_unref(L, LUA_REGISTRYINDEX, ref);
}

/* lua_gc is variadic, which Swift cannot call: a full collection (finalizers of bridge boxes are C). */
static inline void clua_gccollect(lua_State *L) { lua_gc(L, LUA_GCCOLLECT); }

/* Switch the collector to generational mode (lua_gc is variadic). Done while no finalizer is pending. */
static inline void clua_gcgenerational(lua_State *L) { lua_gc(L, LUA_GCGEN, 0, 0); }

/* lua_pushcfunction is a macro; used for the Lua-side protected helpers. */
static inline void clua_pushcfunction(lua_State *L, lua_CFunction f) { lua_pushcclosure(L, f, 0); }

/* Whether `source` is one of the chunk names in clua_callerline's upvalues. */
static inline int clua_callerline_skips(lua_State *L, const char *source) {
    int i;
    for (i = 1; lua_type(L, lua_upvalueindex(i)) == LUA_TSTRING; i++) {
        if (strcmp(source, lua_tostring(L, lua_upvalueindex(i))) == 0) return 1;
    }
    return 0;
}

/* Lua: the line of the call that led here, as its author reads it: the innermost frame in the
 * file being run (the outermost Lua frame's chunk, leaving out the chunks named by the upvalues:
 * the host's own), even when one of the file's helpers made the call; else the innermost frame
 * outside the host's chunks; else 0. In C because a DSL asks it for every declaration: a Swift
 * callback there cost a bridged call and a list of every frame. Never raises. */
static inline int clua_callerline(lua_State *L) {
    lua_Debug ar;
    const char *bottom = NULL;
    int level, fallback = 0;
    for (level = 1; lua_getstack(L, level, &ar); level++) {
        if (lua_getinfo(L, "S", &ar) && ar.source != NULL && ar.what[0] != 'C' && !clua_callerline_skips(L, ar.source)) {
            bottom = ar.source;
        }
    }
    for (level = 1; bottom != NULL && lua_getstack(L, level, &ar); level++) {
        if (!lua_getinfo(L, "Sl", &ar) || ar.currentline <= 0 || ar.source == NULL) continue;
        if (strcmp(ar.source, bottom) == 0) {
            lua_pushinteger(L, ar.currentline);
            return 1;
        }
        if (fallback == 0 && !clua_callerline_skips(L, ar.source)) fallback = ar.currentline;
    }
    lua_pushinteger(L, fallback);
    return 1;
}

/* Pushes clua_callerline with `count` chunk names (on top of the stack) as the chunks it skips. */
static inline void clua_pushcallerline(lua_State *L, int count) { lua_pushcclosure(L, clua_callerline, count); }

/* ---------------------------------------------------------------- loading chunks */

/* Files and navscript's own chunks load through the process's chunk cache (clua_loadfile, clua_loadcached). */
#include "chunks.h"

/* Load a buffer as a text chunk (never binary); cap on while parsing. */
static inline int clua_loadbuffer(lua_State *L, const char *buffer, size_t size, const char *chunkname) {
    return clua_load_capped(L, buffer, size, chunkname, "t");
}

/* ---------------------------------------------------------------- sandbox */

/* Lua: resolve(path [, subdir]) -> realpath, display | nil, message, display. Only files inside <root>[/subdir]. */
static inline int clua_sb_resolve(lua_State *L) {
    clua_Control *c = clua_control(L);
    const char *path = luaL_checkstring(L, 1);
    const char *sub = luaL_optstring(L, 2, NULL);
    const char *display;
    char resolved[PATH_MAX];
    size_t rootlen;
    struct stat st;
    if (c->root_real == NULL) {
        lua_pushnil(L);
        lua_pushfstring(L, "%s: file access needs a sandbox root (LuaState.Options.sandboxRoot)", path);
        lua_pushstring(L, path);
        return 3;
    }
    if (path[0] == '/') lua_pushstring(L, path);
    else lua_pushfstring(L, "%s/%s", c->root_display, path);
    display = lua_tostring(L, -1);
    if (realpath(display, resolved) == NULL) {
        lua_pushnil(L);
        lua_pushfstring(L, "cannot open %s (%s)", display, strerror(errno));
        lua_pushvalue(L, -3);
        return 3;
    }
    rootlen = strlen(c->root_real);
    if (rootlen > 0 && c->root_real[rootlen - 1] == '/') rootlen--; /* root "/" */
    if (strncmp(resolved, c->root_real, rootlen) != 0 || resolved[rootlen] != '/'
        || (sub != NULL && (strncmp(resolved + rootlen + 1, sub, strlen(sub)) != 0
                            || resolved[rootlen + 1 + strlen(sub)] != '/'))) {
        /* Through a symbolic link (or '..') the path given may look inside: then name where it leads. */
        char spelled[PATH_MAX];
        int as_spelled = path[0] == '/'
            ? strcmp(path, resolved) == 0
            : snprintf(spelled, sizeof spelled, "%.*s/%s", (int)rootlen, c->root_real, path) < (int)sizeof spelled
                  && strcmp(spelled, resolved) == 0;
        lua_pushnil(L);
        if (as_spelled)
            lua_pushfstring(L, "cannot open %s: outside the sandbox (only files under '%s%s%s' can be read)",
                            display, c->root_display, sub ? "/" : "", sub ? sub : "");
        else
            lua_pushfstring(L, "cannot open %s: it leads to %s, outside the sandbox (only files under '%s%s%s' "
                            "can be read)", display, resolved, c->root_display, sub ? "/" : "", sub ? sub : "");
        lua_pushvalue(L, -3);
        return 3;
    }
    if (stat(resolved, &st) != 0 || !S_ISREG(st.st_mode)) {
        lua_pushnil(L);
        lua_pushfstring(L, "cannot open %s (not a regular file)", display);
        lua_pushvalue(L, -3);
        return 3;
    }
    lua_pushstring(L, resolved);
    lua_pushvalue(L, -2);
    return 2;
}

/* Lua: loadtext(realpath, display [, env]) -> chunk | nil, message. Text mode, chunk named "@display". */
static inline int clua_sb_loadtext(lua_State *L) {
    const char *real = luaL_checkstring(L, 1);
    const char *display = luaL_checkstring(L, 2);
    int has_env = !lua_isnone(L, 3);
    const char *chunkname = lua_pushfstring(L, "@%s", display);
    int status = clua_loadfile(L, real, chunkname);
    if (status != LUA_OK) {
        lua_pushnil(L);
        lua_insert(L, -2);
        return 2;
    }
    if (has_env) {
        lua_pushvalue(L, 3);
        if (!lua_setupvalue(L, -2, 1)) lua_pop(L, 1);
    }
    return 1;
}

/* Opens the safe libraries and creates the bridge's metatables; run in protected mode by clua_opensandbox. */
static inline int clua_opensandbox_body(lua_State *L) {
    clua_Control *c = clua_control(L);
    luaL_requiref(L, LUA_GNAME, luaopen_base, 1);
    luaL_requiref(L, LUA_LOADLIBNAME, luaopen_package, 1);
    luaL_requiref(L, LUA_COLIBNAME, luaopen_coroutine, 1);
    luaL_requiref(L, LUA_TABLIBNAME, luaopen_table, 1);
    luaL_requiref(L, LUA_IOLIBNAME, luaopen_io, 1);
    luaL_requiref(L, LUA_OSLIBNAME, luaopen_os, 1);
    luaL_requiref(L, LUA_STRLIBNAME, luaopen_string, 1);
    luaL_requiref(L, LUA_MATHLIBNAME, luaopen_math, 1);
    luaL_requiref(L, LUA_UTF8LIBNAME, luaopen_utf8, 1);
    lua_settop(L, 0);
    /* metatable of callback boxes: __gc releases the Swift context; hidden from getmetatable */
    lua_createtable(L, 0, 2);
    lua_pushcfunction(L, clua_box_gc);
    lua_setfield(L, -2, "__gc");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    c->callback_meta_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    /* metatable of host objects */
    lua_createtable(L, 0, 3);
    lua_pushcfunction(L, clua_box_gc);
    lua_setfield(L, -2, "__gc");
    lua_pushliteral(L, "host object");
    lua_setfield(L, -2, "__name");
    lua_pushliteral(L, "host object");
    lua_setfield(L, -2, "__metatable");
    c->host_meta_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    /* host object -> userdata, weak values: the same Swift object is the same Lua value while it lives */
    lua_createtable(L, 0, 0);
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "v");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    c->host_cache_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    clua_resetlimits(L);
    return 0;
}

/* Run clua_opensandbox_body protected; on failure the error message is left on the stack. */
static inline int clua_opensandbox(lua_State *L) {
    lua_pushcfunction(L, clua_opensandbox_body);
    return lua_pcall(L, 0, 0, 0);
}

/* Lua: rootname() -> the sandbox root as the host spelled it, or nil. Read at each use: the
   root is not part of a state's image (states restored from one image serve different suites). */
static inline int clua_sb_rootname(lua_State *L) {
    clua_Control *c = clua_control(L);
    if (c->root_display == NULL) lua_pushnil(L);
    else lua_pushstring(L, c->root_display);
    return 1;
}

/* Lua: noteopen() -- the script is about to open a file, whose handle has a finalizer. */
static inline int clua_sb_noteopen(lua_State *L) {
    clua_control(L)->files_opened = 1;
    return 0;
}

/* Lua: packagepath() -> package.path for the sandbox root: <root>/support/?.lua;<root>/support/?/init.lua,
   or "" without a root. Spelled when read, like rootname (a restored state sets nothing per file). */
static inline int clua_sb_packagepath(lua_State *L) {
    clua_Control *c = clua_control(L);
    if (c->root_display == NULL) lua_pushliteral(L, "");
    else lua_pushfstring(L, "%s/support/?.lua;%s/support/?/init.lua", c->root_display, c->root_display);
    return 1;
}

/* Push the sandbox helpers the Lua prelude receives as arguments: resolve, loadtext, rootname,
   noteopen, packagepath. */
static inline void clua_pushsandboxhelpers(lua_State *L) {
    lua_pushcfunction(L, clua_sb_resolve);
    lua_pushcfunction(L, clua_sb_loadtext);
    lua_pushcfunction(L, clua_sb_rootname);
    lua_pushcfunction(L, clua_sb_noteopen);
    lua_pushcfunction(L, clua_sb_packagepath);
}

#endif
