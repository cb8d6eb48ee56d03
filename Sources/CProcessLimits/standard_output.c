/* The state of stdio's standard output stream (see process_limits.h). */
#include "process_limits.h"

#include <stdio.h>

int navscript_standard_output_failed(void) { return ferror(stdout) != 0; }
