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
#define BATCH(name, setup, body)						\
static uint64_t name(const struct rb_kernel_arg *a, uint64_t iters)	\
{									\
	setup;								\
	for (uint64_t i = 0; i < iters; i++)				\
		body;							\
	return 0;							\
}

/*
 * The register a kernel works on, per space: an MMIO pointer or a port
 * number.  AT(off) is the register `off` further on (chains depend on it);
 * NUM(off) is the same as a number, for the chain baselines.
 */
#define PORT_OF(io) ((uint16_t)((uintptr_t)(void __force *)(io) & IOMAP_PIO_MASK))
#define MMIO_REG volatile char __iomem *io = a->io
#define MMIO_AT(off) (io + (off))
#define MMIO_NUM(off) ((uintptr_t)(volatile void __force *)MMIO_AT(off))
#define PIO_REG uint16_t io = PORT_OF(a->io)
#define PIO_AT(off) ((uint16_t)(io + (off)))
#define PIO_NUM(off) PIO_AT(off)

/*
 * The single-access families, in either space: sp is MMIO or PIO, rd and wr
 * name the accessors (iomap_read32_relaxed, iomap_in32_relaxed ...).
 * thrpt: independent back-to-back accesses to one register; a read's value
 * is dropped, the volatile or asm-volatile access is still issued.
 * chain: each read's register depends on the previous value (v & zero, zero
 * being 0 at run time), so reads cannot overlap: read latency.  Its baseline
 * forms the same dependency without the read, narrowing included.
 * lat: each access timed alone between serializing TSC reads.  flush: a
 * write and the read-back of the same register timed together: the read
 * cannot complete before the write has reached the target.
 */
