/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/* What the regbench kernel module and regbench share: /dev/regbench's ioctls and the families */
#ifndef _UAPI_REGBENCH_H
#define _UAPI_REGBENCH_H

#include <linux/ioctl.h>
#include <linux/types.h>

/*
 * The module measures the kernel's own accessors (readl, memcpy_toio, inl,
 * ...) on a PCI BAR it is told, with the timer and the loop shapes regbench
 * uses in user space, so that a figure of either side means the same.  It is
 * driven through one misc device:
 *
 *   REGBENCH_IOC_INFO    what the loaded module is (its ABI, version, kernel)
 *   REGBENCH_IOC_SELECT  the device, BAR and window this open file measures
 *   REGBENCH_IOC_READ    one read of a register of the window
 *   REGBENCH_IOC_RUN     one timed call of one benchmark
 *
 * Every struct starts with its size (as the caller knows it) and the ABI
 * the caller speaks; the module takes a larger struct whose extra bytes are
 * zero, refuses another ABI, any flag it does not know and padding that is
 * not zero.  Offsets of SELECT count from the start of the BAR; offsets of
 * READ and RUN from the start of the window.  Nothing is read or written
 * before SELECT has checked the device, and nothing is written outside the
 * write window SELECT was given.
 *
 * The benchmarks, their numbers and the kernel code each one times are the
 * lines of regbench-benchmarks.h beside this header.
 */
#define REGBENCH_DEVICE "/dev/regbench"
#define REGBENCH_ABI 1

/* The families, in the order regbench lists them (bench/family.c has their rows). */
enum regbench_family {
	REGBENCH_LAT, REGBENCH_CHAIN, REGBENCH_THRPT, REGBENCH_FLUSH, REGBENCH_REP,
	REGBENCH_COPY, REGBENCH_BARRIER, REGBENCH_DISPATCH, REGBENCH_NR_FAMILIES
};

/* Where a benchmark's accesses go: the window's memory, or its ports (an I/O BAR, x86). */
enum regbench_space { REGBENCH_SPACE_MMIO, REGBENCH_SPACE_PIO };

/* How SELECT mapped the window: pci_iomap (uncached), pci_iomap_wc, or ports. */
enum regbench_mapping { REGBENCH_MAP_UC, REGBENCH_MAP_WC, REGBENCH_MAP_PORT };

/*
 * The list's fingerprint, which both sides compute from
 * regbench-benchmarks.h, so that a module built from another list is told
 * apart: FNV-1a over every line's FAMILY, op, bits, strategy and SPACE as
 * the line spells them, each followed by a space.
 */
struct regbench_identity {
	const char *family, *op, *bits, *strategy, *space;
};

/* A line's identity, as REGBENCH_BENCHMARK of a table of struct regbench_identity. */
#define REGBENCH_IDENTITY(fam, op, bits, strategy, sp, ...) { #fam, #op, #bits, strategy, #sp },

static inline __u32 regbench_fnv1a(__u32 hash, const char *text)
{
	for (; *text; text++) {
		hash ^= (unsigned char)*text;
		hash *= 16777619u;
	}
	hash ^= ' ';
	return hash * 16777619u;
}

static inline __u32 regbench_fingerprint(__u32 hash, const struct regbench_identity *id)
{
	hash = regbench_fnv1a(hash, id->family);
	hash = regbench_fnv1a(hash, id->op);
	hash = regbench_fnv1a(hash, id->bits);
	hash = regbench_fnv1a(hash, id->strategy);
	return regbench_fnv1a(hash, id->space);
}

#define REGBENCH_FNV1A_START 2166136261u

/* REGBENCH_IOC_INFO: what the loaded module is. */
struct regbench_info {
	__u32 size;		/* in: sizeof(struct regbench_info) */
	__u32 abi;		/* out: the module's REGBENCH_ABI */
	__u32 benchmarks;	/* out: how many lines its regbench-benchmarks.h has */
	__u32 fingerprint;	/* out: regbench_fnv1a over those lines */
	__u32 timers;		/* out: REGBENCH_TIMER_* of the timers this CPU reads with */
	__u32 pad;		/* 0 */
	__u64 tick_hz;		/* out: the counter's rate (x86: tsc_khz * 1000; arm64: CNTFRQ) */
	char version[32];	/* out: the regbench version it was built from */
	char kernel[64];	/* out: the kernel release it was built for */
};

/* REGBENCH_IOC_SELECT: the device and window this open file measures (replacing any other). */
struct regbench_select {
	__u32 size;		/* sizeof(struct regbench_select) */
	__u32 abi;		/* REGBENCH_ABI */
	__u32 flags;		/* REGBENCH_SELECT_* */
	__u32 domain;		/* the device's slot, as lspci -D prints it */
	__u32 bus;
	__u32 devfn;
	__u32 vendor;		/* what the caller expects in the slot: another device is refused */
	__u32 device;
	__u32 bar;		/* 0 to 5 */
	__u32 widths;		/* access widths allowed, as bytes: 1 | 2 | 4 | 8 (0: all) */
	__u64 off;		/* the window: its start in the BAR */
	__u64 len;		/* and its length */
	__u64 write_off;	/* writes are allowed here (a BAR offset), inside the window */
	__u64 write_len;	/* 0: nowhere */
	__u32 space;		/* out: enum regbench_space of the BAR */
	__u32 mapping;		/* out: enum regbench_mapping of the window */
};

