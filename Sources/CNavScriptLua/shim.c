/* The bridge: allocator, budget hook, trampolines, host objects, protected calls, sandbox helpers. */
#include "navscript_lua.h"
#include <time.h>

void clua_note_refusal(clua_Control *c) {
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

/* Lua retries a refused allocation exactly once, after an emergency collection that only frees:
   the retry is the next growing call, with the same block and sizes. Any other growth first means
   the refusal was raised without a retry (lauxlib's buffers: string.rep, table.concat, string.format
   raise "not enough memory" at once) — the limit was hit, whatever a pcall then caught. */
static void clua_budget_hook(lua_State *L, lua_Debug *ar);

/* Work the VM does in one instruction, or a library function in one call, is proportional to what
   it allocates: a `..` of two large strings, string.rep, upper, format, table.concat, load. Every 64
   bytes Lua allocates while it runs count as one instruction, so a loop of a few instructions that
   copies megabytes each time still spends the budget; once spent, the very next instruction trips. */
static void clua_charge_allocation(clua_Control *c, size_t grown) {
    if (c->instruction_budget == 0 || !c->budget_armed || c->budget_tripped || grown < 64) return;
    c->instructions += (long long)(grown >> 6);
    if (c->instructions > c->instruction_budget && c->current != NULL) {
        /* Named only when a big block tipped it: a small one is the script's ordinary work. */
        if (c->budget_by == NULL && grown >= 65536) c->budget_by = "copying large strings or tables over and over";
        lua_sethook(c->current, clua_budget_hook, LUA_MASKCOUNT, 1);
    }
}

int clua_cap_refuses(clua_Control *c, const void *ptr, size_t old, size_t nsize) {
    int retry = c->refused_last && ptr == c->refused_block && old == c->refused_old && nsize == c->refused_size;
    if (nsize > old && c->memory_limit != 0 && c->lua_side && c->cap_suspended == 0
        && c->bytes_in_use - old + nsize > c->memory_limit) {
        if (!c->memory_refused) { c->refused_at[0] = '\0'; c->refused_frames[0] = '\0'; } /* nothing from an earlier call */
        clua_note_refusal(c);     /* every time: an earlier refusal may have been recovered from (pcall, collection) */
        c->memory_refused = 1;    /* Lua collects garbage, retries once, then raises "not enough memory" */
        if (c->refused_last) c->memory_raised = 1; /* the retry refused too, or the refusal before was never retried */
        /* A block larger than the whole cap can never fit. */
        if (nsize > c->memory_limit) c->memory_raised = 1;
        c->refused_last = 1;
        c->refused_block = ptr;
        c->refused_old = old;
        c->refused_size = nsize;
        return 1;
    }
    if (nsize > old) {
        if (c->refused_last && !retry) c->memory_raised = 1; /* raised without a retry */
        c->refused_last = 0; /* the retry fit: recovered from */
        if (c->lua_side) clua_charge_allocation(c, nsize - old);
    }
    return 0;
}

int clua_memory_raised(const clua_Control *c) {
    /* A refusal not followed by any growth yet was not retried either: Lua retries at once. */
    return c->memory_raised || c->refused_last;
}

void *clua_alloc_failed(clua_Control *c, void *ptr, size_t old, size_t nsize) {
    if (nsize <= old) return ptr; /* a shrink that failed: keep the old block, Lua assumes shrinks succeed */
    if (!c->lua_side) {
        /* A real out-of-memory while Swift is on the stack: raising would longjmp through Swift. */
        fputs("navscript: out of memory while Swift code was calling into Lua; aborting\n", stderr);
        abort();
    }
    return NULL;
}

void *clua_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    clua_Control *c = (clua_Control *)ud;
    size_t old = ptr ? osize : 0; /* with ptr == NULL, osize encodes the object type */
    void *block;
    if (nsize == 0) {             /* a free: never refused */
        free(ptr);
        c->bytes_in_use -= old;
        return NULL;
    }
    if (clua_cap_refuses(c, ptr, old, nsize)) return NULL;
    block = realloc(ptr, nsize);
    if (block == NULL) return clua_alloc_failed(c, ptr, old, nsize);
    c->bytes_in_use = c->bytes_in_use - old + nsize;
    return block;
}

/* lua_atpanic handler: an unprotected error is a bridge bug; say so clearly before abort(). */
static int clua_panic(lua_State *L) {
    const char *msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "(error object is not a string)";
    fprintf(stderr, "navscript: unprotected Lua error (a bug in the Lua bridge): %s\n", msg);
    fflush(stderr);
    return 0; /* Lua calls abort() after this returns */
}

void clua_control_init(clua_Control *c, size_t memory_limit, long long instruction_budget) {
    c->memory_limit = memory_limit;
    c->instruction_budget = instruction_budget;
    c->callback_meta_ref = LUA_NOREF;
    c->host_meta_ref = LUA_NOREF;
    c->host_cache_ref = LUA_NOREF;
}

clua_Control *clua_control_new(size_t memory_limit, long long instruction_budget) {
    clua_Control *c = (clua_Control *)calloc(1, sizeof(clua_Control));
    if (c == NULL) return NULL;
    clua_control_init(c, memory_limit, instruction_budget);
    return c;
}

void clua_control_clearroot(clua_Control *c) {
    free(c->root_real);
    free(c->root_display);
    c->root_real = NULL;
    c->root_display = NULL;
}

