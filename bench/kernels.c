/* kernels.c: the timed kernels, generated per op x width x strategy, and their table */
#include <string.h>

#include "iomap/io.h"
#include "iomap/region.h"
#include "iomap/strategy.h"
#include "clock.h"
#include "insns.h"
#include "kernels.h"
#include "shapes.h"
#include "chains.h"

/*
 * A chain's baseline (its kernel without the reads) is chains.c's, built from
 * the same accessors with their instructions emptied, except a region's: its
 * read is a call into pread, which the baseline must not make, so what
 * stands for it is the cookie the read would use, through an identity the
 * compiler cannot see through, converted to the read's type as the call's
 * value is.
 */
#define REGION_CHAIN_BASE(bits, type, k, reg, wreg, id, access, order)		\
	UNROLLED(chain_preadbase##bits##_##id, REGION_REG; uint64_t v = 0; uint64_t z = a->zero, \
		 v = ({ uintptr_t __r = REGION_NUM(v & z); OPAQUE(__r); (type)__r; }), v)

/*
 * What a chain's figure holds beyond a plain load, said in the JSON (the
 * benchmark's note): the architecture's (IOMAP_ASM_READ_NOTE: x86 keeps the
 * rest of a register an 8- or 16-bit asm read writes, arm64 zero-extends)
 * for an asm read, nothing for the others.
 */
#define CHAIN_NOTE_readl(bits) IOMAP_ASM_READ_NOTE(bits)
#define CHAIN_NOTE_raw(bits) IOMAP_ASM_READ_NOTE(bits)
#define CHAIN_NOTE_acq(bits) IOMAP_ASM_READ_NOTE(bits)
#define CHAIN_NOTE_deref(bits) NULL
#define CHAIN_NOTE_lohi(bits) NULL
#define CHAIN_NOTE_hilo(bits) NULL
/* ASM_NOTE(access, bits): that note; NO_NOTE, none (a region's read is a call, whatever its access). */
#define ASM_NOTE(access, bits) CHAIN_NOTE_##access(bits)
#define NO_NOTE(access, bits) NULL

/*
 * The single-access families, in any space: sp is MMIO, PIO or REGION, rd
 * and wr name the accessors (iomap_read32_relaxed, iomap_in32_relaxed,
 * iomap_pread32_relaxed ...), access is how they issue it (readl, deref ...).
 * thrpt: independent back-to-back accesses to one register; a read's value
 * is dropped, the volatile or asm-volatile access is still issued.
 * chain: each read's register depends on the previous value (v & zero, zero
 * being 0 at run time), so reads cannot overlap: read latency.  Its baseline
 * is the same instructions without the read (chains.c, REGION_CHAIN_BASE;
 * tests/chain-check.sh compares their disassembly).
 * lat: each access timed alone between serializing timer reads, at the
 * offset `at` (0, from the start reading: sampled.h), so that it cannot
 * begin before the start reading.  flush: a write and the read-back of the
 * same register timed together: the read cannot complete before the write
 * has reached the target.  Their baseline is the space's (below).
 */
