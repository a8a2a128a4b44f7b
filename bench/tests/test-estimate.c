/* test-estimate.c: the estimators on synthetic timings whose answer is known: costs, percentiles, fences, bins, the timer's step */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "estimate.h"

static int failures, checks;

static void check(int ok, const char *what)
{
	checks++;
	if (!ok) {
		printf("FAIL: %s\n", what);
		failures++;
	}
}

static void check_near(double got, double want, double tol, const char *what)
{
	char line[256];

	snprintf(line, sizeof(line), "%s: got %.9g, want %.9g", what, got, want);
	check(fabs(got - want) <= tol, line);
}

/* A small deterministic generator, so a failure repeats. */
static uint64_t rng = 88172645463325252ull;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/*
 * A call of `units` accesses of `cost` ticks each, plus a fixed loop and
 * timer cost, and noise that only ever adds (an interrupt, the host): in
 * one call of four, a disturbance of up to 5000 ticks.
 */
static uint64_t call(double fixed, double cost, double units)
{
	uint64_t noise = next() % 4 == 0 ? next() % 5000 : 0;

	return (uint64_t)(fixed + cost * units) + noise;
}

static void test_unrolled(void)
{
	const double units = 8 * 4096, cost = 3, chain_op = 1;
	struct rb_fastest once = rb_fastest_none(), twice = once, bo = once, bt = once;
	struct rb_cost c;

	/* n versus 2n: the loop, the timer and the disturbed calls all cancel */
	for (int i = 0; i < 50; i++) {
		rb_fastest_add(&once, call(5000, cost, units), 0);
		rb_fastest_add(&twice, call(5000, cost, 2 * units), 0);
	}
	c = rb_unrolled_cost(&once, &twice, NULL, NULL, units, 26);
	check(!c.below, "unrolled: a 3-tick access is above the resolution");
	check_near(c.ticks, cost, 0, "unrolled: the per-access cost is recovered exactly");

	/* a chain: each step is the access plus the dependency arithmetic, its baseline the arithmetic alone */
	once = twice = rb_fastest_none();
	for (int i = 0; i < 50; i++) {
		rb_fastest_add(&once, call(5000, cost + chain_op, units), 0);
		rb_fastest_add(&twice, call(5000, cost + chain_op, 2 * units), 0);
		rb_fastest_add(&bo, call(4000, chain_op, units), 0);
		rb_fastest_add(&bt, call(4000, chain_op, 2 * units), 0);
	}
	c = rb_unrolled_cost(&once, &twice, &bo, &bt, units, 26);
	check_near(c.ticks, cost, 0, "chain: the baseline's arithmetic is subtracted, the access remains");

	/* core cycles come through the same difference */
	once = twice = rb_fastest_none();
	rb_fastest_add(&once, 1000, 700);
	rb_fastest_add(&twice, 1000 + 26 * 100, 700 + 37 * 100);
	c = rb_unrolled_cost(&once, &twice, NULL, NULL, 100, 1);
	check_near(c.core, 37, 1e-12, "core cycles: the difference of the fastest calls' counts");

	/* the fastest call's core count goes with it, not the smallest count seen */
	once = rb_fastest_none();
	rb_fastest_add(&once, 1000, 900);
	rb_fastest_add(&once, 2000, 100);
	check(once.ticks == 1000 && once.core == 900, "fastest: the core count of the fastest call");

	/* a difference not larger than one timer step is no figure, only a bound */
	once = twice = rb_fastest_none();
	rb_fastest_add(&once, 100000, 0);
	rb_fastest_add(&twice, 100026, 0);
	c = rb_unrolled_cost(&once, &twice, NULL, NULL, 1000, 26);
	check(c.below, "below: a difference of one step is below the resolution");
	check_near(c.bound, 26.0 / 1000, 1e-15, "below: the bound is one step per unit");
	rb_fastest_add(&twice, 100000 - 5, 0);
	c = rb_unrolled_cost(&once, &twice, NULL, NULL, 1000, 26);
	check(c.below, "below: a negative difference is below the resolution, never a negative cost");
}