void clua_control_free(clua_Control *c) {
    if (c == NULL) return;
    clua_control_clearroot(c);
    free(c);
}

int clua_control_setroot(clua_Control *c, const char *real, const char *display) {
    c->root_real = strdup(real);
    c->root_display = strdup(display);
    return c->root_real != NULL && c->root_display != NULL;
}

lua_State *clua_newstate_with(clua_Control *c, lua_Alloc alloc, void *ud) {
    lua_State *L = lua_newstate(alloc, ud);
    if (L == NULL) return NULL;
    *(clua_Control **)lua_getextraspace(L) = c;
    c->main = L;
    c->current = L;
    lua_atpanic(L, clua_panic);
    return L;
}

lua_State *clua_newstate(clua_Control *c) {
    return clua_newstate_with(c, clua_alloc, c);
}

static void clua_budget_hook(lua_State *L, lua_Debug *ar);

/* Notes where the budget ran out: the line `ar` is at, or none. */
static void clua_note_budget_at(clua_Control *c, lua_State *L, lua_Debug *ar) {
    if (lua_getinfo(L, "Sl", ar) && ar->currentline > 0)
        snprintf(c->budget_at, sizeof c->budget_at, "%s:%d", ar->short_src, ar->currentline);
    else
        c->budget_at[0] = '\0';
}

/* Raises the budget error at the line where it ran out (else `ar`'s), naming `what` ran past it (NULL: the script). From now on
   the hook fires on every instruction of this thread, so a pcall that catches it cannot go on. */
static void clua_raise_budget(lua_State *L, lua_Debug *ar, const char *what) {
    clua_Control *c = clua_control(L);
    lua_sethook(L, clua_budget_hook, LUA_MASKCOUNT, 1);
    if (c->budget_at[0] != '\0')
        lua_pushfstring(L, "%s: ", c->budget_at); /* where it ran out, also when raised again after a pcall caught it */
    else if (lua_getinfo(L, "Sl", ar) && ar->currentline > 0)
        lua_pushfstring(L, "%s:%d: ", ar->short_src, ar->currentline);
    else
        lua_pushliteral(L, "");
    if (what == NULL)
        lua_pushfstring(L, "instruction budget exceeded (%I instructions): the script may loop forever",
                        (LUAI_UACINT)c->instruction_budget);
    else
        lua_pushfstring(L, "instruction budget exceeded (%I instructions), spent by %s "
                        "(work inside a single call or operator counts too)",
                        (LUAI_UACINT)c->instruction_budget, what);
    lua_concat(L, 2);
    lua_error(L);
}

void clua_interrupt_set(int *flag) { __atomic_store_n(flag, 1, __ATOMIC_SEQ_CST); }

int clua_interrupt_get(const int *flag) { return __atomic_load_n(flag, __ATOMIC_RELAXED); }

/* The run was stopped (a signal): raised at the line running, and at every instruction after it,
   so no pcall can keep the scenario going. */
static void clua_raise_interrupted(lua_State *L, lua_Debug *ar) {
    clua_Control *c = clua_control(L);
    c->interrupted = 1;
    lua_sethook(L, clua_budget_hook, LUA_MASKCOUNT, 1);
    if (ar != NULL && lua_getinfo(L, "Sl", ar) && ar->currentline > 0)
        lua_pushfstring(L, "%s:%d: interrupted: the run was stopped", ar->short_src, ar->currentline);
    else
        lua_pushliteral(L, "interrupted: the run was stopped");
    lua_error(L);
}

long long clua_now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

/* The scenario ran past its time limit: raised at the line running (noted the first time), and at every
   instruction after it, so no pcall or coroutine keeps the scenario going. */
static void clua_raise_timeout(lua_State *L, lua_Debug *ar) {
    clua_Control *c = clua_control(L);
    if (!c->timed_out) {
        c->timed_out = 1;
        if (ar != NULL && lua_getinfo(L, "Sl", ar) && ar->currentline > 0)
            snprintf(c->timed_out_at, sizeof c->timed_out_at, "%s:%d", ar->short_src, ar->currentline);
        else
            c->timed_out_at[0] = '\0';
    }
    lua_sethook(L, clua_budget_hook, LUA_MASKCOUNT, 1);
    if (c->timed_out_at[0] != '\0') lua_pushfstring(L, "%s: ", c->timed_out_at);
    else lua_pushliteral(L, "");
    if (c->timeout_seconds == (double)(long long)c->timeout_seconds) /* 2s, not 2.0s */
        lua_pushfstring(L, "timeout: ran longer than %Is (--timeout) in its own Lua code",
                        (LUAI_UACINT)c->timeout_seconds);
    else
        lua_pushfstring(L, "timeout: ran longer than %fs (--timeout) in its own Lua code",
                        (LUAI_UACNUMBER)c->timeout_seconds);
    lua_concat(L, 2);
    lua_error(L);
}

/* Whether the scenario's time limit has passed (checked every hook interval: a clock read per thousand instructions). */
static int clua_past_deadline(clua_Control *c) {
    return c->deadline_ns != 0 && (c->timed_out || clua_now_ns() > c->deadline_ns);
}

