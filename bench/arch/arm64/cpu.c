/* cpu.c (arm64): this CPU as its MIDR names it: its published figures, its model name, the hypervisor */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>

#include "env.h"
#include "published.h"

#ifndef HWCAP_CPUID
#define HWCAP_CPUID (1 << 11)
#endif

/*
 * The Main ID Register: sysfs has it where the kernel exports it; else the
 * mrs that Linux (4.11 on, HWCAP_CPUID) and qemu-user emulate for EL0; 0
 * when neither works.
 */
static uint64_t midr(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/cpu0/regs/identification/midr_el1", "r");
	unsigned long long v = 0;

	if (f) {
		if (fscanf(f, "%llx", &v) != 1)
			v = 0;
		fclose(f);
	}
	if (!v && (getauxval(AT_HWCAP) & HWCAP_CPUID))
		__asm__ __volatile__("mrs %0, midr_el1" : "=r" (v));
	return v;
}

static unsigned int implementer(uint64_t m) { return (m >> 24) & 0xff; }
static unsigned int part(uint64_t m) { return (m >> 4) & 0xfff; }

/*
 * Published figures from Arm's Software Optimization Guides, by the MIDR's
 * implementer 0x41 (Arm) and part number (Linux's asm/cputype.h), in the
 * columns of enum rb_primitive: add and mul latency, L1 load-to-use, loads
 * and stores per cycle.  NAN where the guide gives no figure we could trace.
 *  - add: 1 cycle on every core ("ALU, basic" in each guide's integer table).
 *  - Cortex-A72 (UAN 0016A, "Instruction characteristics"): load register,
 *    unsigned immediate 4 cycles; one load pipeline and one store
 *    pipeline, so one load and one store per cycle.  Its multiply latency
 *    is not set here: the form regbench times (X-form mul) we could not
 *    confirm from the guide.
 *  - Cortex-A76 and Neoverse N1 (one pipeline; the N1 guide, "Integer
 *    multiply" and "Load instructions"; GCC's neoverse-n1.md, which follows
 *    it, has mul 2 and integer load 4): mul 2, load 4, two load pipelines so
 *    two loads per cycle.
 *  - Neoverse N2 and V1 (their guides' "Multiply" and "Load" rows): mul 2,
 *    load 4.
 */
struct row {
	unsigned int part;
	struct rb_reference ref;
};

#define NO NAN
static const struct row references[] = {
	{ 0xd08, { "Cortex-A72", { 1, NO, 4, 1, 1 } } },
	{ 0xd0b, { "Cortex-A76", { 1, 2, 4, 2, NO } } },
	{ 0xd0c, { "Neoverse N1", { 1, 2, 4, 2, NO } } },
	{ 0xd49, { "Neoverse N2", { 1, 2, 4, NO, NO } } },
	{ 0xd40, { "Neoverse V1", { 1, 2, 4, NO, NO } } },
};
#undef NO

const struct rb_reference *rb_cpu_reference(char *id, size_t len)
{
	uint64_t m = midr();

	if (!m) {
		snprintf(id, len, "MIDR unreadable");
		return NULL;
	}
	snprintf(id, len, "MIDR 0x%08llx (implementer 0x%02x part 0x%03x)", (unsigned long long)m, implementer(m),
		 part(m));
	for (size_t i = 0; implementer(m) == 0x41 && i < sizeof(references) / sizeof(references[0]); i++)
		if (references[i].part == part(m))
			return &references[i].ref;
	return NULL;
}

/* What names a core, for the model line: the implementers of Linux's asm/cputype.h and Arm's cores. */
static const char *implementer_name(unsigned int i)
{
	switch (i) {
	case 0x00: return "software-defined (an emulator's CPU, such as QEMU's max)";
	case 0x41: return "Arm";
	case 0x42: return "Broadcom";
	case 0x43: return "Cavium";
	case 0x46: return "Fujitsu";
	case 0x48: return "HiSilicon";
	case 0x4e: return "NVIDIA";
	case 0x51: return "Qualcomm";
	case 0x61: return "Apple";
	case 0xc0: return "Ampere";
	default: return NULL;
	}
}

void rb_cpu_model(char *out, size_t len)
{
	uint64_t m = midr();
	char id[96];
	const struct rb_reference *ref = rb_cpu_reference(id, sizeof(id));
	const char *who = implementer_name(implementer(m));

	if (!m)
		snprintf(out, len, "unknown");
	else if (ref)
		snprintf(out, len, "Arm %s r%up%u", ref->name, (unsigned int)(m >> 20) & 0xf, (unsigned int)m & 0xf);
	else if (who)
		snprintf(out, len, "%s part 0x%03x", who, part(m));
	else
		snprintf(out, len, "implementer 0x%02x part 0x%03x", implementer(m), part(m));
}

static void first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (f) {
		if (fgets(buf, (int)len, f))
			buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
	}
}

/*
 * arm64 has no CPUID hypervisor bit.  Xen says so in /sys/hypervisor; a
 * QEMU or KVM machine in its firmware tables (the DMI vendor and product
 * under UEFI, the device tree's "linux,dummy-virt" without); an emulator's
 * own CPU model in the MIDR (implementer 0, which the Arm ARM leaves to
 * software: QEMU's max, under qemu-system or qemu-user).
 */
void rb_cpu_hypervisor(bool *vm, char *name, size_t len)
{
	char v[64], p[64], dt[64];

	*vm = true;
	first_line("/sys/hypervisor/type", v, sizeof(v));
	if (*v) {
		snprintf(name, len, "%s", v);
		return;
	}
	first_line("/sys/class/dmi/id/sys_vendor", v, sizeof(v));
	first_line("/sys/class/dmi/id/product_name", p, sizeof(p));
	if (!strcmp(v, "QEMU") || strstr(p, "KVM") || strstr(p, "Virtual Machine") || strstr(p, "VMware")) {
		snprintf(name, len, "%s", !strcmp(v, "QEMU") ? v : p);
		return;
	}
	first_line("/sys/firmware/devicetree/base/compatible", dt, sizeof(dt));
	if (!strcmp(dt, "linux,dummy-virt")) {
		snprintf(name, len, "QEMU virt");
		return;
	}
	if (midr() && !implementer(midr())) {
		snprintf(name, len, "emulated CPU");
		return;
	}
	*vm = false;
	name[0] = '\0';
}

/* Implementer 0 is no company's: QEMU's max CPU, under qemu-system (TCG) or qemu-user. */
const char *rb_cpu_emulated(void)
{
	uint64_t m = midr();

	return m && !implementer(m) ? "the CPU is an emulator's (MIDR implementer 0, QEMU's max), which models no "
				      "caches: a load takes as long whether it misses or not" : NULL;
}
