/*
 * The C half of navscript's Lua bridge: the only C it needs, compiled once
 * (shim.c, chunks.c, region.c), declared here.
 *
 * Why this file exists: a Lua error is a longjmp, and a longjmp across a Swift
 * frame is undefined behaviour. Everything that may raise therefore happens
 * here, in C: the trampoline that calls Swift and raises *after* the Swift
 * frame has returned, the instruction-budget hook, the capped allocator, the
 * message handler and the sandbox's file helpers. Lua's API macros are not
 * imported into Swift, so the few the bridge needs are wrapped below as
 * `clua_` static inline functions. No global or static mutable data lives
 * here: each Lua state carries its own clua_Control, reachable from the
 * allocator's `ud` and from lua_getextraspace. (region.c owns the one
 * process-wide block in which a state can be restored from an image;
 * chunks.c the process's cache of compiled chunks.)
 */
#ifndef NAVSCRIPT_LUA_H
#define NAVSCRIPT_LUA_H

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
    const void *refused_block; /* that refused growth's block and sizes: the retry repeats them */
    size_t refused_old;
    size_t refused_size;
    int memory_raised;        /* the cap refused Lua's retry too: after a full collection the state still does not
                                 fit, and Lua raised "not enough memory" (or, for a string table that could not
                                 grow, went on without growing it). Sticky until clua_resetlimits: a pcall that
                                 caught the error does not undo the limit. Also set at once for a block larger than
                                 the whole cap, which can never fit (lauxlib's buffers raise without a retry). (Any
                                 other allocation Lua cannot retry — during a collection — raises on its first
                                 refusal and is not noted here.) */
    char refused_at[96];      /* where Lua was when it last did, `chunk:line` (or ""): memory errors have no message handler */
    char refused_frames[320]; /* the Lua frames then, as traceback lines ("\n\tchunk:line: in …"), innermost first */
    /* instruction budget */
    long long instruction_budget; /* 0 = unlimited */
    long long instructions;       /* cumulative, counted in hook intervals */
    int budget_tripped;           /* sticky until clua_resetlimits: every later hook raises again */
    const char *budget_by;        /* the library function that spent it inside one call (a literal), or NULL */
    int budget_armed;             /* set by clua_resetlimits: the state's own set-up (preludes) is never charged */
    /* interruption: a flag the host owns (set from another thread when the run is stopped), or NULL */
    int *interrupt;
    int interrupted;              /* the hook raised the interruption: sticky until clua_resetlimits */
    char budget_at[96];           /* where it ran out, `chunk:line` (or ""): for a script that caught the error */
    /* time limit: the scenario's --timeout, checked by the hook (so a hang in Lua code is stopped at its line) */
    long long deadline_ns;        /* CLOCK_MONOTONIC nanoseconds past which the hook raises (0 = none) */
    double timeout_seconds;       /* the limit, for the message */
    int timed_out;                /* the hook raised the time limit: sticky until clua_resetlimits */
    long long pending_charge;     /* work a Swift function did for its call (copying its arguments, scanning a log), in
                                     instructions: charged against the budget by the trampoline once Swift has returned */
    char timed_out_at[96];        /* where, `chunk:line` (or "") */
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
    int chunks_from_bytecode; /* chunks this state loaded from the chunk cache's bytecode (chunks.c) */
    /* sandbox */
    char *root_real;          /* realpath of the sandbox root; NULL = no root */
    char *root_display;       /* the root as the host spelled it, used in chunk names */
    char traceback_key;       /* its address is the registry key of the last traceback */
    char tostring_key;        /* its address is the registry key of the last error's __tostring text */
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

/* LUA_ERRFILE is (LUA_ERRERR+1), an expression Swift does not import. */
static inline int clua_errfile(void) { return LUA_ERRFILE; }

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
void clua_note_refusal(clua_Control *c);

/* Whether clua_note_refusal can note anything with this Lua (5.4.0-5.4.4). */
static inline int clua_refusals_have_lines(void) { return LUA_VERSION_RELEASE_NUM <= 50404; }

/* The Lua release of the headers navscript was built with (50406 for 5.4.6): an expression macro
   Swift does not import. */
static inline int clua_release_number(void) { return LUA_VERSION_RELEASE_NUM; }

/* Where the cap last refused (see clua_note_refusal); Swift cannot index a C array field. */
static inline const char *clua_refused_at(clua_Control *c) { return c->refused_at; }
static inline const char *clua_refused_frames(clua_Control *c) { return c->refused_frames; }

