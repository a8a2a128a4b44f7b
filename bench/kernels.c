/* kernels.c: the timed kernels, generated per op x width x strategy, and their table */
#include <string.h>

#include "iomap/io.h"
#include "iomap/strategy.h"
#include "kernels.h"
#include "timer.h"

#define UNROLL 8

#define REPEAT8(x) x x x x x x x x

/* An identity the compiler cannot see through. */
#define OPAQUE(x) __asm__ __volatile__("" : "+r" (x))

/* X(strategy identifier, strategy name) for the single-access strategies. */
#define SINGLE_STRATEGIES(X)							\
	X(volatile, "volatile") X(relaxed, "relaxed") X(barriered, "barriered")	\
	X(fenced, "fenced") X(locked, "locked")

/* Y(bits) for every width, with the strategy passed through. */
#define FOR_WIDTHS(Y, s) Y(s, 8) Y(s, 16) Y(s, 32) Y(s, 64)

/*
 * The three kernel shapes, each one macro; setup must not contain a comma
 * outside parentheses.  UNROLLED makes name() with UNROLL copies of body per
 * iteration and name_2() with twice as many.
 */
#define UNROLLED(name, setup, body, result)					\
static __always_inline uint64_t name##_x(const struct rb_kernel_arg *a, uint64_t iters, int twice) \
{									\
	setup;								\
	for (uint64_t i = 0; i < iters; i++) {				\
		REPEAT8(body;)						\
		if (twice) {						\
			REPEAT8(body;)					\
		}							\
	}								\
	return result;							\
}									\
static uint64_t name(const struct rb_kernel_arg *a, uint64_t n) { return name##_x(a, n, 0); } \
static uint64_t name##_2(const struct rb_kernel_arg *a, uint64_t n) { return name##_x(a, n, 1); }

/* SAMPLED times each body alone into mem[i]. */
#define SAMPLED(name, setup, body)						\
static uint64_t name(const struct rb_kernel_arg *a, uint64_t iters)	\
{									\
	uint64_t *out = a->mem;						\
	setup;								\
									\
	for (uint64_t i = 0; i < iters; i++) {				\
		uint64_t t0 = rb_tsc_start();				\
		body;							\
		out[i] = rb_tsc_stop() - t0;				\
	}								\
	return 0;							\
}

/* BATCH repeats body; the harness times the whole. */
#define BATCH(name, body)							\
static uint64_t name(const struct rb_kernel_arg *a, uint64_t iters)	\
{									\
	for (uint64_t i = 0; i < iters; i++)				\
		body;							\
	return 0;							\
}

/*
 * thrpt: independent back-to-back accesses to one register; a read's value
 * is dropped, the volatile or asm-volatile access is still issued.
 * chain: each read's address depends on the previous value (v & zero, zero
 * being 0 at run time), so reads cannot overlap: read latency.  Its baseline
 * forms the same dependency without the read, narrowing included.
 * lat: each access timed alone between serializing TSC reads.  flush: a
 * write and the read-back of the same register timed together: the read
 * cannot complete before the write has reached the target.
 */
#define SINGLE(s, bits)								\
	UNROLLED(thrpt_read##bits##_##s, const volatile void __iomem *io = a->io,	\
		 (void)iomap_read##bits##_##s(io), 0)				\
	UNROLLED(thrpt_write##bits##_##s, volatile void __iomem *io = a->io;	\
		 uint##bits##_t v = (uint##bits##_t)a->value,			\
		 iomap_write##bits##_##s(v, io), 0)				\
	UNROLLED(chain_read##bits##_##s, const volatile char __iomem *io = a->io; \
		 uint64_t v = 0; uint64_t z = a->zero,				\
		 v = iomap_read##bits##_##s(io + (v & z)), v)			\
	UNROLLED(chain_base##bits##_##s, uintptr_t io = (uintptr_t)(void __force *)a->io; \
		 uint64_t v = 0; uint64_t z = a->zero,				\
		 v = io + (v & z); OPAQUE(v); v = (uint##bits##_t)v, v)		\
	SAMPLED(lat_read##bits##_##s, , (void)iomap_read##bits##_##s(a->io))	\
	SAMPLED(lat_write##bits##_##s, uint##bits##_t v = (uint##bits##_t)a->value, \
		iomap_write##bits##_##s(v, a->io))				\
	SAMPLED(flush_write##bits##_##s, uint##bits##_t v = (uint##bits##_t)a->value, \
		iomap_write##bits##_##s(v, a->io); (void)iomap_read##bits##_##s(a->io))

#define SINGLE_KERNELS(s, name) FOR_WIDTHS(SINGLE, s)
SINGLE_STRATEGIES(SINGLE_KERNELS)

/*
 * The same shapes on port space, so that a port target (port:, a pci I/O
 * BAR) runs the same families under the same names.  volatile has no port
 * form and x86 no 64-bit port instruction: neither exists here.  The chain
 * makes the port number depend on the last value, as the MMIO chain does
 * the address.
 */
#define PORT_OF(io) ((uint16_t)((uintptr_t)(void __force *)(io) & IOMAP_PIO_MASK))
#define PORT_SINGLE_STRATEGIES(X)						\
	X(relaxed, "relaxed") X(barriered, "barriered") X(fenced, "fenced") X(locked, "locked")
#define FOR_PORT_WIDTHS(Y, s) Y(s, 8) Y(s, 16) Y(s, 32)

#define PORT_SINGLE(s, bits)							\
	UNROLLED(thrpt_in##bits##_##s, uint16_t port = PORT_OF(a->io),		\
		 (void)iomap_in##bits##_##s(port), 0)				\
	UNROLLED(thrpt_out##bits##_##s, uint16_t port = PORT_OF(a->io);		\
		 uint##bits##_t v = (uint##bits##_t)a->value,			\
		 iomap_out##bits##_##s(v, port), 0)				\
	UNROLLED(chain_in##bits##_##s, uint16_t port = PORT_OF(a->io);		\
		 uint64_t v = 0; uint64_t z = a->zero,				\
		 v = iomap_in##bits##_##s((uint16_t)(port + (v & z))), v)		\
	UNROLLED(chain_inbase##bits##_##s, uint16_t port = PORT_OF(a->io);	\
		 uint64_t v = 0; uint64_t z = a->zero,				\
		 v = (uint16_t)(port + (v & z)); OPAQUE(v); v = (uint##bits##_t)v, v) \
	SAMPLED(lat_in##bits##_##s, uint16_t port = PORT_OF(a->io),		\
		(void)iomap_in##bits##_##s(port))				\
	SAMPLED(lat_out##bits##_##s, uint16_t port = PORT_OF(a->io);		\
		uint##bits##_t v = (uint##bits##_t)a->value,			\
		iomap_out##bits##_##s(v, port))					\
	SAMPLED(flush_out##bits##_##s, uint16_t port = PORT_OF(a->io);		\
		uint##bits##_t v = (uint##bits##_t)a->value,			\
		iomap_out##bits##_##s(v, port); (void)iomap_in##bits##_##s(port))

#define PORT_SINGLE_KERNELS(s, name) FOR_PORT_WIDTHS(PORT_SINGLE, s)
PORT_SINGLE_STRATEGIES(PORT_SINGLE_KERNELS)

/* rep: calls of an n-element _rep on the one register; on ports, the string instruction. */
#define REP(s, bits)								\
	BATCH(rep_read##bits##_##s, iomap_read##bits##_rep_##s(a->io, a->mem, a->n)) \
	BATCH(rep_write##bits##_##s, iomap_write##bits##_rep_##s(a->io, a->mem, a->n))
#define REP_STRATEGIES(X) X(volatile, "volatile") X(relaxed, "relaxed") X(barriered, "barriered")
#define REP_KERNELS(s, name) FOR_WIDTHS(REP, s)
REP_STRATEGIES(REP_KERNELS)

/* Port _rep: loops of single in/out, and the string instruction. */
#define PORT_REP_LOOP(s, bits)							\
	BATCH(rep_in##bits##_##s, iomap_in##bits##_rep_##s(PORT_OF(a->io), a->mem, a->n)) \
	BATCH(rep_out##bits##_##s, iomap_out##bits##_rep_##s(PORT_OF(a->io), a->mem, a->n))
#define PORT_REP_STRATEGIES(X) X(relaxed, "relaxed") X(barriered, "barriered")
#define PORT_REP_KERNELS(s, name) FOR_PORT_WIDTHS(PORT_REP_LOOP, s)
PORT_REP_STRATEGIES(PORT_REP_KERNELS)

#define PORT_REP(k, bits)							\
	BATCH(rep_read##bits##_string, ins##k(PORT_OF(a->io), a->mem, a->n))	\
	BATCH(rep_write##bits##_string, outs##k(PORT_OF(a->io), a->mem, a->n))
PORT_REP(b, 8)
PORT_REP(w, 16)
PORT_REP(l, 32)

/* copy: calls of one copy or set of n bytes between the window and mem. */
#define COPY(s)									\
	BATCH(copy_fromio_##s, iomap_copy_fromio_##s(a->mem, a->io, a->n))	\
	BATCH(copy_toio_##s, iomap_copy_toio_##s(a->io, a->mem, a->n))		\
	BATCH(copy_set_##s, iomap_set_io_##s(a->io, (int)a->value, a->n))
IOMAP_COPY_STRATEGIES(COPY)

/* The reference row: glibc's memcpy/memset on the same window, as a normal pointer. */
BATCH(copy_fromio_libc, memcpy(a->mem, (void __force *)a->io, a->n))
BATCH(copy_toio_libc, memcpy((void __force *)a->io, a->mem, a->n))
BATCH(copy_set_libc, memset((void __force *)a->io, (int)a->value, a->n))

/* barrier: the ordering primitives alone, back to back. */
#define BARRIER(name, insn) UNROLLED(barrier_##name, , insn, 0)
#define BARRIERS(X)								\
	X(compiler, barrier()) X(lfence, rmb()) X(sfence, wmb())		\
	X(mfence, mb()) X(locked, iomap_locked_mb())
BARRIERS(BARRIER)

/*
 * dispatch: the same 32-bit read inline (readl), through the strategy table
 * (an indirect call), and through the generic cookie ioread32 (an
 * out-of-line call that decodes the cookie).
 */
UNROLLED(dispatch_direct, void __iomem *io = a->io, (void)readl(io), 0)
UNROLLED(dispatch_table, void __iomem *io = a->io;
	 uint32_t (*read32)(const volatile void __iomem *) = iomap_strategy_find("relaxed")->read32,
	 (void)read32(io), 0)
UNROLLED(dispatch_cookie, void __iomem *io = a->io, (void)ioread32(io), 0)
UNROLLED(dispatch_direct_pio, uint16_t port = PORT_OF(a->io), (void)inl(port), 0)

uint64_t rb_read_once(const struct rb_kernel_arg *a, uint64_t iters)
{
	uint64_t *out = a->mem;

	(void)iters;
	switch (a->n) {
	case 1: *out = ioread8(a->io); break;
	case 2: *out = ioread16(a->io); break;
	default: *out = ioread32(a->io); break;
	}
	return 0;
}

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

#define PENTRIES_SINGLE_W(s, bits, name)					\
	E_OTHER("lat", RB_SAMPLED, "read" #bits, name, bits / 8, false, PIO, lat_in##bits##_##s) \
	E_OTHER("lat", RB_SAMPLED, "write" #bits, name, bits / 8, true, PIO, lat_out##bits##_##s) \
	{ "chain", "read" #bits, name, RB_UNROLLED, bits / 8, false, PIO, UNROLL,	\
	  chain_in##bits##_##s, chain_in##bits##_##s##_2,			\
	  chain_inbase##bits##_##s, chain_inbase##bits##_##s##_2 },		\
	E_UNROLLED("thrpt", "read" #bits, name, bits / 8, false, PIO, thrpt_in##bits##_##s) \
	E_UNROLLED("thrpt", "write" #bits, name, bits / 8, true, PIO, thrpt_out##bits##_##s) \
	E_OTHER("flush", RB_SAMPLED, "write" #bits, name, bits / 8, true, PIO, flush_out##bits##_##s)
#define PENTRIES_SINGLE(s, name)						\
	PENTRIES_SINGLE_W(s, 8, name) PENTRIES_SINGLE_W(s, 16, name) PENTRIES_SINGLE_W(s, 32, name)

#define PENTRIES_REP_W(s, bits, name)						\
	E_OTHER("rep", RB_BATCH, "read" #bits, name, bits / 8, false, PIO, rep_in##bits##_##s) \
	E_OTHER("rep", RB_BATCH, "write" #bits, name, bits / 8, true, PIO, rep_out##bits##_##s)
#define PENTRIES_REP(s, name)							\
	PENTRIES_REP_W(s, 8, name) PENTRIES_REP_W(s, 16, name) PENTRIES_REP_W(s, 32, name)

#define ENTRIES_COPY(s, name)							\
	E_OTHER("copy", RB_BATCH, "fromio", name, 1, false, MMIO, copy_fromio_##s) \
	E_OTHER("copy", RB_BATCH, "toio", name, 1, true, MMIO, copy_toio_##s)	\
	E_OTHER("copy", RB_BATCH, "set", name, 1, true, MMIO, copy_set_##s)

#define ENTRIES_BARRIER(name, insn) E_UNROLLED("barrier", #name, "", 0, false, MMIO, barrier_##name)

const struct rb_kernel rb_kernels[] = {
	SINGLE_STRATEGIES(ENTRIES_SINGLE)
	PORT_SINGLE_STRATEGIES(PENTRIES_SINGLE)
	REP_STRATEGIES(ENTRIES_REP)
	PORT_REP_STRATEGIES(PENTRIES_REP)
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
	E_UNROLLED("dispatch", "read32", "direct", 4, false, PIO, dispatch_direct_pio)
	E_UNROLLED("dispatch", "read32", "table", 4, false, MMIO, dispatch_table)
	E_UNROLLED("dispatch", "read32", "cookie-mmio", 4, false, MMIO, dispatch_cookie)
	E_UNROLLED("dispatch", "read32", "cookie-pio", 4, false, PIO, dispatch_cookie)
};

const size_t rb_nr_kernels = sizeof(rb_kernels) / sizeof(rb_kernels[0]);
