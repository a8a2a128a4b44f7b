/* clock.c (arm64): the generic counter: its one timer and its rate from cntfrq_el0 */
#include <stdio.h>

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
	c->tick_hz = (double)(frq & 0xffffffff);
	c->tick_hz_source = "cntfrq_el0 (the generic counter's frequency, as firmware set it)";
	if (c->tick_hz <= 0)
		c->tick_hz_source = "cntfrq_el0 reads 0";
	return 0;
}
