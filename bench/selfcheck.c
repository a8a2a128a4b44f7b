/* selfcheck.c: the published figures of each CPU family, set beside what the primitives measure here */
#include <cpuid.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"

#include "primitives.h"
#include "selfcheck.h"

/*
 * Published figures in core cycles (latencies, cycles per fence or per locked
 * operation) or accesses per core cycle (rates).  A column with no figure we
 * can trace to a measurement or a vendor's manual is NAN: the row then says
 * "no reference" instead of judging this machine against a guess.
 *
 * Columns 1-5 (add and imul r64 latency, L1 load-to-use, loads and stores per
 * cycle):
 *  - Zen to Zen 4: AMD's Software Optimization Guides for families 17h and
 *    19h; add 1 and imul r64 3 also in Agner Fog's tables and uops.info.
 *  - Zen 5: AMD's guide for family 1Ah gives four loads and two stores per
 *    cycle and 4 cycles to use an integer load; jiegec's Zen 5 review
 *    (github.com/jiegec/blog-source, amd_zen5.md) measured the same.
 *  - Skylake, Sunny Cove, Golden Cove: Intel's Optimization Reference Manual
 *    for the L1, Agner Fog and uops.info for add and imul.
 *  - Raptor Cove: Golden Cove's figures, since Raptor Cove changed only the
 *    L2 and the clocks (Chips and Cheese, "A Preview of Raptor Lake's
 *    Improved L2 Caches", 2022).
 *  - Redwood Cove: jiegec's review (intel_redwood_cove.md, on Granite Rapids)
 *    measured a 5-cycle L1, three loads and two stores per cycle; no imul
 *    figure is published for it.
 *
 * Columns 6-8 (lfence, mfence, lock or m64,imm8 back to back) are uops.info's
 * measured throughput of LFENCE, MFENCE and LOCK OR (M64, I8), taken from the
 * export of its table in github.com/ashvardanian/AssemblyStats (uops/, one
 * file per microarchitecture).  Each row uses the part uops.info measured:
 * Zen+ for Zen / Zen+, Zen 2, Zen 3, Zen 4, Skylake for the client Skylake
 * rows, Skylake-X for 0x55, the client Ice Lake for both Sunny Cove rows and
 * Alder Lake-P for both Golden Cove rows.  Server and client parts of one
 * core are given the same figures because uops.info measured Skylake and
 * Skylake-X alike in all three.  The client Skylake rows have no mfence:
 * uops.info measured 33 cycles on Skylake, 56 on Kaby Lake and 63 on Coffee
 * Lake, all the same core, so the figure is not the family's and any one of
 * them would fail some of these machines.  Zen 5, Raptor Cove and Redwood
 * Cove have no published fence or locked figures yet.
 */
struct reference {
	const char *name;
	unsigned int family, model_lo, model_hi;	/* CPUID display family and model */
	bool amd;
	double v[RB_NR_PRIMITIVES];
};

#define NO NAN
static const struct reference references[] = {
	{ "Zen / Zen+", 0x17, 0x00, 0x2f, true,  { 1, 3, 4, 2, 1, 17, 77.1, 22.5 } },
	{ "Zen 2",      0x17, 0x30, 0xff, true,  { 1, 3, 4, 2, 1, 11, 78.1, 17.7 } },
	{ "Zen 3",      0x19, 0x00, 0x0f, true,  { 1, 3, 4, 3, 2, 10, 60.1, 7.5 } },
	{ "Zen 4",      0x19, 0x10, 0x1f, true,  { 1, 3, 4, 3, 2, 10, 58.1, 7.4 } },
	{ "Zen 3",      0x19, 0x20, 0x5f, true,  { 1, 3, 4, 3, 2, 10, 60.1, 7.5 } },
	{ "Zen 4",      0x19, 0x60, 0xaf, true,  { 1, 3, 4, 3, 2, 10, 58.1, 7.4 } },
	{ "Zen 5",      0x1a, 0x00, 0xff, true,  { 1, 3, 4, 4, 2, NO, NO, NO } },
	{ "Skylake",    0x06, 0x4e, 0x4e, false, { 1, 3, 4, 2, 1, 4, NO, 18 } },
	{ "Skylake",    0x06, 0x55, 0x55, false, { 1, 3, 4, 2, 1, 4, 33, 18 } },
	{ "Skylake",    0x06, 0x5e, 0x5e, false, { 1, 3, 4, 2, 1, 4, NO, 18 } },
	{ "Skylake",    0x06, 0x8e, 0x8e, false, { 1, 3, 4, 2, 1, 4, NO, 18 } },
	{ "Skylake",    0x06, 0x9e, 0x9e, false, { 1, 3, 4, 2, 1, 4, NO, 18 } },
	/*
	 * Sunny Cove cores (0x6a/0x6c Ice Lake server, 0x7d/0x7e client; 0x6a is the
	 * development VM's Xeon): 5-cycle L1 load-to-use, two loads and two stores
	 * per cycle (Intel's Optimization Reference Manual on the Ice Lake
	 * microarchitecture); imul r64 3 cycles (Agner Fog, uops.info).
	 */
	{ "Ice Lake",   0x06, 0x6a, 0x6c, false, { 1, 3, 5, 2, 2, 5.2, 36.2, 18 } },
	{ "Ice Lake",   0x06, 0x7d, 0x7e, false, { 1, 3, 5, 2, 2, 5.2, 36.2, 18 } },
	{ "Golden Cove", 0x06, 0x8f, 0x8f, false, { 1, 3, 5, 3, 2, 12, 38, 18 } },
	{ "Golden Cove", 0x06, 0x97, 0x9a, false, { 1, 3, 5, 3, 2, 12, 38, 18 } },
	/* Raptor Lake 0xb7/0xba/0xbf, Emerald Rapids 0xcf (models: Linux's intel-family.h) */
	{ "Raptor Cove", 0x06, 0xb7, 0xb7, false, { 1, 3, 5, 3, 2, NO, NO, NO } },
	{ "Raptor Cove", 0x06, 0xba, 0xba, false, { 1, 3, 5, 3, 2, NO, NO, NO } },
	{ "Raptor Cove", 0x06, 0xbf, 0xbf, false, { 1, 3, 5, 3, 2, NO, NO, NO } },
	{ "Raptor Cove", 0x06, 0xcf, 0xcf, false, { 1, 3, 5, 3, 2, NO, NO, NO } },
	/* Meteor Lake 0xaa/0xac, Granite Rapids 0xad/0xae (models: Linux's intel-family.h) */
	{ "Redwood Cove", 0x06, 0xaa, 0xaa, false, { 1, NO, 5, 3, 2, NO, NO, NO } },
	{ "Redwood Cove", 0x06, 0xac, 0xae, false, { 1, NO, 5, 3, 2, NO, NO, NO } },
};
#undef NO