static void test_batch(void)
{
	struct rb_fastest f = rb_fastest_none();

	for (int i = 0; i < 20; i++)
		rb_fastest_add(&f, call(52, 7.5, 4096), 0);
	check_near(rb_batch_cost(&f, 52, 4096, 21).ticks, 7.5, 0, "batch: (fastest - timer cost) / units");
	check(!rb_batch_cost(&f, 52, 4096, 21).below, "batch: a figure well above the resolution is measured");

	/* a call that took less than the timer's start-up cost (it moved since): no figure of 0 or less */
	f = rb_fastest_none();
	rb_fastest_add(&f, 21, 0);
	struct rb_cost c = rb_batch_cost(&f, 42, 1, 21);
	check(c.below && c.bound == 21, "batch: a call faster than the timer's cost is below, never a cost of -21");
	f = rb_fastest_none();
	rb_fastest_add(&f, 63, 0);
	c = rb_batch_cost(&f, 42, 1, 21);
	check(c.below, "batch: one step above the timer's cost is not more than a step: below");
}

static void test_percentiles(void)
{
	double v[100];

	for (int i = 0; i < 100; i++)
		v[i] = i + 1;
	check_near(rb_percentile(v, 100, 0), 1, 0, "p0 is the minimum");
	check_near(rb_percentile(v, 100, 0.5), 51, 0, "p50 of 1..100 is the value at index 50");
	check_near(rb_percentile(v, 100, 0.99), 100, 0, "p99 of 1..100");
	check_near(rb_percentile(v, 100, 1), 100, 0, "p100 is the maximum");
	check_near(rb_percentile(v, 1, 0.5), 1, 0, "one sample is every percentile");

	/* quartiles 26 and 76: fence 76 + 3 * 50 = 226 */
	check_near(rb_outlier_fence(v, 100, 1), 226, 0, "fence: Q3 + 3 IQR");
	check(rb_count_above(v, 100, 226) == 0, "no sample of 1..100 lies above the fence");
	v[99] = 1e6;
	check(rb_count_above(v, 100, rb_outlier_fence(v, 100, 1)) == 1, "a preempted sample is one outlier");
	/* a quantized sample with no spread: the range is at least three steps, so the next step is no outlier */
	for (int i = 0; i < 100; i++)
		v[i] = i < 95 ? 26 : 52;
	check(rb_count_above(v, 100, rb_outlier_fence(v, 100, 26)) == 0, "fence: one step above a flat sample is not out");
	check(rb_count_above(v, 100, 25.5) == 100 && rb_count_above(v, 100, 26) == 5, "count_above is strict");
}

/*
 * Histograms: the grid follows from the step alone, a bucket per step up to
 * 2 * RB_HIST_SUB steps, then RB_HIST_SUB buckets per power of two, each a
 * whole number of steps; histograms binned apart add up to the histogram of
 * all their samples binned at once.
 */
