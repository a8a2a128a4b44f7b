/* clock.c (arm64): the generic counter: its one timer and its rate from cntfrq_el0 */
#include <stdio.h>
#include <stdint.h>

#include "clock.h"

enum rb_timer rb_timer_choose(void)
{
	return RB_TIMER_CNTVCT;
}

/* Linux v6.1 lets every task read cntvct_el0 (CNTKCTL_EL1.EL0VCTEN), or traps and emulates the read. */
const char *rb_timer_missing(enum rb_timer t)
{
	(void)t;
	return NULL;
}

/*
 * The rate is what cntfrq_el0 holds: firmware programs it with the system
 * counter's frequency, and Linux v6.1's arch timer driver takes it from
 * there too unless the device tree overrides it (clock-frequency), which
 * only broken firmware needs.  The counter runs at that rate in every power
 * state (the Arm ARM's system counter has a fixed frequency): invariant.
 */
int rb_clock_arch_init(struct rb_clock *c, char *why, size_t whylen)
{
	uint64_t frq;

	(void)why;
	(void)whylen;
	__asm__ __volatile__("mrs %0, cntfrq_el0" : "=r" (frq));
	c->timer = RB_TIMER_CNTVCT;
	c->invariant = true;
	c->tsc_hz = (double)(frq & 0xffffffff);
	c->tsc_hz_source = "cntfrq_el0 (the generic counter's frequency, as firmware set it)";
	if (c->tsc_hz <= 0) {
		c->tsc_hz = rb_tsc_hz_calibrated(c->timer);
		c->tsc_hz_source = "calibrated against CLOCK_MONOTONIC_RAW (50 ms, best of 5): cntfrq_el0 reads 0";
	}
	return 0;
}

/*
 * The PMU's counters in user mode (Linux v6.1, arch/arm64/kernel/perf_event.c):
 * an event opened with config1 bit 1 (the "rdpmc" format of armv8_pmuv3) is
 * readable there while kernel.perf_user_access is 1, which sets
 * PMUSERENR_EL0.{ER,CR} for its task; the user page's index is then the
 * counter + 1, the cycle counter being 31 (index 32).  isb keeps the read
 * after the instructions before it, as the timer's start does.
 */
const uint64_t rb_core_user_config1 = 0x2;

uint64_t rb_core_user_counter(uint32_t idx)
{
	uint64_t v;

	if (idx == 31) {
		__asm__ __volatile__("isb\n\tmrs %0, pmccntr_el0" : "=r" (v) : : "memory");
		return v;
	}
	__asm__ __volatile__("msr pmselr_el0, %1\n\tisb\n\tmrs %0, pmxevcntr_el0"
			     : "=r" (v) : "r" ((uint64_t)idx) : "memory");
	return v;
}

const char *rb_core_user_counter_name(uint32_t idx)
{
	return idx == 31 ? "cycle counter (mrs pmccntr_el0)" : "event counter counting CPU_CYCLES (mrs pmxevcntr_el0)";
}