/* The count hook: raises (so it must be C); once tripped it raises on every instruction so pcall cannot swallow it. */
static void clua_budget_hook(lua_State *L, lua_Debug *ar) {
    clua_Control *c = clua_control(L);
    if (c->interrupt != NULL && clua_interrupt_get(c->interrupt)) clua_raise_interrupted(L, ar);
    if (clua_past_deadline(c)) clua_raise_timeout(L, ar);
    if (!c->budget_tripped) {
        c->instructions += lua_gethookcount(L);
        if (c->instruction_budget == 0 || c->instructions <= c->instruction_budget) return;
        c->budget_tripped = 1;
        clua_note_budget_at(c, L, ar);
    }
    clua_raise_budget(L, ar, c->budget_by); /* raised again after a pcall: still what spent it */
}

long long clua_budget_left(lua_State *L) {
    clua_Control *c = clua_control(L);
    if (c->instruction_budget == 0) return LLONG_MAX;
    if (c->budget_tripped || c->instructions >= c->instruction_budget) return 0;
    return c->instruction_budget - c->instructions;
}

void clua_budget_checkpoint(lua_State *L, long long *steps, long long *limit, const char *what) {
    clua_Control *c = clua_control(L);
    long long left;
    clua_budget_charge(L, *steps, what);
    *steps = 0;
    if (c->interrupt != NULL && clua_interrupt_get(c->interrupt)) {
        lua_Debug ar;
        clua_raise_interrupted(L, lua_getstack(L, 1, &ar) ? &ar : NULL);
    }
    if (clua_past_deadline(c)) {
        lua_Debug ar;
        clua_raise_timeout(L, lua_getstack(L, 1, &ar) ? &ar : NULL);
    }
    left = clua_budget_left(L);
    *limit = left < (1LL << 20) ? left : (1LL << 20); /* look at the interruption again after a million steps */
}

void clua_check_limits(lua_State *L) {
    clua_Control *c = clua_control(L);
    lua_Debug ar;
    if (c->interrupt != NULL && clua_interrupt_get(c->interrupt))
        clua_raise_interrupted(L, lua_getstack(L, 1, &ar) ? &ar : NULL);
    if (clua_past_deadline(c)) clua_raise_timeout(L, lua_getstack(L, 1, &ar) ? &ar : NULL);
}

void clua_budget_charge(lua_State *L, long long work, const char *what) {
    clua_Control *c = clua_control(L);
    lua_Debug ar;
    if (c->instruction_budget == 0 || work <= 0) return;
    if (!c->budget_tripped) {
        c->instructions += work;
        if (c->instructions <= c->instruction_budget) return;
        c->budget_tripped = 1;
        c->budget_by = what;
        if (lua_getstack(L, 1, &ar)) clua_note_budget_at(c, L, &ar); /* the Lua line that called the C function */
        else c->budget_at[0] = '\0';
    }
    if (!lua_getstack(L, 1, &ar)) lua_getstack(L, 0, &ar);
    clua_raise_budget(L, &ar, what);
}

void clua_resetlimits(lua_State *L) {
    clua_Control *c = clua_control(L);
    c->instructions = 0;
    c->budget_tripped = 0;
    c->budget_armed = 1;
    c->budget_by = NULL;
    c->budget_at[0] = '\0';
    c->memory_raised = 0;
    c->refused_last = 0;
    c->interrupted = 0;
    c->timed_out = 0;
    c->timed_out_at[0] = '\0';
    c->pending_charge = 0;
    if (c->instruction_budget != 0 || c->interrupt != NULL || c->deadline_ns != 0)
        lua_sethook(L, clua_budget_hook, LUA_MASKCOUNT, CLUA_HOOK_INTERVAL);
    else
        lua_sethook(L, NULL, 0, 0);
}

/* __gc of a box: hand the retain back to Swift (with the cap off: Swift is now on the stack). */
static int clua_box_gc(lua_State *L) {
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

/* registry: thread -> true for each coroutine that called Swift since clua_forgetdrivers (see
   clua_suspendeddriver). Held strongly: a suspended coroutine nothing else refers to would be collected,
   and its unfinished steps with it. The table's entry under its own key counts the threads; past a
   threshold the finished ones are let go (so a loop of many short coroutines keeps few). */
static char clua_drivers_key;

/* Whether coroutine `co` has finished (returned or raised): not suspended, and no frame left. */
static int clua_thread_finished(lua_State *co) {
    lua_Debug ar;
    return lua_status(co) != LUA_YIELD && !lua_getstack(co, 0, &ar);
}

/* Lets go of the finished threads in the drivers table at `t`; returns how many are left. */
static lua_Integer clua_sweepdrivers(lua_State *L, int t) {
    lua_Integer left = 0;
    lua_pushnil(L);
    while (lua_next(L, t) != 0) {
        lua_State *co = lua_tothread(L, -2);
        lua_pop(L, 1);
        if (co == NULL) continue; /* the count */
        if (clua_thread_finished(co)) {
            lua_pushvalue(L, -1);
            lua_pushnil(L);
            lua_rawset(L, t);
        } else {
            left++;
        }
    }
    return left;
}

/* Notes the running coroutine (not the main thread) as one that called Swift. May raise only for
   memory, before any Swift frame is on the stack. */
static void clua_notedriver(lua_State *L) {
    int t;
    lua_Integer count;
    if (lua_pushthread(L)) { /* the main thread */
        lua_pop(L, 1);
        return;
    }
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &clua_drivers_key) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_createtable(L, 0, 2);
        lua_pushvalue(L, -1);
        lua_rawsetp(L, LUA_REGISTRYINDEX, &clua_drivers_key);
    }
    t = lua_gettop(L);
    lua_pushvalue(L, t - 1);
    if (lua_rawget(L, t) != LUA_TNIL) { /* noted already */
        lua_pop(L, 3);
        return;
    }
    lua_pop(L, 1);
    lua_rawgetp(L, t, &clua_drivers_key);
    count = lua_tointeger(L, -1) + 1;
    lua_pop(L, 1);
    if (count > 64 && (count & (count - 1)) == 0) count = clua_sweepdrivers(L, t) + 1; /* at each power of two */
    lua_pushinteger(L, count);
    lua_rawsetp(L, t, &clua_drivers_key);
    lua_pushvalue(L, t - 1);
    lua_pushboolean(L, 1);
    lua_rawset(L, t);
    lua_pop(L, 2);
}

