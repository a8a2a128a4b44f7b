// measure.h: the runners: one benchmark's repetition measured in its family's shape, with the counters it reports
#ifndef REGBENCH_MEASURE_H
#define REGBENCH_MEASURE_H

#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "family.h"
#include "result.h"

struct rb_session;
class rb_context;

// The context keys of the measurements: counters now, the core clock they read when the run ends.
void rb_measure_describe(rb_context &c);

// Before the first benchmark: the disturbance control's first readings (about 40 ms, so the first
// benchmark is timed as the rest), and likwid's marker regions when likwid-perfctr -m runs regbench.
void rb_measure_init(rb_session &s);
void rb_measure_close(rb_session &s);

// One repetition of a benchmark: Google Benchmark's one iteration, whose manual time is the cost per
// unit; r records how it ended.  A skipped benchmark only says so.
void rb_measure_once(benchmark::State &st, rb_session &s, rb_result &r);
void rb_measure_skipped(benchmark::State &st, rb_result &r);

// What Google Benchmark calls (adaptive.cc): each benchmark as often as adaptive repetitions may repeat
// it, one repetition a call; a call beyond what it needs ends at once and is not reported
// (reporter-tee.cc).
void rb_run(benchmark::State &st, rb_session &s, rb_result &r);
void rb_skip(benchmark::State &st, rb_session &s, rb_result &r);

// The counters a measured benchmark of family f carries, and the context's text of what each is (counters.cc).
std::vector<std::string> rb_counters(const rb_family &f);
std::string rb_counters_text();

// When the run ends: the core clock the control read beside the repetitions (their median), or, when
// none ran, the start-up estimate, each with its source, in the context.
void rb_measure_context(rb_session &s);

#endif
