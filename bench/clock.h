/* clock.h: the two clocks: the counter (x86's TSC, arm64's cntvct_el0) as regbench reads it and what is known of it here, and the core clock */
#ifndef REGBENCH_CLOCK_H
#define REGBENCH_CLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The timer: how the counter is read at the start and at the stop of a timed
 * region (rb_timer_start, rb_timer_stop), each architecture's in
 * bench/arch/ARCH/timer.h with the reason for its instructions.  Its
 * readings are timer ticks: the TSC's on x86-64, the generic counter's on
 * arm64 (RB_COUNTER_NAME names it, RB_TICKS says what a report calls them).
 */
#include "timer.h"

/* The timer this CPU gets (x86: RDTSCP where CPUID says it exists, else LFENCE); bench/arch/ARCH/clock.c. */
enum rb_timer rb_timer_choose(void);

/* Why this CPU cannot read with timer t, or NULL when it can; bench/arch/ARCH/clock.c. */
const char *rb_timer_missing(enum rb_timer t);

/*
 * "lfence;rdtsc .. rdtscp;lfence", "isb;mrs cntvct_el0 .. dsb ld;isb;mrs
 * cntvct_el0": the start and stop sequences of t, from timer.h's instructions.
 */
const char *rb_timer_text(enum rb_timer t);

struct rb_clock {
	enum rb_timer timer;		/* the stop sequence, chosen from what the CPU has */
	double tick_hz;			/* counter ticks per second */
	const char *tick_hz_source;	/* how tick_hz was obtained */
	bool invariant;			/* constant rate in all C/P-states (x86: CPUID 0x80000007 EDX[8]) */
	double overhead;		/* median ticks of an empty start/stop pair */
	double resolution;		/* smallest step between distinct serialized readings */
	double granularity;		/* how far the counter moves when it moves: the resolution, or more (clock.c) */
	uint32_t dither_range;		/* turns of a sampled kernel's dither draw (sampled.h): two granules' worth */
	double core_hz;			/* core clock, estimated from a dependent add chain */
	const char *core_hz_source;
	int core_fd;			/* hardware core-cycle counter (perf_event), or -1 */
	void *core_page;		/* its perf_event user page where user mode may read it, or NULL */
	char core_cycles_source[224];	/* how core_cycles are obtained */
};

/*
 * The core-cycle counter's value (user-mode cycles of this thread): read in
 * user mode where the kernel allows it (core_page), else with read(); 0
 * without a counter.
 */
uint64_t rb_core_read(const struct rb_clock *c);

/*
 * bench/arch/ARCH/clock.c: the perf_event attr.config1 that asks for the
 * core-cycle counter to be readable in user mode, or 0 where regbench reads
 * it with read(); and that read of hardware counter idx (the user page's
 * index - 1), with the counter's name in words for the context.
 */
extern const uint64_t rb_core_user_config1;
uint64_t rb_core_user_counter(uint32_t idx);
const char *rb_core_user_counter_name(uint32_t idx);

/*
 * Core cycles per timer tick now: the ticks of one dependent add (one core
 * cycle), timed at the call.  The core clock moves with turbo and load, so a
 * figure converted long after start-up needs a fresh one.
 */
double rb_core_per_tick(enum rb_timer t);

/* Ticks of n empty start/stop pairs into out: the timer's own cost, reading by reading. */
void rb_timer_empty(enum rb_timer t, uint64_t *out, size_t n);

/* Fill *c; 0, or -1 with a one-line reason in why (x86: no TSC). */
int rb_clock_init(struct rb_clock *c, char *why, size_t whylen);

/*
 * bench/arch/ARCH/clock.c: the architecture's part of rb_clock_init: timer,
 * invariant, tick_hz and its source; 0, or -1 with the reason in why.  Where
 * nothing states the rate it leaves tick_hz 0 and tick_hz_source why (or
 * NULL), and rb_clock_init measures it.
 */
int rb_clock_arch_init(struct rb_clock *c, char *why, size_t whylen);

#ifdef __cplusplus
}
#endif

#endif