int clua_notedriverfn(lua_State *L) {
    clua_notedriver(L);
    return 0;
}

void clua_forgetdrivers(lua_State *L) {
    lua_pushnil(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &clua_drivers_key);
}

int clua_suspendeddriver(lua_State *L, lua_Debug *ar) {
    int found = 0;
    if (!lua_checkstack(L, 4)) return 0;
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &clua_drivers_key) != LUA_TTABLE) {
        lua_pop(L, 1);
        return 0;
    }
    lua_pushnil(L);
    while (!found && lua_next(L, -2) != 0) {
        lua_State *co = lua_tothread(L, -2);
        if (co != NULL && lua_status(co) == LUA_YIELD) {
            int level;
            for (level = 0; level < 8 && lua_getstack(co, level, ar); level++) {
                if (lua_getinfo(co, "Sl", ar) && ar->currentline > 0) {
                    found = 1;
                    break;
                }
            }
        }
        lua_pop(L, 1);
    }
    lua_settop(L, lua_gettop(L) - (found ? 2 : 1)); /* the key left by a break, and the table */
    return found;
}

/* Calls the Swift context `object` for the running C function and raises
   its error, if any, from here — after the Swift frame has returned. */
static int clua_invoke(lua_State *L, void *object) {
    clua_Control *c = clua_control(L);
    int saved_side = c->lua_side;
    lua_State *saved_current = c->current;
    int n;
    clua_notedriver(L); /* a coroutine, also one calling from a callback a C function made (gsub's, sort's) */
    c->lua_side = 0; /* Swift is on the stack: the allocator must not refuse */
    c->current = L;
    n = c->dispatch(L, object);
    c->lua_side = saved_side;
    c->current = saved_current;
    if (c->pending_charge > 0) { /* charged here, in C: it may raise the budget error, which must not cross Swift */
        long long work = c->pending_charge;
        c->pending_charge = 0;
        clua_budget_charge(L, work, "navscript's own functions (copying their arguments, reading the app's events)");
    }
    if (n >= 0) return n;
    if (n == CLUA_RAISE_WHERE && lua_type(L, -1) == LUA_TSTRING) {
        luaL_where(L, 1);
        lua_insert(L, -2);
        lua_concat(L, 2);
    }
    return lua_error(L);
}

int clua_trampoline(lua_State *L) {
    clua_Box *box = (clua_Box *)lua_touserdata(L, lua_upvalueindex(1));
    return clua_invoke(L, box->object);
}

/* A function whose upvalue is the Swift context itself (a light userdata),
   owned by the LuaState for as long as the state lives. */
static int clua_trampoline_owned(lua_State *L) {
    return clua_invoke(L, lua_touserdata(L, lua_upvalueindex(1)));
}

void clua_pushownedswiftfunction(lua_State *L, void *object) {
    lua_pushlightuserdata(L, object);
    lua_pushcclosure(L, clua_trampoline_owned, 1);
}

void clua_pushswiftfunction(lua_State *L, void *retained) {
    clua_Control *c = clua_control(L);
    clua_Box *box = (clua_Box *)lua_newuserdatauv(L, sizeof(clua_Box), 0);
    box->object = retained;
    c->boxes++;
    lua_rawgeti(L, LUA_REGISTRYINDEX, c->callback_meta_ref);
    lua_setmetatable(L, -2);
    lua_pushcclosure(L, clua_trampoline, 1);
}

int clua_pushhostobject(lua_State *L, void *object, void *(*retain)(void *)) {
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

void *clua_tohostobject(lua_State *L, int idx) {
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

void clua_pushhostmeta(lua_State *L) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, clua_control(L)->host_meta_ref);
}

/* `tostring(error)` for a table raised with a __tostring: run protected (the
   metamethod may fail, or spend the budget), a string result kept. */
static int clua_tostring_body(lua_State *L) {
    luaL_tolstring(L, 1, NULL);
    return 1;
}

/* The bridge's message handler: stores a full traceback in the registry and keeps the error value
   unchanged. A table error with its own __tostring also leaves what that says: the message a script's
   author wrote for it (`error(setmetatable(t, { __tostring = … }))`). */
static int clua_msgh(lua_State *L) {
    clua_Control *c = clua_control(L);
    c->cap_suspended++; /* the traceback must not fail for want of memory near the cap */
    luaL_traceback(L, L, NULL, 1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &c->traceback_key);
    c->cap_suspended--;
    lua_settop(L, 1);
    if (lua_type(L, 1) == LUA_TTABLE && luaL_getmetafield(L, 1, "__tostring") != LUA_TNIL) {
        lua_pop(L, 1);
        lua_pushcfunction(L, clua_tostring_body);
        lua_pushvalue(L, 1);
        if (lua_pcall(L, 1, 1, 0) == LUA_OK && lua_type(L, -1) == LUA_TSTRING) {
            lua_rawsetp(L, LUA_REGISTRYINDEX, &c->tostring_key);
        }
        lua_settop(L, 1);
    }
    return 1;
}

