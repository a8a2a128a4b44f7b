/* timer.h (x86-64): the TSC as regbench reads it, start and stop, kept as the instructions themselves */
#ifndef REGBENCH_ARCH_TIMER_H
#define REGBENCH_ARCH_TIMER_H

#include <stdint.h>

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
enum rb_timer { RB_TIMER_LFENCE, RB_TIMER_RDTSCP, RB_NR_TIMERS };

#define RB_COUNTER_NAME "TSC"
#define RB_TICKS "TSC ticks"
#define RB_TIMER_START_ASM "lfence\n\trdtsc"
#define RB_TIMER_STOP_LFENCE_ASM "lfence\n\trdtsc\n\tlfence"
#define RB_TIMER_STOP_RDTSCP_ASM "rdtscp\n\tlfence"
/* Each timer's stop sequence, by timer: what rb_timer_text says. */
#define RB_TIMER_STOPS { [RB_TIMER_LFENCE] = RB_TIMER_STOP_LFENCE_ASM, [RB_TIMER_RDTSCP] = RB_TIMER_STOP_RDTSCP_ASM }

#define RB_TIMED(t, f, ...)							\
	((t) == RB_TIMER_RDTSCP ? f(RB_TIMER_RDTSCP, ##__VA_ARGS__) : f(RB_TIMER_LFENCE, ##__VA_ARGS__))

static inline __attribute__((always_inline)) uint64_t rb_timer_start(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__(RB_TIMER_START_ASM : "=a" (lo), "=d" (hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

/* rdtscp also writes its aux value to ecx: both forms clobber it, so both compile alike around it. */
static inline __attribute__((always_inline)) uint64_t rb_timer_stop(enum rb_timer t)
{
	uint32_t lo, hi;

	if (t == RB_TIMER_RDTSCP)
		__asm__ __volatile__(RB_TIMER_STOP_RDTSCP_ASM : "=a" (lo), "=d" (hi) : : "rcx", "memory");
	else
		__asm__ __volatile__(RB_TIMER_STOP_LFENCE_ASM : "=a" (lo), "=d" (hi) : : "rcx", "memory");
	return ((uint64_t)hi << 32) | lo;
}

/*
 * The dither before a sampled reading (bench/sampled.h): n turns (n >= 1)
 * of a decrement and a branch back, about one core cycle a turn; what a
 * turn costs does not matter, only that the spin's length varies.
 */
#define RB_DITHER_SPIN_ASM "1:\n\tdec %[n]\n\tjnz 1b"

static inline __attribute__((always_inline)) void rb_dither_spin(uint64_t n)
{
	__asm__ __volatile__(RB_DITHER_SPIN_ASM : [n] "+r" (n) : : "cc");
}

/* Evict the line holding p from every cache and wait until it is gone (timer-test's cache-missing load). */
static inline __attribute__((always_inline)) void rb_flush_line(volatile void *p)
{
	__asm__ __volatile__("clflush (%0)\n\tmfence" : : "r" (p) : "memory");
}

#endif