#define REGBENCH_SELECT_WC	1u	/* pci_iomap_wc: the BAR must be prefetchable memory */
#define REGBENCH_SELECT_FORCE	2u	/* use a device although a driver is bound to it */

/* REGBENCH_IOC_READ: one read of bytes (1, 2, 4 or 8) at off, with the kernel's readX or inX. */
struct regbench_read {
	__u32 size;
	__u32 abi;
	__u64 off;
	__u32 bytes;
	__u32 pad;		/* 0 */
	__u64 value;		/* out */
};

/*
 * REGBENCH_IOC_RUN: one call of benchmark `benchmark`, timed in the kernel as
 * regbench times a call of its own code in user space: the counter read
 * before and after, serialized as the timer says, with preemption off and,
 * for pieces of at most REGBENCH_IRQS_OFF_UNITS accesses (twice that for an
 * unrolled twin), interrupts off.  Unrolled benchmarks (chain, thrpt,
 * barrier, dispatch) run `iters` iterations of 8 accesses, or 16 with
 * REGBENCH_RUN_TWICE; chain's baseline (the same loop without the read) runs
 * with REGBENCH_RUN_BASE.  Sampled ones (lat, flush) time each of `iters`
 * accesses alone into `samples`, a user pointer to iters __u64 (at most
 * REGBENCH_MAX_SAMPLES), each start dithered by a spin drawn from
 * dither_seed and dither_range (at most REGBENCH_MAX_DITHER; a seed of 0
 * spins one turn), as regbench's own loop does; their baseline (the address
 * alone) with REGBENCH_RUN_BASE, the timer alone with REGBENCH_RUN_EMPTY,
 * which needs no device.  Batches (rep, copy) make `iters` calls of n elements or bytes.
 * A longer call is cut into pieces, with preemption allowed and a fatal
 * signal seen between them; `ticks` is their sum.
 */
struct regbench_run {
	__u32 size;
	__u32 abi;
	__u32 flags;		/* REGBENCH_RUN_* */
	__u32 benchmark;	/* its line in regbench-benchmarks.h, from 0 */
	__u64 off;		/* where in the window: the register, or where a copy starts */
	__u64 iters;
	__u64 n;		/* _rep elements or copy bytes per call; 0 for the others */
	__u64 value;		/* what writes store (memset_io: its low byte) */
	__u64 samples;		/* sampled: a user pointer to iters __u64 */
	__u64 dither_seed;	/* sampled: the dither's state (out: after the last sample) */
	__u32 dither_range;	/* sampled: each of a spin's two draws is 0 to range - 1 turns */
	__u32 pad2;		/* 0 */
	__u64 ticks;		/* out: the call's counter ticks */
	__u32 irqs_off;		/* out: 1 when interrupts were off while it was timed */
	__u32 pad;		/* 0 */
};

#define REGBENCH_RUN_TWICE	1u	/* the unrolled twin: twice the accesses per iteration */
#define REGBENCH_RUN_BASE	2u	/* chain's baseline: the loop without the read */
#define REGBENCH_RUN_EMPTY	4u	/* sampled: the timer alone */
#define REGBENCH_RUN_RDTSCP	8u	/* x86: the stop is rdtscp; lfence */

/* The timers a CPU may have (INFO's timers), each as regbench reads it in user space. */
#define REGBENCH_TIMER_LFENCE	1u	/* x86: lfence; rdtsc .. lfence; rdtsc; lfence */
#define REGBENCH_TIMER_RDTSCP	2u	/* x86: lfence; rdtsc .. rdtscp; lfence */
#define REGBENCH_TIMER_CNTVCT	4u	/* arm64: isb; mrs cntvct_el0 .. dsb ld; isb; mrs */

#define REGBENCH_MAX_SAMPLES	4096u
#define REGBENCH_MAX_DITHER	4096u		/* a dither draw's range, in turns */
#define REGBENCH_MAX_BUFFER	(16u << 20)	/* bytes of a _rep's or a copy's buffer */
#define REGBENCH_IRQS_OFF_UNITS	4096u		/* accesses (a copy: bytes / 8) per quiet piece */
#define REGBENCH_MAX_UNITS	(1ull << 26)	/* accesses one RUN may make */

#define REGBENCH_IOC_MAGIC	0xb7
#define REGBENCH_IOC_INFO	_IOWR(REGBENCH_IOC_MAGIC, 1, struct regbench_info)
#define REGBENCH_IOC_SELECT	_IOWR(REGBENCH_IOC_MAGIC, 2, struct regbench_select)
#define REGBENCH_IOC_READ	_IOWR(REGBENCH_IOC_MAGIC, 3, struct regbench_read)
#define REGBENCH_IOC_RUN	_IOWR(REGBENCH_IOC_MAGIC, 4, struct regbench_run)

#endif
