#ifndef NAVSCRIPT_PROCESS_STACK_H
#define NAVSCRIPT_PROCESS_STACK_H

#include <stddef.h>

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

/// Gives threads started from now on a stack of at least `size` bytes; 0
/// when it did. glibc sizes new threads by the stack limit it read when the
/// process started, so raising the limit later does not reach them.
int navscript_set_default_thread_stack(size_t size);

#endif
