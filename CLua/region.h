/*
 * CLua region: the one place in the process where a Lua state can be
 * restored from an image of a freshly prepared one.
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
 *
 * The process's region (`clua_region_shared`) is mapped once, at an
 * address that never changes, and holds at most one live state at a time
 * (`busy`); a state that finds it taken is prepared the ordinary way on the
 * heap. An image can only be restored into the region it was taken in
 * (tests map regions of their own to control which path a state takes). Inside it, a small
 * size-class allocator serves Lua's small blocks (recycled on free), large
 * blocks go to the heap once the image is taken (while an image is being
 * prepared they come from the region too, so the image contains them).
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
    void *free_large;                      /* large region blocks freed while an image is prepared */
    int building;                          /* an image is being prepared: large blocks come from the region */
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

/* A freed large block. Why: while an image is prepared, tables and the string table grow by
   doubling, and each outgrown array would otherwise stay in the image as dead bytes. */
typedef struct clua_LargeBlock {
    struct clua_LargeBlock *next;
    size_t size;
} clua_LargeBlock;

/* A freed large region block of at least `size` bytes (and less than twice that), or NULL. */
static inline void *clua_region_reuse_large(clua_Region *r, size_t size) {
    clua_LargeBlock **link = (clua_LargeBlock **)&r->free_large;
    for (; *link != NULL; link = &(*link)->next) {
        clua_LargeBlock *block = *link;
        if (block->size >= size && block->size < 2 * size) {
            *link = block->next;
            return block;
        }
    }
    return NULL;
}

/* A block of `size` bytes: a recycled one of its class, a new one from the region, or the heap's. */
static inline void *clua_region_take(clua_Region *r, size_t size) {
    void *block;
    if (size <= CLUA_SMALL_MAX) {
        size_t k = clua_region_class(size);
        if ((block = r->free_blocks[k]) != NULL) {
            r->free_blocks[k] = *(void **)block;
            return block;
        }
        size = (k + 1) * 16;
    } else if (!r->building) {
        return malloc(size);
    } else {
        size = (size + 15) & ~(size_t)15;
        if ((block = clua_region_reuse_large(r, size)) != NULL) return block;
    }
    if ((size_t)(r->end - r->bump) < size) return malloc(size); /* the region is full: the heap */
    block = r->bump;
    r->bump += size;
    return block;
}

/* Gives back a block: the heap's to the heap, a small region block to its class, a large one
   (while an image is prepared) to the large list. Large region blocks freed later belong to
   the image and come back when the next state is restored. */
static inline void clua_region_give(clua_Region *r, void *ptr, size_t size) {
    size_t k;
    if (!clua_region_owns(r, ptr)) {
        free(ptr);
        return;
    }
    if (r->closing) return;
    if (size > CLUA_SMALL_MAX) {
        if (r->building) {
            clua_LargeBlock *block = (clua_LargeBlock *)ptr;
            block->size = (size + 15) & ~(size_t)15;
            block->next = (clua_LargeBlock *)r->free_large;
            r->free_large = block;
        }
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
    } else if (clua_region_owns(r, ptr) ? (osize <= CLUA_SMALL_MAX && nsize <= CLUA_SMALL_MAX
                                           && clua_region_class(osize) == clua_region_class(nsize))
                                        : 0) {
        block = ptr; /* the same size class: the block already fits */
    } else if (!clua_region_owns(r, ptr) && osize > CLUA_SMALL_MAX && nsize > CLUA_SMALL_MAX) {
        block = realloc(ptr, nsize);
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
    r->building = 1;
    clua_control_init(&r->control, memory_limit, instruction_budget);
    return &r->control;
}

/* The new state in the region (as clua_newstate, with the region's allocator). */
static inline lua_State *clua_region_newstate(clua_Region *r) {
    return clua_newstate_with(&r->control, clua_region_alloc, r);
}

/* Ends the preparation: from now on large blocks come from the heap. Returns the image's size:
   the bytes from the region's base to copy out, and later back, to have this state again. */
static inline size_t clua_region_capture(clua_Region *r) {
    r->building = 0;
    r->free_large = NULL; /* from now on large blocks come from the heap */
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

/* Before lua_close: the region's blocks need no recycling, only heap blocks are freed. */
static inline void clua_region_closing(clua_Region *r) { r->closing = 1; }

#endif
