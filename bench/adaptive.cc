// adaptive.cc: adaptive repetitions: each benchmark repeated until its repetitions decide a 5% difference, or its share of --run-budget is spent
#include <algorithm>
#include <chrono>
#include <vector>

#include <benchmark/benchmark.h>

#include "estimate.h"
#include "measure.h"
#include "session.h"

namespace {

double seconds_now()
{
	return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/*
 * Whether r needs no more repetitions: it has its
 * least; they decide a difference of kMargin between two runs like this one
 * (the 5% of stats.MARGIN, which scripts' verdicts name: estimate.h); or it
 * has its most; or one more would take it beyond its share of the run's
 * budget.  A benchmark without a figure stops at its least.
 */
constexpr double kMargin = 0.05;

bool enough(const rb_measure_state &m, const rb_result &r)
{
	std::vector<double> values;
	size_t n = r.repetitions.size();

	if (n >= (size_t)m.most)
		return true;
	if (n < (size_t)m.least)
		return false;
	if (r.state != rb_state::measured || n > RB_DECIDE_MAX)
		return true;
	for (const rb_repetition &p : r.repetitions)
		if (p.state == rb_state::measured)
			values.push_back(p.cycles);
	if (rb_repetitions_decide(values.data(), values.size(), kMargin))
		return true;
	return r.spent * (double)(n + 1) / (double)n > r.share;
}

}  // namespace

/*
 * One repetition of r, or none: a call adaptive repetitions did not need
 * ends at once, and the reporters leave it out (reporter-tee.cc).  Its first
 * call takes r's share of what is left of the run's budget, an equal part
 * per benchmark still to start: one that settles early leaves the rest of
 * its share to those after it.
 */
void rb_run(benchmark::State &st, rb_session &s, rb_result &r)
{
	rb_measure_state &m = s.measure;
	double t0 = seconds_now();

	if (r.enough) {
		st.SkipWithError("not needed");
		for (auto _ : st) {
		}
		return;
	}
	if (r.repetitions.empty()) {
		if (m.started < 0)
			m.started = t0;
		r.share = std::max(m.run_budget - (t0 - m.started), 0.0) / (double)std::max(m.left, (size_t)1);
		m.left -= m.left > 0;
	}
	rb_measure_once(st, s, r);
	r.spent += seconds_now() - t0;
	r.enough = enough(m, r);
}

void rb_skip(benchmark::State &st, rb_session &s, rb_result &r)
{
	if (r.repetitions.size() >= (size_t)s.measure.least) {
		st.SkipWithError("not needed");	// a call beyond what the run repeats (rb_run)
		for (auto _ : st) {
		}
		return;
	}
	rb_measure_skipped(st, r);
}

