/* selfcheck.c: the published figures of each CPU family, set beside what the primitives measure here */
#include <cpuid.h>
#include <math.h>
#include <string.h>

#include "primitives.h"
#include "selfcheck.h"

/*
 * Published figures in core cycles (latencies, cycles per fence) or
 * accesses per core cycle (rates); NAN where no figure is published that we
 * trust.  Sources: AMD's Software Optimization Guides for families 17h, 19h
 * and 1Ah, Intel's Optimization Reference Manual, and the measurements of
 * Agner Fog's instruction tables and uops.info, which agree on these.
 */
struct reference {
	const char *name;
	unsigned int family, model_lo, model_hi;	/* CPUID display family and model */
	bool amd;
	double v[RB_NR_PRIMITIVES];
};

#define NO NAN
static const struct reference references[] = {
	{ "Zen / Zen+", 0x17, 0x00, 0x2f, true,  { 1, 3, 4, 2, 1, NO, NO, NO } },
	{ "Zen 2",      0x17, 0x30, 0xff, true,  { 1, 3, 4, 2, 1, NO, NO, NO } },
	{ "Zen 3",      0x19, 0x00, 0x0f, true,  { 1, 3, 4, 3, 2, NO, NO, NO } },
	{ "Zen 4",      0x19, 0x10, 0x1f, true,  { 1, 3, 4, 3, 2, NO, NO, NO } },
	{ "Zen 3",      0x19, 0x20, 0x5f, true,  { 1, 3, 4, 3, 2, NO, NO, NO } },
	{ "Zen 4",      0x19, 0x60, 0xaf, true,  { 1, 3, 4, 3, 2, NO, NO, NO } },
	{ "Zen 5",      0x1a, 0x00, 0xff, true,  { 1, 3, 4, 4, 2, NO, NO, NO } },
	{ "Skylake",    0x06, 0x4e, 0x4e, false, { 1, 3, 4, 2, 1, NO, NO, NO } },
	{ "Skylake",    0x06, 0x55, 0x55, false, { 1, 3, 4, 2, 1, NO, NO, NO } },
	{ "Skylake",    0x06, 0x5e, 0x5e, false, { 1, 3, 4, 2, 1, NO, NO, NO } },
	{ "Skylake",    0x06, 0x8e, 0x8e, false, { 1, 3, 4, 2, 1, NO, NO, NO } },
	{ "Skylake",    0x06, 0x9e, 0x9e, false, { 1, 3, 4, 2, 1, NO, NO, NO } },
	{ "Ice Lake",   0x06, 0x6a, 0x6c, false, { 1, 3, 5, 2, 2, NO, NO, NO } },
	{ "Ice Lake",   0x06, 0x7d, 0x7e, false, { 1, 3, 5, 2, 2, NO, NO, NO } },
	{ "Golden Cove", 0x06, 0x8f, 0x8f, false, { 1, 3, 5, 3, 2, NO, NO, NO } },
	{ "Golden Cove", 0x06, 0x97, 0x9a, false, { 1, 3, 5, 3, 2, NO, NO, NO } },
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

double rb_expected(enum rb_primitive p)
{
	unsigned int family, model;
	const struct reference *ref = reference_for_this_cpu(&family, &model);

	return ref ? ref->v[p] : NAN;
}

int rb_selfcheck(FILE *f, const struct rb_clock *clk)
{
	unsigned int family, model;
	const struct reference *ref = reference_for_this_cpu(&family, &model);
	double core_per_tick = clk->core_hz / clk->tsc_hz;
	int off = 0;

	fprintf(f, "regbench self-check: family 0x%x model 0x%x: %s\n", family, model,
		ref ? ref->name : "no reference (this CPU is not in the table)");
	fprintf(f, "TSC %.4f GHz (%s); core clock %.3f GHz (%s)\n", clk->tsc_hz / 1e9, clk->tsc_hz_source,
		clk->core_hz / 1e9, clk->core_hz_source);
	fprintf(f, "%-30s %10s %10s %9s  %s\n", "primitive", "TSC ticks", "core", "expected", "verdict");
	for (int p = 0; p < RB_NR_PRIMITIVES; p++) {
		double ticks = rb_primitive_ticks((enum rb_primitive)p, 9), core = ticks * core_per_tick;
		double expected = ref ? ref->v[p] : NAN;
		char verdict[64], want[16] = "-";

		if (primitives[p].rate)
			core = 1 / core;
		if (p == RB_ADD_CHAIN)
			snprintf(verdict, sizeof(verdict), "the core-clock estimate rests on it");
		else if (isnan(expected))
			snprintf(verdict, sizeof(verdict), "no reference");
		else if (fabs(core / expected - 1) <= 0.15)
			snprintf(verdict, sizeof(verdict), "ok (%+.0f%%)", 100 * (core / expected - 1));
		else {
			off++;
			snprintf(verdict, sizeof(verdict), "OFF (%+.0f%%)", 100 * (core / expected - 1));
		}
		if (!isnan(expected))
			snprintf(want, sizeof(want), "%g", expected);
		fprintf(f, "%-30s %10.3f %10.2f %9s  %s\n", primitives[p].what, ticks, core, want, verdict);
	}
	return off;
}
