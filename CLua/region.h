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
 * The region's bookkeeping is one `weak` global, like the worker outbox's:
 * every Swift module that imports this header then shares one definition
 * (static state would be duplicated by cross-module optimisation).
 */
#ifndef CLUA_REGION_H
#define CLUA_REGION_H

#include "shim.h"

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
__attribute__((weak)) clua_RegionSlot navscript_lua_region = {0, NULL};

static inline clua_RegionSlot *clua_region_shared(void) { return &navscript_lua_region; }

/* ---------------------------------------------------------------- allocator */

static inline int clua_region_owns(const clua_Region *r, const void *p) {
    return (const char *)p >= (const char *)r && (const char *)p < r->end;
}

static inline size_t clua_region_class(size_t size) { return (size + 15) / 16 - 1; }

/* A freed large block. Why recycled: tables, strings and the stack grow by reallocation, and
   each outgrown array would otherwise stay behind as dead bytes (in an image, copied every time). */
typedef struct clua_LargeBlock {
    struct clua_LargeBlock *next;
    size_t size;
} clua_LargeBlock;

/* How many freed large blocks a request looks at: a bound on the cost of a miss. */
#define CLUA_LARGE_SCAN 8

/* A freed large block of at least `size` bytes (and less than twice that), or NULL. */
static inline void *clua_region_reuse_large(clua_Region *r, size_t size) {
    clua_LargeBlock **link = (clua_LargeBlock **)&r->free_large;
    int looked = 0;
    for (; *link != NULL && looked < CLUA_LARGE_SCAN; link = &(*link)->next, looked++) {
        clua_LargeBlock *block = *link;
        if (block->size >= size && block->size < 2 * size) {
            *link = block->next;
            return block;
        }
    }
    return NULL;
}

/* A block of `size` bytes: a recycled one, a new one from the region, or (region full) the heap's. */
static inline void *clua_region_take(clua_Region *r, size_t size) {
    void *block;
    if (size <= CLUA_SMALL_MAX) {
        size_t k = clua_region_class(size);
        if ((block = r->free_blocks[k]) != NULL) {
            r->free_blocks[k] = *(void **)block;
            return block;
        }
        size = (k + 1) * 16;
    } else {
        size = (size + 15) & ~(size_t)15;
        if ((block = clua_region_reuse_large(r, size)) != NULL) return block;
    }
    if ((size_t)(r->end - r->bump) < size) {
        block = malloc(size);
        if (block != NULL) r->heap_blocks++;
        return block;
    }
    block = r->bump;
    r->bump += size;
    return block;
}

/* Gives back a block: the heap's to the heap, a region block to its class or the large list. */
static inline void clua_region_give(clua_Region *r, void *ptr, size_t size) {
    size_t k;
    if (!clua_region_owns(r, ptr)) {
        free(ptr);
        r->heap_blocks--;
        return;
    }
    if (r->closing) return;
    if (size > CLUA_SMALL_MAX) {
        clua_LargeBlock *block = (clua_LargeBlock *)ptr;
        block->size = (size + 15) & ~(size_t)15;
        block->next = (clua_LargeBlock *)r->free_large;
        r->free_large = block;
        return;
    }
    k = clua_region_class(size);
    *(void **)ptr = r->free_blocks[k];
    r->free_blocks[k] = ptr;
}

/* The allocator of a state in the region: clua_alloc's accounting and cap over the region's blocks. */
static inline void *clua_region_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    clua_Region *r = (clua_Region *)ud;
    clua_Control *c = &r->control;
    size_t old = ptr ? osize : 0; /* with ptr == NULL, osize encodes the object type */
    void *block;
    if (nsize == 0) {
        if (ptr != NULL) clua_region_give(r, ptr, osize);
        c->bytes_in_use -= old;
        return NULL;
    }
    if (clua_cap_refuses(c, old, nsize)) return NULL;
    if (ptr == NULL) {
        block = clua_region_take(r, nsize);
    } else if (clua_region_owns(r, ptr) && osize <= CLUA_SMALL_MAX && nsize <= CLUA_SMALL_MAX
               && clua_region_class(osize) == clua_region_class(nsize)) {
        block = ptr; /* the same size class: the block already fits */
    } else if (!clua_region_owns(r, ptr) && osize > CLUA_SMALL_MAX && nsize > CLUA_SMALL_MAX) {
        block = realloc(ptr, nsize); /* heap to heap */
    } else {
        block = clua_region_take(r, nsize);
        if (block != NULL) {
            memcpy(block, ptr, old < nsize ? old : nsize);
            clua_region_give(r, ptr, osize);
        }
    }
    if (block == NULL) return clua_alloc_failed(c, ptr, old, nsize);
    c->bytes_in_use = c->bytes_in_use - old + nsize;
    return block;
}

