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
 * The timers: how the TSC is read at the start and at the stop of a timed
 * region, kept as the instructions themselves so that the context's text
 * (rb_timer_text) is made from what runs.
 *
 * Start: lfence keeps rdtsc from running before earlier instructions finish.
 * Stop: the earlier instructions (loads included) must have executed before
 * the TSC is read, and later ones must not start before it.  rdtscp waits
 * for earlier instructions itself; a trailing lfence holds the later ones.
 * Where the CPU hides rdtscp (Firecracker and other VMs), lfence; rdtsc;
 * lfence does the same: lfence completes earlier loads before anything
 * after it runs (Intel; AMD since lfence is dispatch serializing, the
 * default on every Zen).  timer-test times a cache-missing load with each
 * to prove it.  Stores are not waited for: a timed store has issued, not
 * landed (the flush family measures landing).
 *
 * rb_clock_init chooses once; no reading branches.  Code that reads the
 * timer is an always-inline function taking the timer as a constant, and
 * RB_TIMED(t, f, args) calls the copy built for t (f's first parameter), so the choice is one
 * branch before a timed region, never inside one.  LFENCE is 0: a zeroed
 * clock (a test's) reads the TSC in the way every x86-64 CPU can.
 */
enum rb_timer { RB_TIMER_LFENCE, RB_TIMER_RDTSCP };

#define RB_TSC_START_ASM "lfence\n\trdtsc"
#define RB_TSC_STOP_LFENCE_ASM "lfence\n\trdtsc\n\tlfence"
#define RB_TSC_STOP_RDTSCP_ASM "rdtscp\n\tlfence"

#define RB_TIMED(t, f, ...)							\
	((t) == RB_TIMER_RDTSCP ? f(RB_TIMER_RDTSCP, ##__VA_ARGS__) : f(RB_TIMER_LFENCE, ##__VA_ARGS__))

static inline __attribute__((always_inline)) uint64_t rb_tsc_start(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__(RB_TSC_START_ASM : "=a" (lo), "=d" (hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

/* rdtscp also writes its aux value to ecx: both forms clobber it, so both compile alike around it. */
static inline __attribute__((always_inline)) uint64_t rb_tsc_stop(enum rb_timer t)
{
	uint32_t lo, hi;

	if (t == RB_TIMER_RDTSCP)
		__asm__ __volatile__(RB_TSC_STOP_RDTSCP_ASM : "=a" (lo), "=d" (hi) : : "rcx", "memory");
	else
		__asm__ __volatile__(RB_TSC_STOP_LFENCE_ASM : "=a" (lo), "=d" (hi) : : "rcx", "memory");
	return ((uint64_t)hi << 32) | lo;
}

/* The timer this CPU gets: RDTSCP where CPUID 0x80000001 EDX[27] says it exists, else LFENCE. */
enum rb_timer rb_timer_choose(void);

/* "lfence;rdtsc .. rdtscp;lfence": the start and stop sequences of t, from the instructions above. */
const char *rb_timer_text(enum rb_timer t);

struct rb_clock {
	enum rb_timer timer;		/* the stop sequence, chosen from CPUID */
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
double rb_core_per_tick(enum rb_timer t);

/* Ticks of n empty start/stop pairs into out: the timer's own cost, reading by reading. */
void rb_timer_empty(enum rb_timer t, uint64_t *out, size_t n);

/* Fill *c; 0, or -1 with a one-line reason in why (no TSC). */
int rb_clock_init(struct rb_clock *c, char *why, size_t whylen);

#ifdef __cplusplus
}
#endif

#endif
