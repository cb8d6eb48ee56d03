#ifndef BENCH_SUPPORT_H
#define BENCH_SUPPORT_H

#include <stdint.h>
#include <sys/types.h>

/// Allocation counters, updated by the malloc-family functions this target
/// defines (they replace glibc's for the whole process, the same way
/// ordo-one/malloc-interposer does through LD_PRELOAD) while counting is on.
typedef struct {
    uint64_t allocations;   // malloc, calloc, realloc, memalign-family calls
    uint64_t frees;         // free of a non-null pointer
    uint64_t bytes;         // bytes requested by those allocations
} bench_alloc_counts;

void bench_counting_begin(void);
bench_alloc_counts bench_counting_end(void);

/// This process's own peak RSS in KiB.
long bench_self_max_rss_kib(void);

#endif