#define SINGLE(sp, rd, wr, s, bits)						\
	UNROLLED(thrpt_##rd##bits##_##s, sp##_REG,				\
		 (void)iomap_##rd##bits##_##s(sp##_AT(0)), 0)			\
	UNROLLED(thrpt_##wr##bits##_##s, sp##_REG; uint##bits##_t v = (uint##bits##_t)a->value, \
		 iomap_##wr##bits##_##s(v, sp##_AT(0)), 0)			\
	UNROLLED(chain_##rd##bits##_##s, sp##_REG; uint64_t v = 0; uint64_t z = a->zero, \
		 v = iomap_##rd##bits##_##s(sp##_AT(v & z)), v)			\
	UNROLLED(chain_##rd##base##bits##_##s, sp##_REG; uint64_t v = 0; uint64_t z = a->zero, \
		 v = sp##_NUM(v & z); OPAQUE(v); v = (uint##bits##_t)v, v)	\
	SAMPLED(lat_##rd##bits##_##s, sp##_REG, (void)iomap_##rd##bits##_##s(sp##_AT(0))) \
	SAMPLED(lat_##wr##bits##_##s, sp##_REG; uint##bits##_t v = (uint##bits##_t)a->value, \
		iomap_##wr##bits##_##s(v, sp##_AT(0)))				\
	SAMPLED(flush_##wr##bits##_##s, sp##_REG; uint##bits##_t v = (uint##bits##_t)a->value, \
		iomap_##wr##bits##_##s(v, sp##_AT(0)); (void)iomap_##rd##bits##_##s(sp##_AT(0)))

/* rep: calls of an n-element _rep on the one register. */
#define REP(sp, rd, wr, s, bits)						\
	BATCH(rep_##rd##bits##_##s, sp##_REG, iomap_##rd##bits##_rep_##s(sp##_AT(0), a->mem, a->n)) \
	BATCH(rep_##wr##bits##_##s, sp##_REG, iomap_##wr##bits##_rep_##s(sp##_AT(0), a->mem, a->n))

/*
 * Port space runs the same families under the same names, so that a port
 * target (port:, a pci I/O BAR) compares directly with MMIO.  volatile has
 * no port form and x86 no 64-bit port instruction: neither exists there.
 */
#define MMIO_KERNELS(s, bits) SINGLE(MMIO, read, write, s, bits)
#define PIO_KERNELS(s, bits) SINGLE(PIO, in, out, s, bits)
#define MMIO_REP_KERNELS(s, bits) REP(MMIO, read, write, s, bits)
#define PIO_REP_KERNELS(s, bits) REP(PIO, in, out, s, bits)
#define FOR_PORT_WIDTHS(Y, s) Y(s, 8) Y(s, 16) Y(s, 32)
#define PORT_SINGLE_STRATEGIES(X)						\
	X(relaxed, "relaxed") X(barriered, "barriered") X(fenced, "fenced") X(locked, "locked")
#define REP_STRATEGIES(X) X(volatile, "volatile") X(relaxed, "relaxed") X(barriered, "barriered")
#define PORT_REP_STRATEGIES(X) X(relaxed, "relaxed") X(barriered, "barriered")

#define DEFINE_MMIO(s, name) FOR_WIDTHS(MMIO_KERNELS, s)
#define DEFINE_PIO(s, name) FOR_PORT_WIDTHS(PIO_KERNELS, s)
#define DEFINE_MMIO_REP(s, name) FOR_WIDTHS(MMIO_REP_KERNELS, s)
#define DEFINE_PIO_REP(s, name) FOR_PORT_WIDTHS(PIO_REP_KERNELS, s)
SINGLE_STRATEGIES(DEFINE_MMIO)
PORT_SINGLE_STRATEGIES(DEFINE_PIO)
REP_STRATEGIES(DEFINE_MMIO_REP)
PORT_REP_STRATEGIES(DEFINE_PIO_REP)

/* Port _rep as the string instruction, under the MMIO names (string has no MMIO _rep). */
#define PORT_STRING_REP(k, bits)						\
	BATCH(rep_read##bits##_string, PIO_REG, ins##k(io, a->mem, a->n))	\
	BATCH(rep_write##bits##_string, PIO_REG, outs##k(io, a->mem, a->n))
PORT_STRING_REP(b, 8)
PORT_STRING_REP(w, 16)
PORT_STRING_REP(l, 32)

/* copy: calls of one copy or set of n bytes between the window and mem. */
#define COPY(s)									\
	BATCH(copy_fromio_##s, , iomap_copy_fromio_##s(a->mem, a->io, a->n))	\
	BATCH(copy_toio_##s, , iomap_copy_toio_##s(a->io, a->mem, a->n))	\
	BATCH(copy_set_##s, , iomap_set_io_##s(a->io, (int)a->value, a->n))
IOMAP_COPY_STRATEGIES(COPY)

/* The reference row: glibc's memcpy/memset on the same window, as a normal pointer. */
BATCH(copy_fromio_libc, , memcpy(a->mem, (void __force *)a->io, a->n))
BATCH(copy_toio_libc, , memcpy((void __force *)a->io, a->mem, a->n))
BATCH(copy_set_libc, , memset((void __force *)a->io, (int)a->value, a->n))

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
UNROLLED(dispatch_direct_pio, PIO_REG, (void)inl(io), 0)

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
#define E_CHAIN(opname, sname, bytes_, sp, f, b)				\
	{ "chain", opname, sname, RB_UNROLLED, bytes_, false, sp, UNROLL, f, f##_2, b, b##_2 },
#define E_OTHER(fam, shape, opname, sname, bytes_, wr, sp, f)			\
	{ fam, opname, sname, shape, bytes_, wr, sp, 1, f, NULL, NULL, NULL },

#define MMIO IOMAP_SPACE_MMIO
#define PIO IOMAP_SPACE_PIO

/* The entries of SINGLE and REP above, named as MMIO names them in either space. */
#define ENTRIES_SINGLE(sp, rd, wr, s, name, bits)				\
	E_OTHER("lat", RB_SAMPLED, "read" #bits, name, bits / 8, false, sp, lat_##rd##bits##_##s) \
	E_OTHER("lat", RB_SAMPLED, "write" #bits, name, bits / 8, true, sp, lat_##wr##bits##_##s) \
	E_CHAIN("read" #bits, name, bits / 8, sp, chain_##rd##bits##_##s, chain_##rd##base##bits##_##s) \
	E_UNROLLED("thrpt", "read" #bits, name, bits / 8, false, sp, thrpt_##rd##bits##_##s) \
	E_UNROLLED("thrpt", "write" #bits, name, bits / 8, true, sp, thrpt_##wr##bits##_##s) \
	E_OTHER("flush", RB_SAMPLED, "write" #bits, name, bits / 8, true, sp, flush_##wr##bits##_##s)
#define ENTRIES_REP(sp, rd, wr, s, name, bits)					\
	E_OTHER("rep", RB_BATCH, "read" #bits, name, bits / 8, false, sp, rep_##rd##bits##_##s) \
	E_OTHER("rep", RB_BATCH, "write" #bits, name, bits / 8, true, sp, rep_##wr##bits##_##s)

/* E(..., bits) for the widths of each space. */
#define MMIO_WIDTHS(E, ...) E(__VA_ARGS__, 8) E(__VA_ARGS__, 16) E(__VA_ARGS__, 32) E(__VA_ARGS__, 64)
#define PIO_WIDTHS(E, ...) E(__VA_ARGS__, 8) E(__VA_ARGS__, 16) E(__VA_ARGS__, 32)
#define ENTRIES_MMIO(s, name) MMIO_WIDTHS(ENTRIES_SINGLE, MMIO, read, write, s, name)
#define ENTRIES_PIO(s, name) PIO_WIDTHS(ENTRIES_SINGLE, PIO, in, out, s, name)
#define ENTRIES_MMIO_REP(s, name) MMIO_WIDTHS(ENTRIES_REP, MMIO, read, write, s, name)
#define ENTRIES_PIO_REP(s, name) PIO_WIDTHS(ENTRIES_REP, PIO, in, out, s, name)

#define ENTRIES_COPY(s, name)							\
	E_OTHER("copy", RB_BATCH, "fromio", name, 1, false, MMIO, copy_fromio_##s) \
	E_OTHER("copy", RB_BATCH, "toio", name, 1, true, MMIO, copy_toio_##s)	\
	E_OTHER("copy", RB_BATCH, "set", name, 1, true, MMIO, copy_set_##s)

#define ENTRIES_BARRIER(name, insn) E_UNROLLED("barrier", #name, "", 0, false, MMIO, barrier_##name)

const struct rb_kernel rb_kernels[] = {
	SINGLE_STRATEGIES(ENTRIES_MMIO)
	PORT_SINGLE_STRATEGIES(ENTRIES_PIO)
	REP_STRATEGIES(ENTRIES_MMIO_REP)
	PORT_REP_STRATEGIES(ENTRIES_PIO_REP)
	PIO_WIDTHS(ENTRIES_REP, PIO, read, write, string, "string")
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
