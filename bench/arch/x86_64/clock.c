/* clock.c (x86-64): the TSC: CPUID's checks, its frequency, and which stop sequence this CPU gets */
#include <cpuid.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "clock.h"

/* A CPUID bit; a leaf exists only up to the maximum its range's first leaf (0, 0x80000000) reports. */
static bool cpuid_bit(unsigned int leaf, int reg, unsigned int bit)
{
	unsigned int r[4];

	if (__get_cpuid_max(leaf & 0x80000000, NULL) < leaf)
		return false;
	__cpuid(leaf, r[0], r[1], r[2], r[3]);
	return r[reg] & (1u << bit);
}

/*
 * The kernel's own TSC frequency: a perf event's user page carries the
 * TSC-to-nanoseconds conversion (ns = ticks * time_mult >> time_shift) that
 * the kernel derived from tsc_khz.  Any event will do; a software dummy needs
 * no hardware counter.
 */
static double tsc_hz_from_kernel(void)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(attr), .config = PERF_COUNT_SW_DUMMY,
		.disabled = 1, .exclude_kernel = 1, .exclude_hv = 1,
	};
	long page = sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *pg;
	double hz = 0;
	int fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);

	if (fd < 0)
		return 0;
	pg = mmap(NULL, (size_t)page, PROT_READ, MAP_SHARED, fd, 0);
	if (pg != MAP_FAILED) {
		if (pg->cap_user_time && pg->time_mult)
			hz = 1e9 * (double)(1ULL << pg->time_shift) / pg->time_mult;
		munmap(pg, (size_t)page);
	}
	close(fd);
	return hz;
}

/*
 * What the CPU or the hypervisor states: CPUID 0x15 (TSC to crystal ratio
 * times the crystal clock, Intel), else the hypervisor timing leaf
 * 0x40000010 (TSC kHz; VMware and some KVM setups).
 */
static double tsc_hz_from_cpuid(const char **source)
{
	unsigned int a, b, c, d;

	if (__get_cpuid_max(0, NULL) >= 0x15) {
		__cpuid(0x15, a, b, c, d);
		if (a && b && c) {
			*source = "CPUID leaf 0x15 (crystal clock x TSC ratio)";
			return (double)c * b / a;
		}
	}
	__cpuid(0x1, a, b, c, d);
	if (c & (1u << 31)) {		/* running under a hypervisor */
		__cpuid(0x40000000, a, b, c, d);
		if (a >= 0x40000010) {
			__cpuid(0x40000010, a, b, c, d);
			if (a) {
				*source = "hypervisor CPUID leaf 0x40000010";
				return a * 1e3;
			}
		}
	}
	return 0;
}

enum rb_timer rb_timer_choose(void)
{
	return cpuid_bit(0x80000001, 3, 27) ? RB_TIMER_RDTSCP : RB_TIMER_LFENCE;
}

const char *rb_timer_missing(enum rb_timer t)
{
	if (t == RB_TIMER_RDTSCP && !cpuid_bit(0x80000001, 3, 27))
		return "this CPU has no rdtscp (CPUID 0x80000001 EDX[27])";
	return NULL;
}

int rb_clock_arch_init(struct rb_clock *c, char *why, size_t whylen)
{
	if (!cpuid_bit(0x1, 3, 4)) {
		snprintf(why, whylen, "this CPU has no time-stamp counter (CPUID 1 EDX[4])");
		return -1;
	}
	c->timer = rb_timer_choose();
	c->invariant = cpuid_bit(0x80000007, 3, 8);
	c->tsc_hz = tsc_hz_from_kernel();
	c->tsc_hz_source = "kernel tsc_khz (perf_event user page time_mult/time_shift)";
	if (c->tsc_hz <= 0)
		c->tsc_hz = tsc_hz_from_cpuid(&c->tsc_hz_source);
	if (c->tsc_hz <= 0) {
		c->tsc_hz = rb_tsc_hz_calibrated(c->timer);
		c->tsc_hz_source = "calibrated against CLOCK_MONOTONIC_RAW (50 ms, best of 5)";
	}
	return 0;
}

/* regbench reads x86's core-cycle counter with read() of the perf event (no rdpmc): nothing to ask for. */
const uint64_t rb_core_user_config1 = 0;

uint64_t rb_core_user_counter(uint32_t idx)
{
	(void)idx;
	return 0;
}

const char *rb_core_user_counter_name(uint32_t idx)
{
	(void)idx;
	return "";
}
