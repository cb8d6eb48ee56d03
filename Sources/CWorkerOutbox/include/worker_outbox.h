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
/// Its state is one static in worker_outbox.c — a signal handler reaches
/// nothing but globals, and one compiled owner means one outbox whatever
/// module calls in.

#include <stddef.h>

/// Starts buffering for `fd` with room for `capacity` bytes; 0 on success.
int navscript_outbox_open(int fd, size_t capacity);

/// A phase begins now: a scenario starts, or one ends (see `phase_started_ns`).
void navscript_outbox_mark_phase(void);

/// Writes everything buffered.
void navscript_outbox_flush(void);

/// Buffers `count` bytes: whole messages only.
void navscript_outbox_append(const char *bytes, size_t count);

/// Keeps `count` bytes (whole lines) as the note, replacing the last one;
/// an empty note (count 0) clears it. A note that cannot be stored is dropped.
void navscript_outbox_note(const char *bytes, size_t count);

/// The noted call has returned: a signal's flush follows the note with
/// `{"returned":{}}`, so a hang after it is not blamed on that call. A
/// store, no lock: called after every call, on the thread that notes.
void navscript_outbox_note_returned(void);

/// Installs the signal handlers described above, on an alternate stack.
void navscript_outbox_flush_on_signals(void);

/// Starts a thread that writes whatever has waited in the buffer longer
/// than `wait_ns`, so a result is never held back by the scenario after it
/// (which may hang without appending again). 0 on success.
int navscript_outbox_start_ticker(long long wait_ns);

/// Asks the kernel to kill this process when its parent dies (a worker
/// must not outlive a run that was SIGKILLed: nothing would enforce its
/// timeout). 0 on success, 1 when the parent is already gone, -1 on error.
int navscript_die_with_parent(void);

#endif
