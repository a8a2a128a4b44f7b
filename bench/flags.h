// flags.h: the command line: regbench's own flags and Google Benchmark 1.7.1's, each declared once in a table and checked
#ifndef REGBENCH_FLAGS_H
#define REGBENCH_FLAGS_H

#include <cstdio>
#include <string>
#include <vector>

#include "options.h"

// Reads the command line: regbench's flags into options, Google Benchmark's (checked) into benchmark
// and output.  Anything else, a value given twice differently, a meaningless combination or an
// argument that is not UTF-8 (it would be kept in the JSON) throws rb_error.
rb_command rb_parse_flags(int argc, char **argv);

// What the command line asks regbench to do, as one word: run (benchmarks), or an answer that runs
// none: help, list-targets, self-check, list-tests.  regbench --action ARGUMENTS... prints it for
// scripts (scripts/run), so that no script restates which flags run nothing or take a value.
const char *rb_action(const rb_command &c);

// Takes arg when it is one of Google Benchmark's flags (--NAME=VALUE, or a bare boolean flag), checked,
// into the command, with *value what it means (a boolean's true or false, however spelt); false when it
// is not one of them (flags-benchmark.cc).
bool rb_benchmark_flag(const std::string &arg, rb_command *c, std::string *value);

// --help: regbench's flags, from the table, then Google Benchmark's own help.
void rb_usage(FILE *f);

// Google Benchmark reads each of its flags from the environment too (BENCHMARK_FILTER for
// --benchmark_filter), where regbench's checks do not reach: rb_error when any is set.  (V, its
// verbosity, is left to it: other tools use V too.)
void rb_benchmark_env_check();

// What Google Benchmark gets: the program's name, its flags as checked, and what regbench sets
// unless the command line does (a short min_time, three repetitions).  regbench keeps min_time as
// its budget, *budget in seconds, and hands Google Benchmark 0: each repetition is then one call of
// one iteration, whose manual time the runner sets.  *repetitions is how many each benchmark gets,
// *repetitions_given whether the command line said so.
std::vector<std::string> rb_benchmark_args(const char *program, const rb_benchmark_flags &gb, bool quick,
					   double *budget, int *repetitions, bool *repetitions_given);

#endif
