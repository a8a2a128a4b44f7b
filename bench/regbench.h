// regbench.h: what the command line hands to the family registration
#ifndef REGBENCH_REGBENCH_H
#define REGBENCH_REGBENCH_H

#include <string>
#include <vector>

#include "iomap/target.h"
#include "timer.h"

struct rb_options {
	std::string target = IOMAP_DEFAULT_TARGET;
	std::vector<std::string> strategies;	// empty: every strategy
	int cpu = -1;				// -1: chosen from the affinity mask
	bool quick = false;
	bool list_targets = false;
	bool self_check = false;

	// hardware safety (pci:, port:): what the user permits beyond reading
	iomap_permit permit{};			// --allow-write=OFF+LEN, --force
};

// Register every family x op x width x strategy that the target and the CPU
// allow; those that cannot run here are registered as skipped, with the reason.
void rb_register_families(const iomap_target &t, const rb_clock &clk, const rb_options &o);

// True once any benchmark ended with an error (a fault), not a skip.
bool rb_any_error();

// likwid marker regions (a -DLIKWID_PERFMON build): set up only under likwid-perfctr.
void rb_markers_init();
void rb_markers_close();

// The lat/ histograms measured so far, as a JSON object keyed by benchmark name.
std::string rb_histograms_json();

#endif