/* Whether the cap refuses growing a block from `old` to `nsize` bytes: only while Lua (not Swift) runs. */
int clua_cap_refuses(clua_Control *c, const void *ptr, size_t old, size_t nsize);
/* The cap's limit was hit since the last reset, whatever caught the error (see clua_cap_refuses). */
int clua_memory_raised(const clua_Control *c);

/* What an allocator returns when the system had no memory for a block. */
void *clua_alloc_failed(clua_Control *c, void *ptr, size_t old, size_t nsize);

/* The allocator: counts bytes, refuses growth past the cap only while Lua (not Swift) is running. */
void *clua_alloc(void *ud, void *ptr, size_t osize, size_t nsize);

/* Set a zeroed control block's limits and "no reference yet" markers. */
void clua_control_init(clua_Control *c, size_t memory_limit, long long instruction_budget);

/* Allocate a zeroed control block (malloc, not the Lua allocator: it outlives the state). */
clua_Control *clua_control_new(size_t memory_limit, long long instruction_budget);

/* Free the sandbox root strings of a control block (the block itself may live in the region). */
void clua_control_clearroot(clua_Control *c);

/* Free a control block after lua_close. */
void clua_control_free(clua_Control *c);

/* Record the sandbox root, resolved (`real`) and as the host spelled it; returns 0 when out of memory. */
int clua_control_setroot(clua_Control *c, const char *real, const char *display);

/* lua_newstate with `alloc`, the control block in the extra space, and the panic handler. */
lua_State *clua_newstate_with(clua_Control *c, lua_Alloc alloc, void *ud);

/* A new state on the heap, with the capped allocator. */
lua_State *clua_newstate(clua_Control *c);

/* ---------------------------------------------------------------- instruction budget */

/* Give the state fresh limits — an instruction budget (count and trip flag), no memory error raised
   yet — and reinstall the hook on the main thread. */
void clua_resetlimits(lua_State *L);
/* CLOCK_MONOTONIC in nanoseconds: the clock deadline_ns is on. */
long long clua_now_ns(void);

/* What is left of the instruction budget (LLONG_MAX: no budget; 0: spent). */
long long clua_budget_left(lua_State *L);

/* For a C function's long loop (a pattern match): counts `*steps` against the budget, raising when
   it is spent or the run was interrupted; else sets `*limit` to when to check again. */
void clua_budget_checkpoint(lua_State *L, long long *steps, long long *limit, const char *what);

/* Sets or reads an interruption flag (atomically: set by another thread, read by the hook). */
void clua_interrupt_set(int *flag);
int clua_interrupt_get(const int *flag);

/* Counts `work` a C function did on the script's behalf (a pattern's attempts, elements moved)
   against the instruction budget, like the instructions it stands for; raises the budget error,
   naming `what`, at the calling Lua line when that spends it. Call only from a C function Lua called. */
void clua_budget_charge(lua_State *L, long long work, const char *what);

/* Raises the time limit's error or the interruption, at the calling Lua line, when either is due: what
   a library function checks on entry, since work inside one C call runs no instruction the count hook
   could see (an endless call, or a loop of slow ones, ran past --timeout and ignored SIGTERM). */
void clua_check_limits(lua_State *L);

/* Replaces the string table's (at the top of the stack) find, match, gmatch and gsub with ones
   that count their work against the budget (patterns.c). */
void clua_open_budgeted_patterns(lua_State *L);

/* The standard library's functions whose loops run inside one C call — the patterns, string.rep,
   table.move — made to count against the budget (budgeted_library.c). After the libraries open. */
void clua_open_budgeted_library(lua_State *L);

/* ---------------------------------------------------------------- Swift boxes and the trampoline */

/* The C function behind every Swift callback: calls Swift, then raises (if asked) after Swift has returned. */
/* A function whose upvalue is a box (a full userdata that owns its Swift context). */
int clua_trampoline(lua_State *L);

/* Push a Lua function over `object`, which the state keeps alive until it
   closes: no userdata, metatable or finalizer per function (scripts cannot
   reach a C function's upvalues, the debug library being absent). */
void clua_pushownedswiftfunction(lua_State *L, void *object);

/* Push a Lua function whose upvalue is a box owning `retained` (one Unmanaged retain of the Swift context). */
void clua_pushswiftfunction(lua_State *L, void *retained);

/* Push the userdata for a host object: reuse the live one for the same object, else box a new retain. */
int clua_pushhostobject(lua_State *L, void *object, void *(*retain)(void *));