#define SINGLE(bits, type, k, reg, wreg, s, access, order, sp, rd, wr)					\
	UNROLLED(thrpt_##rd##bits##_##s, sp##_REG,				\
		 (void)iomap_##rd##bits##_##s(sp##_AT(0)), 0)			\
	UNROLLED(thrpt_##wr##bits##_##s, sp##_REG; uint##bits##_t v = (uint##bits##_t)a->value, \
		 iomap_##wr##bits##_##s(v, sp##_AT(0)), 0)			\
	UNROLLED(chain_##rd##bits##_##s, sp##_REG; uint64_t v = 0; uint64_t z = a->zero, \
		 v = iomap_##rd##bits##_##s(sp##_AT(v & z)), v)			\
	SAMPLED(lat_##rd##bits##_##s, sp##_REG, (void)iomap_##rd##bits##_##s(sp##_AT(at))) \
	SAMPLED(lat_##wr##bits##_##s, sp##_REG; uint##bits##_t v = (uint##bits##_t)a->value, \
		iomap_##wr##bits##_##s(v, sp##_AT(at)))				\
	SAMPLED(flush_##wr##bits##_##s, sp##_REG; uint##bits##_t v = (uint##bits##_t)a->value, \
		iomap_##wr##bits##_##s(v, sp##_AT(at)); (void)iomap_##rd##bits##_##s(sp##_AT(at)))

/*
 * The baseline of a space's lat/ and flush/ kernels: the same loop, the
 * register's address (or port) computed from `at` as an access would, no
 * access.  One per space serves every width and strategy: what an access
 * adds to its address is the access.
 */
#define SAMPLED_BASE(sp) SAMPLED(lat_base_##sp, sp##_REG, __typeof__(sp##_NUM(at)) __x = sp##_NUM(at); OPAQUE(__x))
SAMPLED_BASE(MMIO)
IOMAP_PORTS(SAMPLED_BASE(PIO))
SAMPLED_BASE(REGION)

/* rep: calls of an n-element _rep on the one register. */
#define REP(bits, type, k, reg, wreg, s, sp, rd, wr)				\
	BATCH(rep_##rd##bits##_##s, sp##_REG, iomap_##rd##bits##_rep_##s(sp##_AT(0), a->mem, a->n)) \
	BATCH(rep_##wr##bits##_##s, sp##_REG, iomap_##wr##bits##_rep_##s(sp##_AT(0), a->mem, a->n))

/*
 * Every strategy's single-access kernels, at the widths its line in the list
 * gives: on MMIO, on ports where ports exist (x86 has no 64-bit port
 * instruction: only a split has 64 there), and through a region (a read is a
 * call of the accessor that preads); then the _rep kernels of each space
 * (x86's string: rep insX/outsX).
 */
#define STRATEGY_KERNELS(id, name, where, access, order, mmio, port, region, rep, copies)	\
	IOMAP_WIDTHS_##mmio(SINGLE, id, access, order, MMIO, read, write)			\
	IOMAP_PORTS(IOMAP_WIDTHS_##port(SINGLE, id, access, order, PIO, in, out))		\
	IOMAP_WIDTHS_##region(SINGLE, id, access, order, REGION, pread, pwrite)		\
	IOMAP_WIDTHS_##region(REGION_CHAIN_BASE, id, access, order)
IOMAP_EACH_STRATEGY(STRATEGY_KERNELS)
IOMAP_EACH_MMIO_LOOP(REP, MMIO, read, write)
IOMAP_EACH_PORT_REP(REP, PIO, in, out)

/* copy: calls of one copy or set of n bytes between the window and mem, in each direction the strategy has. */
#define COPY_copy_fromio(id) BATCH(copy_fromio_##id, , iomap_copy_fromio_##id(a->mem, a->io, a->n))
#define COPY_copy_toio(id) BATCH(copy_toio_##id, , iomap_copy_toio_##id(a->io, a->mem, a->n))
#define COPY_set_io(id) BATCH(copy_set_##id, , iomap_set_io_##id(a->io, (int)a->value, a->n))
#define COPY_DIR(dir, id) COPY_##dir(id)
#define COPIES(id, dirs) IOMAP_COPY_DIRS_##dirs(COPY_DIR, id)
IOMAP_COPY_STRATEGIES(COPIES)

/* The reference row: glibc's memcpy/memset on the same window, as a normal pointer. */
BATCH(copy_fromio_libc, , memcpy(a->mem, (void __force *)a->io, a->n))
BATCH(copy_toio_libc, , memcpy((void __force *)a->io, a->mem, a->n))
BATCH(copy_set_libc, , memset((void __force *)a->io, (int)a->value, a->n))

/*
 * barrier: the ordering primitives alone, back to back: this architecture's
 * (bench/arch/ARCH/insns.h); another's are entries without a kernel, skipped
 * with the reason.
 */
#define BARRIER(name, insn) UNROLLED(barrier_##name, , insn, 0)
#define NO_BARRIER(name, why)
RB_BARRIERS(BARRIER, NO_BARRIER)

/*
 * dispatch: the same 32-bit read inline (readl), through the strategy table
 * (an indirect call), through the generic cookie ioread32 (an out-of-line
 * call that decodes the cookie), and through the inline cookie decode.  The
 * inline decode depends only on the address: OPAQUE hides that it is the
 * same each time, so the compiler cannot decode once for the whole loop.
 */
UNROLLED(dispatch_direct, void __iomem *io = a->io, (void)readl(io), 0)
UNROLLED(dispatch_table, void __iomem *io = a->io;
	 uint32_t (*read32)(const volatile void __iomem *) = iomap_strategy_kernel_single()->read32,
	 (void)read32(io), 0)
UNROLLED(dispatch_cookie, void __iomem *io = a->io, (void)ioread32(io), 0)
UNROLLED(dispatch_inline, void __iomem *io = a->io, OPAQUE(io); (void)iomap_ioread32_inline(io), 0)
#ifdef IOMAP_HAVE_PORT_IO
UNROLLED(dispatch_direct_pio, PIO_REG, (void)inl(io), 0)
#endif

/*
 * The table, walked by the harness to register benchmarks.  K() is one
 * entry of family fam; what follows it sets the fields that differ from the
 * defaults (an accessor strategy's row of mov accesses on MMIO).  An
 * accessor row's strategy is its id in iomap's table (iomap_strategy_find_id);
 * what a copy issues (its widths, and vectors) is that table's too.
 */
#define K(fam, op_, bits_, strategy_, ...)					\
	{ .family = &rb_families[fam], .op = op_, .bits = bits_, .strategy = strategy_, __VA_ARGS__ },
#define TWINS(f) .unroll = UNROLL, .fn = f, .twin = f##_2

/*
 * The entries of SINGLE and REP above, named as MMIO names them in any
 * space; notefn gives a chain's note (ASM_NOTE, NO_NOTE), and each entry's
 * widths are those of its device accesses (a split's 64-bit access issues
 * 4-byte ones).
 */
#define ENTRIES_SINGLE(bits, type, k, reg, wreg, id, access, order, sp, rd, wr, notefn)	\
	K(REGBENCH_LAT, "read", bits, #id, .bytes = bits / 8, .widths = IOMAP_ISSUES_##access(bits), .reads = true, \
	  .space = sp, .fn = lat_##rd##bits##_##id, .base = lat_base_##sp)		\
	K(REGBENCH_LAT, "write", bits, #id, .bytes = bits / 8, .widths = IOMAP_ISSUES_##access(bits), .writes = true, \
	  .space = sp, .fn = lat_##wr##bits##_##id, .base = lat_base_##sp)		\
	K(REGBENCH_CHAIN, "read", bits, #id, .bytes = bits / 8, .widths = IOMAP_ISSUES_##access(bits), .reads = true, \
	  .space = sp, TWINS(chain_##rd##bits##_##id), .base = chain_##rd##base##bits##_##id,	\
	  .base_twin = chain_##rd##base##bits##_##id##_2, .note = notefn(access, bits))	\
	K(REGBENCH_THRPT, "read", bits, #id, .bytes = bits / 8, .widths = IOMAP_ISSUES_##access(bits), .reads = true, \
	  .space = sp, TWINS(thrpt_##rd##bits##_##id))					\
	K(REGBENCH_THRPT, "write", bits, #id, .bytes = bits / 8, .widths = IOMAP_ISSUES_##access(bits), .writes = true, \
	  .space = sp, TWINS(thrpt_##wr##bits##_##id))					\
	K(REGBENCH_FLUSH, "write", bits, #id, .bytes = bits / 8, .widths = IOMAP_ISSUES_##access(bits), .reads = true, \
	  .writes = true, .space = sp, .fn = flush_##wr##bits##_##id, .base = lat_base_##sp)
#define ENTRIES_REP(bits, type, k, reg, wreg, id, sp, rd, wr)			\
	K(REGBENCH_REP, "read", bits, #id, .bytes = bits / 8, .widths = bits / 8, .reads = true, .space = sp, \
	  .fn = rep_##rd##bits##_##id)							\
	K(REGBENCH_REP, "write", bits, #id, .bytes = bits / 8, .widths = bits / 8, .writes = true, .space = sp, \
	  .fn = rep_##wr##bits##_##id)
/* a copy strategy's entries, one per direction it has; f is its kernel, NULL for another architecture's */
#define ENTRY_copy_fromio(id, f, ...)							\
	K(REGBENCH_COPY, "fromio", 0, #id, .bytes = 1, .reads = true, .fn = f, ##__VA_ARGS__)
#define ENTRY_copy_toio(id, f, ...)							\
	K(REGBENCH_COPY, "toio", 0, #id, .bytes = 1, .writes = true, .fn = f, ##__VA_ARGS__)
#define ENTRY_set_io(id, f, ...) K(REGBENCH_COPY, "set", 0, #id, .bytes = 1, .writes = true, .fn = f, ##__VA_ARGS__)
#define FN_copy_fromio(id) copy_fromio_##id
#define FN_copy_toio(id) copy_toio_##id
#define FN_set_io(id) copy_set_##id
#define E_COPY(dir, id, ...) ENTRY_##dir(id, FN_##dir(id), ##__VA_ARGS__)
#define E_COPIES(id, dirs, ...) IOMAP_COPY_DIRS_##dirs(E_COPY, id, ##__VA_ARGS__)
/* a strategy of another architecture: its names, no function; its row says why it is skipped */
#define E_ABSENT_COPY(dir, id) ENTRY_##dir(id, NULL)
#define E_ABSENT_COPIES(id, dirs) IOMAP_COPY_DIRS_##dirs(E_ABSENT_COPY, id)

#define MMIO IOMAP_SPACE_MMIO
#define PIO IOMAP_SPACE_PIO
#define REGION IOMAP_SPACE_REGION
#define E_ABSENT_SINGLE(bits, type, k, reg, wreg, id)				\
	K(REGBENCH_LAT, "read", bits, #id, .bytes = bits / 8, .reads = true)			\
	K(REGBENCH_LAT, "write", bits, #id, .bytes = bits / 8, .writes = true)		\
	K(REGBENCH_CHAIN, "read", bits, #id, .bytes = bits / 8, .reads = true)		\
	K(REGBENCH_THRPT, "read", bits, #id, .bytes = bits / 8, .reads = true)		\
	K(REGBENCH_THRPT, "write", bits, #id, .bytes = bits / 8, .writes = true)		\
	K(REGBENCH_FLUSH, "write", bits, #id, .bytes = bits / 8, .reads = true, .writes = true)
#define E_ABSENT_SINGLES(id) IOMAP_WIDTHS(E_ABSENT_SINGLE, id)

#define ENTRY_BARRIER(name, insn) K(REGBENCH_BARRIER, #name, 0, "", .row = RB_VARIANT, TWINS(barrier_##name))
#define ENTRY_NO_BARRIER(name, why) K(REGBENCH_BARRIER, #name, 0, "", .row = RB_VARIANT, .lacks = why)
#define DISPATCH(name, sp, f, help_, ...)					\
	K(REGBENCH_DISPATCH, "read", 32, name, .row = RB_VARIANT, .help = help_, .bytes = 4, .widths = 4, \
	  .reads = true, .space = sp, TWINS(f), __VA_ARGS__)

const struct rb_kernel rb_kernels[] = {
	/* each walk is a section, so the table lists a family's benchmarks together */
	IOMAP_EACH_MMIO(ENTRIES_SINGLE, MMIO, read, write, ASM_NOTE)
	IOMAP_EACH_PORT(ENTRIES_SINGLE, PIO, in, out, ASM_NOTE)
	IOMAP_EACH_REGION(ENTRIES_SINGLE, REGION, pread, pwrite, NO_NOTE)
	IOMAP_ABSENT_SINGLES(E_ABSENT_SINGLES)
	IOMAP_EACH_MMIO_LOOP(ENTRIES_REP, MMIO, read, write)
	IOMAP_EACH_PORT_REP(ENTRIES_REP, PIO, in, out)
	E_COPIES(libc, all, .row = RB_REFERENCE, .widths = 1 | 2 | 4 | 8, .insn = IOMAP_INSN_ANY,
		 .help = "glibc's memcpy/memset on the same window through a normal pointer: the reference")
	IOMAP_COPY_STRATEGIES(E_COPIES)
	IOMAP_ABSENT_COPIES(E_ABSENT_COPIES)
	RB_BARRIERS(ENTRY_BARRIER, ENTRY_NO_BARRIER)
	DISPATCH("direct", MMIO, dispatch_direct, "readl, inline: " IOMAP_READL_INSNS)
	DISPATCH("table", MMIO, dispatch_table, "readl through the strategy table: an indirect call")
	DISPATCH("cookie-mmio", MMIO, dispatch_cookie, IOMAP_IOREAD32_HELP)
	DISPATCH("cookie-inline", MMIO, dispatch_inline, IOMAP_IOREAD32_INLINE_HELP)
#ifdef IOMAP_HAVE_PORT_IO
	DISPATCH("direct", PIO, dispatch_direct_pio, "inl, inline: one in")
	DISPATCH("cookie-pio", PIO, dispatch_cookie,
		 "the generic ioread32 on a port cookie: an out-of-line call that decodes it", .pair = "cookie-mmio")
	DISPATCH("cookie-inline", PIO, dispatch_inline, IOMAP_IOREAD32_INLINE_HELP)
#endif
};

const size_t rb_nr_kernels = sizeof(rb_kernels) / sizeof(rb_kernels[0]);

const char *rb_kernel_strategy(const struct rb_kernel *k)
{
	const struct iomap_strategy *s = k->row == RB_ACCESSOR ? iomap_strategy_find_id(k->strategy) : NULL;

	return s ? s->name : k->strategy;
}
