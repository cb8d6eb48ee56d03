#include "process_limits.h"

#include <malloc.h>

void navscript_use_one_malloc_arena(void) { mallopt(M_ARENA_MAX, 1); }
