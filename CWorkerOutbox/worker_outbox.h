#ifndef NAVSCRIPT_WORKER_OUTBOX_H
#define NAVSCRIPT_WORKER_OUTBOX_H

/// The worker's protocol output, buffered in C so that a signal handler can
/// still send it: a worker writes its messages here instead of one write(2)
/// each (a step per message made a long scenario twice as slow in a worker
/// as in process), and whatever is buffered is written out
///
///  - when the buffer is full, when `navscript_outbox_flush` is called (the
///    Swift side does at every message that is not a step or a call), and
///    at the first append 50 ms after the last write (so reports stay live);
///  - from a signal handler when the process traps or faults (SIGILL,
///    SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE — then the signal's default
///    action runs, so the parent still sees the signal) and on SIGUSR1,
///    which the parent sends a hung worker before it kills it; the handler
///    then adds the line `{"flushed":{}}` so the parent need not wait.
///
/// The state is process-wide because a signal handler can reach nothing
/// else; a worker process has exactly one protocol stream.

///
/// Header-only on purpose (imported like CLua's shim): the functions are
/// compiled into the one Swift module that uses them, NavScript, so the
/// state below exists once per process.

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int outbox_fd = -1;
static char *outbox_bytes = NULL;
static size_t outbox_capacity = 0;
/// Bytes appended completely: the only count the handler trusts.
static volatile sig_atomic_t outbox_count = 0;
/// Set while the normal path writes, so the handler does not send the same bytes twice.
static volatile sig_atomic_t outbox_writing = 0;
static long long outbox_last_write_ns = 0;

static inline long long now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

/// write(2) until done; async-signal-safe.
static inline void write_all(int fd, const char *bytes, size_t count) {
    while (count > 0) {
        ssize_t written = write(fd, bytes, count);
        if (written < 0) {
            if (errno == EINTR) continue;
            return;
        }
        bytes += written;
        count -= (size_t)written;
    }
}

static inline int navscript_outbox_open(int fd, size_t capacity) {
    outbox_bytes = malloc(capacity);
    if (outbox_bytes == NULL) return -1;
    outbox_fd = fd;
    outbox_capacity = capacity;
    outbox_count = 0;
    outbox_last_write_ns = now_ns();
    return 0;
}

static inline void navscript_outbox_flush(void) {
    if (outbox_count == 0 || outbox_fd < 0) return;
    outbox_writing = 1;
    atomic_signal_fence(memory_order_seq_cst);
    write_all(outbox_fd, outbox_bytes, (size_t)outbox_count);
    outbox_count = 0;
    atomic_signal_fence(memory_order_seq_cst);
    outbox_writing = 0;
    outbox_last_write_ns = now_ns();
}

static inline void navscript_outbox_append(const char *bytes, size_t count) {
    if (outbox_fd < 0) return;
    if ((size_t)outbox_count + count > outbox_capacity) {
        navscript_outbox_flush();
        if (count > outbox_capacity) {
            outbox_writing = 1;
            atomic_signal_fence(memory_order_seq_cst);
            write_all(outbox_fd, bytes, count);
            atomic_signal_fence(memory_order_seq_cst);
            outbox_writing = 0;
            return;
        }
    }
    memcpy(outbox_bytes + outbox_count, bytes, count);
    // The copy is complete before the count says so.
    atomic_signal_fence(memory_order_seq_cst);
    outbox_count += (sig_atomic_t)count;
    if (now_ns() - outbox_last_write_ns > 50000000LL) navscript_outbox_flush();
}

static void outbox_on_signal(int number) {
    int saved = errno;
    if (!outbox_writing && outbox_count > 0 && outbox_fd >= 0) {
        write_all(outbox_fd, outbox_bytes, (size_t)outbox_count);
        outbox_count = 0;
    }
    if (number == SIGUSR1 && outbox_fd >= 0) {
        // Tells the parent it may kill this worker now (WorkerMessage.flushed).
        static const char flushed[] = "{\"flushed\":{}}\n";
        write_all(outbox_fd, flushed, sizeof flushed - 1);
    }
    errno = saved;
    if (number != SIGUSR1) {
        // The default action, so the process dies of the same signal.
        signal(number, SIG_DFL);
        raise(number);
    }
}

static inline void navscript_outbox_flush_on_signals(void) {
    const int numbers[] = {SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGUSR1};
    for (size_t index = 0; index < sizeof numbers / sizeof numbers[0]; index++) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = outbox_on_signal;
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_RESTART;
        sigaction(numbers[index], &action, NULL);
    }
    // A blocked mask is inherited through exec (a test runner or CI agent
    // may block SIGUSR1): unblock, or the parent's request never arrives.
    sigset_t wanted;
    sigemptyset(&wanted);
    for (size_t index = 0; index < sizeof numbers / sizeof numbers[0]; index++) sigaddset(&wanted, numbers[index]);
    sigprocmask(SIG_UNBLOCK, &wanted, NULL);
}

#endif
