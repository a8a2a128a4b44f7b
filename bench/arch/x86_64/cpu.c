/* cpu.c (x86-64): this CPU as CPUID names it: its published figures, its model name, the hypervisor */
#include <cpuid.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "env.h"
#include "identity.h"
#include "published.h"

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
 *  - Golden Cove and its successors have no loads-per-cycle figure here:
 *    their three load ports (Intel's manual) are not what the kernel's one
 *    stream of loads from one address reaches.  An Emerald Rapids VM read
 *    1.99 a cycle (3.00 only with three offsets in turn, 2.0 with eight), and
 *    a reference the machine never reaches marks every reading of the
 *    control disturbed.
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
struct row {
	unsigned int family, model_lo, model_hi;	/* CPUID display family and model */
	bool amd;
	struct rb_reference ref;
};

#define NO NAN
static const struct row references[] = {
	{ 0x17, 0x00, 0x2f, true, { "Zen / Zen+", { 1, 3, 4, 2, 1, 17, 77.1, 22.5 } } },
	{ 0x17, 0x30, 0xff, true, { "Zen 2", { 1, 3, 4, 2, 1, 11, 78.1, 17.7 } } },
	{ 0x19, 0x00, 0x0f, true, { "Zen 3", { 1, 3, 4, 3, 2, 10, 60.1, 7.5 } } },
	{ 0x19, 0x10, 0x1f, true, { "Zen 4", { 1, 3, 4, 3, 2, 10, 58.1, 7.4 } } },
	{ 0x19, 0x20, 0x5f, true, { "Zen 3", { 1, 3, 4, 3, 2, 10, 60.1, 7.5 } } },
	{ 0x19, 0x60, 0xaf, true, { "Zen 4", { 1, 3, 4, 3, 2, 10, 58.1, 7.4 } } },
	{ 0x1a, 0x00, 0xff, true, { "Zen 5", { 1, 3, 4, 4, 2, NO, NO, NO } } },
	{ 0x06, 0x4e, 0x4e, false, { "Skylake", { 1, 3, 4, 2, 1, 4, NO, 18 } } },
	{ 0x06, 0x55, 0x55, false, { "Skylake", { 1, 3, 4, 2, 1, 4, 33, 18 } } },
	{ 0x06, 0x5e, 0x5e, false, { "Skylake", { 1, 3, 4, 2, 1, 4, NO, 18 } } },
	{ 0x06, 0x8e, 0x8e, false, { "Skylake", { 1, 3, 4, 2, 1, 4, NO, 18 } } },
	{ 0x06, 0x9e, 0x9e, false, { "Skylake", { 1, 3, 4, 2, 1, 4, NO, 18 } } },
	/*
	 * Sunny Cove cores (0x6a/0x6c Ice Lake server, 0x7d/0x7e client; 0x6a is the
	 * development VM's Xeon): 5-cycle L1 load-to-use, two loads and two stores
	 * per cycle (Intel's Optimization Reference Manual on the Ice Lake
	 * microarchitecture); imul r64 3 cycles (Agner Fog, uops.info).
	 */
	{ 0x06, 0x6a, 0x6c, false, { "Ice Lake", { 1, 3, 5, 2, 2, 5.2, 36.2, 18 } } },
	{ 0x06, 0x7d, 0x7e, false, { "Ice Lake", { 1, 3, 5, 2, 2, 5.2, 36.2, 18 } } },
	{ 0x06, 0x8f, 0x8f, false, { "Golden Cove", { 1, 3, 5, NO, 2, 12, 38, 18 } } },
	{ 0x06, 0x97, 0x9a, false, { "Golden Cove", { 1, 3, 5, NO, 2, 12, 38, 18 } } },
	/* Raptor Lake 0xb7/0xba/0xbf, Emerald Rapids 0xcf (models: Linux's intel-family.h) */
	{ 0x06, 0xb7, 0xb7, false, { "Raptor Cove", { 1, 3, 5, NO, 2, NO, NO, NO } } },
	{ 0x06, 0xba, 0xba, false, { "Raptor Cove", { 1, 3, 5, NO, 2, NO, NO, NO } } },
	{ 0x06, 0xbf, 0xbf, false, { "Raptor Cove", { 1, 3, 5, NO, 2, NO, NO, NO } } },
	{ 0x06, 0xcf, 0xcf, false, { "Raptor Cove", { 1, 3, 5, NO, 2, NO, NO, NO } } },
	/* Meteor Lake 0xaa/0xac, Granite Rapids 0xad/0xae (models: Linux's intel-family.h) */
	{ 0x06, 0xaa, 0xaa, false, { "Redwood Cove", { 1, NO, 5, NO, 2, NO, NO, NO } } },
	{ 0x06, 0xac, 0xae, false, { "Redwood Cove", { 1, NO, 5, NO, 2, NO, NO, NO } } },
};
#undef NO

const struct rb_reference *rb_cpu_reference(char *id, size_t len)
{
	unsigned int a, b, c, d, vendor[3], family, model;
	bool amd;

	__cpuid(0, a, vendor[0], vendor[2], vendor[1]);
	amd = !memcmp(vendor, "AuthenticAMD", 12);
	__cpuid(1, a, b, c, d);
	family = (a >> 8) & 0xf;
	model = (a >> 4) & 0xf;
	if (family == 0xf)
		family += (a >> 20) & 0xff;
	if (family == 0x6 || family >= 0xf)
		model |= ((a >> 16) & 0xf) << 4;
	snprintf(id, len, "family 0x%x model 0x%x", family, model);
	for (size_t i = 0; i < sizeof(references) / sizeof(references[0]); i++) {
		const struct row *r = &references[i];

		if (r->amd == amd && r->family == family && model >= r->model_lo && model <= r->model_hi)
			return &r->ref;
	}
	return NULL;
}

void rb_cpu_hypervisor(bool *vm, char *name, size_t len)
{
	unsigned int a, b, c, d;
	char sig[13];

	__cpuid(1, a, b, c, d);
	*vm = c & (1u << 31);
	name[0] = '\0';
	if (*vm) {
		__cpuid(0x40000000, a, b, c, d);
		memcpy(sig, &b, 4);
		memcpy(sig + 4, &c, 4);
		memcpy(sig + 8, &d, 4);
		sig[12] = '\0';
		snprintf(name, len, "%s", sig);		/* its name once: env.c, the caller */
	}
}

void rb_cpu_model(char *out, size_t len)
{
	rb_cpuinfo_field("model name", out, len);
}

/* An x86 emulator (QEMU's TCG) passes the host's or a named CPU's identity: nothing tells it apart. */
const char *rb_cpu_emulated(void)
{
	return NULL;
}
