// contract.h: the bench-to-report contract: what each benchmark is and how it ended, as the JSON's "regbench" object
#ifndef REGBENCH_CONTRACT_H
#define REGBENCH_CONTRACT_H

#include <string>
#include <utility>
#include <vector>

#include <benchmark/benchmark.h>

#include "estimate.h"
#include "kernels.h"

// Version of the "regbench" object's layout; readers refuse one they do not know.
constexpr int kContractVersion = 1;

// A benchmark as registered: its kernel, its /N parameter (0: none) and, for a port benchmark
// run beside MMIO, the name of the MMIO benchmark it compares with.
void rb_contract_add(const std::string &name, const rb_kernel &k, size_t param, const std::string &pair);

// How a benchmark ended, as the JSON says it: skipped (it cannot run here: known when it is
// registered), below_resolution (most repetitions had no figure, only the bound under which they
// lie: one step of the timer, in TSC cycles; the highest is kept) or error (a repetition failed;
// wins over the others).
// Unmarked benchmarks were measured.  Google Benchmark calls a benchmark several times before the
// call it reports, so the runner only says what its call ended with (rb_contract_below) and the
// reported runs decide (rb_contract_reported).
void rb_contract_skipped(const std::string &name, const std::string &reason);
void rb_contract_below(const std::string &name, const std::string &label, double bound);
void rb_contract_reported(const benchmark::BenchmarkReporter::Run &run);

// A repetition of the benchmark was measured while the machine was disturbed (measure.cc's
// control said so): counted per benchmark as "disturbed".
void rb_contract_disturbed(const std::string &name);

// How many benchmarks had a disturbed repetition.
size_t rb_contract_disturbed_benchmarks();

// What the console shows of a benchmark: how it ended (as the JSON says), its unit, its
// disturbed repetitions, whether its family reports percentiles.  False for an unknown name.
struct rb_contract_entry {
	const rb_family *family;
	std::string state, reason, unit;
	int disturbed;
	bool percentiles;
};
bool rb_contract_get(const std::string &name, rb_contract_entry *e);

// The lat/ samples of a benchmark, binned (the last repetition's).
void rb_contract_histogram(const std::string &name, const rb_histogram &h);

// The benchmarks' names, in registration order.
std::vector<std::string> rb_contract_names();

// True once any benchmark ended with an error, not a skip.
bool rb_any_error();

// The "regbench" object: contract, order, families, strategies, kernel_strategies, benchmarks (those
// the run reported: a filter leaves the others out),
// histograms.  Strict JSON: no NaN, strings escaped.
std::string rb_contract_json();

// s as a JSON string literal, quotes included.
std::string rb_json_string(const std::string &s);

#endif
