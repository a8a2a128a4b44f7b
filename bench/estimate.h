/* estimate.h: from timings to figures: fastest calls, per-unit costs, percentiles, outliers, histograms, the timer's step */
#ifndef REGBENCH_ESTIMATE_H
#define REGBENCH_ESTIMATE_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The fastest of many calls of one kernel, on both clocks (timer ticks, and
 * core cycles where a counter gives them, else 0).  Interference (an
 * interrupt, the host running another guest, a busy SMT sibling) only ever
 * adds time, so the fastest call is the cost of the accesses themselves and
 * stays put from one repetition to the next where a median drifts with the
 * machine's load.  Start from rb_fastest_none().
 */
struct rb_fastest {
	double ticks, core;
};
static inline struct rb_fastest rb_fastest_none(void)
{
	struct rb_fastest f = { HUGE_VAL, 0 };

	return f;
}
void rb_fastest_add(struct rb_fastest *f, uint64_t ticks, uint64_t core);

/*
 * When to stop calling: a measurement that keeps the fastest call of each
 * kernel has made enough rounds once no kernel's fastest call has dropped by
 * more than RB_FASTEST_DROP (relative) in the last half of its rounds, and
 * it has made at least `min_rounds`.  The fastest call of a quiet kernel comes early and
 * stays; a noisy one keeps improving, and runs until its time budget ends.
 */
#define RB_FASTEST_DROP 0.001
struct rb_rounds {
	unsigned int rounds;	/* rounds made */
	unsigned int last_drop;	/* the round in which a fastest call last dropped by more than RB_FASTEST_DROP */
};

/* Like rb_fastest_add; true when it lowered the fastest by more than RB_FASTEST_DROP (or it was the first). */
bool rb_fastest_lowered(struct rb_fastest *f, uint64_t ticks, uint64_t core);

/* Count one round; `dropped`: a kernel's fastest call dropped in it (rb_fastest_lowered). */
void rb_rounds_count(struct rb_rounds *s, bool dropped);
/* Whether s has made enough rounds, as above. */
bool rb_rounds_enough(const struct rb_rounds *s, unsigned int min_rounds);

/*
 * A reading of the control that tells a disturbed machine (primitives.c
 * takes it), each measure against one dependent add chain timed with it:
 * `tick_per_add`, timer ticks per dependent add, is the core clock; `width`
 * is the adds per cycle of four independent chains (the issue width left to
 * us), `loads` and `stores` the independent L1 loads and stores per cycle.
 * A host that runs another guest on this core's SMT sibling takes issue
 * ports and load and store bandwidth: on the development VM loads drop from
 * 2 to about 1.6 per cycle and stores from 2 to 1.2, for a second or more,
 * while a latency hardly moves.  A host that lowers the clock raises
 * tick_per_add.
 */
struct rb_control {
	double tick_per_add, width, loads, stores;
};

/*
 * What the control reads on this machine when it is not disturbed: every
 * reading so far, binned in quarter-percent steps, per measure.  The
 * reference of each is its 95th percentile (the 5th of tick_per_add, where
 * less is faster): an undisturbed phase must make up 5% of the readings to
 * set it, and a rare reading better than the machine's usual best (a short
 * phase with the SMT sibling idle) does not move it.  `published` holds
 * what the CPU's published figures say a measure reaches (0 where none is
 * known): no reference is below it, so a host that shares the core for
 * every reading (it does, for minutes, on the development VM) cannot lower
 * the bar to its own level.  Zero it to start.
 */
#define RB_CONTROL_MEASURES 4
#define RB_CONTROL_BINS 2048
struct rb_control_history {
	struct rb_control published;
	uint32_t n;
	uint32_t counts[RB_CONTROL_MEASURES][RB_CONTROL_BINS];
};

void rb_control_add(struct rb_control_history *h, const struct rb_control *c);