static const struct {
	const char *what;
	bool rate;		/* accesses per core cycle rather than cycles per unit */
} primitives[RB_NR_PRIMITIVES] = {
	[RB_ADD_CHAIN] = { "dependent add (cycles)", false },
	[RB_IMUL_CHAIN] = { "dependent imul r64 (cycles)", false },
	[RB_L1_LOAD_USE] = { "L1 load-to-use (cycles)", false },
	[RB_LOADS_PER_CYCLE] = { "L1 loads per cycle", true },
	[RB_STORES_PER_CYCLE] = { "L1 stores per cycle", true },
	[RB_LFENCE] = { "lfence back to back (cycles)", false },
	[RB_MFENCE] = { "mfence back to back (cycles)", false },
	[RB_LOCKED] = { "lock or back to back (cycles)", false },
};

static const struct reference *reference_for_this_cpu(unsigned int *family, unsigned int *model)
{
	unsigned int a, b, c, d, vendor[3];
	bool amd;

	__cpuid(0, a, vendor[0], vendor[2], vendor[1]);
	amd = !memcmp(vendor, "AuthenticAMD", 12);
	__cpuid(1, a, b, c, d);
	*family = (a >> 8) & 0xf;
	*model = (a >> 4) & 0xf;
	if (*family == 0xf)
		*family += (a >> 20) & 0xff;
	if (*family == 0x6 || *family >= 0xf)
		*model |= ((a >> 16) & 0xf) << 4;
	for (size_t i = 0; i < sizeof(references) / sizeof(references[0]); i++) {
		const struct reference *r = &references[i];

		if (r->amd == amd && r->family == *family && *model >= r->model_lo && *model <= r->model_hi)
			return r;
	}
	return NULL;
}

const char *rb_cpu_name(void)
{
	unsigned int family, model;
	const struct reference *ref = reference_for_this_cpu(&family, &model);

	return ref ? ref->name : NULL;
}

double rb_expected(enum rb_primitive p)
{
	unsigned int family, model;
	const struct reference *ref = reference_for_this_cpu(&family, &model);

	return ref ? ref->v[p] : NAN;
}

/*
 * One measurement of a primitive between two readings of the control: its
 * TSC ticks, its figure in core cycles (or a rate) at the clock the control
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
	uint64_t end = rb_tsc_start() + (uint64_t)(RECHECK_SECONDS * clk->tsc_hz);
	struct timespec pause = { 0, (long)(1e9 * RECHECK_SECONDS / RECHECK_ROUNDS) };
	int n = 0, undisturbed = 0;

	while (n < RECHECK_ROUNDS && undisturbed < RECHECK_UNDISTURBED && rb_tsc_start() < end) {
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
	unsigned int family, model;
	const struct reference *ref = reference_for_this_cpu(&family, &model);
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

	fprintf(f, "regbench self-check: family 0x%x model 0x%x: %s\n", family, model,
		ref ? ref->name : "no reference (this CPU is not in the table)");
	fprintf(f, "TSC %.4f GHz (%s); core clock %.3f GHz (%s)\n", clk->tsc_hz / 1e9, clk->tsc_hz_source,
		clk->core_hz / 1e9, clk->core_hz_source);
	calm = rb_control_reference(&h);
	fprintf(f, "control (%u readings): %.3f TSC ticks per dependent add, %.2f independent adds, %.2f loads and\n"
		"%.2f stores per cycle in the best 5%% of its readings; %.0f%% worse on any is a disturbed machine\n",
		h.n, calm.tick_per_add, calm.width, calm.loads, calm.stores, 100 * RB_DISTURBED);
	fprintf(f, "%-30s %10s %10s %9s  %s\n", "primitive", "TSC ticks", "core", "expected", "verdict");
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
