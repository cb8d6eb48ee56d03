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

/// Runs argv (argv[0] is a path) with stdin read from and stdout and stderr
/// sent to the given files (NULL: inherit); waits; returns the exit status (or 128+signal),
/// the wall time in seconds and the peak resident set size in KiB of the
/// largest process in the child's tree (wait4's ru_maxrss). -1 on failure.
int bench_spawn(char *const argv[], const char *stdin_path, const char *stdout_path, const char *stderr_path,
                double *wall_seconds, long *max_rss_kib);

/// This process's own peak RSS in KiB.
long bench_self_max_rss_kib(void);

#endif
