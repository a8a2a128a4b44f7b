/* timer-test.c: the timer's resolution in the context is the step real lat/ samples move in, on this machine (run it in the guest too) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
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
	const char *strategy = iomap_strategy_kernel_single()->name;

	for (size_t i = 0; i < rb_nr_kernels; i++)
		if (rb_kernels[i].family == &rb_families[RB_LAT] && !strcmp(rb_kernels[i].op, "read") &&
		    rb_kernels[i].bits == 32 && !strcmp(rb_kernels[i].strategy, strategy) &&
		    rb_kernels[i].space == IOMAP_SPACE_MMIO)
			return &rb_kernels[i];
	fprintf(stderr, "timer-test: no lat/read32/%s kernel\n", strategy);
	exit(2);
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
	a.io = (void __iomem __force *)reg;
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
