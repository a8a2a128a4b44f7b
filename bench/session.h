// session.h: one run of regbench, built in main and passed down: what was asked, the target, the clocks, the control, the device, the benchmarks
#ifndef REGBENCH_SESSION_H
#define REGBENCH_SESSION_H

#include <string>
#include <vector>

#include "clock.h"
#include "context.h"
#include "device.h"
#include "env.h"
#include "estimate.h"
#include "iomap/target.h"
#include "options.h"
#include "result.h"

// What the runners keep across benchmarks (measure.cc).
struct rb_measure_state {
	double budget = 0;			// seconds one repetition measures at most
	rb_control_history control{};		// every reading of the disturbance control so far
	std::vector<double> core_per_tick;	// the core clock beside each repetition (core cycles per timer tick)
	bool markers = false;			// each benchmark is a likwid marker region

	// Adaptive repetitions (measure.cc): each benchmark gets `least` repetitions, and up to `most` while they
	// cannot tell a 5% difference and its share of the run's budget lasts.
	int least = 3, most = 3;
	double run_budget = 0;			// seconds the run aims at (--run-budget; 0: `least` each)
	double started = -1;			// when the first benchmark started (steady clock, seconds)
	size_t left = 0;			// benchmarks not yet started
};

struct rb_session {
	rb_command command;		// what the command line asked for
	iomap_target target{};		// open from command.options.target
	bool target_open = false;
	rb_clock clock{};
	rb_env env{};
	int cpu = -1;			// the CPU the run is pinned to
	std::string cpu_model;		// as /proc/cpuinfo names it
	bool library_debug = false;	// Google Benchmark's library was built without NDEBUG (Debian's is)
	rb_measure_state measure;
	rb_context context;		// before device, which sets its keys in it
	rb_device device;		// the device behind a hardware target, watched between benchmarks
	rb_registry registry;		// the benchmarks registered, and how each ended

	rb_session() : device(&target, &clock, &context) {}
	~rb_session()
	{
		if (target_open)
			iomap_target_close(&target);
	}
	rb_session(const rb_session &) = delete;
	rb_session &operator=(const rb_session &) = delete;
};

#endif
