/* The block where a state is restored from an image (see navscript_lua.h). */
#include "navscript_lua.h"

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

static clua_RegionSlot navscript_lua_region = {0, NULL};

clua_RegionSlot *clua_region_shared(void) { return &navscript_lua_region; }

/* ---------------------------------------------------------------- allocator */
static int clua_region_owns(const clua_Region *r, const void *p) {
    return (const char *)p >= (const char *)r && (const char *)p < r->end;
}

/* A freed large block of at least `size` bytes (and less than twice that), or NULL. */
static void *clua_region_reuse_large(clua_Region *r, size_t size) {
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
static void *clua_region_take(clua_Region *r, size_t size) {
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
static void clua_region_give(clua_Region *r, void *ptr, size_t size) {
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
static void *clua_region_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    clua_Region *r = (clua_Region *)ud;
    clua_Control *c = &r->control;
    size_t old = ptr ? osize : 0; /* with ptr == NULL, osize encodes the object type */
    void *block;
    if (nsize == 0) {
        if (ptr != NULL) clua_region_give(r, ptr, osize);
        c->bytes_in_use -= old;
        return NULL;
    }
    if (clua_cap_refuses(c, ptr, old, nsize)) return NULL;
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

clua_Region *clua_region_acquire(clua_RegionSlot *slot) {
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

void clua_region_unmap(clua_RegionSlot *slot) {
    if (slot->base != NULL) munmap(slot->base, CLUA_REGION_SIZE);
    slot->base = NULL;
}

void clua_region_release(clua_Region *r) {
    char *keep = r->image_end + CLUA_REGION_KEEP;
    if (r->bump > keep) {
        uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
        char *from = (char *)(((uintptr_t)keep + page - 1) & ~(page - 1));
        if (r->bump > from) madvise(from, (size_t)(r->bump - from), MADV_DONTNEED);
    }
    __atomic_store_n(&r->slot->busy, 0, __ATOMIC_RELEASE);
}

clua_Control *clua_region_begin(clua_Region *r, size_t memory_limit, long long instruction_budget) {
    clua_RegionSlot *slot = r->slot;
    memset(r, 0, sizeof(clua_Region));
    r->slot = slot;
    r->end = (char *)r + CLUA_REGION_SIZE;
    r->bump = (char *)r + ((sizeof(clua_Region) + 15) & ~(size_t)15);
    r->image_end = r->bump;
    clua_control_init(&r->control, memory_limit, instruction_budget);
    return &r->control;
}

lua_State *clua_region_newstate(clua_Region *r) {
    return clua_newstate_with(&r->control, clua_region_alloc, r);
}

size_t clua_region_capture(clua_Region *r) {
    if (r->heap_blocks != 0) return 0;
    r->image_end = r->bump;
    return (size_t)(r->bump - (char *)r);
}

clua_Control *clua_region_restore(clua_Region *r, const void *image, size_t size,
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

int clua_region_can_abandon(clua_Region *r) {
    return r->control.boxes == 0 && r->control.files_opened == 0 && r->heap_blocks == 0;
}
