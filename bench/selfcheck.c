/* selfcheck.c: what the primitives measure here, set beside the published figures of this CPU (bench/arch/ARCH/cpu.c) */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "primitives.h"
#include "published.h"
#include "selfcheck.h"

static const struct {
	const char *what;
	bool rate;		/* accesses per core cycle rather than cycles per unit */
} primitives[RB_NR_PRIMITIVES] = {
	[RB_ADD_CHAIN] = { "dependent add (cycles)", false },
	[RB_MUL_CHAIN] = { RB_MUL_WHAT, false },
	[RB_L1_LOAD_USE] = { "L1 load-to-use (cycles)", false },
	[RB_LOADS_PER_CYCLE] = { "L1 loads per cycle", true },
	[RB_STORES_PER_CYCLE] = { "L1 stores per cycle", true },
#define FENCE_WHAT(id, what, ...) [id] = { what, false },
	RB_ARCH_FENCES(FENCE_WHAT)
#undef FENCE_WHAT
};

/*
 * One measurement of a primitive between two readings of the control: its
 * timer ticks, its figure in core cycles (or a rate) at the clock the control
 * read beside it, and the two readings.
 */
struct round {
	double ticks, figure;
	struct rb_control before, after;
};

static void measure(enum rb_primitive p, int tries, const struct rb_clock *clk, struct round *r)
{
	rb_control_read(&r->before, clk);
	r->ticks = rb_primitive_ticks(clk->timer, p, tries);
	rb_control_read(&r->after, clk);
	r->figure = r->ticks / (r->before.tick_per_add + r->after.tick_per_add) * 2;
	if (primitives[p].rate)
		r->figure = 1 / r->figure;
}

/* Whether the control read the machine disturbed on either side of r. */
static bool disturbed(const struct rb_control_history *h, const struct round *r)
{
	return rb_control_disturbed(h, &r->before) || rb_control_disturbed(h, &r->after);
}

static void measure_beside(enum rb_primitive p, int tries, const struct rb_clock *clk, struct rb_control_history *h,
			   struct round *r)
{
	measure(p, tries, clk, r);
	rb_control_add(h, &r->before);
	rb_control_add(h, &r->after);
}

static bool near(double figure, double expected)
{
	return fabs(figure / expected - 1) <= 0.15;
}

static int by_figure(const void *a, const void *b)
{
	double x = ((const struct round *)a)->figure, y = ((const struct round *)b)->figure;

	return x < y ? -1 : x > y;
}

/*
 * A row that misses its reference is measured again, in rounds between
 * readings of the control, for up to RECHECK_SECONDS: the host may share
 * the core for a second or more, and a figure taken then says nothing of
 * the CPU, so the rounds are spread over that time.  The rounds in which the control read an undisturbed machine
 * decide (their median); with none, the row could only be measured
 * disturbed.
 */
enum { RECHECK_ROUNDS = 200, RECHECK_UNDISTURBED = 7, RECHECK_ENOUGH = 3 };
#define RECHECK_SECONDS 3.0

struct verdict {
	double ticks, figure;
	int rounds, undisturbed;	/* rounds measured again (0: the first measurement matched), undisturbed ones */
	enum { MATCHES, OFF, DISTURBED, NO_REFERENCE } kind;
};

static struct verdict recheck(enum rb_primitive p, double expected, const struct rb_clock *clk,
			      struct rb_control_history *h, const struct round *first)
{
	static struct round rounds[RECHECK_ROUNDS], quiet[RECHECK_ROUNDS];
	struct verdict v = { first->ticks, first->figure, 0, 0, DISTURBED };
	uint64_t end = rb_timer_start() + (uint64_t)(RECHECK_SECONDS * clk->tick_hz);
	struct timespec pause = { 0, (long)(1e9 * RECHECK_SECONDS / RECHECK_ROUNDS) };
	int n = 0, undisturbed = 0;