/* The Swift object inside a bridge host-object userdata at idx, or NULL. Uses only non-raising calls. */
void *clua_tohostobject(lua_State *L, int idx);

/* Push the metatable every host-object userdata shares. */
void clua_pushhostmeta(lua_State *L);

/* ---------------------------------------------------------------- protected calls and errors */

/* lua_pcall is a macro: call the function below nargs arguments with the message handler and the cap on. */
int clua_bridgecall(lua_State *L, int nargs, int nresults);

/* Push the traceback the message handler stored (or nil), clearing it. */
void clua_taketraceback(lua_State *L);
/* Pushes what the last uncaught error's own __tostring said (a table raised with
   one), or nil, and forgets it. */
void clua_taketostring(lua_State *L);

int clua_ref(lua_State *L, int idx);

/* luaL_unref never raises; guarded by lua_checkstack because it pushes two values. */
void clua_unref(lua_State *L, int ref);

/* lua_gc is variadic, which Swift cannot call: a full collection (finalizers of bridge boxes are C). */
static inline void clua_gccollect(lua_State *L) { lua_gc(L, LUA_GCCOLLECT); }

/* Switch the collector to generational mode (lua_gc is variadic). Done while no finalizer is pending. */
static inline void clua_gcgenerational(lua_State *L) { lua_gc(L, LUA_GCGEN, 0, 0); }

/* lua_pushcfunction is a macro; used for the Lua-side protected helpers. */
static inline void clua_pushcfunction(lua_State *L, lua_CFunction f) { lua_pushcclosure(L, f, 0); }

/* Lua: the line of the call that led here, as its author reads it: the innermost frame in the
 * file being run (the outermost Lua frame's chunk, leaving out the chunks named by the upvalues:
 * the host's own), even when one of the file's helpers made the call; else the innermost frame
 * outside the host's chunks; else 0. In C because a DSL asks it for every declaration: a Swift
 * callback there cost a bridged call and a list of every frame. Never raises. */
int clua_callerline(lua_State *L);

/* Gives the table on top a record's metatable for `type` (made once per state, kept in the
   registry): reading a name none of `fields` is raises "<type> has no field 'x'; it has …". */
void clua_setrecordmeta(lua_State *L, const char *type, const char *const *fields, int count);
/* As clua_setrecordmeta when this state has made `type`'s metatable already (returns 1); 0, the
   table untouched, when it has not: the field names are only needed once per state. */
int clua_setknownrecordmeta(lua_State *L, const char *type);
/* Whether the value at `index` is a table with a record's metatable (no script can forge one). */
int clua_isrecord(lua_State *L, int index);

/* Whether argument 1 is a function coroutine.wrap made (a C closure holding its coroutine, a thread,
   as upvalue 1): called, it returns at the coroutine's first yield, so a body given as one stops there. */
int clua_iswrapped(lua_State *L);

/* Coroutines that called a Swift function (clua_invoke notes each in a weak table the registry
   holds): one left suspended when a scenario ends stopped at a yield after it drove the app, and the
   rest of it never ran. clua_forgetdrivers starts a new list; clua_suspendeddriver fills `ar` ("Sl")
   with the first Lua frame of one still suspended and returns 1, or returns 0. Neither raises. */
void clua_forgetdrivers(lua_State *L);
/* A Lua function (no arguments) noting the running coroutine as clua_invoke does: for a declaration
   made in Lua (the scenario prelude's), which no Swift function sees. */
int clua_notedriverfn(lua_State *L);
int clua_suspendeddriver(lua_State *L, lua_Debug *ar);

/* Takes the snapshot clua_restoremodules puts back (the scenario prelude's snapshot_modules, in C):
   arguments (1) the module tables (package.loaded, preload, searchers), (2) package, (3) the global
   table, (4) the library tables (table -> anything), (5) the file's declared functions (bodies and
   hooks: their upvalues are the file's local variables they use); returns a copy of each module table, then
   table -> a copy of its fields (false past 100,000 entries in all), then table -> its metatable
   (false: none), for package, the global table and the libraries (their own fields only: the
   file's globals, its additions) and every other table the loaded modules and the globals reach
   through fields and metatables, breadth first. Metatables are read raw: one
   a module protected with __metatable is kept too; then each upvalue of the declared functions
   -> { function, n, value }. Raises only when memory runs out. */
int clua_snapshotmodules(lua_State *L);

