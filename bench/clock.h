/* clock.h: the two clocks: the TSC as regbench reads it and what is known of it here, and the core clock */
#ifndef REGBENCH_CLOCK_H
#define REGBENCH_CLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Start: lfence keeps rdtsc from running before earlier instructions finish.
 * Stop: rdtscp waits for earlier instructions (loads included) to execute,
 * the trailing lfence keeps later ones from starting before it.  Stores are
 * not waited for: a timed store has issued, not landed (the flush family
 * measures landing).
 */
static inline uint64_t rb_tsc_start(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("lfence\n\trdtsc" : "=a" (lo), "=d" (hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t rb_tsc_stop(void)
{
	uint32_t lo, hi, aux;

	__asm__ __volatile__("rdtscp\n\tlfence" : "=a" (lo), "=d" (hi), "=c" (aux) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

struct rb_clock {
	double tsc_hz;			/* TSC ticks per second */
	const char *tsc_hz_source;	/* how tsc_hz was obtained */
	bool invariant;			/* CPUID 0x80000007 EDX[8]: constant rate, runs in all C/P-states */
	double overhead;		/* median ticks of an empty start/stop pair */
	double resolution;		/* smallest step between distinct serialized readings */
	double core_hz;			/* core clock, estimated from a dependent add chain */
	const char *core_hz_source;
	int core_fd;			/* hardware core-cycle counter (perf_event), or -1 */
	char core_cycles_source[160];	/* how core_cycles are obtained */
};

/* The core-cycle counter's value (user-mode cycles of this thread); 0 without one. */
uint64_t rb_core_read(const struct rb_clock *c);

/*
 * Core cycles per TSC tick now: the ticks of one dependent add (one core
 * cycle), timed at the call.  The core clock moves with turbo and load, so a
 * figure converted long after start-up needs a fresh one.
 */
double rb_core_per_tick(void);

/* Ticks of n empty start/stop pairs into out: the timer's own cost, reading by reading. */
void rb_timer_empty(uint64_t *out, size_t n);

/* Fill *c; 0, or -1 with a one-line reason in why (no rdtscp, no TSC). */
int rb_clock_init(struct rb_clock *c, char *why, size_t whylen);

#ifdef __cplusplus
}
#endif

#endif
