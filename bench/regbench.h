// regbench.h: what the command line hands to registration, and what registration hands to the runner
#ifndef REGBENCH_REGBENCH_H
#define REGBENCH_REGBENCH_H

#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "clock.h"
#include "iomap/target.h"
#include "kernels.h"

struct rb_options {
	std::string target = IOMAP_DEFAULT_TARGET;
	std::vector<std::string> strategies;	// empty: every strategy
	int cpu = -1;				// -1: chosen from the affinity mask
	bool quick = false;
	std::vector<size_t> sizes, counts;	// --sizes, --counts: the copy sizes and _rep counts (empty: the family's)
	bool list_targets = false;
	bool self_check = false;

	// hardware safety (pci:, port:): what the user permits beyond reading
	iomap_permit permit{};			// --allow-write=OFF+LEN, --force
};

// One registered benchmark: its kernel on the target, where it works, with n elements or bytes.
struct rb_bench {
	const rb_kernel *k;
	const iomap_target *t;
	const rb_clock *clk;
	void __iomem *io;	// the register, FIFO or copy window in the kernel's space
	size_t n;		// rep elements or copy bytes, else 0
	std::string name;
};

// Bad input: "regbench: what: why (hint)" on stderr, exit 2.
[[noreturn]] void rb_die(const std::string &what, const std::string &why, const std::string &hint);

// The /N values a family with a parameter runs: --sizes or --counts, else the family's own sweep.
std::vector<size_t> rb_sweep(const rb_family &f, const rb_options &o);

// Why --sizes cannot run on target t (a size beyond its copy window, or no copy window at all),
// as the one line regbench prints, or "".
std::string rb_check_sweeps(const iomap_target &t, const rb_options &o);

// Register every family x op x width x strategy of the kernel table that the options select;
// those that cannot run on this target or CPU are registered as skipped, with the reason.
void rb_register_families(const iomap_target &t, const rb_clock &clk, const rb_options &o);

// Run one repetition of a benchmark (measure.cc): Google Benchmark's one iteration, whose
// manual time is the cost per unit; or report it skipped.
void rb_run(benchmark::State &st, const rb_bench &b);
void rb_skip(benchmark::State &st, const std::string &why);

// Before the first benchmark: the most one repetition measures, in seconds (--benchmark_min_time:
// a repetition stops sooner once its fastest calls settle, or when it has its samples), and the
// disturbance control's first readings (about 40 ms, so the first benchmark is timed as the rest).
void rb_measure_init(const rb_clock &clk, double budget);

// Whether the measurements set this context key as they run (target_first_read, target_lost) or
// when the run ends (core_hz_estimate, core_hz_source: rb_measure_context).
bool rb_measure_context_key(const std::string &key);

// When the run ends, before the result file is written: the core clock the control read beside the
// repetitions (their median), or, when none ran, the start-up estimate, each with its source.
void rb_measure_context();

// Why the device behind a hardware target stopped answering during the run (which then stopped),
// or NULL while it answers.
const char *rb_device_lost();

// likwid marker regions (a -DLIKWID_PERFMON build): set up only under likwid-perfctr.
void rb_markers_init();
void rb_markers_close();

#endif
