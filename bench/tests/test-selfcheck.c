/* test-selfcheck.c: the core-clock estimate is repeatable and a different primitive agrees with it */
#define _GNU_SOURCE
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "selfcheck.h"

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * Only what holds on a noisy shared VM, where the core clock itself moves
 * with the load on the other CPUs.  Rounds spread over ~100 ms alternate an
 * add chain and an multiply chain.  Repeatable: the add estimate from the even
 * rounds and from the odd rounds agree (medians: one round is a difference
 * of two timings, and a disturbed shorter one makes it too fast as surely
 * as a disturbed longer one makes it too slow).  Not circular:
 * the add chain defines the core clock; the multiply chain, another unit, must
 * then take its published latency, taken as the median over rounds of multiply
 * against the add chain measured right beside it (same clock).
 */
int main(void)
{
	enum { ROUNDS = 60 };
	struct timespec pause = { 0, 2 * 1000 * 1000 };
	double add[2][ROUNDS / 2], ratio[ROUNDS], even, odd;
	double want = rb_expected(RB_MUL_CHAIN);
	cpu_set_t set;
	int fail = 0;

	sched_getaffinity(0, sizeof(set), &set);
	for (int c = CPU_SETSIZE - 1; c >= 0; c--)
		if (CPU_ISSET(c, &set)) {
			CPU_ZERO(&set);
			CPU_SET(c, &set);
			sched_setaffinity(0, sizeof(set), &set);
			break;
		}

	for (int r = 0; r < ROUNDS; r++) {
		double a = rb_primitive_ticks(rb_timer_choose(), RB_ADD_CHAIN, 3);

		add[r % 2][r / 2] = a;
		ratio[r] = rb_primitive_ticks(rb_timer_choose(), RB_MUL_CHAIN, 3) / a;
		nanosleep(&pause, NULL);
	}
	qsort(ratio, ROUNDS, sizeof(ratio[0]), cmp);
	qsort(add[0], ROUNDS / 2, sizeof(add[0][0]), cmp);
	qsort(add[1], ROUNDS / 2, sizeof(add[1][0]), cmp);
	even = add[0][ROUNDS / 4];
	odd = add[1][ROUNDS / 4];

	printf("add chain: %.4f (even rounds) and %.4f (odd rounds) " RB_TICKS " per add (%+.2f%%)\n",
	       even, odd, 100 * (odd / even - 1));
	if (!isfinite(even) || !isfinite(odd) || fabs(odd / even - 1) > 0.05) {
		printf("FAIL: the core-clock estimate is not repeatable within 5%%\n");
		fail = 1;
	}
	if (isnan(want)) {
		printf("skip: no published multiply latency for this CPU in the reference table\n");
	} else {
		double cycles = ratio[ROUNDS / 2];

		printf("multiply chain: %.3f core cycles (median of %d rounds), published %g\n", cycles, ROUNDS, want);
		if (fabs(cycles / want - 1) > 0.15) {
			printf("FAIL: multiply latency off by more than 15%%\n");
			fail = 1;
		}
	}
	printf("%s\n", fail ? "test-selfcheck: FAILED" : "test-selfcheck: passed");
	return fail;
}
