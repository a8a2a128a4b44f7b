// signals.h: SIGINT and SIGTERM ask the run to stop after the current benchmark; asked twice, it stops at once
#ifndef REGBENCH_SIGNALS_H
#define REGBENCH_SIGNALS_H

#include <cstddef>

// From now on, SIGINT and SIGTERM are caught.
void rb_catch_signals();

// The signal that asked the run to stop, or 0.
int rb_interrupted();

// The temporary file being written, which a second signal removes before it ends the process ("": none).
// Returns where to put its name (mkostemp's template), of rb_temporary_size bytes.
char *rb_temporary();
constexpr size_t rb_temporary_size = 4096;

#endif
