/* sampled.h: the loop of a sampled kernel (lat/, flush/): each access timed alone, its start dithered against the timer's tick */
#ifndef REGBENCH_SAMPLED_H
#define REGBENCH_SAMPLED_H

#include <stdint.h>

#include "clock.h"
#include "kernels.h"

/*
 * A timer that moves in steps (27 TSC ticks on the development VM, 16 to 42
 * ns on arm64 boards) reads a duration shorter than a step as 0 or as one
 * step.  Which one depends on where the start falls between two ticks: with
 * that phase uniform, a duration of d steps reads one step with probability
 * d, so the mean of many readings is the duration itself, below the step
 * (phase-dithered or equivalent-time sampling).  Each sample therefore spins
 * a random number of turns before its start reading.  The spin is the sum of
 * two uniform draws from 0 to range - 1 (clock.c picks range so that one
 * draw spans two steps): a triangular spread over four steps, whose phase
 * modulo the step is far closer to uniform than one draw of the same mean
 * length would be.  docs/METHOD.md has the method and its limits.
 *
 * The generator is xorshift64 (13, 7, 17), seeded per call from
 * rb_kernel_arg's dither_seed, one step per sample: its low and high 32 bits
 * are the two draws, each scaled to 0..range-1 by a multiply and a shift.  A
 * seed of 0 (a zeroed argument) stays 0: one turn every sample, no dither.
 */
static inline __attribute__((always_inline)) uint64_t rb_dither_next(uint64_t *state, uint32_t range)
{
	uint64_t x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*state = x;
	return 1 + (((x & 0xffffffffu) * range) >> 32) + (((x >> 32) * range) >> 32);
}

/*
 * RB_SAMPLED(name, setup, body) makes name(a, iters): iters samples into
 * a->mem (uint64_t each), a copy per timer (clock.h's RB_TIMED).  In order,
 * for each sample:
 *   1. spin rb_dither_next(&state, a->dither_range) turns (rb_dither_spin);
 *   2. t0 = the start reading;
 *   3. at = t0 & a->zero: 0, which the compiler cannot know, so that the
 *      body's access, whose offset is `at`, cannot begin before the start
 *      reading has its value (as a chain's read waits for the last one);
 *   4. body: the access at offset `at`;
 *   5. out[i] = the stop reading - t0.
 * A sampled kernel's baseline (its rb_kernel's base) is the same loop whose
 * body only computes the access's address from `at`: timed beside the
 * kernel, its mean is what the samples hold beyond the access.  The kernel
 * module does not run this loop yet: a kernel: target's samples are plain,
 * and measure.cc gives their median (docs/METHOD.md, Limits).  To dither
 * alike, the module's loop takes the seed and range user space passes and
 * runs these steps with the same generator and asm spin
 * (bench/arch/ARCH/timer.h).
 */
#define RB_SAMPLED(name, setup, body)						\
static __always_inline uint64_t name##_t(enum rb_timer timer, const struct rb_kernel_arg *a, uint64_t iters) \
{									\
	uint64_t *out = a->mem, dither = a->dither_seed, zero = a->zero;	\
	uint32_t range = a->dither_range;				\
	setup;								\
									\
	for (uint64_t i = 0; i < iters; i++) {				\
		rb_dither_spin(rb_dither_next(&dither, range));		\
		uint64_t t0 = rb_timer_start(), at = t0 & zero;		\
		body;							\
		out[i] = rb_timer_stop(timer) - t0;			\
	}								\
	return 0;							\
}									\
static uint64_t name(const struct rb_kernel_arg *a, uint64_t iters)	\
{									\
	return RB_TIMED(a->timer, name##_t, a, iters);			\
}

#endif