/* The reference readings of h (all 0 while h is empty). */
struct rb_control rb_control_reference(const struct rb_control_history *h);

/*
 * Whether the reading c shows the machine disturbed: a measure more than
 * RB_DISTURBED worse than its reference in h.  A machine disturbed for 95%
 * of the readings cannot be told from a quiet one.
 */
#define RB_DISTURBED 0.03
bool rb_control_disturbed(const struct rb_control_history *h, const struct rb_control *c);

/*
 * A cost per unit (access, element, call): ticks and core cycles (0 when
 * not counted).  below: the difference was not larger than one step of the
 * timer, so there is no figure, only the bound (ticks per unit) it is under.
 */
struct rb_cost {
	double ticks, core;
	bool below;
	double bound;
};

/*
 * n versus 2n: a kernel and its twin with twice the accesses per iteration,
 * run for the same iterations, differ by exactly `units` accesses, so
 * (twice - once) / units is one access with loop and timer cost cancelled.
 * A chain kernel's baseline pair (the same shape without the access; NULL
 * for none) is subtracted the same way.  Differences are taken between the
 * fastest calls of each kernel, never as the fastest of per-call
 * differences, which a disturbed shorter call would bias low.
 */
struct rb_cost rb_unrolled_cost(const struct rb_fastest *once, const struct rb_fastest *twice,
				const struct rb_fastest *base_once, const struct rb_fastest *base_twice,
				double units, double resolution);

/*
 * One timed call of `units` units: (fastest - the timer's own cost) /
 * units; below (no figure, never one of 0 or less) when what is left is not
 * more than one step of the timer.
 */
struct rb_cost rb_batch_cost(const struct rb_fastest *f, double overhead, double units, double resolution);

/* The p-quantile (0..1) of n sorted values: the value at index floor(p * n), the last for p = 1. */
double rb_percentile(const double *sorted, size_t n, double p);

/*
 * Tukey's far-out fence: the third quartile plus three interquartile ranges,
 * the range at least three steps of the timer (`step`), so quantized samples
 * with a zero range do not make every other value an outlier.
 */
double rb_outlier_fence(const double *sorted, size_t n, double step);

/* How many of n sorted values lie strictly above x. */
size_t rb_count_above(const double *sorted, size_t n, double x);

/*
 * Latency histograms on one grid per machine: the bucket edges follow from
 * the timer's step alone (in ticks), never from the samples, so histograms
 * of repetitions and of runs on one machine add up bucket by bucket into one
 * distribution (the results store merges runs so).  A sample of x ticks is
 * v = floor(x / step) whole steps, and falls in bucket
 *   v                               while v < 2 * RB_HIST_SUB (a bucket per step),
 *   m * RB_HIST_SUB + (v >> m)      above, where m = floor(log2 v) - RB_HIST_SUB_BITS:
 * RB_HIST_SUB buckets per power of two, each 2^m steps wide.  Every bucket is
 * a whole number of steps, and none is wider than 1/RB_HIST_SUB (3%) of its
 * lower edge, so a percentile read off merged histograms is that close.
 * RB_HIST_BUCKETS buckets hold every 64-bit count of steps.
 */
#define RB_HIST_SUB_BITS 5
#define RB_HIST_SUB (1u << RB_HIST_SUB_BITS)
#define RB_HIST_BUCKETS ((65 - RB_HIST_SUB_BITS) * RB_HIST_SUB)

/* The bucket of a sample of x ticks (none negative; a step of 0 or less counts as 1). */
size_t rb_hist_bucket(double x, double step);

/* The lower edge of bucket i in ticks; i = RB_HIST_BUCKETS gives the end of the last. */
double rb_hist_edge(size_t i, double step);

/* Adds n samples (ticks, any order) to counts, a histogram of RB_HIST_BUCKETS buckets. */
void rb_bin_samples(const double *samples, size_t n, double step, uint64_t *counts);

