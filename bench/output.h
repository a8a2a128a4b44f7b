// output.h: where results go: the console, and the result file written whole or not at all
#ifndef REGBENCH_OUTPUT_H
#define REGBENCH_OUTPUT_H

#include <string>

// Google Benchmark's output flags, which regbench handles itself so that the result file is
// written to a temporary file and renamed only when complete, and carries the regbench object.
struct rb_output {
	std::string out;			// --benchmark_out: the result file, "" for none
	std::string out_format = "json";	// --benchmark_out_format: json, console or csv
	std::string format = "console";		// --benchmark_format: what the console shows
	std::string color = "auto";		// --benchmark_color
	bool tabular = false;			// --benchmark_counters_tabular
	bool aggregates_only = true;		// --benchmark_display_aggregates_only: the console shows medians
};

// Takes one of those flags from argv[i] into *o; false when argv[i] is not one.  A bad value is
// one line on stderr and exit 2.
bool rb_output_flag(const char *arg, rb_output *o);

// Before anything runs: the result file can be created where it goes (a temporary file beside
// it is made now).  One line on stderr and exit 2 when it cannot.
void rb_output_open(const rb_output &o);

// Runs the registered benchmarks with the console and file reporters, then puts the result
// file in place.  Returns 0, or 1 after one line on stderr when the file could not be written.
int rb_output_run(const rb_output &o);

// Whether the result file's context has key of regbench's output (interrupted, disturbed_benchmarks).
bool rb_output_context_key(const std::string &key);

// SIGINT or SIGTERM asks the run to stop after the current benchmark: the signal, or 0.
int rb_interrupted();
void rb_output_catch_signals();

#endif
