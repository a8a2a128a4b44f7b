/* kernels.h: the timed kernels, one per family x op x width x strategy, behind one signature */
#ifndef REGBENCH_KERNELS_H
#define REGBENCH_KERNELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "iomap/compiler.h"
#include "iomap/target.h"

#ifdef __cplusplus
extern "C" {
#endif

struct rb_kernel_arg {
	void __iomem *io;	/* the register, or the start of the window for copies */
	void *mem;		/* a normal buffer: _rep and copy data, lat/flush samples */
	size_t n;		/* _rep elements or copy bytes per call */
	uint64_t value;		/* what writes store */
	uint64_t zero;		/* 0, kept opaque to the compiler: chains depend on it */
};

/*
 * A kernel owns its loop and runs `iters` iterations; the harness times it.
 * Its shape decides what one unit is:
 *   RB_UNROLLED  `unroll` accesses per iteration, with a twin of twice the
 *                accesses: (t(twin) - t(kernel)) / (iters * unroll) is the
 *                cost of one access with loop and timer cost cancelled
 *   RB_SAMPLED   times each of `iters` accesses itself into mem[i] (uint64_t)
 *   RB_BATCH     iters calls of n elements or bytes, timed as a whole
 * A chain kernel also has a baseline of the same shape without the access
 * (the and/add that form the dependency), subtracted from it.
 */
typedef uint64_t (*rb_kernel_fn)(const struct rb_kernel_arg *a, uint64_t iters);

enum rb_shape { RB_UNROLLED, RB_SAMPLED, RB_BATCH };

struct rb_kernel {
	const char *family;		/* lat, chain, thrpt, flush, rep, copy, barrier, dispatch */
	const char *op;			/* read32, write8, fromio, mfence, ... */
	const char *strategy;		/* relaxed, libc, cookie-mmio, ... ("" for barrier) */
	enum rb_shape shape;
	unsigned int bytes;		/* bytes per access (0 when nothing moves) */
	bool writes;			/* stores to the target: needs a writable target */
	enum iomap_space space;		/* the target space it runs on */
	unsigned int unroll;
	rb_kernel_fn fn, twin;		/* twin: 2 x unroll (RB_UNROLLED only) */
	rb_kernel_fn base, base_twin;	/* chain baseline, or NULL */
};

extern const struct rb_kernel rb_kernels[];
extern const size_t rb_nr_kernels;

/* What one kernel call took: TSC ticks (serialized) and core cycles (0 without a counter). */
struct rb_span {
	uint64_t ticks;
	uint64_t core;
};

struct rb_clock;

/*
 * Not timed: one read of a->n bytes (1, 2 or 4) at a->io through the generic
 * cookie accessors (so either space), stored to *(uint64_t *)a->mem.  The
 * harness uses it, guarded, to see whether a device answers at all.
 */
uint64_t rb_read_once(const struct rb_kernel_arg *a, uint64_t iters);

/*
 * Run fn under a guard: a SIGBUS or SIGSEGV inside it ends the run and
 * returns -1 with the reason in why, instead of killing the process.  On
 * success returns 0 and what the call took.
 */
int rb_guarded_run(rb_kernel_fn fn, const struct rb_kernel_arg *a, uint64_t iters,
		   const struct rb_clock *clk, struct rb_span *span, char *why, size_t whylen);

#ifdef __cplusplus
}
#endif

#endif