static void test_histogram(void)
{
	enum { N = 10000 };
	static double s[N];
	static uint64_t all[RB_HIST_BUCKETS], one[RB_HIST_BUCKETS], two[RB_HIST_BUCKETS];
	const double step = 21;
	uint64_t total = 0;
	size_t first, end, i;
	int same = 1;

	for (i = 0; i <= 2 * RB_HIST_SUB; i++)
		check(rb_hist_edge(i, step) == (double)i * step, "histogram: a bucket per step below 2 * RB_HIST_SUB steps");
	for (i = 0; i < RB_HIST_BUCKETS; i++) {
		double lo = rb_hist_edge(i, step), hi = rb_hist_edge(i + 1, step);

		if (!(hi > lo && fmod(lo, step) == 0 && fmod(hi - lo, step) == 0 &&
		      (i < 2 * RB_HIST_SUB || hi - lo <= lo / RB_HIST_SUB) && rb_hist_bucket(lo, step) == i &&
		      (hi >= 0x1p53 || rb_hist_bucket(hi - step, step) == i) && (i + 1 == RB_HIST_BUCKETS || rb_hist_bucket(hi, step) == i + 1)))
			same = 0;
	}
	check(same, "histogram: every bucket rises, is whole steps wide, at most 1/RB_HIST_SUB of its lower edge, "
	      "and holds exactly the samples from its edge to the next (a step below the next edge: where doubles "
	      "still count single ticks, under 2^53)");
	check(rb_hist_edge(RB_HIST_BUCKETS, 1) == ldexp(1, 64), "histogram: the last bucket ends at 2^64 steps");
	check(rb_hist_bucket(0, step) == 0 && rb_hist_bucket(20.9, step) == 0 && rb_hist_bucket(-1, step) == 0 &&
	      rb_hist_bucket(NAN, step) == 0, "histogram: 0, under one step and what is not a number go in the first");
	check(rb_hist_bucket(1e30, step) == RB_HIST_BUCKETS - 1, "histogram: beyond 2^64 steps goes in the last");
	check(rb_hist_bucket(5, 0) == 5 && rb_hist_edge(5, 0) == 5, "histogram: a step of 0 counts as one tick");

	/* a trapped access (thousands of ticks) on a 21-tick timer: 4800 ticks lie in [4788, 4872), 4 steps */
	i = rb_hist_bucket(4800, step);
	check(rb_hist_edge(i, step) == 4788 && rb_hist_edge(i + 1, step) == 4872, "histogram: 4800 ticks in [4788, 4872)");

	/* samples around 5000 ticks, a few far out; two repetitions binned apart add up to both binned at once */
	for (i = 0; i < N; i++)
		s[i] = step * (double)(200 + next() % 60) + (i % 1112 == 0 ? step * 40000 : 0);
	rb_bin_samples(s, N / 2, step, one);
	rb_bin_samples(s + N / 2, N - N / 2, step, two);
	rb_bin_samples(s, N, step, all);
	same = 1;
	for (i = 0; i < RB_HIST_BUCKETS; i++) {
		same &= one[i] + two[i] == all[i];
		total += all[i];
	}
	check(same && total == N, "histogram: repetitions binned apart add up, and every sample is counted");
	rb_bin_samples(s, N / 2, step, one);
	check(one[rb_hist_bucket(s[0], step)] == 2 * (all[rb_hist_bucket(s[0], step)] - two[rb_hist_bucket(s[0], step)]),
	      "histogram: binning adds to what the histogram holds");
	check(rb_hist_span(all, &first, &end) && first == rb_hist_bucket(step * 200, step) &&
	      end == rb_hist_bucket(step * 40259, step) + 1 && all[first] && all[end - 1],
	      "histogram: the span runs from the first to the last non-empty bucket");
	memset(one, 0, sizeof(one));
	check(!rb_hist_span(one, &first, &end), "histogram: an empty histogram has no span");
}

static void test_step(void)
{
	enum { N = 5000 };
	static uint64_t d[N];

	for (int i = 0; i < N; i++)
		d[i] = 26 * (2 + next() % 20);
	check_near(rb_timer_step(d, N), 26, 0, "step: durations on a 26-tick lattice");
	for (int i = 0; i < N; i += 200)
		d[i] = 26 * 5 + 1;	/* 0.5% odd readings */
	check_near(rb_timer_step(d, N), 26, 0, "step: a few odd readings do not make it 1");
	for (int i = 0; i < N; i++)
		d[i] = 30 + next() % 300;
	check_near(rb_timer_step(d, N), 1, 0, "step: a fine-grained clock moves by 1");
	for (int i = 0; i < N; i++)
		d[i] = 2 * (15 + next() % 20);
	check_near(rb_timer_step(d, N), 2, 0, "step: even readings move by 2");
	for (int i = 0; i < N; i++)
		d[i] = 52;
	check_near(rb_timer_step(d, N), 0, 0, "step: one duration alone cannot tell the step");

	uint64_t m[] = { 9, 1, 5, 3, 7 };
	check_near(rb_median_u64(m, 5), 5, 0, "median of five");
}

