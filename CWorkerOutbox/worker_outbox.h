#ifndef NAVSCRIPT_WORKER_OUTBOX_H
#define NAVSCRIPT_WORKER_OUTBOX_H

/// The worker's protocol output, buffered in C so that a signal handler can
/// still send it: a worker writes its messages here instead of one write(2)
/// each (a step per message made a long scenario twice as slow in a worker
/// as in process), and whatever is buffered is written out
///
///  - when the buffer is full, when `navscript_outbox_flush` is called (the
///    Swift side does at every message that is not a step or a call), and
///    at an append 50 ms or more after the last write (a step followed by
///    a long blocking call stays buffered until one of the next two cases);
///  - from a signal handler when the process traps or faults (SIGILL,
///    SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE) or is terminated (SIGTERM,
///    SIGHUP — a CI runner signalling the whole process group) — then the
///    signal's default action runs, so the parent still sees the signal;
///    the handler runs on its own stack, so a stack overflow is covered
///    too — and on SIGUSR1,
///    which the parent sends a hung worker before it kills it; the handler
///    then adds the line `{"flushed":{}}` so the parent need not wait.
///
/// One party writes at a time: the normal path holds `outbox_busy` for the
/// whole of an append or a flush (waiting, if a handler on another thread
/// holds it, rather than dropping the message); a handler that finds it held
/// only asks (`outbox_flush_requested`) and the normal path answers when it
/// lets go — so no byte is sent twice and no line is cut by another.
///
/// Header-only on purpose (imported like CLua's shim; a compiled C file
/// carried DWARF 5 debug information, which valgrind cannot read, and the
/// benchmarks count instructions with it).

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/// The outbox's state, defined `weak` in this header: every module that
/// compiles these inline functions emits a definition and the linker keeps
/// one, so the process has exactly one — which a signal handler, reaching
/// nothing but globals, needs. (With `static` state, a release build that
/// inlined a caller into another module got a second, empty outbox, and
/// the worker's messages were dropped.)
struct navscript_outbox_state {
    int fd;
    char *bytes;
    size_t capacity;
    size_t count;
    /// 1 while the normal path or a handler owns the buffer (atomic exchange).
    int busy;
    /// A handler found the buffer busy: 1 to flush, 2 to flush and say `flushed`.
    volatile sig_atomic_t flush_requested;
    long long last_write_ns;
    /// The note: one line kept aside (the call running now) and written
    /// only when a signal flushes the outbox — a crash or the parent's
    /// SIGUSR1 — after everything buffered. A call per message was most of
    /// a worker's protocol traffic, and the parent only ever needed the last.
    char *note;
    size_t note_capacity;
    size_t note_count;
    /// When the worker's current phase began (`navscript_outbox_mark_phase`):
    /// the running scenario's start, or between scenarios the last
    /// boundary. `flushed` says how long ago that was, because the parent's
    /// own clock can only start when a message *arrives* — and messages wait
    /// in the buffer — so its timeout can fire on a scenario that has only
    /// just begun.
    long long phase_started_ns;
};
__attribute__((weak)) struct navscript_outbox_state navscript_outbox_state = {-1, NULL, 0, 0, 0, 0, 0, NULL, 0, 0, 0};

#define outbox_fd navscript_outbox_state.fd
#define outbox_bytes navscript_outbox_state.bytes
#define outbox_capacity navscript_outbox_state.capacity
#define outbox_count navscript_outbox_state.count
#define outbox_busy navscript_outbox_state.busy
#define outbox_flush_requested navscript_outbox_state.flush_requested
#define outbox_last_write_ns navscript_outbox_state.last_write_ns
#define outbox_note navscript_outbox_state.note
#define outbox_note_capacity navscript_outbox_state.note_capacity
#define outbox_note_count navscript_outbox_state.note_count
#define outbox_phase_started_ns navscript_outbox_state.phase_started_ns

static const int outbox_signals[] = {SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGTERM, SIGHUP, SIGUSR1};
#define OUTBOX_SIGNAL_COUNT (sizeof outbox_signals / sizeof outbox_signals[0])

static inline long long outbox_now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

/// write(2) until done; async-signal-safe.
static inline void outbox_write_all(const char *bytes, size_t count) {
    while (count > 0) {
        ssize_t written = write(outbox_fd, bytes, count);
        if (written < 0) {
            if (errno == EINTR) continue;
            return;
        }
        bytes += written;
        count -= (size_t)written;
    }
}

static inline int outbox_acquire(void) { return __atomic_exchange_n(&outbox_busy, 1, __ATOMIC_SEQ_CST) == 0; }
static inline void outbox_release(void) { __atomic_store_n(&outbox_busy, 0, __ATOMIC_SEQ_CST); }

/// Writes the buffer and empties it; call owning the buffer.
static inline void outbox_drain(void) {
    if (outbox_count > 0) {
        outbox_write_all(outbox_bytes, outbox_count);
        outbox_count = 0;
    }
}

/// What a signal sends: the buffer, then the note; call owning the buffer.
static inline void outbox_drain_for_signal(void) {
    outbox_drain();
    if (outbox_note_count > 0) outbox_write_all(outbox_note, outbox_note_count);
}

