/* estimate.c: the estimators of estimate.h, plain arithmetic on timings (tests/test-estimate.c pins them down) */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "estimate.h"

void rb_fastest_add(struct rb_fastest *f, uint64_t ticks, uint64_t core)
{
	if ((double)ticks < f->ticks) {
		f->ticks = (double)ticks;
		f->core = (double)core;
	}
}

bool rb_fastest_lowered(struct rb_fastest *f, uint64_t ticks, uint64_t core)
{
	bool lowered = !((double)ticks >= f->ticks * (1 - RB_FASTEST_DROP));

	rb_fastest_add(f, ticks, core);
	return lowered;
}

void rb_rounds_count(struct rb_rounds *s, bool dropped)
{
	s->rounds++;
	if (dropped)
		s->last_drop = s->rounds;
}

bool rb_rounds_enough(const struct rb_rounds *s, unsigned int min_rounds)
{
	return s->rounds >= min_rounds && s->rounds >= 2 * s->last_drop;
}

/* The control's measures by index, and which way is better: tick_per_add is better smaller. */
static double *measure(struct rb_control *c, int m)
{
	double *v[RB_CONTROL_MEASURES] = { &c->tick_per_add, &c->width, &c->loads, &c->stores };

	return v[m];
}

#define STEP 1.0025	/* a bin is a quarter percent wide */

static int bin_of(double v)
{
	double b = v > 0 ? floor(log(v) / log(STEP) + 0.5) + RB_CONTROL_BINS / 2 : 0;

	return b < 0 ? 0 : b >= RB_CONTROL_BINS ? RB_CONTROL_BINS - 1 : (int)b;
}

void rb_control_add(struct rb_control_history *h, const struct rb_control *c)
{
	struct rb_control r = *c;

	for (int m = 0; m < RB_CONTROL_MEASURES; m++)
		h->counts[m][bin_of(*measure(&r, m))]++;
	h->n++;
}

struct rb_control rb_control_reference(const struct rb_control_history *h)
{
	struct rb_control r = { 0, 0, 0, 0 }, published = h->published;

	for (int m = 0; m < RB_CONTROL_MEASURES && h->n; m++) {
		/* from the better end, the reading that one in twenty beat */
		uint64_t want = (uint64_t)(0.05 * (h->n - 1)) + 1, seen = 0;
		int b = m == 0 ? 0 : RB_CONTROL_BINS - 1, step = m == 0 ? 1 : -1;

		for (; (seen += h->counts[m][b]) < want; b += step)
			;
		*measure(&r, m) = pow(STEP, b - RB_CONTROL_BINS / 2);
		if (m > 0)
			*measure(&r, m) = fmax(*measure(&r, m), *measure(&published, m));
	}
	return r;
}

bool rb_control_disturbed(const struct rb_control_history *h, const struct rb_control *c)
{
	struct rb_control ref = rb_control_reference(h);

	return h->n && (c->tick_per_add > ref.tick_per_add * (1 + RB_DISTURBED) ||
			c->width < ref.width * (1 - RB_DISTURBED) || c->loads < ref.loads * (1 - RB_DISTURBED) ||
			c->stores < ref.stores * (1 - RB_DISTURBED));
}

struct rb_cost rb_unrolled_cost(const struct rb_fastest *once, const struct rb_fastest *twice,
				const struct rb_fastest *base_once, const struct rb_fastest *base_twice,
				double units, double resolution)
{
	struct rb_cost c = { 0 };
	double d = twice->ticks - once->ticks, dc = twice->core - once->core;

	if (base_once && base_twice) {
		d -= base_twice->ticks - base_once->ticks;
		dc -= base_twice->core - base_once->core;
	}
	if (!(d > resolution)) {
		c.below = true;
		c.bound = resolution / units;
		return c;
	}
	c.ticks = d / units;
	c.core = dc / units;
	return c;
}

struct rb_cost rb_batch_cost(const struct rb_fastest *f, double overhead, double units, double resolution)
{
	struct rb_cost c = { 0 };

	if (!(f->ticks - overhead > resolution)) {
		c.below = true;
		c.bound = resolution / units;
		return c;
	}
	c.ticks = (f->ticks - overhead) / units;
	c.core = f->core / units;
	return c;
}

double rb_percentile(const double *sorted, size_t n, double p)
{
	size_t i = (size_t)(p * (double)n);

	return sorted[i < n ? i : n - 1];
}

double rb_outlier_fence(const double *sorted, size_t n, double step)
{
	double q3 = rb_percentile(sorted, n, 0.75), iqr = q3 - rb_percentile(sorted, n, 0.25);

	return q3 + 3 * fmax(iqr, 3 * step);
}