/* Puts the tables a file's modules live in back as a snapshot left them (the scenario prelude's
   restore_modules, in C: it runs before every scenario but a file's first, and in Lua it cost about as
   much as an empty scenario). Arguments: (1) the module tables (package.loaded, preload, searchers),
   (2) a copy of each, (3) table -> its metatable then (false: none), (4) table -> a copy of its fields
   then (false: not kept), (5) the upvalues clua_snapshotmodules kept. Raw reads and writes throughout;
   a metatable is put back even where a scenario protected the one it set. Raises only when memory runs
   out (called from Lua). */
int clua_restoremodules(lua_State *L);

/* Pushes clua_callerline with `count` chunk names (on top of the stack) as the chunks it skips. */
static inline void clua_pushcallerline(lua_State *L, int count) { lua_pushcclosure(L, clua_callerline, count); }

/* ---------------------------------------------------------------- loading chunks */

/* Files and navscript's own chunks load through the process's chunk cache (clua_loadfile, clua_loadcached). */
/*
 * CLua chunk cache: the chunks the bridge compiles from files (scenario
 * files, support modules) and navscript's own Lua (the preludes), kept as
 * bytecode with their debug information for the life of the process.
 *
 * Why: parsing is the largest cost of loading a small file, larger than
 * restoring the state it runs in, and one process compiles the same text
 * again and again — a support module for every file that requires it,
 * every file once per fault under `mutate`, the preludes for every state
 * prepared. Loading the dump gives the same function (source name, lines,
 * local names and _ENV are kept, so messages and tracebacks do not change)
 * for a fraction of the cost. The one difference a script could see is
 * memory: loading a dump allocates less than parsing the text.
 *
 * When a chunk is dumped: a file's on its second compile. Most files run
 * once per process (`navscript run`), and dumping costs a fair part of what
 * loading the dump later saves, so a first compile notes only the chunk's
 * name, length and a hash of its bytes. navscript's preludes are dumped on
 * their first compile (they are loaded again for sure).
 *
 * An entry with bytecode is found by chunk name, header handling and the
 * exact bytes compiled (kept with it and compared whole): a file edited
 * since is compiled again. Bytecode only ever comes from a dump of text
 * this cache compiled itself; scripts still cannot load binary chunks by
 * any path. Entries are never freed (a thread may be loading one while
 * another looks up), so the cache stops storing at CLUA_CHUNKS_LIMIT bytes
 * (the preludes always fit) and keeps no source over CLUA_CHUNK_MAX bytes.
 *
 * The cache is one static in chunks.c (one owner, whatever imports the
 * header); a mutex guards it for states on different threads.
 */

#include <pthread.h>
#include <stdint.h>

#if defined(__linux__) && !defined(O_NOATIME)
#define O_NOATIME 01000000 /* <fcntl.h> declares it only with _GNU_SOURCE */
#endif
#ifndef O_NOATIME
#define O_NOATIME 0
#endif

/* Bytes of entries, names, sources and bytecode the cache holds at most. */
#define CLUA_CHUNKS_LIMIT ((size_t)64 << 20)
/* Sources longer than this are compiled every time (a generated or data file, not a scenario). */
#define CLUA_CHUNK_MAX ((size_t)1 << 20)
/* A file longer than this is not read without a memory limit (with one, the limit is the bound). */
#define CLUA_FILE_MAX ((size_t)256 << 20)
#define CLUA_CHUNKS_BUCKETS 512

typedef struct clua_Chunk {
    struct clua_Chunk *next;
    uint64_t name_hash;
    uint64_t source_hash;
    size_t source_length;
    size_t bytecode_length;
    int file_header;           /* loaded as a file (a BOM and a first '#' line skipped) */
    char *name;                /* the chunk name, NUL-terminated, after the entry */
    char *source;              /* the exact bytes compiled, once there is bytecode; NULL before */
    unsigned char *bytecode;   /* lua_dump of the compiled function with debug information; NULL before */
} clua_Chunk;

typedef struct clua_ChunkCache {
    pthread_mutex_t lock;
    clua_Chunk *buckets[CLUA_CHUNKS_BUCKETS];
    size_t bytes;              /* entries, names, sources and bytecode held */
    size_t entries;
    size_t hits;               /* loads served from bytecode */
    size_t compiles;           /* loads that compiled text */
} clua_ChunkCache;


/* What the cache knows of a chunk. */
enum { CLUA_CHUNK_UNKNOWN, CLUA_CHUNK_COMPILED_ONCE, CLUA_CHUNK_BYTECODE };

