/* kernels.c: the timed kernels, generated per op x width x strategy, and their table */
#include <string.h>

#include "iomap/io.h"
#include "iomap/strategy.h"
#include "kernels.h"
#include "timer.h"

#define UNROLL 8

#define REPEAT8(x) x x x x x x x x
#define REPEAT_8(x) REPEAT8(x)
#define REPEAT_16(x) REPEAT8(x) REPEAT8(x)

/* An identity the compiler cannot see through. */
#define OPAQUE(x) __asm__ __volatile__("" : "+r" (x))

/* X(strategy identifier, strategy name) for the single-access strategies. */
#define SINGLE_STRATEGIES(X)							\
	X(volatile, "volatile") X(relaxed, "relaxed") X(barriered, "barriered")	\
	X(fenced, "fenced") X(locked, "locked")

/* Y(bits) for every width, with the strategy passed through. */
#define FOR_WIDTHS(Y, s) Y(s, 8) Y(s, 16) Y(s, 32) Y(s, 64)

/*
 * thrpt: independent back-to-back accesses to one register.  The read's
 * value is dropped: the volatile or asm-volatile access is still issued.
 */
#define THRPT(s, bits)								\
static __always_inline uint64_t thrpt_read##bits##_##s##_x(const struct rb_kernel_arg *a, uint64_t iters, int twice) \
{									\
	const volatile void __iomem *io = a->io;			\
									\
	for (uint64_t i = 0; i < iters; i++) {				\
		REPEAT8((void)iomap_read##bits##_##s(io);)		\
		if (twice) {						\
			REPEAT8((void)iomap_read##bits##_##s(io);)	\
		}							\
	}								\
	return 0;							\
}									\
static __always_inline uint64_t thrpt_write##bits##_##s##_x(const struct rb_kernel_arg *a, uint64_t iters, int twice) \
{									\
	volatile void __iomem *io = a->io;				\
	uint##bits##_t v = (uint##bits##_t)a->value;			\
									\
	for (uint64_t i = 0; i < iters; i++) {				\
		REPEAT8(iomap_write##bits##_##s(v, io);)		\
		if (twice) {						\
			REPEAT8(iomap_write##bits##_##s(v, io);)	\
		}							\
	}								\
	return 0;							\
}									\
static uint64_t thrpt_read##bits##_##s(const struct rb_kernel_arg *a, uint64_t n) \
{ return thrpt_read##bits##_##s##_x(a, n, 0); }				\
static uint64_t thrpt_read##bits##_##s##_2(const struct rb_kernel_arg *a, uint64_t n) \
{ return thrpt_read##bits##_##s##_x(a, n, 1); }				\
static uint64_t thrpt_write##bits##_##s(const struct rb_kernel_arg *a, uint64_t n) \
{ return thrpt_write##bits##_##s##_x(a, n, 0); }			\
static uint64_t thrpt_write##bits##_##s##_2(const struct rb_kernel_arg *a, uint64_t n) \
{ return thrpt_write##bits##_##s##_x(a, n, 1); }

/*
 * chain: each read's address depends on the previous value (v & zero, zero
 * being 0 at run time), so reads cannot overlap: read latency.  The baseline
 * forms the same dependency without the read, including the narrowing.
 */
#define CHAIN(s, bits)								\
static __always_inline uint64_t chain_read##bits##_##s##_x(const struct rb_kernel_arg *a, uint64_t iters, int twice) \
{									\
	const volatile char __iomem *io = a->io;			\
	uint64_t v = 0, z = a->zero;					\
									\
	for (uint64_t i = 0; i < iters; i++) {				\
		REPEAT8(v = iomap_read##bits##_##s(io + (v & z));)	\
		if (twice) {						\
			REPEAT8(v = iomap_read##bits##_##s(io + (v & z));) \
		}							\
	}								\
	return v;							\
}									\
static __always_inline uint64_t chain_base##bits##_##s##_x(const struct rb_kernel_arg *a, uint64_t iters, int twice) \
{									\
	uintptr_t io = (uintptr_t)(void __force *)a->io;		\
	uint64_t v = 0, z = a->zero;					\
									\
	for (uint64_t i = 0; i < iters; i++) {				\
		REPEAT8(v = io + (v & z); OPAQUE(v); v = (uint##bits##_t)v;) \
		if (twice) {						\
			REPEAT8(v = io + (v & z); OPAQUE(v); v = (uint##bits##_t)v;) \
		}							\
	}								\
	return v;							\
}									\
static uint64_t chain_read##bits##_##s(const struct rb_kernel_arg *a, uint64_t n) \
{ return chain_read##bits##_##s##_x(a, n, 0); }				\
static uint64_t chain_read##bits##_##s##_2(const struct rb_kernel_arg *a, uint64_t n) \
{ return chain_read##bits##_##s##_x(a, n, 1); }				\
static uint64_t chain_base##bits##_##s(const struct rb_kernel_arg *a, uint64_t n) \
{ return chain_base##bits##_##s##_x(a, n, 0); }				\
static uint64_t chain_base##bits##_##s##_2(const struct rb_kernel_arg *a, uint64_t n) \
{ return chain_base##bits##_##s##_x(a, n, 1); }

/*
 * lat: each access timed alone between serializing TSC reads.  flush: a
 * write and the read-back of the same register, timed together: the read
 * cannot complete before the write has reached the target.
 */
#define SAMPLED(s, bits)							\
static uint64_t lat_read##bits##_##s(const struct rb_kernel_arg *a, uint64_t iters) \
{									\
	uint64_t *out = a->mem;						\
									\
	for (uint64_t i = 0; i < iters; i++) {				\
		uint64_t t0 = rb_tsc_start();				\
		(void)iomap_read##bits##_##s(a->io);			\
		out[i] = rb_tsc_stop() - t0;				\
	}								\
	return 0;							\
}									\
static uint64_t lat_write##bits##_##s(const struct rb_kernel_arg *a, uint64_t iters) \
{									\
	uint64_t *out = a->mem;						\
	uint##bits##_t v = (uint##bits##_t)a->value;			\
									\
	for (uint64_t i = 0; i < iters; i++) {				\
		uint64_t t0 = rb_tsc_start();				\
		iomap_write##bits##_##s(v, a->io);			\
		out[i] = rb_tsc_stop() - t0;				\
	}								\
	return 0;							\
}									\
static uint64_t flush_write##bits##_##s(const struct rb_kernel_arg *a, uint64_t iters) \
{									\
	uint64_t *out = a->mem;						\
	uint##bits##_t v = (uint##bits##_t)a->value;			\
									\
	for (uint64_t i = 0; i < iters; i++) {				\
		uint64_t t0 = rb_tsc_start();				\
		iomap_write##bits##_##s(v, a->io);			\
		(void)iomap_read##bits##_##s(a->io);			\
		out[i] = rb_tsc_stop() - t0;				\
	}								\
	return 0;							\
}

#define SINGLE_KERNELS(s, name) FOR_WIDTHS(THRPT, s) FOR_WIDTHS(CHAIN, s) FOR_WIDTHS(SAMPLED, s)
SINGLE_STRATEGIES(SINGLE_KERNELS)

/* rep: iters calls of an n-element _rep on the one register. */
#define REP(s, bits)								\
static uint64_t rep_read##bits##_##s(const struct rb_kernel_arg *a, uint64_t iters) \
{									\
	for (uint64_t i = 0; i < iters; i++)				\
		iomap_read##bits##_rep_##s(a->io, a->mem, a->n);	\
	return 0;							\
}									\
static uint64_t rep_write##bits##_##s(const struct rb_kernel_arg *a, uint64_t iters) \
{									\
	for (uint64_t i = 0; i < iters; i++)				\
		iomap_write##bits##_rep_##s(a->io, a->mem, a->n);	\
	return 0;							\
}
#define REP_STRATEGIES(X) X(volatile, "volatile") X(relaxed, "relaxed") X(barriered, "barriered")
#define REP_KERNELS(s, name) FOR_WIDTHS(REP, s)
REP_STRATEGIES(REP_KERNELS)

/* Port _rep as the string instruction: the port is the cookie's low 16 bits. */
#define PORT_REP(k, bits)							\
static uint64_t rep_read##bits##_string(const struct rb_kernel_arg *a, uint64_t iters) \
{									\
	uint16_t port = (uint16_t)((uintptr_t)(void __force *)a->io & IOMAP_PIO_MASK); \
									\
	for (uint64_t i = 0; i < iters; i++)				\
		ins##k(port, a->mem, a->n);				\
	return 0;							\
}									\
static uint64_t rep_write##bits##_string(const struct rb_kernel_arg *a, uint64_t iters) \
{									\
	uint16_t port = (uint16_t)((uintptr_t)(void __force *)a->io & IOMAP_PIO_MASK); \
									\
	for (uint64_t i = 0; i < iters; i++)				\
		outs##k(port, a->mem, a->n);				\
	return 0;							\
}
PORT_REP(b, 8)
PORT_REP(w, 16)
PORT_REP(l, 32)

/* copy: iters calls of one copy or set of n bytes between the window and mem. */
#define COPY(s)									\
static uint64_t copy_fromio_##s(const struct rb_kernel_arg *a, uint64_t iters) \
{									\
	for (uint64_t i = 0; i < iters; i++)				\
		iomap_copy_fromio_##s(a->mem, a->io, a->n);		\
	return 0;							\
}									\
static uint64_t copy_toio_##s(const struct rb_kernel_arg *a, uint64_t iters) \
{									\
	for (uint64_t i = 0; i < iters; i++)				\
		iomap_copy_toio_##s(a->io, a->mem, a->n);		\
	return 0;							\
}									\
static uint64_t copy_set_##s(const struct rb_kernel_arg *a, uint64_t iters) \
{									\
	for (uint64_t i = 0; i < iters; i++)				\
		iomap_set_io_##s(a->io, (int)a->value, a->n);		\
	return 0;							\
}
IOMAP_COPY_STRATEGIES(COPY)

/* The reference row: glibc's memcpy/memset on the same window, as a normal pointer. */
static uint64_t copy_fromio_libc(const struct rb_kernel_arg *a, uint64_t iters)
{
	for (uint64_t i = 0; i < iters; i++)
		memcpy(a->mem, (void __force *)a->io, a->n);
	return 0;
}

static uint64_t copy_toio_libc(const struct rb_kernel_arg *a, uint64_t iters)
{
	for (uint64_t i = 0; i < iters; i++)
		memcpy((void __force *)a->io, a->mem, a->n);
	return 0;
}

static uint64_t copy_set_libc(const struct rb_kernel_arg *a, uint64_t iters)
{
	for (uint64_t i = 0; i < iters; i++)
		memset((void __force *)a->io, (int)a->value, a->n);
	return 0;
}

/* barrier: the ordering primitives alone, back to back. */
#define BARRIER(name, insn)							\
static __always_inline uint64_t barrier_##name##_x(uint64_t iters, int twice)		\
{									\
	for (uint64_t i = 0; i < iters; i++) {				\
		REPEAT8(insn;)						\
		if (twice) {						\
			REPEAT8(insn;)					\
		}							\
	}								\
	return 0;							\
}									\
static uint64_t barrier_##name(const struct rb_kernel_arg *a, uint64_t n) \
{ return barrier_##name##_x(n, 0); }					\
static uint64_t barrier_##name##_2(const struct rb_kernel_arg *a, uint64_t n) \
{ return barrier_##name##_x(n, 1); }
#define BARRIERS(X)								\
	X(compiler, barrier()) X(lfence, rmb()) X(sfence, wmb())		\
	X(mfence, mb()) X(locked, iomap_locked_mb())
BARRIERS(BARRIER)

/*
 * dispatch: the same 32-bit read through the generic cookie ioread32 (an
 * out-of-line call that decodes the cookie), through the strategy table (an
 * indirect call), and inline (readl).
 */
#define DISPATCH(name, call)							\
static __always_inline uint64_t dispatch_##name##_x(const struct rb_kernel_arg *a, uint64_t iters, int twice) \
{									\
	void __iomem *io = a->io;					\
	uint32_t (*read32)(const volatile void __iomem *) = iomap_strategy_find("relaxed")->read32; \
									\
	(void)read32;							\
	for (uint64_t i = 0; i < iters; i++) {				\
		REPEAT8((void)(call);)					\
		if (twice) {						\
			REPEAT8((void)(call);)				\
		}							\
	}								\
	return 0;							\
}									\
static uint64_t dispatch_##name(const struct rb_kernel_arg *a, uint64_t n) \
{ return dispatch_##name##_x(a, n, 0); }				\
static uint64_t dispatch_##name##_2(const struct rb_kernel_arg *a, uint64_t n) \
{ return dispatch_##name##_x(a, n, 1); }
DISPATCH(direct, readl(io))
DISPATCH(table, read32(io))
DISPATCH(cookie, ioread32(io))

/* The table: walked by the wrapper to register benchmarks. */
#define E_UNROLLED(fam, opname, sname, bytes_, wr, sp, f)			\
	{ fam, opname, sname, RB_UNROLLED, bytes_, wr, sp, UNROLL, f, f##_2, NULL, NULL },
#define E_CHAIN(opname, sname, bytes_, f, b)					\
	{ "chain", opname, sname, RB_UNROLLED, bytes_, false, IOMAP_SPACE_MMIO, UNROLL, \
	  f, f##_2, b, b##_2 },
#define E_OTHER(fam, shape, opname, sname, bytes_, wr, sp, f)			\
	{ fam, opname, sname, shape, bytes_, wr, sp, 1, f, NULL, NULL, NULL },

#define MMIO IOMAP_SPACE_MMIO
#define PIO IOMAP_SPACE_PIO

#define ENTRIES_SINGLE_W(s, bits, name)						\
	E_OTHER("lat", RB_SAMPLED, "read" #bits, name, bits / 8, false, MMIO, lat_read##bits##_##s) \
	E_OTHER("lat", RB_SAMPLED, "write" #bits, name, bits / 8, true, MMIO, lat_write##bits##_##s) \
	E_CHAIN("read" #bits, name, bits / 8, chain_read##bits##_##s, chain_base##bits##_##s) \
	E_UNROLLED("thrpt", "read" #bits, name, bits / 8, false, MMIO, thrpt_read##bits##_##s) \
	E_UNROLLED("thrpt", "write" #bits, name, bits / 8, true, MMIO, thrpt_write##bits##_##s) \
	E_OTHER("flush", RB_SAMPLED, "write" #bits, name, bits / 8, true, MMIO, flush_write##bits##_##s)
#define ENTRIES_SINGLE(s, name)							\
	ENTRIES_SINGLE_W(s, 8, name) ENTRIES_SINGLE_W(s, 16, name)		\
	ENTRIES_SINGLE_W(s, 32, name) ENTRIES_SINGLE_W(s, 64, name)

#define ENTRIES_REP_W(s, bits, name, sp)					\
	E_OTHER("rep", RB_BATCH, "read" #bits, name, bits / 8, false, sp, rep_read##bits##_##s) \
	E_OTHER("rep", RB_BATCH, "write" #bits, name, bits / 8, true, sp, rep_write##bits##_##s)
#define ENTRIES_REP(s, name)							\
	ENTRIES_REP_W(s, 8, name, MMIO) ENTRIES_REP_W(s, 16, name, MMIO)	\
	ENTRIES_REP_W(s, 32, name, MMIO) ENTRIES_REP_W(s, 64, name, MMIO)

#define ENTRIES_COPY(s, name)							\
	E_OTHER("copy", RB_BATCH, "fromio", name, 1, false, MMIO, copy_fromio_##s) \
	E_OTHER("copy", RB_BATCH, "toio", name, 1, true, MMIO, copy_toio_##s)	\
	E_OTHER("copy", RB_BATCH, "set", name, 1, true, MMIO, copy_set_##s)

#define ENTRIES_BARRIER(name, insn) E_UNROLLED("barrier", #name, "", 0, false, MMIO, barrier_##name)

const struct rb_kernel rb_kernels[] = {
	SINGLE_STRATEGIES(ENTRIES_SINGLE)
	REP_STRATEGIES(ENTRIES_REP)
	ENTRIES_REP_W(string, 8, "string", PIO)
	ENTRIES_REP_W(string, 16, "string", PIO)
	ENTRIES_REP_W(string, 32, "string", PIO)
	ENTRIES_COPY(libc, "libc")
	ENTRIES_COPY(volatile, "volatile")
	ENTRIES_COPY(relaxed, "relaxed")
	ENTRIES_COPY(barriered, "barriered")
	ENTRIES_COPY(string, "string")
	ENTRIES_COPY(string_wide, "string-wide")
	ENTRIES_COPY(simd, "simd")
	ENTRIES_COPY(simd_512, "simd-512")
	ENTRIES_COPY(simd_nt, "simd-nt")
	BARRIERS(ENTRIES_BARRIER)
	E_UNROLLED("dispatch", "read32", "direct", 4, false, MMIO, dispatch_direct)
	E_UNROLLED("dispatch", "read32", "table", 4, false, MMIO, dispatch_table)
	E_UNROLLED("dispatch", "read32", "cookie-mmio", 4, false, MMIO, dispatch_cookie)
	E_UNROLLED("dispatch", "read32", "cookie-pio", 4, false, PIO, dispatch_cookie)
};

const size_t rb_nr_kernels = sizeof(rb_kernels) / sizeof(rb_kernels[0]);
