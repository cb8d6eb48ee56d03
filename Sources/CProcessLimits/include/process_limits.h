#ifndef NAVSCRIPT_PROCESS_LIMITS_H
#define NAVSCRIPT_PROCESS_LIMITS_H

#include <stddef.h>

/* Living within the limits a process was started under (`ulimit`): what
   Swift cannot reach through Glibc's module. */

/// Calls `body(context)` on a stack of `size` bytes mapped for the purpose
/// (with a guard page below it), on the calling thread, and returns 0 once
/// `body` has returned; -1 without calling it when the stack could not be
/// made (the caller then calls `body` where it is).
///
/// Why: a process started under a small stack limit (`ulimit -s 256`, soft
/// and hard) cannot give its main thread more room, and Lua's 200 nested C
/// calls (a `__tostring` that formats itself) overflowed it — a segfault of
/// the whole run instead of Lua's "C stack overflow" error. Moving to
/// another *thread* would give room too, but code a host reaches may check
/// that it runs on the main thread (`MainActor.assumeIsolated`): the thread
/// stays the same, only its stack changes (`makecontext`/`swapcontext`).
///
/// `body` must return normally (or end the process): nothing may unwind or
/// jump out of it, since the context it came from is only resumed by its
/// return.
int navscript_call_on_stack(size_t size, void (*body)(void *context), void *context);

/// Gives threads started from now on (without a size of their own) a stack
/// of `size` bytes; 0 when it did. glibc sizes them by the stack limit it
/// read when the process started: 8 MiB each, or a few kilobytes.
int navscript_set_default_thread_stack(size_t size);

/// Keeps malloc to one arena (`mallopt(M_ARENA_MAX, 1)`): glibc reserves
/// 64 MiB of address space for each thread's arena, which a limited
/// address space (`ulimit -v`) cannot hold for long.
void navscript_use_one_malloc_arena(void);

/// Whether a write to stdio's standard output stream has failed
/// (`ferror(stdout)`): stdio then drops what it held, so a flush at exit
/// finds nothing to fail on. (Swift 6 cannot name the `stdout` global.)
int navscript_standard_output_failed(void);

#endif
