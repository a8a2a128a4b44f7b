/* dither-test.c: the sampled kernels' loop measures a synthetic delay of N dependent adds below the timer's step, as the add chain says it costs */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "env.h"
#include "estimate.h"
#include "primitives.h"
#include "sampled.h"

/*
 * The synthetic delays: N dependent adds on `at` (0, from the start
 * reading, as a lat/ access's offset is), timed by the same loop as lat/
 * (sampled.h), and their baseline, the loop with `at` alone.  An add costs
 * one core cycle, which the add chain (primitives.c) measures in bulk.
 */
#define DELAY(n) uint64_t x = at; __asm__ __volatile__(".rept " #n "\n\t" RB_ASM_ADD(x) "\n\t.endr" : [x] "+r" (x))
enum { SHORT = 4, LONG = 20, CHUNK = 256, BATCHES = 100 };
RB_SAMPLED(delay_short, , DELAY(4))
RB_SAMPLED(delay_long, , DELAY(20))
RB_SAMPLED(delay_base, , uint64_t x = at; __asm__ __volatile__("" : [x] "+r" (x)))

static int failures;

static void check(int ok, const char *what)
{
	printf("%s: %s\n", ok ? "ok" : "FAIL", what);
	failures += !ok;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The samples of one batch: each delay and a baseline beside each, and the add's cost around them. */
struct batch {
	uint64_t s[CHUNK], sb[CHUNK], l[CHUNK], lb[CHUNK];
	double add;		/* ticks of one add, the mean of the readings before and after */
	double add_spread;	/* half their difference */
};

static void measure(struct batch *b, const struct rb_clock *clk, uint64_t *seed)
{
	struct rb_kernel_arg a = { 0 };
	uint64_t *out[] = { b->s, b->sb, b->l, b->lb };
	rb_kernel_fn fn[] = { delay_short, delay_base, delay_long, delay_base };
	double before = rb_primitive_ticks(clk->timer, RB_ADD_CHAIN, 5), after;

	a.timer = clk->timer;
	a.dither_range = clk->dither_range;
	for (int k = 0; k < 4; k++) {
		a.mem = out[k];
		a.dither_seed = (*seed += 0x9e3779b97f4a7c15ull);
		fn[k](&a, CHUNK);
	}
	after = rb_primitive_ticks(clk->timer, RB_ADD_CHAIN, 5);
	b->add = (before + after) / 2;
	b->add_spread = fabs(after - before) / 2;
}

int main(void)
{
	static struct batch b[BATCHES];
	static uint64_t all[BATCHES * CHUNK];
	struct rb_batch slope[BATCHES], edge[BATCHES], est_short[BATCHES], est_long[BATCHES];
	struct rb_clock clk;
	uint64_t seed = 1;
	double fence, add = 0;
	char why[200], line[300];

	if (rb_clock_init(&clk, why, sizeof(why))) {
		printf("dither-test: %s\n", why);
		return 2;
	}
	for (int i = 0; i < BATCHES; i++)
		measure(&b[i], &clk, &seed);
	/* the far-out fence of the longer delay's samples: preemptions and interrupts left out alike */
	for (int i = 0; i < BATCHES; i++)
		memcpy(all + i * CHUNK, b[i].l, sizeof(b[i].l));
	qsort(all, BATCHES * CHUNK, sizeof(all[0]), cmp_u64);
	{
		static double d[BATCHES * CHUNK];

		for (size_t i = 0; i < BATCHES * CHUNK; i++)
			d[i] = (double)all[i];
		fence = rb_outlier_fence(d, BATCHES * CHUNK, clk.granularity);
	}
	for (int i = 0; i < BATCHES; i++) {
		struct rb_batch s = rb_batch_of(b[i].s, b[i].sb, CHUNK, fence);
		struct rb_batch l = rb_batch_of(b[i].l, b[i].lb, CHUNK, fence);
		/* the add's cost moved by add_spread while the batch ran: its share of the expected difference */
		double moved = (LONG - SHORT) * b[i].add_spread;

		est_short[i] = s;
		est_long[i] = l;
		slope[i] = (struct rb_batch){ l.diff - s.diff - (LONG - SHORT) * b[i].add, l.var + s.var + moved * moved };
		edge[i] = (struct rb_batch){ s.diff - SHORT * b[i].add, s.var };
		add += b[i].add / BATCHES;
	}
	struct rb_dithered ds = rb_dithered_mean(est_short, BATCHES), dl = rb_dithered_mean(est_long, BATCHES);
	struct rb_dithered r = rb_dithered_mean(slope, BATCHES), e = rb_dithered_mean(edge, BATCHES);

	printf("timer: step %.0f ticks, granule %.1f; an add %.3f ticks; %d adds read %.3f [%.3f, %.3f], %d adds %.3f [%.3f, %.3f]; "
	       "dither %u turns a draw\n", clk.resolution, clk.granularity, add, SHORT, ds.mean, ds.low, ds.high, LONG, dl.mean, dl.low,
	       dl.high, clk.dither_range);
	/*
	 * Under emulation (qemu-user, the arm64 guest) a timed region holds
	 * what QEMU's translated code and its counter helper take, a few
	 * nanoseconds that differ from one translated block to the next,
	 * beside adds of a third of a nanosecond: the delays' figures are the
	 * emulator's, and neither check below holds them to an add.
	 */
	const char *emulated = rb_cpu_emulated() ? "under emulation a region's time is QEMU's translated code, not adds"
						 : NULL;

	/*
	 * The difference of the two delays is 16 adds: what the timed region
	 * holds beyond the adds (its edges) is in both and cancels, but for
	 * how the core overlaps the first few adds with the start reading,
	 * which moves a region by up to about one core cycle: on this VM's
	 * busy host 20 adds less 4 read 16 adds' cost to 1 to 4% below what
	 * the add chain reads in bulk, a third of an add to half of one.  So
	 * 16 adds' cost must lie in the 95% interval of the difference (which
	 * holds how far the add's cost moved while each batch ran), widened
	 * by one add: a quantized reading would miss it by up to a step (27
	 * adds' worth here), a scale off by 7% would miss it too.
	 */
	snprintf(line, sizeof(line), "%d adds less %d read %d times an add's cost: the difference is %+.3f ticks, "
		 "[%.3f, %.3f] widened by an add holds 0", LONG, SHORT, LONG - SHORT, r.mean, r.low, r.high);
	if (emulated)
		printf("skip: %s (%s)\n", line, emulated);
	else
		check(r.low - add <= 0 && 0 <= r.high + add, line);
	/*
	 * Each delay is less than a step here, so the quantized samples alone
	 * say 0 or one step: it is the dither that resolves them.
	 */
	if (LONG * add < clk.granularity)
		printf("both delays are below one step of the timer (%d adds: %.1f of %.1f ticks)\n", LONG, LONG * add,
		       clk.granularity);
	/*
	 * The region's edges: what a delay reads beyond its adds.  A timed
	 * region is exact to about a core cycle at each end (where the start
	 * reading delivers its value, where the stop's wait ends), so the
	 * short delay reads its adds within two adds' cost, beyond its
	 * interval.
	 */
	if (emulated) {
		printf("skip: the edges of the timed region (%s)\n", emulated);
	} else {
		snprintf(line, sizeof(line), "%d adds read their cost within two adds (the edges): %+.3f ticks [%.3f, %.3f], "
			 "an add %.3f", SHORT, e.mean, e.low, e.high, add);
		check(e.low <= 2 * add && e.high >= -2 * add, line);
	}
	printf("dither-test: %s\n", failures ? "FAILED" : "all passed");
	return failures != 0;
}