/*
 * Enough rounds: a kernel whose fastest call comes in round 5 and never
 * drops again stops at the minimum rounds; one that keeps improving never
 * has enough; a drop smaller than RB_FASTEST_DROP does not count as one.
 */
static void test_enough_rounds(void)
{
	struct rb_fastest f = rb_fastest_none();
	struct rb_rounds s = { 0, 0 };
	unsigned int rounds = 0;

	for (; rounds < 1000 && !rb_rounds_enough(&s, 12); rounds++)
		rb_rounds_count(&s, rb_fastest_lowered(&f, rounds == 4 ? 20000 : 21000 + next() % 4000, 0));
	check(rounds == 12, "rounds: a fastest call in round 5 stops at the minimum of 12 rounds");
	check_near(f.ticks, 20000, 0, "rounds: the fastest call is kept");

	f = rb_fastest_none();
	s = (struct rb_rounds){ 0, 0 };
	for (rounds = 0; rounds < 100 && !rb_rounds_enough(&s, 12); rounds++)
		rb_rounds_count(&s, rb_fastest_lowered(&f, 100000 - 1000 * rounds, 0));
	check(rounds == 100, "rounds: a kernel that keeps getting faster never has enough");

	f = rb_fastest_none();
	s = (struct rb_rounds){ 0, 0 };
	for (rounds = 0; rounds < 100 && !rb_rounds_enough(&s, 12); rounds++)
		rb_rounds_count(&s, rb_fastest_lowered(&f, 100000 - rounds, 0));
	check(rounds == 12, "rounds: drops below RB_FASTEST_DROP do not hold it up");

	s = (struct rb_rounds){ 0, 0 };
	for (rounds = 0; rounds < 100 && !rb_rounds_enough(&s, 12); rounds++)
		rb_rounds_count(&s, rounds == 9);
	check(rounds == 20, "rounds: a drop in round 10 runs it to round 20");
}

/*
 * The control: the references are the best 5% of the readings, so a few
 * readings better than the machine's usual best do not move them; a reading
 * more than RB_DISTURBED worse on any measure is disturbed.
 */