/*
 * The buckets a histogram is written with: from the first to the last
 * non-empty one, [*first, *end); false when every bucket is empty.
 */
bool rb_hist_span(const uint64_t *counts, size_t *first, size_t *end);

/*
 * The step a clock's readings move in, from n durations of timed work of
 * varying length: the largest divisor of the most common duration that
 * divides 99% of them (a timer that ticks in 26s gives 26, one that ticks by
 * one gives 1, and a few odd readings do not make it 1).  0 when fewer than
 * two distinct durations were given: the step cannot be told.
 */
double rb_timer_step(const uint64_t *durations, size_t n);

/*
 * Sampled figures below the timer's step (bench/sampled.h dithers each
 * sample's start against the tick, docs/METHOD.md has the method).  A
 * batch is one call of a sampled kernel and one of its baseline beside it:
 * `diff` is the mean of the kernel's samples minus the mean of the
 * baseline's, each over its samples not above the fence (interrupts and
 * preemptions are left out of both alike), `var` that difference's variance
 * were the samples independent (the two sample variances over their
 * counts).  With the start's phase uniform, the mean of quantized readings
 * is the mean duration itself, so diff estimates the access's mean cost to
 * a fraction of a step.
 */
struct rb_batch {
	double diff, var;
};

/* One batch from n samples of the kernel and n of its baseline; diff is NAN when either keeps none. */
struct rb_batch rb_batch_of(const uint64_t *timed, const uint64_t *base, size_t n, double fence);

/*
 * The mean of n batches and its 95% interval: the mean of their diffs plus
 * or minus Student's t (n - 1 degrees of freedom) times their standard
 * error, which batch-to-batch movement (a cost that drifts, a machine that
 * changes pace) widens; never narrower than the batches' own variances
 * allow.  Batches whose diff is NAN are left out; with none, mean is NAN.
 */
struct rb_dithered {
	double mean, low, high;
	size_t batches;
};
struct rb_dithered rb_dithered_mean(const struct rb_batch *b, size_t n);

/*
 * d, the estimate from every repetition's batches together, its interval
 * widened to hold what the n repetitions' own means say of their mean
 * (Student's t over them): a machine that changed pace between repetitions
 * moves whole repetitions, which batches within each cannot show.  d as it
 * is for fewer than two.
 */
struct rb_dithered rb_dithered_across(struct rb_dithered d, const double *means, size_t n);

/* The two-sided 95% quantile of Student's t with df degrees of freedom (the normal's 1.96 for df = 0). */
double rb_student_t95(size_t df);

/*
 * The q-quantile (0..1) of the durations n sorted quantized samples stand
 * for, each spread evenly over the step around it (the uniform quantization
 * undone, to first order): within the run of equal values that holds the
 * quantile, its position in the run is its place in that step.  A duration
 * of 0.3 steps read as 0 (70%) and 1 step (30%) has its median at 0.21
 * steps; the true quantile is always within one step of it.  Two values
 * closer than a step (a timer whose step varies) split the gap between them,
 * so the quantile never falls as q rises.
 */
double rb_dithered_quantile(const uint64_t *sorted, size_t n, double step, double q);

/*
 * Whether n values (a benchmark's repetitions, n <= RB_DECIDE_MAX) would
 * decide a difference of `margin` (0.05: 5%): the distribution-free 90%
 * interval of the ratio between two samples like them, the one that
 * inverts the Mann-Whitney test (scripts/regbench_base/stats.py's
 * shift_interval, which the verdicts take), lies within 1 +- margin.  With
 * 3 values that is the range of their 9 ratios: largest over smallest at
 * most 1 + margin.  Never with fewer than 3, nor with a value of 0 or less.
 */
#define RB_DECIDE_MAX 64
bool rb_repetitions_decide(const double *v, size_t n, double margin);

/* The median of n values, which it sorts. */
double rb_median_u64(uint64_t *v, size_t n);

#ifdef __cplusplus
}
#endif

#endif