int clua_bridgecall(lua_State *L, int nargs, int nresults) {
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

void clua_taketostring(lua_State *L) {
    clua_Control *c = clua_control(L);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &c->tostring_key);
    lua_pushnil(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &c->tostring_key);
}

void clua_taketraceback(lua_State *L) {
    clua_Control *c = clua_control(L);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &c->traceback_key);
    lua_pushnil(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &c->traceback_key);
}

/* luaL_ref may raise (memory); run it in protected mode. Returns LUA_NOREF on failure. Pops nothing: refs the value at idx. */
static int clua_ref_body(lua_State *L) {
    lua_pushinteger(L, luaL_ref(L, LUA_REGISTRYINDEX));
    return 1;
}

int clua_ref(lua_State *L, int idx) {
    int ref = LUA_NOREF;
    idx = lua_absindex(L, idx);
    if (!lua_checkstack(L, 3)) return LUA_NOREF;
    lua_pushcfunction(L, clua_ref_body);
    lua_pushvalue(L, idx);
    if (lua_pcall(L, 1, 1, 0) == LUA_OK) ref = (int)lua_tointeger(L, -1);
    lua_settop(L, -2);
    return ref;
}

void clua_unref(lua_State *L, int ref) {
    if (lua_checkstack(L, 2)) luaL_unref(L, LUA_REGISTRYINDEX, ref);
}

/* Whether `source` is one of the chunk names in clua_callerline's upvalues. */
static int clua_callerline_skips(lua_State *L, const char *source) {
    int i;
    for (i = 1; lua_type(L, lua_upvalueindex(i)) == LUA_TSTRING; i++) {
        if (strcmp(source, lua_tostring(L, lua_upvalueindex(i))) == 0) return 1;
    }
    return 0;
}

