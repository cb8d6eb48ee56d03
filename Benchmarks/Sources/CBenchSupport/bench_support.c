#define _GNU_SOURCE
#include "bench_support.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int bench_spawn(char *const argv[], const char *stdin_path, const char *stdout_path, const char *stderr_path,
                double *wall_seconds, long *max_rss_kib) {
    extern char **environ;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (stdin_path) posix_spawn_file_actions_addopen(&actions, 0, stdin_path, O_RDONLY, 0);
    if (stdout_path) posix_spawn_file_actions_addopen(&actions, 1, stdout_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (stderr_path) posix_spawn_file_actions_addopen(&actions, 2, stderr_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    double started = now_seconds();
    pid_t pid;
    int rc = posix_spawn(&pid, argv[0], &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) return -1;
    int status = 0;
    struct rusage usage;
    memset(&usage, 0, sizeof usage);
    while (wait4(pid, &status, 0, &usage) < 0) {
        if (errno != EINTR) return -1;
    }
    *wall_seconds = now_seconds() - started;
    *max_rss_kib = usage.ru_maxrss;
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return -1;
}

long bench_self_max_rss_kib(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}