static void test_control(void)
{
	static struct rb_control_history h;
	struct rb_control usual = { 0.800, 3.37, 2.00, 2.00 }, idle = { 0.800, 4.05, 2.00, 2.00 };
	struct rb_control shared = { 0.806, 2.30, 1.60, 1.25 }, stores = { 0.800, 3.35, 2.00, 1.20 };
	struct rb_control slow = { 1.000, 3.37, 2.00, 2.00 }, near = { 0.801, 3.37 * (1 - RB_DISTURBED / 2), 1.98, 2.00 };
	struct rb_control ref;

	check(!rb_control_disturbed(&h, &shared), "control: nothing is disturbed before any reading");
	for (int i = 0; i < 200; i++)
		rb_control_add(&h, i % 2 ? &usual : &shared);
	for (int i = 0; i < 3; i++)
		rb_control_add(&h, &idle);
	ref = rb_control_reference(&h);
	check_near(ref.width, 3.37, 3.37 * 0.003, "control: three idle readings in 203 do not move the width's reference");
	check_near(ref.tick_per_add, 0.800, 0.800 * 0.003, "control: the clock's reference is its fast end");
	check(!rb_control_disturbed(&h, &usual), "control: the usual best is calm");
	check(!rb_control_disturbed(&h, &near), "control: within RB_DISTURBED is calm");
	check(rb_control_disturbed(&h, &shared), "control: a shared core (width, loads, stores down) is disturbed");
	check(rb_control_disturbed(&h, &stores), "control: stores alone down is disturbed");
	check(rb_control_disturbed(&h, &slow), "control: a clock 20% slower is disturbed");
	for (int i = 0; i < 200; i++)
		rb_control_add(&h, &idle);
	check(rb_control_disturbed(&h, &usual), "control: once the sibling is idle for long, the usual width is disturbed");

	static struct rb_control_history always_shared = { .published = { 0, 0, 2.00, 2.00 } };
	for (int i = 0; i < 200; i++)
		rb_control_add(&always_shared, &shared);
	check(rb_control_disturbed(&always_shared, &shared),
	      "control: a host sharing the core for every reading is disturbed against the published rates");
	check(!rb_control_disturbed(&always_shared, &usual), "control: the published rates are met when calm");
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * A timer of step S read around a duration of d ticks, starting at phase
 * (0..1 of a step) between two ticks: the whole steps the reading crosses.
 */
enum { S = 27, BATCH = 256 };
static uint64_t reading(double d, double phase)
{
	return (uint64_t)(S * floor(phase + d / S));
}

static double uniform(void)
{
	return (double)(next() >> 11) / 9007199254740992.0;
}

/*
 * Batches of samples of a cost drawn by cost() (ticks) on top of the timer's
 * own 1.6 steps, each with its baseline, started at a uniform phase
 * (dithered) or always at the same one; one sample in 500 is preempted.
 * Returns the dithered estimate; sorted (n samples) receives the timed ones.
 */
static struct rb_dithered simulate(double (*cost)(void), int dithered, size_t batches, uint64_t *sorted)
{
	static uint64_t timed[64 * BATCH], base[64 * BATCH];
	static struct rb_batch b[64];
	const double timer = 1.6 * S, fence = 30 * S;

	for (size_t i = 0; i < batches * BATCH; i++) {
		double extra = next() % 500 == 0 ? 5000 : 0;

		timed[i] = reading(timer + cost() + extra, dithered ? uniform() : 0.25);
		base[i] = reading(timer, dithered ? uniform() : 0.25);
	}
	for (size_t k = 0; k < batches; k++)
		b[k] = rb_batch_of(timed + k * BATCH, base + k * BATCH, BATCH, fence);
	if (sorted) {
		memcpy(sorted, timed, batches * BATCH * sizeof(*sorted));
		qsort(sorted, batches * BATCH, sizeof(*sorted), cmp_u64);
	}
	return rb_dithered_mean(b, batches);
}

static double cost_fixed(void) { return 0.3 * S; }
static double cost_noisy(void) { return 0.3 * S + 4 * uniform(); }
static double cost_bimodal(void) { return next() % 2 ? 0.2 * S : 3.2 * S; }

static void test_dithered(void)
{
	static uint64_t sorted[64 * BATCH];
	const size_t n = 64 * BATCH;
	struct rb_dithered d;
	int covered = 0;
	char line[200];

	/* a cost of 0.3 steps: with the phase uniform, the mean of readings of 0 or 1 step is 0.3 steps */
	d = simulate(cost_fixed, 1, 64, sorted);
	snprintf(line, sizeof(line), "dithered: 0.3 steps (8.1 ticks) inside [%.2f, %.2f]", d.low, d.high);
	check(d.low < 0.3 * S && 0.3 * S < d.high && d.high - d.low < 0.1 * S, line);
	check(d.batches == 64, "dithered: every batch counts");
	/* its median, each reading spread over its step: within a quarter step of 0.3 (the timer's 1.6 steps on top) */
	check_near(rb_dithered_quantile(sorted, n, S, 0.5), 1.9 * S, 0.25 * S, "dithered: the median undone from its steps");
	/* the same cost always started at one phase reads one step, or none: the interval misses it by far */
	d = simulate(cost_fixed, 0, 64, NULL);
	snprintf(line, sizeof(line), "undithered: 0.3 steps is outside [%.2f, %.2f] (a fixed phase reads whole steps)",
		 d.low, d.high);
	check(!(d.low < 0.3 * S && 0.3 * S < d.high), line);

	/* the 95% interval holds the true mean in about 95 of 100 repetitions of 16 batches (not under 88) */
	for (int i = 0; i < 100; i++) {
		d = simulate(cost_noisy, 1, 16, NULL);
		covered += d.low < 0.3 * S + 2 && 0.3 * S + 2 < d.high;
	}
	snprintf(line, sizeof(line), "dithered: the 95%% interval covers the mean in %d of 100 repetitions", covered);
	check(covered >= 88, line);

	/* a cost that is 0.2 steps half the time and 3.2 the rest: its mean lies between, its quartiles on each */
	d = simulate(cost_bimodal, 1, 64, sorted);
	check_near(d.mean, 1.7 * S, 0.1 * S, "bimodal: the mean is between the two costs");
	check_near(rb_dithered_quantile(sorted, n, S, 0.25) - 1.6 * S, 0.2 * S, 0.5 * S, "bimodal: the first quartile");
	check_near(rb_dithered_quantile(sorted, n, S, 0.75) - 1.6 * S, 3.2 * S, 0.5 * S, "bimodal: the third quartile");

	/* quantiles of quantized values: a run of equal values spans the step around them */
	static const uint64_t q[] = { 27, 27, 27, 27, 27, 27, 27, 54, 54, 54 };
	check_near(rb_dithered_quantile(q, 10, S, 0.5), 27 - 13.5 + 27 * 5.0 / 7, 1e-9, "quantile: inside its run");
	check_near(rb_dithered_quantile(q, 10, S, 0), 13.5, 1e-9, "quantile: the lowest is half a step below");
	check_near(rb_dithered_quantile(q, 10, S, 1), 67.5, 1e-9, "quantile: the highest half a step above");
	/* a step that varies (Zen 5's TSC: 21 to 27 ticks) reads values closer than a step: quantiles still rise with q */
	static const uint64_t v[] = { 21, 21, 21, 24, 24, 27, 27, 27, 48, 51 };
	double last = -1;
	int rising = 1;

	for (int k = 0; k <= 100; k++) {
		double at = rb_dithered_quantile(v, 10, S, k / 100.0);

		rising &= at >= last;
		last = at;
	}
	check(rising, "quantile: rises with q where the values are closer than a step");
	check_near(rb_dithered_quantile(v, 10, S, 0.4), 22.5 + 3 * 0.5, 1e-9, "quantile: close values share their gap");
	check_near(rb_student_t95(1), 12.706, 1e-3, "t: one degree of freedom");
	check_near(rb_student_t95(40), 2.021, 1e-3, "t: forty degrees of freedom (Cornish-Fisher)");
	check_near(rb_student_t95(0), 1.960, 1e-3, "t: none is the normal's");
	static const uint64_t t[] = { 10, 12, 9999 }, b[] = { 4, 6, 8 };
	struct rb_batch one = rb_batch_of(t, b, 3, 100);
	check_near(one.diff, 11 - 6, 1e-9, "batch: the means below the fence, differenced");
}

static void test_decide(void)
{
	static const double tight[] = { 100, 101, 102 }, loose[] = { 100, 104, 107 };
	static const double one_off[] = { 100, 100.5, 101, 100.2, 130 }, two_off[] = { 100, 130, 101, 131, 100.5 };

	check(rb_repetitions_decide(tight, 3, 0.05), "decide: 3 repetitions within 2% decide 5%");
	check(!rb_repetitions_decide(loose, 3, 0.05), "decide: 3 repetitions 7% apart do not");
	check(!rb_repetitions_decide(tight, 2, 0.05), "decide: 2 repetitions never do (no 90% interval)");
	/* 5 a side drop the 4 most extreme of the 25 ratios at each end: one repetition off does not count */
	check(rb_repetitions_decide(one_off, 5, 0.05), "decide: 5 repetitions, one 30% off, decide 5%");
	check(!rb_repetitions_decide(two_off, 5, 0.05), "decide: 5 repetitions, two 30% off, do not");
	check(!rb_repetitions_decide(tight, 3, 0.01), "decide: 3 within 2% do not decide 1%");
}

int main(void)
{
	test_unrolled();
	test_batch();
	test_percentiles();
	test_histogram();
	test_step();
	test_enough_rounds();
	test_control();
	test_dithered();
	test_decide();
	printf("test-estimate: %d of %d checks %s\n", checks - failures, checks, failures ? "passed, FAILED" : "passed");
	return failures != 0;
}
