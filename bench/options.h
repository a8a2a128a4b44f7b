// options.h: what the command line asks for: regbench's own flags, Google Benchmark's, and where results go
#ifndef REGBENCH_OPTIONS_H
#define REGBENCH_OPTIONS_H

#include <string>
#include <utility>
#include <vector>

#include "filter.h"
#include "iomap/target.h"

// Seconds a default run aims at (--run-budget): the default suite takes about 7 s on the development VM when
// its host is quiet, and adaptive repetitions add what is left of this.
#define RB_RUN_BUDGET "8"

// regbench's own flags (flags.cc has each one's default and help).
struct rb_options {
	std::string target = IOMAP_DEFAULT_TARGET;
	std::vector<std::string> strategies;	// empty: every strategy
	int cpu = -1;				// -1: chosen from the affinity mask
	bool quick = false;
	double run_budget = -1;			// --run-budget: seconds the run aims at (-1: its default, main.cc)
	std::vector<size_t> sizes, counts;	// --sizes, --counts: the copy sizes and _rep counts (empty: the family's)
	bool list_targets = false;
	bool self_check = false;
	bool help = false;
	bool action = false;			// --action, first: print what the rest asks for (rb_action), and stop

	// hardware safety (pci:, port:): what the user permits beyond reading
	iomap_permit permit{};			// --allow-write=OFF+LEN, --force
};

// What the command line gave of Google Benchmark's flags, checked.  Google Benchmark 1.7.1 takes a
// bad number as an unknown argument after a message of its own, a bad boolean ("no") as true, a
// bad time unit or format with its usage text and exit status 0, and reads the same flags from
// the environment; so regbench checks each and hands Google Benchmark only canonical forms.
struct rb_benchmark_flags {
	std::vector<std::string> pass;		// for Google Benchmark: --benchmark_NAME=VALUE, canonical
	rb_filter filter;			// --benchmark_filter, which regbench applies itself
	bool list_tests = false;		// --benchmark_list_tests
	std::vector<std::string> run_only;	// the flags given that matter only when benchmarks run
	std::vector<std::pair<std::string, std::string>> context;	// --benchmark_context, in order
};

// Google Benchmark's output flags, which regbench handles itself so that the result file is written
// to a temporary file and renamed only when complete, and carries the regbench object.
struct rb_output_options {
	std::string out;			// --benchmark_out: the result file, "" for none
	std::string out_format = "json";	// --benchmark_out_format: json, console or csv
	std::string format = "console";		// --benchmark_format: what the console shows
	int color = -1;				// --benchmark_color: 1, 0, or -1 for a terminal that can
	bool tabular = false;			// --benchmark_counters_tabular
	bool aggregates_only = true;		// --benchmark_display_aggregates_only: the console shows medians
};

// The whole command line, read.
struct rb_command {
	rb_options options;
	rb_benchmark_flags benchmark;
	rb_output_options output;
	std::string line;			// as typed: the program and its arguments joined by spaces
};

#endif
