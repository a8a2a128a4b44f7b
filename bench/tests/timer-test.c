/* timer-test.c: each timer this CPU has waits for a timed load to complete, and the context's resolution is the step real lat/ samples move in (run it in the guest too) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "env.h"
#include "estimate.h"
#include "iomap/strategy.h"
#include "kernels.h"

enum { CHUNK = 256, N = 392 * CHUNK };	/* the kernel writes CHUNK samples per call */

static int failures;

static void check(int ok, const char *what)
{
	printf("%s: %s\n", ok ? "ok" : "FAIL", what);
	failures += !ok;
}

/* The lat/read32 kernel of the strategy the kernel's readl is, on MMIO: the samples regbench takes. */
static const struct rb_kernel *lat_read32(void)
{
	const char *strategy = iomap_strategy_kernel_single()->id;

	for (size_t i = 0; i < rb_nr_kernels; i++)
		if (rb_kernels[i].family == &rb_families[REGBENCH_LAT] && !strcmp(rb_kernels[i].op, "read") &&
		    rb_kernels[i].bits == 32 && !strcmp(rb_kernels[i].strategy, strategy) &&
		    rb_kernels[i].space == IOMAP_SPACE_MMIO)
			return &rb_kernels[i];
	fprintf(stderr, "timer-test: no lat/read32/%s kernel\n", strategy);
	exit(2);
}

/*
 * One load of *p timed alone with timer t, after flushing its line from
 * every cache (or not): a stop that waited for the load holds the trip to
 * memory, one that did not holds about the same as a cache hit.
 */
static __always_inline uint64_t timed_load(enum rb_timer t, volatile uint64_t *p, int flush)
{
	uint64_t t0;

	if (flush)
		rb_flush_line(p);
	t0 = rb_timer_start();
	(void)*p;
	return rb_timer_stop(t) - t0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The median of n timed loads, flushed or not, each from another page of a large buffer (no prefetcher guesses it). */
static double median_load(enum rb_timer t, volatile uint64_t *buf, size_t pages, int flush)
{
	enum { LOADS = 4001 };
	static uint64_t d[LOADS];

	for (size_t i = 0; i < LOADS; i++) {
		volatile uint64_t *p = buf + (i * 7919 % pages) * 512;

		(void)*p;
		d[i] = RB_TIMED(t, timed_load, p, flush);
	}
	qsort(d, LOADS, sizeof(d[0]), cmp_u64);
	return (double)d[LOADS / 2];
}

/*
 * The stop sequence must keep a timed load inside the reading: a flushed
 * load's median must exceed a cached one's by a memory access (tens of
 * nanoseconds, hundreds under emulation), not by noise.  Each timer the CPU
 * has is tried, the one regbench chooses and, where rdtscp exists, the
 * other as well.
 */
static void check_waits(const struct rb_clock *clk)
{
	enum { PAGES = 16384 };		/* 64 MiB: more than any last-level cache a VM gets */
	volatile uint64_t *buf = calloc(PAGES, 4096);

	if (!buf) {
		printf("skip: no 64 MiB buffer for the cache-missing loads\n");
		return;
	}
	if (rb_cpu_emulated()) {
		printf("skip: the stop's wait for a load: %s\n", rb_cpu_emulated());
		free((void *)buf);
		return;
	}
	for (int t = 0; t < RB_NR_TIMERS; t++) {
		char line[200];
		double hit, miss, need = 20e-9 * clk->tick_hz;	/* 20 ns: far below any DRAM access */

		if (rb_timer_missing((enum rb_timer)t)) {
			printf("skip: %s: %s\n", rb_timer_text((enum rb_timer)t), rb_timer_missing((enum rb_timer)t));
			continue;
		}
		hit = median_load((enum rb_timer)t, buf, PAGES, 0);
		miss = median_load((enum rb_timer)t, buf, PAGES, 1);
		snprintf(line, sizeof(line), "%s%s: a cache-missing load reads %.0f ticks, a cached one %.0f: the load is "
			 "inside the reading (at least %.0f more)", rb_timer_text((enum rb_timer)t),
			 t == (int)clk->timer ? " (chosen)" : "", miss, hit, need);
		check(miss - hit >= need, line);
	}
	free((void *)buf);
}

static int cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int main(void)
{
	static uint64_t raw[N], sorted[N];
	static uint32_t reg[16];
	struct rb_clock clk;
	struct rb_kernel_arg a = { 0 };
	const struct rb_kernel *k = lat_read32();
	char why[200], line[200];
	size_t multiples = 0, distinct = 0, mode_run = 0, below = 0;
	double step;

	if (rb_clock_init(&clk, why, sizeof(why))) {
		printf("timer-test: %s\n", why);
		return 2;
	}
	snprintf(line, sizeof(line), "the chosen timer, %s, is one this CPU has", rb_timer_text(clk.timer));
	check(!rb_timer_missing(clk.timer), line);
	check_waits(&clk);
	a.io = (void __iomem __force *)reg;
	a.timer = clk.timer;
	for (size_t i = 0; i < N; i += CHUNK) {
		a.mem = raw + i;
		k->fn(&a, CHUNK);
	}
	for (size_t i = 0; i < N; i++) {
		multiples += raw[i] % (uint64_t)clk.resolution == 0;
		below += (double)raw[i] < clk.overhead;
	}
	memcpy(sorted, raw, sizeof(raw));
	qsort(sorted, N, sizeof(sorted[0]), cmp);
	for (size_t i = 0, run; i < N; i += run) {
		for (run = 1; i + run < N && sorted[i + run] == sorted[i]; run++)
			;
		distinct++;
		if (run > mode_run)
			mode_run = run;
	}
	step = rb_timer_step(raw, N);
	printf("timer: overhead %.0f ticks, resolution %.0f ticks; %d lat/read32 samples: %zu distinct values, "
	       "the commonest %.1f%%, %.1f%% below the overhead, their own step %.0f\n",
	       clk.overhead, clk.resolution, N, distinct, 100.0 * mode_run / N, 100.0 * below / N, step);

	snprintf(line, sizeof(line), "99%% of the samples are whole multiples of the resolution (%.1f%% are)",
		 100.0 * multiples / N);
	check(multiples * 100 >= (size_t)N * 99, line);
	/*
	 * The resolution is not finer than the samples' own step either (a
	 * context saying 1 while every sample is a multiple of 26).  Samples
	 * nearly all of one value have any of its divisors for a step: only
	 * spread samples tell.
	 */
	if (distinct >= 3 && mode_run * 10 < (size_t)N * 9)
		check(step == clk.resolution, "the samples move in steps of the resolution, no coarser");
	else
		printf("skip: the samples are too uniform to show their own step\n");
	printf("timer-test: %s\n", failures ? "FAILED" : "all passed");
	return failures != 0;
}