size_t rb_count_above(const double *sorted, size_t n, double x)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sorted[mid] <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return n - lo;
}

size_t rb_hist_bucket(double x, double step)
{
	double steps = x / (step > 0 ? step : 1);
	uint64_t v;
	int m;

	if (!(steps >= 1))
		return 0;	/* 0, and what is not a number */
	v = steps < 18446744073709551616.0 ? (uint64_t)steps : UINT64_MAX;
	if (v < 2 * RB_HIST_SUB)
		return (size_t)v;
	m = 63 - __builtin_clzll(v) - RB_HIST_SUB_BITS;
	return (size_t)m * RB_HIST_SUB + (size_t)(v >> m);
}

double rb_hist_edge(size_t i, double step)
{
	size_t m;

	if (!(step > 0))
		step = 1;
	if (i < 2 * RB_HIST_SUB)
		return (double)i * step;
	m = i / RB_HIST_SUB - 1;
	return ldexp((double)(i - m * RB_HIST_SUB), (int)m) * step;
}

void rb_bin_samples(const double *samples, size_t n, double step, uint64_t *counts)
{
	for (size_t i = 0; i < n; i++)
		counts[rb_hist_bucket(samples[i], step)]++;
}

bool rb_hist_span(const uint64_t *counts, size_t *first, size_t *end)
{
	size_t a = 0, b = RB_HIST_BUCKETS;

	while (a < b && !counts[a])
		a++;
	while (b > a && !counts[b - 1])
		b--;
	*first = a;
	*end = b;
	return a < b;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

double rb_median_u64(uint64_t *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_u64);
	return (double)v[n / 2];
}

double rb_timer_step(const uint64_t *durations, size_t n)
{
	uint64_t *s = malloc(n * sizeof(*s)), mode = 0;
	size_t best = 0, distinct = 0;
	double step = 0;

	if (!s || !n) {
		free(s);
		return 0;
	}
	memcpy(s, durations, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_u64);
	for (size_t i = 0, run; i < n; i += run) {
		for (run = 1; i + run < n && s[i + run] == s[i]; run++)
			;
		distinct++;
		if (s[i] && run > best) {
			best = run;
			mode = s[i];
		}
	}
	for (uint64_t d = mode; distinct >= 2 && d >= 1 && !step; d--) {
		size_t multiples = 0;

		if (mode % d)
			continue;
		for (size_t i = 0; i < n; i++)
			multiples += s[i] % d == 0;
		if (multiples * 100 >= n * 99)
			step = (double)d;
	}
	free(s);
	return step;
}

struct rb_batch rb_batch_of(const uint64_t *timed, const uint64_t *base, size_t n, double fence)
{
	double sum[2] = { 0, 0 }, sq[2] = { 0, 0 }, kept[2] = { 0, 0 };
	struct rb_batch b;

	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < 2; k++) {
			double v = (double)(k ? base : timed)[i];

			if (v <= fence) {
				sum[k] += v;
				sq[k] += v * v;
				kept[k]++;
			}
		}
	if (!kept[0] || !kept[1]) {
		b.diff = NAN;
		b.var = NAN;
		return b;
	}
	b.diff = sum[0] / kept[0] - sum[1] / kept[1];
	b.var = 0;
	for (int k = 0; k < 2; k++) {
		double mean = sum[k] / kept[k];

		b.var += kept[k] > 1 ? fmax(sq[k] - kept[k] * mean * mean, 0) / (kept[k] - 1) / kept[k] : 0;
	}
	return b;
}

double rb_student_t95(size_t df)
{
	static const double t[] = {
		1.960, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
		2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
	};
	double z = 1.959964, v = (double)df;

	if (df < sizeof(t) / sizeof(t[0]))
		return t[df];
	/* Cornish-Fisher: within 0.001 of the exact value from 30 degrees of freedom on */
	return z + (z * z * z + z) / (4 * v) + (5 * pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * v * v);
}

struct rb_dithered rb_dithered_mean(const struct rb_batch *b, size_t n)
{
	struct rb_dithered d = { NAN, NAN, NAN, 0 };
	double sum = 0, var = 0, sq = 0, se;

