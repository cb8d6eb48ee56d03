#include "worker_outbox.h"

#include <errno.h>
#include <sys/prctl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/// The outbox's state: one, owned by this file — which a signal handler,
/// reaching nothing but globals, needs. (When it was a header's state, a
/// release build that inlined a caller into another module got a second,
/// empty outbox, and the worker's messages were dropped; it then had to be
/// a `weak` global every importer defined.)
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
    /// 1 once the noted call has returned (``navscript_outbox_note_returned``).
    volatile sig_atomic_t note_returned;
};
static struct navscript_outbox_state navscript_outbox_state = {-1, NULL, 0, 0, 0, 0, 0, NULL, 0, 0, 0};

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

#define OUTBOX_SIGNAL_COUNT (sizeof outbox_signals / sizeof outbox_signals[0])

static long long outbox_now_ns(void);

/// write(2) until done; async-signal-safe.
static void outbox_write_all(const char *bytes, size_t count);

static int outbox_acquire(void) { return __atomic_exchange_n(&outbox_busy, 1, __ATOMIC_SEQ_CST) == 0; }
static void outbox_release(void) { __atomic_store_n(&outbox_busy, 0, __ATOMIC_SEQ_CST); }

static const int outbox_signals[] = {SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGTERM, SIGHUP, SIGUSR1};
static long long outbox_now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

static void outbox_write_all(const char *bytes, size_t count) {
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

static void outbox_drain(void) {
    if (outbox_count > 0) {
        outbox_write_all(outbox_bytes, outbox_count);
        outbox_count = 0;
    }
}

static void outbox_drain_for_signal(void) {
    static const char returned[] = "{\"returned\":{}}\n";
    outbox_drain();
    if (outbox_note_count > 0) {
        outbox_write_all(outbox_note, outbox_note_count);
        if (navscript_outbox_state.note_returned) outbox_write_all(returned, sizeof returned - 1);
    }
}

static void outbox_say_flushed(void) {
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

static void outbox_release_answering(void) {
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

static void outbox_acquire_waiting(void) {
    while (!outbox_acquire()) sched_yield();
}

int navscript_outbox_open(int fd, size_t capacity) {
    outbox_bytes = malloc(capacity);
    if (outbox_bytes == NULL) return -1;
    outbox_fd = fd;
    outbox_capacity = capacity;
    outbox_count = 0;
    outbox_last_write_ns = outbox_now_ns();
    outbox_phase_started_ns = outbox_last_write_ns;
    return 0;
}

void navscript_outbox_mark_phase(void) {
    __atomic_store_n(&outbox_phase_started_ns, outbox_now_ns(), __ATOMIC_RELAXED);
}

void navscript_outbox_flush(void) {
    if (outbox_fd < 0) return;
    outbox_acquire_waiting();
    outbox_drain();
    outbox_last_write_ns = outbox_now_ns();
    outbox_release_answering();
}

void navscript_outbox_append(const char *bytes, size_t count) {
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

void navscript_outbox_note(const char *bytes, size_t count) {
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
    navscript_outbox_state.note_returned = 0;
    outbox_release_answering();
}

void navscript_outbox_note_returned(void) { navscript_outbox_state.note_returned = 1; }

/* The handlers installed before ours (the Swift runtime's backtracer): a crash is passed on to
   them once flushed, with its own context, so the trap's message and frames are still reported. */
static struct sigaction outbox_previous[OUTBOX_SIGNAL_COUNT];

static void outbox_on_signal(int number, siginfo_t *info, void *context) {
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
    /* A fault of this process (si_code > 0: a trap, a bad access) goes on to the backtracer; a
       signal another process sent (a kill, a CI limit) ends it at once, as it always did. */
    if (number != SIGUSR1 && info != NULL && info->si_code > 0) {
        for (size_t index = 0; index < OUTBOX_SIGNAL_COUNT; index++) {
            if (outbox_signals[index] != number) continue;
            struct sigaction *previous = &outbox_previous[index];
            if ((previous->sa_flags & SA_SIGINFO) && previous->sa_sigaction != NULL) {
                sigaction(number, previous, NULL); /* it runs as the only handler from now on */
                previous->sa_sigaction(number, info, context);
                return; /* a fault re-executes and meets it again, a raise() was already handled */
            }
            if (previous->sa_handler != SIG_DFL && previous->sa_handler != SIG_IGN && previous->sa_handler != NULL) {
                sigaction(number, previous, NULL);
                previous->sa_handler(number);
                return;
            }
        }
    }
    if (number != SIGUSR1) {
        // The default action, so the process dies of the same signal.
        signal(number, SIG_DFL);
        raise(number);
    }
}

/* The ticker: whatever waited in the buffer longer than the limit goes out, also while the main
   thread is stuck in a scenario that never appends again (a hang after a quick scenario finished).
   It takes the buffer only when no one holds it: a writer holding it flushes by the same rule. */
static long long outbox_ticker_wait_ns;

static void *outbox_tick(void *unused) {
    (void)unused;
    struct timespec pause = {0, (long)(outbox_ticker_wait_ns / 2)};
    for (;;) {
        nanosleep(&pause, NULL);
        if (__atomic_load_n(&outbox_count, __ATOMIC_RELAXED) == 0) continue;
        if (outbox_now_ns() - __atomic_load_n(&outbox_last_write_ns, __ATOMIC_RELAXED) <= outbox_ticker_wait_ns) continue;
        if (!outbox_acquire()) continue;
        outbox_drain();
        outbox_last_write_ns = outbox_now_ns();
        outbox_release_answering();
    }
    return NULL;
}

int navscript_outbox_start_ticker(long long wait_ns) {
    pthread_t thread;
    pthread_attr_t attributes;
    sigset_t all, previous;
    int status;
    outbox_ticker_wait_ns = wait_ns;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attributes, 64 * 1024);
    /* Signals are the main thread's to take (a crash there is the one to report): none here. */
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &previous);
    status = pthread_create(&thread, &attributes, outbox_tick, NULL);
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    pthread_attr_destroy(&attributes);
    return status == 0 ? 0 : -1;
}

void navscript_outbox_flush_on_signals(void) {
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
        action.sa_sigaction = outbox_on_signal;
        // One handler at a time: a SIGUSR1 must not interrupt a crash's flush.
        action.sa_mask = all;
        action.sa_flags = SA_RESTART | SA_ONSTACK | SA_SIGINFO;
        sigaction(outbox_signals[index], &action, &outbox_previous[index]);
    }
    // A blocked mask is inherited through exec (a test runner or CI agent
    // may block SIGUSR1): unblock, or the parent's request never arrives.
    pthread_sigmask(SIG_UNBLOCK, &all, NULL);
}

int navscript_die_with_parent(void) {
    pid_t parent = getppid();
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) return -1;
    /* The parent may have died before the request: then this process is already someone else's. */
    return getppid() == parent ? 0 : 1;
}
