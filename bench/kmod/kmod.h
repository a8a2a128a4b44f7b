/* SPDX-License-Identifier: GPL-2.0 */
/* What the regbench module's two files share: the benchmarks and what the runner knows of them */
#ifndef REGBENCH_KMOD_H
#define REGBENCH_KMOD_H

#include <linux/types.h>

#include "regbench.h"

/* What a benchmark's code works on, set up by the ioctl before the call. */
struct rbk_args {
	void __iomem *io;	/* the register, or a copy's start: a pci_iomap cookie */
	unsigned long port;	/* the same as a port number, for port benchmarks */
	void *buf;		/* _rep elements, copy bytes */
	u64 *samples;		/* sampled: one per access */
	u64 n;			/* _rep elements or copy bytes per call */
	u64 value;		/* what writes store */
	u64 zero;		/* 0, which the compiler cannot see: chains depend on it */
	u64 *dither;		/* sampled: the dither generator's state, from piece to piece */
	u32 dither_range;	/* sampled: each of a spin's two draws is 0 to range - 1 turns */
};

/* How a benchmark is timed, which decides what its flags, iters and n mean (regbench.h, RUN). */
enum rbk_shape { RBK_UNROLLED, RBK_CHAIN, RBK_SAMPLED, RBK_BATCH_REP, RBK_BATCH_COPY };

/*
 * One line of regbench-benchmarks.h: fn times one piece of a call
 * (iters iterations, all of them timed between two readings of the
 * counter) and returns its ticks; the runner (rbk_run) cuts a call into
 * pieces.  bytes is the width of each access (0 for a barrier), word the
 * element a word copy moves (0 for the others).
 */
struct rbk_benchmark {
	u64 (*fn)(const struct rbk_args *a, u64 iters, unsigned int flags);
	enum rbk_shape shape;
	enum regbench_space space;
	unsigned int bytes, word;
	bool reads, writes;
	bool at_register;	/* it touches a register of the window (barriers touch nothing) */
};

extern const struct rbk_benchmark rbk_benchmarks[];
extern const unsigned int rbk_nr_benchmarks;

/* The timers this CPU reads with (REGBENCH_TIMER_*), the counter's rate, the list's fingerprint. */
unsigned int rbk_timers(void);
u64 rbk_tick_hz(void);
u32 rbk_fingerprint(void);

/*
 * Times one call of b, or of the timer alone with REGBENCH_RUN_EMPTY (b is
 * then NULL), as REGBENCH_IOC_RUN asks, already checked, in pieces of about
 * most REGBENCH_IRQS_OFF_UNITS accesses, each with preemption off and, where
 * the piece is that short, interrupts off: 0 with the ticks summed, or
 * -EINTR when a fatal signal came between pieces.
 */
int rbk_run(const struct rbk_benchmark *b, struct rbk_args *a, u64 iters, unsigned int flags,
	    u64 *ticks, bool *irqs_off);

/* Accesses (or 8-byte units of a copy) one iteration of b makes with n elements or bytes. */
u64 rbk_units(const struct rbk_benchmark *b, u64 n, unsigned int flags);

#endif