/* A chunk's key: its name, how it is loaded and its bytes. */
typedef struct clua_ChunkKey {
    const char *source;
    size_t length;
    const char *name;
    int file_header;
    uint64_t name_hash;
    uint64_t source_hash;
} clua_ChunkKey;

/* Whether these bytes named `name` have bytecode (a state being prepared for the image compiles
 * elsewhere first; tests). `file_header` as for clua_loadcached. */
int clua_chunks_contains(const char *source, size_t length, const char *name, int file_header);

/* The cache's figures (for tests and benchmarks). */
void clua_chunks_statistics(size_t *entries, size_t *bytes, size_t *hits, size_t *compiles);

/* ---------------------------------------------------------------- loading through the cache */

/* One piece of memory handed to lua_load at once. */
typedef struct clua_Piece {
    const char *data;
    size_t size;
} clua_Piece;

/* lua_load of one piece of memory with the cap on (Lua allocates; lua_load is internally protected).
 * `mode` is "t" for text, "b" only for the cache's own bytecode. */
int clua_load_capped(lua_State *L, const char *data, size_t size, const char *chunkname,
                                   const char *mode);

/* A growing buffer lua_dump writes into. */
typedef struct clua_DumpBuffer {
    unsigned char *data;
    size_t size;
    size_t capacity;
    int failed;
} clua_DumpBuffer;

/* Pushes the function of `source` named `chunkname`, loaded from the cache's bytecode or compiled as
 * text (and remembered; `dump_now` dumps on the first compile). With `file_header`, a UTF-8 BOM and a
 * first line starting with '#' are skipped as luaL_loadfilex does (the line's newline is kept, so line
 * numbers do not move). The cap is on while Lua allocates; lua_load is internally protected. Returns
 * lua_load's status (the message on top on error). */
/* A digest of the Lua function at `index` (its bytecode with debug information, FNV-1a), or 0 for a
   C function or what is no function. Two functions written on one line differ. Never raises. */
uint64_t clua_function_digest(lua_State *L, int index);

int clua_loadcached(lua_State *L, const char *source, size_t length, const char *chunkname,
                                  int file_header, int dump_now);

/* Loads a file as a chunk named `chunkname` through the cache. The file is read whole with plain
 * read(2) (no FILE: stdio allocated a stream and a second buffer and asked fstat for every file), up
 * to the state's memory limit (CLUA_FILE_MAX without one): the text is held outside the state. It is
 * opened with O_NOATIME where the process may (it owns the file): a freshly checked-out file has an
 * access time older than its modification time, which relatime updates on the first read — a
 * metadata write per scenario file per run (≈ 2.5% of a file's first run in the paired benchmark). */
int clua_loadfile(lua_State *L, const char *path, const char *chunkname);



/* Load a buffer as a text chunk (never binary); cap on while parsing. */
int clua_loadbuffer(lua_State *L, const char *buffer, size_t size, const char *chunkname);

/* ---------------------------------------------------------------- sandbox */

/* Lua: resolve(path [, subdir]) -> realpath, display | nil, message, display. Only files inside <root>[/subdir]. */
int clua_sb_resolve(lua_State *L);

/* Lua: loadtext(realpath, display [, env]) -> chunk | nil, message. Text mode, chunk named "@display". */
int clua_sb_loadtext(lua_State *L);

/* Opens the safe libraries and creates the bridge's metatables; run in protected mode by clua_opensandbox. */
int clua_opensandbox_body(lua_State *L);

/* Run clua_opensandbox_body protected; on failure the error message is left on the stack. */
int clua_opensandbox(lua_State *L);

/* Push the sandbox helpers the Lua prelude receives as arguments: resolve, loadtext, rootname,
   noteopen, packagepath, unchainer. */
void clua_pushsandboxhelpers(lua_State *L);

/* ================================================================ the region (region.c) */
/*
 * CLua region: a fixed block of memory where a Lua state can be restored
 * from an image of a freshly prepared one.
 *
 * Why: every scenario file gets a fresh Lua state, and preparing one (the
 * standard libraries, the sandbox, the scenario language's bindings and
 * prelude) cost several times more than running a typical scenario. A Lua
 * state lives entirely in memory its allocator hands out, and points
 * outside it only at static data (C functions, liblua's constants) and at
 * what the host stores in it (here: Swift contexts that outlive the image).
 * So a state prepared inside a fixed block of memory can be copied out
 * byte for byte, and copying those bytes back at the same address gives a
 * state identical to a freshly prepared one: a fresh state, not a reused one.
 * Closing one is cheap too: when nothing in it needs finalizing (no Swift
 * object held by a userdata, no file a script opened) and none of its
 * blocks is on the heap, the state is simply abandoned — the next restore
 * overwrites it — instead of freed object by object (clua_region_can_abandon).
 *
 * The process's region (`clua_region_shared`) is mapped once, at an
 * address that never changes, and holds at most one live state at a time
 * (`busy`); a state that finds it taken is prepared the ordinary way on the
 * heap. An image can only be restored into the region it was taken in
 * (tests map regions of their own to control which path a state takes).
 * Inside it, a size-class allocator serves Lua's small blocks and a short
 * free list its large ones, both recycled on free; only when the region is
 * full do blocks come from the heap.
 *
 * The region's bookkeeping is one static in region.c: one owner, whatever
 * imports the header.
 */