/* ---------------------------------------------------------------- the region's life */

/* Takes a slot's region for one state; NULL when another state holds it or it cannot be mapped. */
static inline clua_Region *clua_region_acquire(clua_RegionSlot *slot) {
    clua_Region *r;
    if (__atomic_exchange_n(&slot->busy, 1, __ATOMIC_ACQUIRE)) return NULL;
    if (slot->base == NULL) {
        void *base = mmap(NULL, CLUA_REGION_SIZE, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (base == MAP_FAILED) {
            __atomic_store_n(&slot->busy, 0, __ATOMIC_RELEASE);
            return NULL;
        }
        slot->base = (char *)base;
    }
    r = (clua_Region *)slot->base;
    r->slot = slot;
    return r;
}

/* Unmaps a slot's region (a slot of its own that is no longer used; never the shared one). */
static inline void clua_region_unmap(clua_RegionSlot *slot) {
    if (slot->base != NULL) munmap(slot->base, CLUA_REGION_SIZE);
    slot->base = NULL;
}

/* Hands the region back (its state is closed), returning memory a long script touched. */
static inline void clua_region_release(clua_Region *r) {
    char *keep = r->image_end + CLUA_REGION_KEEP;
    if (r->bump > keep) {
        uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
        char *from = (char *)(((uintptr_t)keep + page - 1) & ~(page - 1));
        if (r->bump > from) madvise(from, (size_t)(r->bump - from), MADV_DONTNEED);
    }
    __atomic_store_n(&r->slot->busy, 0, __ATOMIC_RELEASE);
}

/* Starts an empty region for a state whose image is about to be prepared; returns its control block. */
static inline clua_Control *clua_region_begin(clua_Region *r, size_t memory_limit, long long instruction_budget) {
    clua_RegionSlot *slot = r->slot;
    memset(r, 0, sizeof(clua_Region));
    r->slot = slot;
    r->end = (char *)r + CLUA_REGION_SIZE;
    r->bump = (char *)r + ((sizeof(clua_Region) + 15) & ~(size_t)15);
    r->image_end = r->bump;
    clua_control_init(&r->control, memory_limit, instruction_budget);
    return &r->control;
}

/* The new state in the region (as clua_newstate, with the region's allocator). */
static inline lua_State *clua_region_newstate(clua_Region *r) {
    return clua_newstate_with(&r->control, clua_region_alloc, r);
}

/* Ends the preparation. Returns the image's size: the bytes from the region's base to copy
   out, and later back, to have this state again. An image holds no heap block. */
static inline size_t clua_region_capture(clua_Region *r) {
    if (r->heap_blocks != 0) return 0;
    r->image_end = r->bump;
    return (size_t)(r->bump - (char *)r);
}

/* Copies an image back and gives its control block this state's limits; returns the control
   block. The caller then sets the Swift side (owner, dispatch, release) and the sandbox root. */
static inline clua_Control *clua_region_restore(clua_Region *r, const void *image, size_t size,
                                                size_t memory_limit, long long instruction_budget) {
    clua_RegionSlot *slot = r->slot;
    memcpy(r, image, size);
    r->slot = slot;
    r->control.memory_limit = memory_limit;
    r->control.instruction_budget = instruction_budget;
    r->control.root_real = NULL;     /* the image's roots belonged to the state it was taken from */
    r->control.root_display = NULL;
    r->control.current = r->control.main;
    r->control.lua_side = 0;
    r->control.cap_suspended = 0;
    r->control.memory_refused = 0;
    return &r->control;
}

/* Whether the state can be abandoned instead of closed: nothing to finalize (no live box owning
   a Swift object, no file a script opened) and no block on the heap. Lua code must not be running. */
static inline int clua_region_can_abandon(clua_Region *r) {
    return r->control.boxes == 0 && r->control.files_opened == 0 && r->heap_blocks == 0;
}

/* Before lua_close: the region's blocks need no recycling, only heap blocks are freed. */
static inline void clua_region_closing(clua_Region *r) { r->closing = 1; }

#endif