	while (n < RECHECK_ROUNDS && undisturbed < RECHECK_UNDISTURBED && rb_timer_start() < end) {
		measure_beside(p, 3, clk, h, &rounds[n]);
		undisturbed += !disturbed(h, &rounds[n]);
		n++;
		nanosleep(&pause, NULL);
	}
	/* judged again against the references of all the readings */
	for (int i = 0; i < n; i++)
		if (!disturbed(h, &rounds[i]))
			quiet[v.undisturbed++] = rounds[i];
	v.rounds = n;
	if (v.undisturbed >= RECHECK_ENOUGH) {
		qsort(quiet, (size_t)v.undisturbed, sizeof(quiet[0]), by_figure);
		v.ticks = quiet[v.undisturbed / 2].ticks;
		v.figure = quiet[v.undisturbed / 2].figure;
		v.kind = near(v.figure, expected) ? MATCHES : OFF;
	}
	return v;
}

int rb_selfcheck(FILE *f, const struct rb_clock *clk)
{
	char id[96];
	const struct rb_reference *ref = rb_cpu_reference(id, sizeof(id));
	static struct rb_control_history h;
	struct rb_control calm;
	struct verdict v[RB_NR_PRIMITIVES];
	int off = 0, shaken = 0;

	rb_control_prime(&h, clk);
	for (int p = 0; p < RB_NR_PRIMITIVES; p++) {
		double expected = ref ? ref->v[p] : NAN;
		struct round first;

		measure_beside((enum rb_primitive)p, 9, clk, &h, &first);
		v[p] = (struct verdict){ first.ticks, first.figure, 0, 0, MATCHES };
		if (p == RB_ADD_CHAIN || isnan(expected))
			v[p].kind = NO_REFERENCE;
		else if (!near(first.figure, expected))
			v[p] = recheck((enum rb_primitive)p, expected, clk, &h, &first);
		off += v[p].kind == OFF;
		shaken += v[p].kind == DISTURBED;
	}

	fprintf(f, "regbench self-check: %s: %s\n", id, ref ? ref->name : "no reference (this CPU is not in the table)");
	fprintf(f, RB_COUNTER_NAME " %.4f GHz (%s); core clock %.3f GHz (%s)\n", clk->tick_hz / 1e9, clk->tick_hz_source,
		clk->core_hz / 1e9, clk->core_hz_source);
	calm = rb_control_reference(&h);
	fprintf(f, "control (%u readings): %.3f " RB_TICKS " per dependent add, %.2f independent adds, %.2f loads and\n"
		"%.2f stores per cycle in the best 5%% of its readings; %.0f%% worse on any is a disturbed machine\n",
		h.n, calm.tick_per_add, calm.width, calm.loads, calm.stores, 100 * RB_DISTURBED);
	fprintf(f, "%-30s %10s %10s %9s  %s\n", "primitive", RB_TICKS, "core", "expected", "verdict");
	for (int p = 0; p < RB_NR_PRIMITIVES; p++) {
		double expected = ref ? ref->v[p] : NAN, d = 100 * (v[p].figure / expected - 1);
		char verdict[160], want[16] = "-", again[96] = "";

		if (v[p].rounds)
			snprintf(again, sizeof(again), ", measured again: %d of %d rounds undisturbed", v[p].undisturbed,
				 v[p].rounds);
		switch (v[p].kind) {
		case NO_REFERENCE:
			snprintf(verdict, sizeof(verdict), "%s", p == RB_ADD_CHAIN ? "the core-clock estimate rests on it"
										   : "no reference");
			break;
		case MATCHES: snprintf(verdict, sizeof(verdict), "ok (%+.0f%%)%s", d, again); break;
		case OFF: snprintf(verdict, sizeof(verdict), "OFF (%+.0f%%)%s", d, again); break;
		case DISTURBED:
			snprintf(verdict, sizeof(verdict), "disturbed (%+.0f%%): measured again, %d of %d rounds "
				 "undisturbed (%d needed)", d, v[p].undisturbed, v[p].rounds, RECHECK_ENOUGH);
			break;
		}
		if (!isnan(expected))
			snprintf(want, sizeof(want), "%g", expected);
		fprintf(f, "%-30s %10.3f %10.2f %9s  %s\n", primitives[p].what, v[p].ticks, v[p].figure, want, verdict);
	}
	if (off) {
		fprintf(f, "%d figure%s off on an undisturbed machine\n", off, off > 1 ? "s" : "");
		return 1;
	}
	if (shaken) {
		fprintf(f, "%d figure%s could only be measured on a disturbed machine: run it again when the host is "
			"quieter\n", shaken, shaken > 1 ? "s" : "");
		return 3;
	}
	return 0;
}