int clua_callerline(lua_State *L) {
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

/* __index of a record's metatable: a name the record's type declares reads nil (an optional field
   left out); any other name is a mistake (`outcome.stauts` read nil and every comparison with it
   passed), raised at the reading line. Upvalues: the type's name, the set of its fields, their list. */
static int clua_record_index(lua_State *L) {
    if (lua_type(L, 2) == LUA_TSTRING) {
        lua_pushvalue(L, 2);
        if (lua_rawget(L, lua_upvalueindex(2)) == LUA_TNIL) {
            return luaL_error(L, "%s has no field '%s'; it has %s", lua_tostring(L, lua_upvalueindex(1)),
                              lua_tostring(L, 2), lua_tostring(L, lua_upvalueindex(3)));
        }
    }
    lua_pushnil(L);
    return 1;
}

/* Pushes the registry key of `type`'s record metatable. */
static void clua_pushrecordkey(lua_State *L, const char *type) {
    lua_pushliteral(L, "navscript.record ");
    lua_pushstring(L, type);
    lua_concat(L, 2);
}

int clua_setknownrecordmeta(lua_State *L, const char *type) {
    clua_pushrecordkey(L, type);
    if (lua_rawget(L, LUA_REGISTRYINDEX) != LUA_TTABLE) {
        lua_pop(L, 1);
        return 0;
    }
    lua_setmetatable(L, -2);
    return 1;
}

void clua_setrecordmeta(lua_State *L, const char *type, const char *const *fields, int count) {
    int i;
    clua_pushrecordkey(L, type);                        /* ... table key */
    lua_pushvalue(L, -1);
    if (lua_rawget(L, LUA_REGISTRYINDEX) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_createtable(L, 0, 3);                       /* ... table key mt */
        /* A light userdata no script can make: a forged `__record` is still a proxy. */
        lua_pushlightuserdata(L, (void *)&clua_record_index);
        lua_setfield(L, -2, "__record");
        /* Protected: a script can neither take it for a table of its own nor change it. */
        lua_pushliteral(L, "navscript.record");
        lua_setfield(L, -2, "__metatable");
        lua_pushstring(L, type);                        /* ... mt type */
        lua_createtable(L, 0, count);                   /* ... mt type set */
        for (i = 0; i < count; i++) {
            lua_pushboolean(L, 1);
            lua_setfield(L, -2, fields[i]);
        }
        lua_pushliteral(L, "");                         /* ... mt type set list */
        for (i = 0; i < count; i++) {
            if (i > 0) {
                lua_pushliteral(L, ", ");
                lua_concat(L, 2);
            }
            lua_pushstring(L, fields[i]);
            lua_concat(L, 2);
        }
        lua_pushcclosure(L, clua_record_index, 3);      /* ... table key mt index */
        lua_setfield(L, -2, "__index");
        lua_pushvalue(L, -2);
        lua_pushvalue(L, -2);
        lua_rawset(L, LUA_REGISTRYINDEX);               /* registry[key] = mt */
    }
    lua_remove(L, -2);                                  /* ... table mt */
    lua_setmetatable(L, -2);
}

int clua_isrecord(lua_State *L, int index) {
    int record;
    if (!lua_getmetatable(L, index)) return 0;
    lua_pushliteral(L, "__record");
    record = lua_rawget(L, -2) == LUA_TLIGHTUSERDATA && lua_touserdata(L, -1) == (void *)&clua_record_index;
    lua_pop(L, 2);
    return record;
}

int clua_iswrapped(lua_State *L) {
    int wrapped = 0;
    if (lua_iscfunction(L, 1) && lua_getupvalue(L, 1, 1) != NULL) {
        wrapped = lua_type(L, -1) == LUA_TTHREAD;
        lua_pop(L, 1);
    }
    lua_pushboolean(L, wrapped);
    return 1;
}

/* Makes table `t` (absolute index) hold exactly the fields of table `copy` (absolute index). */
static void clua_restorefields(lua_State *L, int t, int copy) {
    lua_pushnil(L);
    while (lua_next(L, t) != 0) { /* a field the copy lacks goes (setting a field nil keeps next valid) */
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
        if (lua_rawget(L, copy) == LUA_TNIL) {
            lua_pushvalue(L, -2);
            lua_pushnil(L);
            lua_rawset(L, t);
        }
        lua_pop(L, 1);
    }
    lua_pushnil(L);
    while (lua_next(L, copy) != 0) { /* key value */
        lua_pushvalue(L, -2);
        lua_rawget(L, t);
        if (!lua_rawequal(L, -1, -2)) {
            lua_pop(L, 1);
            lua_pushvalue(L, -2);
            lua_insert(L, -2); /* key key value */
            lua_rawset(L, t);
        } else {
            lua_pop(L, 2);
        }
    }
}

#define CLUA_SNAPSHOT_ENTRIES 100000

/* Whether the value at `index` is a table the snapshot keeps (see clua_snapshotmodules): not the
   global table, package, the module tables themselves or a library. */
static int clua_snapshot_shared(lua_State *L, int index) {
    lua_Integer i, n;
    if (lua_type(L, index) != LUA_TTABLE) return 0;
    index = lua_absindex(L, index);
    if (lua_rawequal(L, index, 2) || lua_rawequal(L, index, 3)) return 0;
    n = (lua_Integer)lua_rawlen(L, 1);
    for (i = 1; i <= n; i++) {
        int same;
        lua_rawgeti(L, 1, i);
        same = lua_rawequal(L, index, -1);
        lua_pop(L, 1);
        if (same) return 0;
    }
    lua_pushvalue(L, index);
    n = lua_rawget(L, 4) != LUA_TNIL;
    lua_pop(L, 1);
    return !n;
}

/* Marks the value at `index` seen (fields[value] = false) and appends it to the array at `below`,
   when it is a shared table not seen before. */
static void clua_snapshot_visit(lua_State *L, int index, int fields, int below) {
    int seen;
    index = lua_absindex(L, index);
    if (!clua_snapshot_shared(L, index)) return;
    lua_pushvalue(L, index);
    seen = lua_rawget(L, fields) != LUA_TNIL;
    lua_pop(L, 1);
    if (seen) return;
    lua_pushvalue(L, index);
    lua_pushboolean(L, 0);
    lua_rawset(L, fields);
    lua_pushvalue(L, index);
    lua_rawseti(L, below, (lua_Integer)lua_rawlen(L, below) + 1);
}

/* The upvalues of the functions in the array at `functions` (not of the functions those hold: a helper's
   own locals are its own, as a module's are): each upvalue (by its identity, shared by the closures that
   share it) -> { function, n, value }, into the table at `upvalues`; a table value is visited as a
   module's field is. */
static void clua_snapshot_upvalues(lua_State *L, int functions, int upvalues, int fields, int level, lua_Integer *entries) {
    lua_Integer i, n, head = 1, tail = 0;
    int queue, seen;
    lua_newtable(L);
    queue = lua_gettop(L);
    lua_newtable(L);
    seen = lua_gettop(L);
    n = (lua_Integer)lua_rawlen(L, functions);
    for (i = 1; i <= n + 1; i++) { /* the given functions, then (i = n + 1) the ones reached, one by one */
        if (i <= n) {
            if (lua_rawgeti(L, functions, i) != LUA_TFUNCTION) {
                lua_pop(L, 1);
                continue;
            }
            lua_pushvalue(L, -1);
            if (lua_rawget(L, seen) != LUA_TNIL) {
                lua_pop(L, 2);
                continue;
            }
            lua_pop(L, 1);
            lua_pushvalue(L, -1);
            lua_pushboolean(L, 1);
            lua_rawset(L, seen);
            lua_rawseti(L, queue, ++tail);
            continue;
        }
        while (head <= tail && *entries < CLUA_SNAPSHOT_ENTRIES) {
            int f, up;
            lua_rawgeti(L, queue, head++);
            f = lua_gettop(L);
            for (up = 1; lua_getupvalue(L, f, up) != NULL; up++) { /* its value on top */
                (*entries)++;
                if (lua_rawgetp(L, upvalues, lua_upvalueid(L, f, up)) == LUA_TNIL) {
                    lua_pop(L, 1);
                    lua_createtable(L, 3, 0);
                    lua_pushvalue(L, f);
                    lua_rawseti(L, -2, 1);
                    lua_pushinteger(L, up);
                    lua_rawseti(L, -2, 2);
                    lua_pushvalue(L, -2);
                    lua_rawseti(L, -2, 3);
                    lua_rawsetp(L, upvalues, lua_upvalueid(L, f, up));
                    clua_snapshot_visit(L, -1, fields, level);
                } else {
                    lua_pop(L, 1);
                }
                lua_pop(L, 1);
            }
            lua_settop(L, f - 1);
        }
    }
    lua_settop(L, queue - 1);
}

int clua_snapshotmodules(lua_State *L) {
    lua_Integer i, n, entries = 0;
    int copies, fields, metas, upvalues, level;
    luaL_checkstack(L, 24, NULL);
    lua_settop(L, 5);
    n = (lua_Integer)lua_rawlen(L, 1);
    lua_createtable(L, (int)n, 0);
    copies = lua_gettop(L);
    for (i = 1; i <= n; i++) {
        int t;
        lua_rawgeti(L, 1, i);
        t = lua_gettop(L);
        lua_newtable(L);
        if (lua_type(L, t) == LUA_TTABLE) {
            lua_pushnil(L);
            while (lua_next(L, t) != 0) {
                lua_pushvalue(L, -2);
                lua_insert(L, -2);
                lua_rawset(L, t + 1);
            }
        }
        lua_rawseti(L, copies, i);
        lua_pop(L, 1);
    }
    lua_newtable(L);
    fields = lua_gettop(L);
    lua_newtable(L);
    metas = lua_gettop(L);
    lua_newtable(L);
    upvalues = lua_gettop(L);
    lua_newtable(L);
    level = lua_gettop(L);
    /* package's own fields are navscript's; what is set on it (package.path) is put back too. */
    lua_pushvalue(L, 2);
    lua_pushboolean(L, 0);
    lua_rawset(L, fields);
    lua_pushvalue(L, 2);
    lua_rawseti(L, level, 1);
    /* So are the global table's: its own fields are the file's globals (the language's and Lua's are
       behind its __index). A scenario's stub of a helper a support module or the top level made global,
       or a global it added, would run every scenario after it. */
    lua_pushvalue(L, 3);
    lua_pushboolean(L, 0);
    lua_rawset(L, fields);
    lua_pushvalue(L, 3);
    lua_rawseti(L, level, 2);
    if (lua_rawgeti(L, 1, 1) == LUA_TTABLE) { /* package.loaded: the modules */
        int loaded = lua_gettop(L);
        lua_pushnil(L);
        while (lua_next(L, loaded) != 0) {
            int library = 0;
            if (lua_type(L, -1) == LUA_TTABLE) {
                lua_pushvalue(L, -1);
                library = lua_rawget(L, 4) != LUA_TNIL;
                lua_pop(L, 1);
            }
            if (library) { /* a library: its own fields only (the file's additions) */
                lua_pushvalue(L, -1);
                if (lua_rawget(L, fields) == LUA_TNIL) {
                    lua_pushvalue(L, -2);
                    lua_pushboolean(L, 0);
                    lua_rawset(L, fields);
                    lua_pushvalue(L, -2);
                    lua_rawseti(L, level, (lua_Integer)lua_rawlen(L, level) + 1);
                }
                lua_pop(L, 1);
            } else {
                clua_snapshot_visit(L, -1, fields, level);
            }
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
    /* The file's own local variables: the upvalues of its scenarios' bodies and hooks (and of the
       functions those reach), and the tables they hold. */
    if (lua_type(L, 5) == LUA_TTABLE) clua_snapshot_upvalues(L, 5, upvalues, fields, level, &entries);
    while (lua_rawgeti(L, level, 1) != LUA_TNIL && entries < CLUA_SNAPSHOT_ENTRIES) {
        int below;
        lua_pop(L, 1);
        lua_newtable(L);
        below = lua_gettop(L);
        n = (lua_Integer)lua_rawlen(L, level);
        for (i = 1; i <= n && entries < CLUA_SNAPSHOT_ENTRIES; i++) {
            int t, copy, library;
            lua_rawgeti(L, level, i);
            t = lua_gettop(L);
            lua_newtable(L);
            copy = t + 1;
            lua_pushnil(L);
            while (lua_next(L, t) != 0) { /* key value */
                lua_pushvalue(L, -2);
                lua_pushvalue(L, -2);
                lua_rawset(L, copy);
                entries++;
                clua_snapshot_visit(L, -1, fields, below);
                lua_pop(L, 1);
            }
            lua_pushvalue(L, t);
            lua_pushvalue(L, copy);
            lua_rawset(L, fields);
            lua_pushvalue(L, t);
            library = lua_rawget(L, 4) != LUA_TNIL;
            lua_pop(L, 1);
            if (!library && !lua_rawequal(L, t, 2) && !lua_rawequal(L, t, 3)) {
                lua_pushvalue(L, t);
                if (lua_getmetatable(L, t)) { /* raw: a __metatable field does not hide it */
                    lua_pushvalue(L, -1);
                    lua_insert(L, -3); /* mt t mt */
                    lua_rawset(L, metas);
                    clua_snapshot_visit(L, -1, fields, below);
                    lua_pop(L, 1);
                } else {
                    lua_pushboolean(L, 0);
                    lua_rawset(L, metas);
                }
            }
            lua_settop(L, below);
        }
        lua_replace(L, level); /* the next level down */
    }
    lua_settop(L, upvalues); /* copies fields metas upvalues */
    return 4;
}

int clua_restoremodules(lua_State *L) {
    lua_Integer i, n;
    luaL_checkstack(L, 8, NULL);
    n = (lua_Integer)lua_rawlen(L, 1);
    for (i = 1; i <= n; i++) {
        int t, copy;
        if (lua_rawgeti(L, 1, i) != LUA_TTABLE) { lua_pop(L, 1); continue; }
        t = lua_gettop(L);
        if (lua_rawgeti(L, 2, i) != LUA_TTABLE) { lua_pop(L, 2); continue; }
        copy = lua_gettop(L);
        clua_restorefields(L, t, copy);
        lua_pop(L, 2);
    }
    lua_pushnil(L);
    while (lua_next(L, 3) != 0) { /* table, its metatable then or false */
        if (lua_type(L, -2) == LUA_TTABLE) {
            int had = lua_toboolean(L, -1);
            int now = lua_getmetatable(L, -2); /* raw: a __metatable field does not hide it */
            int same = now && had && lua_rawequal(L, -1, -2);
            if (now) lua_pop(L, 1);
            if (!same && (now || had)) {
                if (had) lua_pushvalue(L, -1); else lua_pushnil(L);
                lua_setmetatable(L, -3);
            }
        }
        lua_pop(L, 1);
    }
    lua_pushnil(L);
    while (lua_next(L, 4) != 0) { /* table, a copy of its fields or false */
        if (lua_type(L, -2) == LUA_TTABLE && lua_type(L, -1) == LUA_TTABLE) {
            clua_restorefields(L, lua_gettop(L) - 1, lua_gettop(L));
        }
        lua_pop(L, 1);
    }
    if (lua_type(L, 5) == LUA_TTABLE) { /* the file's local variables: { function, n, value } each */
        lua_pushnil(L);
        while (lua_next(L, 5) != 0) {
            int entry = lua_gettop(L);
            if (lua_type(L, entry) == LUA_TTABLE && lua_rawgeti(L, entry, 1) == LUA_TFUNCTION) {
                int up = (int)(lua_rawgeti(L, entry, 2), lua_tointeger(L, -1));
                lua_pop(L, 1);
                if (lua_getupvalue(L, entry + 1, up) != NULL) {
                    lua_rawgeti(L, entry, 3);
                    if (!lua_rawequal(L, -1, -2)) lua_setupvalue(L, entry + 1, up); /* pops the value kept */
                }
            }
            lua_settop(L, entry - 1);
        }
    }
    return 0;
}

int clua_loadbuffer(lua_State *L, const char *buffer, size_t size, const char *chunkname) {
    return clua_load_capped(L, buffer, size, chunkname, "t");
}

int clua_sb_resolve(lua_State *L) {
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
    if (path[0] == '/' || strcmp(c->root_display, ".") == 0) lua_pushstring(L, path); /* support/x.lua, not ./support/x.lua */
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
    if (sub == NULL && strncmp(resolved, c->root_real, rootlen) == 0 && resolved[rootlen] == '\0') {
        lua_pushnil(L);
        lua_pushfstring(L, "cannot open %s: it is the suite's folder, not a file", display);
        lua_pushvalue(L, -3);
        return 3;
    }
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

int clua_sb_loadtext(lua_State *L) {
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

int clua_opensandbox_body(lua_State *L) {
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
    clua_open_budgeted_library(L);
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
    c->budget_armed = 0; /* the preludes the host runs next are not charged (see clua_charge_allocation) */
    return 0;
}

int clua_opensandbox(lua_State *L) {
    lua_pushcfunction(L, clua_opensandbox_body);
    return lua_pcall(L, 0, 0, 0);
}

/* Lua: rootname() -> the sandbox root as the host spelled it, or nil. Read at each use: the
   root is not part of a state's image (states restored from one image serve different suites). */
static int clua_sb_rootname(lua_State *L) {
    clua_Control *c = clua_control(L);
    if (c->root_display == NULL) lua_pushnil(L);
    else lua_pushstring(L, c->root_display);
    return 1;
}

/* Lua: noteopen() -- the script is about to open a file, whose handle has a finalizer. */
static int clua_sb_noteopen(lua_State *L) {
    clua_control(L)->files_opened = 1;
    return 0;
}

/* Lua: packagepath() -> package.path for the sandbox root: <root>/support/?.lua;<root>/support/?/init.lua,
   or "" without a root. Spelled when read, like rootname (a restored state sets nothing per file). */
static int clua_sb_packagepath(lua_State *L) {
    clua_Control *c = clua_control(L);
    if (c->root_display == NULL) lua_pushliteral(L, "");
    else lua_pushfstring(L, "%s/support/?.lua;%s/support/?/init.lua", c->root_display, c->root_display);
    return 1;
}

/* The __close of a require guard (upvalues: the chain of modules loading, the guard's depth):
   drops the guard's module and any above it. C, so it runs no Lua instruction — when a spent
   budget makes every instruction raise, a Lua __close would replace the error it unwinds. */
static int clua_sb_unchain(lua_State *L) {
    lua_Integer depth = lua_tointeger(L, lua_upvalueindex(2));
    lua_Integer at;
    for (at = (lua_Integer)lua_rawlen(L, lua_upvalueindex(1)); at >= depth; at--) {
        lua_pushnil(L);
        lua_rawseti(L, lua_upvalueindex(1), at);
    }
    return 0;
}

/* Lua: unchainer(chain, depth) -> the __close function above for this guard. */
static int clua_sb_unchainer(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkinteger(L, 2);
    lua_settop(L, 2);
    lua_pushcclosure(L, clua_sb_unchain, 2);
    return 1;
}

void clua_pushsandboxhelpers(lua_State *L) {
    lua_pushcfunction(L, clua_sb_resolve);
    lua_pushcfunction(L, clua_sb_loadtext);
    lua_pushcfunction(L, clua_sb_rootname);
    lua_pushcfunction(L, clua_sb_noteopen);
    lua_pushcfunction(L, clua_sb_packagepath);
    lua_pushcfunction(L, clua_sb_unchainer);
}
