// session.h: one run of regbench, built in main and passed down: what was asked, the target, the clocks, the control, the device, the benchmarks
#ifndef REGBENCH_SESSION_H
#define REGBENCH_SESSION_H

#include <map>
#include <set>
#include <string>

#include "clock.h"
#include "device.h"
#include "env.h"
#include "estimate.h"
#include "iomap/target.h"
#include "options.h"
#include "result.h"

/*
 * The JSON's context as regbench sets it: each key from the module that
 * owns the fact.  A key a module sets only as the run goes (target_lost,
 * interrupted) is claimed before --benchmark_context's keys are checked,
 * which may not replace any of them.
 */
class rb_context {
public:
	void set(const std::string &key, const std::string &value)
	{
		keys_[key] = value;
		claimed_.insert(key);
	}
	void claim(const std::string &key) { claimed_.insert(key); }
	bool claimed(const std::string &key) const { return claimed_.count(key) > 0; }
	std::string get(const std::string &key) const
	{
		auto it = keys_.find(key);
		return it == keys_.end() ? "" : it->second;
	}
	const std::map<std::string, std::string> &all() const { return keys_; }

private:
	std::map<std::string, std::string> keys_;	// in key order, as Google Benchmark keeps its own
	std::set<std::string> claimed_;
};

// What the runners keep across benchmarks (measure.cc).
struct rb_measure_state {
	double budget = 0;			// seconds one repetition measures at most
	rb_control_history control{};		// every reading of the disturbance control so far
	std::vector<double> core_per_tick;	// the core clock beside each repetition (core cycles per TSC tick)
	bool markers = false;			// each benchmark is a likwid marker region
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
	rb_context context;		// before device, which claims its keys in it
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
