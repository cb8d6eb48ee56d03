#define _GNU_SOURCE
#include "process_limits.h"

#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

/* makecontext passes int arguments only: the body and its context travel through these, set just
   before the switch and read first thing on the new stack (one thread, no switch in between). */
static __thread void (*stack_body)(void *);
static __thread void *stack_context;

static void stack_entry(void) {
    void (*body)(void *) = stack_body;
    void *context = stack_context;
    body(context);
}

int navscript_call_on_stack(size_t size, void (*body)(void *), void *context) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size = (size + page - 1) / page * page;
    /* One guard page below the stack: an overflow faults (reported as a crash) instead of
       writing over whatever was mapped there. */
    char *region = mmap(NULL, size + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (region == MAP_FAILED) return -1;
    if (mprotect(region, page, PROT_NONE) != 0) {
        munmap(region, size + page);
        return -1;
    }
    ucontext_t caller, callee;
    if (getcontext(&callee) != 0) {
        munmap(region, size + page);
        return -1;
    }
    callee.uc_stack.ss_sp = region + page;
    callee.uc_stack.ss_size = size;
    callee.uc_link = &caller;
    makecontext(&callee, stack_entry, 0);
    stack_body = body;
    stack_context = context;
    if (swapcontext(&caller, &callee) != 0) {
        munmap(region, size + page);
        return -1;
    }
    munmap(region, size + page);
    return 0;
}

int navscript_set_default_thread_stack(size_t size) {
    pthread_attr_t attributes;
    if (pthread_getattr_default_np(&attributes) != 0) return -1;
    int status = pthread_attr_setstacksize(&attributes, size);
    if (status == 0) status = pthread_setattr_default_np(&attributes);
    pthread_attr_destroy(&attributes);
    return status == 0 ? 0 : -1;
}
