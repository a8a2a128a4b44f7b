// result.cc: how a benchmark ended, decided from its repetitions, and every text of a state (the only place that has them)
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "result.h"

void rb_result::skip(const std::string &why)
{
	skipped_ = true;
	state = rb_state::skipped;
	reason = why;
}

/*
 * An error wins, then the end of the run; a skip stays a skip.  Otherwise
 * the result is below the resolution when most repetitions were: the state
 * of a cost near the bound does not turn on one repetition, and the median
 * of the repetitions is then a figure or not.
 */
void rb_result::add(const rb_repetition &r)
{
	int below = 0, measured = 0;
	const rb_repetition *error = nullptr, *not_run = nullptr;

	repetitions.push_back(r);
	disturbed += r.disturbed;
	bound = 0;
	for (const rb_repetition &p : repetitions) {
		if (p.state == rb_state::error && !error)
			error = &p;
		if (p.state == rb_state::not_run && !not_run)
			not_run = &p;
		measured += p.state == rb_state::measured || p.state == rb_state::below_resolution;
		if (p.state == rb_state::below_resolution) {
			below++;
			bound = std::max(bound, p.bound);
		}
	}
	if (error || not_run) {
		state = error ? rb_state::error : rb_state::not_run;
		reason = (error ? error : not_run)->reason;
	} else if (!skipped_) {
		state = 2 * below > measured ? rb_state::below_resolution : rb_state::measured;
		reason = "";
	}
	if (state != rb_state::below_resolution)
		bound = 0;
}

const rb_repetition *rb_result::repetition(long i) const
{
	return i >= 0 && (size_t)i < repetitions.size() ? &repetitions[(size_t)i] : nullptr;
}

int rb_result::failed() const
{
	return (int)std::count_if(repetitions.begin(), repetitions.end(),
				  [](const rb_repetition &r) { return r.state == rb_state::error; });
}

rb_result &rb_registry::add(const rb_result &r)
{
	if (rb_result *old = find(r.name))
		return *old = r;
	results_.push_back(r);
	by_name_[r.name] = &results_.back();
	return results_.back();
}

rb_result *rb_registry::find(const std::string &name)
{
	auto it = by_name_.find(name);
	return it == by_name_.end() ? nullptr : it->second;
}

const rb_result *rb_registry::find(const std::string &name) const
{
	auto it = by_name_.find(name);
	return it == by_name_.end() ? nullptr : it->second;
}

size_t rb_registry::selected(bool runnable) const
{
	return (size_t)std::count_if(results_.begin(), results_.end(), [&](const rb_result &r) {
		return r.selected && (!runnable || r.state != rb_state::skipped);
	});
}

size_t rb_registry::disturbed_benchmarks() const
{
	return (size_t)std::count_if(results_.begin(), results_.end(), [](const rb_result &r) { return r.disturbed > 0; });
}

bool rb_registry::any_error() const
{
	return std::any_of(results_.begin(), results_.end(), [](const rb_result &r) { return r.state == rb_state::error; });
}

const char *rb_state_word(rb_state s)
{
	switch (s) {
	case rb_state::measured: return "measured";
	case rb_state::below_resolution: return "below_resolution";
	case rb_state::skipped: return "skipped";
	case rb_state::error: return "error";
	case rb_state::not_run: return "not_run";
	}
	return "error";
}

namespace {

/*
 * The bound a figure lies below, in plain digits, never an exponent, and
 * rounded up, never down (a bound written lower than measured would claim
 * more than was measured): under 0.01 cycle (a timer step over the many
 * accesses of an unrolled kernel, 8.01e-05) the power of ten above it,
 * 0.0001, which says as much and reads at a glance; else three significant
 * digits (a sampled access: 21).
 */
std::string below(double bound)
{
	char number[32];

	if (bound > 0 && bound < 0.01) {
		int decimals = -(int)std::ceil(std::log10(bound));
		snprintf(number, sizeof(number), "%.*f", decimals, std::pow(10, -decimals));
	} else {
		// the last of three significant digits up (1e-9 of a unit: a bound of exactly 21 stays 21)
		double unit = bound > 0 ? std::pow(10, std::floor(std::log10(bound)) - 2) : 1;
		snprintf(number, sizeof(number), "%.*g", bound < 100 ? 3 : 17, std::ceil(bound / unit - 1e-9) * unit);
	}
	return std::string("below timer resolution (< ") + number + " cycles)";
}

// How the console and Google Benchmark's messages begin a state without a figure.
const char *prefix(rb_state s)
{
	switch (s) {
	case rb_state::skipped: return "skipped: ";
	case rb_state::not_run: return "not run: ";
	default: return "error: ";
	}
}

}  // namespace

std::string rb_result_reason(const rb_result &r)
{
	return r.state == rb_state::below_resolution ? below(r.bound) : r.reason;
}

std::string rb_repetition_message(const rb_repetition &r)
{
	return prefix(r.state) + r.reason;
}

std::string rb_repetition_label(const rb_repetition &r)
{
	return r.state == rb_state::below_resolution ? below(r.bound) : "";
}

std::string rb_result_line(const rb_result &r, int repetitions)
{
	switch (r.state) {
	case rb_state::measured:
		return "";
	case rb_state::below_resolution:
		return below(r.bound);
	case rb_state::error:
		return prefix(r.state) + r.reason + " (in " + std::to_string(r.failed()) + " of " +
		       std::to_string(repetitions) + " repetitions)";
	default:
		return prefix(r.state) + r.reason;
	}
}

std::string rb_not_run_line(size_t n, const std::string &why)
{
	return std::to_string(n) + (n == 1 ? " benchmark" : " benchmarks") + " not run: " + why;
}

std::string rb_interrupted_line(const std::string &elapsed, size_t not_run, size_t done)
{
	return "interrupted after " + elapsed + ": " + std::to_string(not_run) + " of " + std::to_string(done) +
	       " benchmarks not run";
}
