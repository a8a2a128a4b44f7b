// signals.h: the signals that would end a run ask it to stop after the current benchmark and keep its results; asked twice, it stops at once
#ifndef REGBENCH_SIGNALS_H
#define REGBENCH_SIGNALS_H

#include <cstddef>

/*
 * From now on, the signals that would end the run (SIGINT, SIGTERM, SIGHUP,
 * SIGUSR1, SIGUSR2, SIGALRM: a person, a program or a terminal asks;
 * SIGPIPE, SIGXCPU: the output's reader left, the CPU-time limit is near) ask
 * it to stop after the benchmark in progress and keep what it measured;
 * SIGXFSZ is ignored, so that writing past the file-size limit fails (EFBIG)
 * and is reported instead of ending the process with a temporary file left
 * behind.
 */
void rb_catch_signals();

// The signal that asked the run to stop, or 0.
int rb_interrupted();

// Its name as the context's "interrupted" says it: "SIGINT".
const char *rb_signal_name(int sig);

// The temporary file being written, which a second signal removes before it ends the process ("": none).
// Returns where to put its name (mkostemp's template), of rb_temporary_size bytes.
char *rb_temporary();
constexpr size_t rb_temporary_size = 4096;

#endif
