#ifndef NAVSCRIPT_WORKER_OUTBOX_H
#define NAVSCRIPT_WORKER_OUTBOX_H

#include <stddef.h>

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

/// Starts buffering for `fd` with room for `capacity` bytes; 0 on success.
int navscript_outbox_open(int fd, size_t capacity);

/// Buffers `count` bytes (whole messages only: the handler writes what has
/// been appended completely).
void navscript_outbox_append(const char *bytes, size_t count);

/// Writes everything buffered.
void navscript_outbox_flush(void);

/// Installs the signal handlers described above.
void navscript_outbox_flush_on_signals(void);

#endif
