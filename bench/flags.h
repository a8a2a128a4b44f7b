// flags.h: Google Benchmark 1.7.1's own flags, checked by regbench before Google Benchmark sees them
#ifndef REGBENCH_FLAGS_H
#define REGBENCH_FLAGS_H

#include <string>
#include <utility>
#include <vector>

#include "output.h"

// What the command line gave of Google Benchmark's flags, checked.  Google Benchmark 1.7.1 takes a
// bad number as an unknown argument after a message of its own, a bad boolean ("no") as true, a
// bad time unit or format with its usage text and exit status 0, and reads the same flags from
// the environment; so regbench checks each and hands Google Benchmark only canonical forms.
struct rb_benchmark_flags {
	std::vector<std::string> pass;		// for Google Benchmark: --benchmark_NAME=VALUE, canonical
	std::string filter;			// --benchmark_filter as given, "" when not
	bool list_tests = false;		// --benchmark_list_tests
	std::vector<std::string> run_only;	// the flags given that matter only when benchmarks run
	std::vector<std::pair<std::string, std::string>> context;	// --benchmark_context, in order
};

// Takes arg when it is one of Google Benchmark's flags (--NAME=VALUE, or a bare boolean flag):
// checked, kept in *f, or in *o for the output flags regbench handles itself (output.cc).
// False when arg is not one of them; a bad value or an unknown --benchmark_ flag is one line on
// stderr and exit 2.
bool rb_benchmark_flag(const std::string &arg, rb_benchmark_flags *f, rb_output *o);

// Google Benchmark reads each of its flags from the environment too (BENCHMARK_FILTER for
// --benchmark_filter), where regbench's checks do not reach: one line and exit 2 when any is set.
// (V, its verbosity, is left to it: other tools use V too.)
void rb_benchmark_env_check();

// How many of names --benchmark_filter selects, as Google Benchmark 1.7.1 selects them: "all" is
// every name; else an extended regular expression searched for in each name, and a leading '-'
// selects the names it does not match.
size_t rb_filter_count(const std::string &filter, const std::vector<std::string> &names);

// Whether Google Benchmark 1.7.1's JSON context has key of its own (date, host_name, ...).
bool rb_benchmark_context_key(const std::string &key);

// true/false, yes/no, on/off, 1/0 into *out; false for anything else.
bool rb_flag_boolean(const std::string &v, bool *out);

#endif