	for (size_t i = 0; i < n; i++)
		if (isfinite(b[i].diff)) {
			sum += b[i].diff;
			var += b[i].var;
			d.batches++;
		}
	if (!d.batches)
		return d;
	d.mean = sum / (double)d.batches;
	for (size_t i = 0; i < n; i++)
		if (isfinite(b[i].diff))
			sq += (b[i].diff - d.mean) * (b[i].diff - d.mean);
	/* the batches' own variances: the standard error were every sample independent */
	se = sqrt(var) / (double)d.batches;
	if (d.batches > 1)
		se = fmax(se, sqrt(sq / (double)(d.batches - 1) / (double)d.batches));
	se *= rb_student_t95(d.batches - 1);
	d.low = d.mean - se;
	d.high = d.mean + se;
	return d;
}

struct rb_dithered rb_dithered_across(struct rb_dithered d, const double *means, size_t n)
{
	double sum = 0, sq = 0, half;

	if (n < 2 || !isfinite(d.mean))
		return d;
	for (size_t i = 0; i < n; i++)
		sum += means[i];
	for (size_t i = 0; i < n; i++)
		sq += (means[i] - sum / (double)n) * (means[i] - sum / (double)n);
	half = rb_student_t95(n - 1) * sqrt(sq / (double)(n - 1) / (double)n);
	d.low = fmin(d.low, d.mean - half);
	d.high = fmax(d.high, d.mean + half);
	return d;
}

/* Where x's run of equal values starts in n sorted values (end: false), or ends (end: true). */
static size_t run_edge(const uint64_t *sorted, size_t n, uint64_t x, bool end)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sorted[mid] < x || (end && sorted[mid] == x))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

double rb_dithered_quantile(const uint64_t *sorted, size_t n, double step, double q)
{
	double pos = q * (double)n, x, from, to;
	size_t i, lo, hi;

	if (!n)
		return NAN;
	i = pos < (double)n ? (size_t)pos : n - 1;
	x = (double)sorted[i];
	lo = run_edge(sorted, n, sorted[i], false);
	hi = run_edge(sorted, n, sorted[i], true);
	/*
	 * A timer whose step varies (21 to 27 ticks) reads values closer than
	 * a step apart: there the two values share the gap between them, so
	 * that a higher q never gives a lower duration.
	 */
	from = x - step / 2;
	to = x + step / 2;
	if (lo > 0)
		from = fmax(from, (x + (double)sorted[lo - 1]) / 2);
	if (hi < n)
		to = fmin(to, (x + (double)sorted[hi]) / 2);
	return from + (to - from) * fmin(fmax((pos - (double)lo) / (double)(hi - lo), 0), 1);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * The k of the Mann-Whitney interval for n values a side at 90%: the most
 * of the n * n differences that can be dropped at each end while P(U < k)
 * stays within 5% (U of two samples of n without ties, counted exactly:
 * ways[u] choices of n ranks out of 2n whose U is u).
 */
static size_t mann_whitney_k(size_t n)
{
	static double ways[RB_DECIDE_MAX + 1][RB_DECIDE_MAX * RB_DECIDE_MAX + 1];
	static size_t known[RB_DECIDE_MAX + 1];		/* k + 1 for each n once counted */
	size_t k = 0;
	double total = 0, below = 0;

	if (known[n])
		return known[n] - 1;

	/* ways[j][u]: choices of j of the ranks seen so far with U = u; each rank of the other sample adds the chosen below it */
	memset(ways, 0, sizeof(ways));
	ways[0][0] = 1;
	for (size_t rank = 0; rank < 2 * n; rank++)
		for (size_t j = (rank + 1 < n ? rank + 1 : n); j >= 1; j--)
			for (size_t u = 0; u <= n * n; u++) {
				/* rank chosen for the first sample: the other's ranks before it, rank - (j - 1), each beat it */
				size_t beaten = rank - (j - 1);

				if (beaten <= n && u >= beaten)
					ways[j][u] += ways[j - 1][u - beaten];
			}
	for (size_t u = 0; u <= n * n; u++)
		total += ways[n][u];
	for (size_t u = 0; u <= n * n; u++) {
		below += ways[n][u];
		if (below / total > 0.05 + 1e-12)
			break;
		k = u + 1;
	}
	known[n] = k + 1;
	return k;
}

bool rb_repetitions_decide(const double *v, size_t n, double margin)
{
	static double d[RB_DECIDE_MAX * RB_DECIDE_MAX];
	size_t k, m = 0;

	if (n < 3 || n > RB_DECIDE_MAX)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!(v[i] > 0))
			return false;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++)
			d[m++] = log(v[j]) - log(v[i]);
	qsort(d, m, sizeof(d[0]), cmp_double);
	k = mann_whitney_k(n);
	return k >= 1 && fmax(-d[k - 1], d[m - k]) <= log1p(margin);
}