/// `{"flushed":{"elapsedMilliseconds":N}}`: everything is out, and the
/// current phase has run N ms. Async-signal-safe (no printf).
static inline void outbox_say_flushed(void) {
    static const char head[] = "{\"flushed\":{\"elapsedMilliseconds\":";
    static const char tail[] = "}}\n";
    char line[sizeof head + 24 + sizeof tail];
    size_t length = sizeof head - 1;
    memcpy(line, head, length);
    long long elapsed = (outbox_now_ns() - outbox_phase_started_ns) / 1000000LL;
    if (elapsed < 0) elapsed = 0;
    char digits[24];
    size_t count = 0;
    do {
        digits[count++] = (char)('0' + elapsed % 10);
        elapsed /= 10;
    } while (elapsed > 0);
    while (count > 0) line[length++] = digits[--count];
    memcpy(line + length, tail, sizeof tail - 1);
    length += sizeof tail - 1;
    outbox_write_all(line, length);
}

/// Lets go of the buffer, first answering a handler that asked meanwhile —
/// also one that asked after the check and before the release, which would
/// otherwise wait for the next message (never, if the worker then hangs).
static inline void outbox_release_answering(void) {
    for (;;) {
        int requested = outbox_flush_requested;
        if (requested) {
            outbox_flush_requested = 0;
            outbox_drain_for_signal();
            if (requested == 2) outbox_say_flushed();
        }
        outbox_release();
        if (!outbox_flush_requested || !outbox_acquire()) return;
    }
}

/// Takes the buffer for the normal path. A handler holds it only while it
/// writes — on another thread, since one on this thread has finished before
/// this runs — so waiting for it is short; giving up would drop a message.
static inline void outbox_acquire_waiting(void) {
    while (!outbox_acquire()) sched_yield();
}

/// Starts buffering for `fd` with room for `capacity` bytes; 0 on success.
static inline int navscript_outbox_open(int fd, size_t capacity) {
    outbox_bytes = malloc(capacity);
    if (outbox_bytes == NULL) return -1;
    outbox_fd = fd;
    outbox_capacity = capacity;
    outbox_count = 0;
    outbox_last_write_ns = outbox_now_ns();
    outbox_phase_started_ns = outbox_last_write_ns;
    return 0;
}

/// A phase begins now: a scenario starts, or one ends (see `phase_started_ns`).
static inline void navscript_outbox_mark_phase(void) {
    __atomic_store_n(&outbox_phase_started_ns, outbox_now_ns(), __ATOMIC_RELAXED);
}

/// Writes everything buffered.
static inline void navscript_outbox_flush(void) {
    if (outbox_fd < 0) return;
    outbox_acquire_waiting();
    outbox_drain();
    outbox_last_write_ns = outbox_now_ns();
    outbox_release_answering();
}

/// Buffers `count` bytes: whole messages only.
static inline void navscript_outbox_append(const char *bytes, size_t count) {
    if (outbox_fd < 0) return;
    outbox_acquire_waiting();
    if (outbox_count + count > outbox_capacity) {
        outbox_drain();
        outbox_last_write_ns = outbox_now_ns();
    }
    if (count > outbox_capacity) {
        outbox_write_all(bytes, count);
    } else {
        memcpy(outbox_bytes + outbox_count, bytes, count);
        outbox_count += count;
        if (outbox_now_ns() - outbox_last_write_ns > 50000000LL) {
            outbox_drain();
            outbox_last_write_ns = outbox_now_ns();
        }
    }
    outbox_release_answering();
}

/// Keeps `count` bytes (whole lines) as the note, replacing the last one;
/// an empty note (count 0) clears it. A note that cannot be stored is dropped.
static inline void navscript_outbox_note(const char *bytes, size_t count) {
    if (outbox_fd < 0) return;
    outbox_acquire_waiting();
    if (count > outbox_note_capacity) {
        char *grown = realloc(outbox_note, count);
        if (grown != NULL) {
            outbox_note = grown;
            outbox_note_capacity = count;
        }
    }
    if (count <= outbox_note_capacity) {
        if (count > 0) memcpy(outbox_note, bytes, count);
        outbox_note_count = count;
    } else {
        outbox_note_count = 0;
    }
    outbox_release_answering();
}

static inline void outbox_on_signal(int number) {
    int saved = errno;
    if (outbox_fd >= 0) {
        if (outbox_acquire()) {
            outbox_drain_for_signal();
            if (number == SIGUSR1) outbox_say_flushed();
            outbox_release();
        } else {
            // The normal path is mid-write on another thread (or this one):
            // it answers when it lets go.
            outbox_flush_requested = number == SIGUSR1 ? 2 : 1;
        }
    }
    errno = saved;
    if (number != SIGUSR1) {
        // The default action, so the process dies of the same signal.
        signal(number, SIG_DFL);
        raise(number);
    }
}

/// Installs the signal handlers described above, on an alternate stack.
static inline void navscript_outbox_flush_on_signals(void) {
    stack_t alternate;
    memset(&alternate, 0, sizeof alternate);
    alternate.ss_size = 64 * 1024;
    alternate.ss_sp = malloc(alternate.ss_size);
    if (alternate.ss_sp != NULL) sigaltstack(&alternate, NULL);
    sigset_t all;
    sigemptyset(&all);
    for (size_t index = 0; index < OUTBOX_SIGNAL_COUNT; index++) sigaddset(&all, outbox_signals[index]);
    for (size_t index = 0; index < OUTBOX_SIGNAL_COUNT; index++) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = outbox_on_signal;
        // One handler at a time: a SIGUSR1 must not interrupt a crash's flush.
        action.sa_mask = all;
        action.sa_flags = SA_RESTART | SA_ONSTACK;
        sigaction(outbox_signals[index], &action, NULL);
    }
    // A blocked mask is inherited through exec (a test runner or CI agent
    // may block SIGUSR1): unblock, or the parent's request never arrives.
    pthread_sigmask(SIG_UNBLOCK, &all, NULL);
}

#endif
