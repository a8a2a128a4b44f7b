/* kernels.h: the timed kernels, one per family x op x width x strategy, behind one signature */
#ifndef REGBENCH_KERNELS_H
#define REGBENCH_KERNELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clock.h"
#include "family.h"
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
	enum rb_timer timer;	/* how sampled kernels read the counter (the clock's) */
	uint64_t dither_seed;	/* sampled kernels: the dither generator's state before the first sample (sampled.h) */
	uint32_t dither_range;	/* sampled kernels: each of a sample's two dither draws spins 0..range-1 turns */
};

/*
 * A kernel owns its loop and runs `iters` iterations; the harness times it.
 * Its family's shape decides what one unit is (family.h): an RB_UNROLLED
 * kernel runs `unroll` accesses per iteration and has a twin with twice as
 * many; an RB_SAMPLED one times each of `iters` accesses itself into mem[i]
 * (uint64_t), its start dithered (sampled.h); an RB_BATCH one makes `iters`
 * calls of n elements or bytes.  A chain kernel also has a baseline of the
 * same shape without the access (the and/add that form the dependency),
 * subtracted from it; so has a sampled one (the address computed from the
 * start reading, without the access), timed beside it.
 */
typedef uint64_t (*rb_kernel_fn)(const struct rb_kernel_arg *a, uint64_t iters);

/* What a kernel's row is: an iomap strategy, a family's own variant (dispatch), or the reference (libc). */
enum rb_row { RB_ACCESSOR, RB_VARIANT, RB_REFERENCE };

struct rb_kernel {
	const struct rb_family *family;
	const char *op;			/* read, write, fromio, toio, set, mfence, ... */
	unsigned int bits;		/* the access width the name carries (read32), 0 for none */
	const char *strategy;		/* an accessor row: the strategy's id (lo_hi); else the row's name: libc,
					   cookie-mmio, ... ("" for barrier) */
	enum rb_row row;
	const char *help;		/* what a variant or reference row issues (accessors: the strategy's help) */
	unsigned int bytes;		/* bytes per access (0 when nothing moves) */
	unsigned int widths;		/* the widths of its device accesses, as a sum of byte counts (an accessor's
					   copy: its strategy's copy_widths) */
	bool reads, writes;		/* what it does to the target */
	enum iomap_space space;		/* the target space it runs on */
	enum iomap_insn insn;		/* what its accesses are made of (an accessor's copy: its strategy's) */
	unsigned int insn_bytes;	/* for vectors, their width */
	const char *pair;		/* a port kernel beside MMIO: the MMIO strategy it compares with (NULL: the kernel's) */
	unsigned int unroll;
	rb_kernel_fn fn, twin;		/* twin: 2 x unroll (RB_UNROLLED only) */
	rb_kernel_fn base, base_twin;	/* chain baseline (and its twin), a sampled kernel's baseline, or NULL */
	const char *note;		/* what its figure holds beyond the access, or NULL (the JSON's note) */
	const char *lacks;		/* why it does not exist on this architecture (no fn), or NULL */
};

extern const struct rb_kernel rb_kernels[];
extern const size_t rb_nr_kernels;

/* The strategy k's benchmark names carry: an accessor row's strategy's name (lo-hi), else the row's own. */
const char *rb_kernel_strategy(const struct rb_kernel *k);

/* What one kernel call took: timer ticks (serialized) and core cycles (0 without a counter). */
struct rb_span {
	uint64_t ticks;
	uint64_t core;
};

/*
 * Run fn under a guard: a SIGBUS or SIGSEGV fault inside it ends the run
 * and returns -1 with the reason (signal and address) in why, instead of
 * killing the process.  Only faults count: the same signal sent with kill()
 * has its usual effect.  On success returns 0 and what the call took.
 */
int rb_guarded_run(rb_kernel_fn fn, const struct rb_kernel_arg *a, uint64_t iters,
		   const struct rb_clock *clk, struct rb_span *span, char *why, size_t whylen);

#ifdef __cplusplus
}
#endif

#endif
