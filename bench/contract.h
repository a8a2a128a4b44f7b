// contract.h: the result file's JSON, written whole with a JSON library: Google Benchmark's context and benchmarks, and regbench's object
#ifndef REGBENCH_CONTRACT_H
#define REGBENCH_CONTRACT_H

#include <string>
#include <vector>

#include <benchmark/benchmark.h>

struct rb_session;

// Version of the "regbench" object's layout; readers refuse one they do not know.
constexpr int kContractVersion = 1;

// Whether Google Benchmark's library was built without NDEBUG (Debian's is), as its JSON output says
// (library_build_type): the library has no call that tells.
bool rb_benchmark_debug_build();

/*
 * The whole document, as Google Benchmark 1.7.1's JSONReporter lays it out
 * (its context keys, then regbench's; "benchmarks" with its field names and
 * types, so its compare.py and every reader of its JSON read it), with
 * regbench's object after them: contract, order, families, strategies,
 * kernel_strategies, benchmarks (those the run called: a filter leaves the
 * others out), histograms.  Runs whose time is not a number, and counters
 * that are not, are left out (JSON has no NaN).  Strict JSON: control
 * characters escaped; bytes that are not UTF-8 (never a user's: the flags
 * refuse them) replaced, never thrown on.
 */
std::string rb_contract_json(const rb_session &s, const benchmark::BenchmarkReporter::Context &context,
			     const std::vector<benchmark::BenchmarkReporter::Run> &runs);

#endif
