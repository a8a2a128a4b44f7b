// result.h: one record per benchmark: what it is, and how it ended as a state with its reasons apart; the registry that holds them
#ifndef REGBENCH_RESULT_H
#define REGBENCH_RESULT_H

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "estimate.h"
#include "kernels.h"

/*
 * How a benchmark ended.  Text for it is made only where it is shown or
 * written (result.cc): the JSON's words, the console's lines, Google
 * Benchmark's error messages and labels.
 *   measured          it has a figure
 *   below_resolution  most repetitions lay under one step of the timer:
 *                     no figure, only that bound
 *   skipped           it cannot run here (known when it is registered)
 *   error             a repetition failed (a fault, a device that does not
 *                     answer); wins over every other state
 *   not_run           the run ended before it (interrupted, the device lost)
 */
enum class rb_state { measured, below_resolution, skipped, error, not_run };

// How one repetition ended.  Google Benchmark calls a benchmark once per repetition (regbench hands
// it a min_time of 0), so the n-th call is repetition n.
struct rb_repetition {
	rb_state state = rb_state::measured;
	double bound = 0;		// below_resolution: the timer step its figure lies under, in timer ticks
	std::string reason;		// skipped, error, not_run: why
	bool disturbed = false;		// measured while the control read the machine disturbed
	double cycles = 0;		// measured: its figure, TSC ticks per unit
};

// One benchmark: what registration made of it, and what the runner (measure.cc) found; reporters read it.
struct rb_result {
	std::string name;		// family/op+width/strategy[/param]
	const rb_kernel *kernel = nullptr;
	std::string strategy;		// as the name carries it ("" for none)
	size_t param = 0;		// its /N (0: none)
	std::string pair;		// a port benchmark beside MMIO: the MMIO benchmark it compares with
	void __iomem *io = nullptr;	// the register, FIFO or copy window in the kernel's space (NULL on kernel:)
	size_t off = 0;			// where that is in the target's window
	int line = -1;			// kernel: the regbench module's line that runs it (inkernel.h), else -1
	bool selected = false;		// --benchmark_filter selects it: Google Benchmark has it to run

	rb_state state = rb_state::measured;
	std::string reason;		// skipped, error, not_run: why ("" otherwise)
	double bound = 0;		// below_resolution: the highest bound of its repetitions below it
	int disturbed = 0;		// repetitions measured on a disturbed machine
	std::vector<rb_repetition> repetitions;	// in the order Google Benchmark called them, those it needed
	double share = 0, spent = 0;	// adaptive repetitions: seconds of the run's budget it may take, and took
	bool enough = false;		// it needs no more repetitions (measure.cc): the later calls are not kept
	std::vector<rb_batch> batches;		// a sampled family's batches of every repetition (estimate.h),
	std::vector<double> sampled_means;	// and each repetition's dithered mean
	std::vector<uint64_t> histogram;	// a sampled family's samples of every repetition, binned on the grid of
	double histogram_step = 0;		// this step (estimate.h: rb_bin_samples); empty before the first

	// Registration found it cannot run here.
	void skip(const std::string &why);
	// A repetition ended; the state follows from all of them.
	void add(const rb_repetition &r);
	// Google Benchmark called it (an interrupted run, or a listing, calls none).
	bool ran() const { return !repetitions.empty(); }
	// How repetition i ended, or nullptr for one that was not called.
	const rb_repetition *repetition(long i) const;
	int failed() const;		// repetitions that ended in an error

private:
	bool skipped_ = false;
};

// The benchmarks registered, in registration order, each found by name.
class rb_registry {
public:
	rb_result &add(const rb_result &r);
	rb_result *find(const std::string &name);
	const rb_result *find(const std::string &name) const;
	const std::deque<rb_result> &all() const { return results_; }
	size_t selected(bool runnable) const;	// benchmarks the filter selects (runnable: and not skipped)
	size_t disturbed_benchmarks() const;	// benchmarks with a disturbed repetition
	bool any_error() const;

private:
	std::deque<rb_result> results_;		// a deque: records stay where they are while more are added
	std::map<std::string, rb_result *> by_name_;
};

// The text of a state, made here only.  The JSON's word for it.
const char *rb_state_word(rb_state s);

// The JSON's reason: a below_resolution result's bound in words, else the result's reason.
std::string rb_result_reason(const rb_result &r);

// Google Benchmark's error_message of a repetition that did not measure (its state's words, then
// why), and the label of one below the resolution (its bound, in words).
std::string rb_repetition_message(const rb_repetition &r);
std::string rb_repetition_label(const rb_repetition &r);

// The console's text for a result without a figure (its state's words, why, and for an error how many
// repetitions failed; below the resolution, the bound); "" for a measured one.
std::string rb_result_line(const rb_result &r, int repetitions);

// The console's line for the benchmarks the run never reached, and the progress's at the end.
std::string rb_not_run_line(size_t n, const std::string &why);
std::string rb_interrupted_line(const std::string &elapsed, size_t not_run, size_t done);

#endif