#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

/* Virtual size of the region (pages are only committed when touched). */
#define CLUA_REGION_SIZE ((size_t)16 << 20)
/* Blocks up to this size are served by size class from the region. */
#define CLUA_SMALL_MAX 512
#define CLUA_SMALL_CLASSES (CLUA_SMALL_MAX / 16)
/* After a state closes, touched memory this far beyond its image is returned to the system. */
#define CLUA_REGION_KEEP ((size_t)1 << 20)

/* Who holds a region, and where it is mapped (on first use). */
typedef struct clua_RegionSlot {
    int busy;
    char *base;
} clua_RegionSlot;

/* The region's header, at its base: a state's control block and the allocator's bookkeeping. */
typedef struct clua_Region {
    clua_Control control;                  /* first: the allocator's ud (&control) is the region itself */
    char *bump;                            /* the next never-used byte */
    char *end;                             /* the end of the region */
    char *image_end;                       /* the end of the image this state started from */
    void *free_blocks[CLUA_SMALL_CLASSES]; /* freed small blocks, by size class (16, 32, … 512 bytes) */
    void *free_large;                      /* freed large blocks (clua_LargeBlock), most recent first */
    size_t heap_blocks;                    /* blocks taken from the heap (the region was full), not yet freed */
    int closing;                           /* lua_close runs: region blocks are not recycled */
    clua_RegionSlot *slot;                 /* the slot to hand the region back to */
} clua_Region;

/* The process's region. */

clua_RegionSlot *clua_region_shared(void);

/* ---------------------------------------------------------------- allocator */

static inline size_t clua_region_class(size_t size) { return (size + 15) / 16 - 1; }

/* A freed large block. Why recycled: tables, strings and the stack grow by reallocation, and
   each outgrown array would otherwise stay behind as dead bytes (in an image, copied every time). */
typedef struct clua_LargeBlock {
    struct clua_LargeBlock *next;
    size_t size;
} clua_LargeBlock;

/* How many freed large blocks a request looks at: a bound on the cost of a miss. */
#define CLUA_LARGE_SCAN 8

/* ---------------------------------------------------------------- the region's life */

/* Takes a slot's region for one state; NULL when another state holds it or it cannot be mapped. */
clua_Region *clua_region_acquire(clua_RegionSlot *slot);

/* Unmaps a slot's region (a slot of its own that is no longer used; never the shared one). */
void clua_region_unmap(clua_RegionSlot *slot);

/* Hands the region back (its state is closed), returning memory a long script touched. */
void clua_region_release(clua_Region *r);

/* Starts an empty region for a state whose image is about to be prepared; returns its control block. */
clua_Control *clua_region_begin(clua_Region *r, size_t memory_limit, long long instruction_budget);

/* The new state in the region (as clua_newstate, with the region's allocator). */
lua_State *clua_region_newstate(clua_Region *r);

/* Ends the preparation. Returns the image's size: the bytes from the region's base to copy
   out, and later back, to have this state again. An image holds no heap block. */
size_t clua_region_capture(clua_Region *r);

/* Copies an image back and gives its control block this state's limits; returns the control
   block. The caller then sets the Swift side (owner, dispatch, release) and the sandbox root. */
clua_Control *clua_region_restore(clua_Region *r, const void *image, size_t size,
                                                size_t memory_limit, long long instruction_budget);

/* Whether the state can be abandoned instead of closed: nothing to finalize (no live box owning
   a Swift object, no file a script opened) and no block on the heap. Lua code must not be running. */
int clua_region_can_abandon(clua_Region *r);

/* Before lua_close: the region's blocks need no recycling, only heap blocks are freed. */
static inline void clua_region_closing(clua_Region *r) { r->closing = 1; }

#endif /* NAVSCRIPT_LUA_H */
