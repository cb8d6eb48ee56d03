#define _GNU_SOURCE
#include "bench_support.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/resource.h>

// glibc's own entry points (exported by libc.so.6 since 2.2.5). Defining
// malloc & co. in the executable makes the dynamic linker bind every
// library's calls (Swift runtime, Foundation, liblua) to these.
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static volatile int counting = 0;
static uint64_t n_alloc = 0, n_free = 0, n_bytes = 0;

static inline void note_alloc(size_t size) {
    if (counting) {
        __atomic_fetch_add(&n_alloc, 1, __ATOMIC_RELAXED);
        __atomic_fetch_add(&n_bytes, size, __ATOMIC_RELAXED);
    }
}

void *malloc(size_t size) { note_alloc(size); return __libc_malloc(size); }
void *calloc(size_t n, size_t size) { note_alloc(n * size); return __libc_calloc(n, size); }
void *realloc(void *p, size_t size) {
    if (size != 0 || p == NULL) note_alloc(size);
    else if (counting) __atomic_fetch_add(&n_free, 1, __ATOMIC_RELAXED);
    return __libc_realloc(p, size);
}
void free(void *p) {
    if (p != NULL && counting) __atomic_fetch_add(&n_free, 1, __ATOMIC_RELAXED);
    __libc_free(p);
}
void *memalign(size_t alignment, size_t size) { note_alloc(size); return __libc_memalign(alignment, size); }
void *aligned_alloc(size_t alignment, size_t size) { note_alloc(size); return __libc_memalign(alignment, size); }
int posix_memalign(void **out, size_t alignment, size_t size) {
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    note_alloc(size);
    void *p = __libc_memalign(alignment, size);
    if (p == NULL && size != 0) return ENOMEM;
    *out = p;
    return 0;
}

void bench_counting_begin(void) {
    __atomic_store_n(&n_alloc, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&n_free, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&n_bytes, 0, __ATOMIC_RELAXED);
    counting = 1;
}

bench_alloc_counts bench_counting_end(void) {
    counting = 0;
    bench_alloc_counts c = { n_alloc, n_free, n_bytes };
    return c;
}

long bench_self_max_rss_kib(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}
