/* io.h: the accessor core, generic: the kernel's MMIO accessors in every strategy, built from the architecture's hooks */
#ifndef IOMAP_IO_H
#define IOMAP_IO_H

#include <stddef.h>
#include <stdint.h>

#include "iomap/compiler.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * As Linux builds readl() in asm-generic/io.h from what each architecture's
 * asm/io.h defines, this file builds every accessor from the hooks of
 * iomap/asm/io.h, the one of the architecture libiomap is built for
 * (iomap/arch/<arch>/include): its raw accesses, the orderings around them,
 * its barriers, and port I/O where it has instructions for it.  Which
 * accessors exist is the strategy list's (iomap/strategies.h): each builder
 * below is called once per width of each strategy whose line has the form.
 * Each architecture's file names the kernel version its sequences follow.
 */
static __always_inline void barrier(void) { __asm__ __volatile__("" ::: "memory"); }

/*
 * The text of an instruction in an asm statement of the architecture's
 * hooks.  A file that defines IOMAP_HOLLOW before it includes this one gets
 * every accessor with its asm statements, their operands, clobbers and
 * order, but each instruction in a comment: regbench's chain baselines are
 * made of such accessors, so that a baseline is its kernel as the compiler
 * builds it, without the access and its ordering.  (The text stays, so that
 * the compiler weighs each statement as before and tells statements of
 * different instructions apart.)
 */
#ifdef IOMAP_HOLLOW
#define IOMAP_INSN(text) "/* " text " */"
#else
#define IOMAP_INSN(text) text
#endif

/* The halves of a 64-bit register for the splits: the high one lies 4 bytes further on, in either space. */
#define IOMAP_HALF_lo(addr) (addr)
#define IOMAP_HALF_hi(addr) ((addr) + 4)

/*
 * The widths of a column of the strategy list (strategies.h):
 * IOMAP_WIDTHS_<widths>(X, ...) calls X(bits, C type, kernel suffix, value
 * register constraint, store source constraint, ...) for each, the
 * constraints being the architecture's (IOMAP_REG_<k>, IOMAP_WREG_<k>), and
 * IOMAP_WIDTHS every width.  IOMAP_IF_<value>(yes, no) is no for a column's
 * none and yes for anything else.
 */
#define IOMAP_WIDTHS_all(X, ...)						\
	X(8,  uint8_t,  b, IOMAP_REG_b, IOMAP_WREG_b, ##__VA_ARGS__)		\
	X(16, uint16_t, w, IOMAP_REG_w, IOMAP_WREG_w, ##__VA_ARGS__)		\
	X(32, uint32_t, l, IOMAP_REG_l, IOMAP_WREG_l, ##__VA_ARGS__)		\
	X(64, uint64_t, q, IOMAP_REG_q, IOMAP_WREG_q, ##__VA_ARGS__)
#define IOMAP_WIDTHS_not64(X, ...)						\
	X(8,  uint8_t,  b, IOMAP_REG_b, IOMAP_WREG_b, ##__VA_ARGS__)		\
	X(16, uint16_t, w, IOMAP_REG_w, IOMAP_WREG_w, ##__VA_ARGS__)		\
	X(32, uint32_t, l, IOMAP_REG_l, IOMAP_WREG_l, ##__VA_ARGS__)
#define IOMAP_WIDTHS_64(X, ...) X(64, uint64_t, q, IOMAP_REG_q, IOMAP_WREG_q, ##__VA_ARGS__)
#define IOMAP_WIDTHS_none(X, ...)
#define IOMAP_WIDTHS(X, ...) IOMAP_WIDTHS_all(X, ##__VA_ARGS__)
#define IOMAP_IF_all(yes, no) yes
#define IOMAP_IF_not64(yes, no) yes
#define IOMAP_IF_64(yes, no) yes
#define IOMAP_IF_toio(yes, no) yes
#define IOMAP_IF_fromio(yes, no) yes
#define IOMAP_IF_none(yes, no) no

#include "iomap/asm/io.h"
#include "iomap/strategies.h"

/*
 * How a strategy issues one access (its access in strategies.h):
 * IOMAP_READ_<access>(type, k, reg, addr) is the value read,
 * IOMAP_WRITE_<access>(type, k, wreg, v, addr) the store, and
 * IOMAP_ISSUES_<access>(bits) the width in bytes of each device access that
 * one access of `bits` issues.  The architecture defines its instructions'
 * kinds (readl, raw, and its own); these are the same everywhere:
 *   deref  a C volatile dereference
 *   lohi   a 64-bit access as two 32-bit ones, low half first, each the
 *          ordered strategy's readl/writel, as lo_hi_readq does; hilo the
 *          same, high half first.  Each half is a statement of its own, so
 *          the order is the one written.
 *   none   no single access (a strategy of copies)
 */
#define IOMAP_READ_deref(type, k, reg, addr) (*(const volatile type __force *)(addr))
#define IOMAP_WRITE_deref(type, k, wreg, v, addr) (*(volatile type __force *)(addr) = (type)(v))
#define IOMAP_ISSUES_deref(bits) ((bits) / 8)
/*
 * a 64-bit access as two 32-bit ones of strategy s (ordered: readl's,
 * relaxed: readl_relaxed's), first half first, the halves put together as
 * <linux/io-64-nonatomic-lo-hi.h> does (low + (high << 32))
 */
#define IOMAP_SPLIT_READ(s, first, second, addr) ({				\
	const volatile char __iomem *__iomap_p = (const volatile char __iomem *)(addr); \
	uint32_t __iomap_lo, __iomap_hi;					\
	__iomap_##first = iomap_read32_##s(IOMAP_HALF_##first(__iomap_p));	\
	__iomap_##second = iomap_read32_##s(IOMAP_HALF_##second(__iomap_p));	\
	__iomap_lo + ((uint64_t)__iomap_hi << 32); })
#define IOMAP_SPLIT_WRITE(s, first, second, v, addr) do {			\
	volatile char __iomem *__iomap_p = (volatile char __iomem *)(addr);	\
	uint32_t __iomap_lo = (uint32_t)(v);					\
	uint32_t __iomap_hi = (uint32_t)((uint64_t)(v) >> 32);		\
	iomap_write32_##s(__iomap_##first, IOMAP_HALF_##first(__iomap_p));	\
	iomap_write32_##s(__iomap_##second, IOMAP_HALF_##second(__iomap_p));	\
} while (0)
#define IOMAP_READ_lohi(type, k, reg, addr) IOMAP_SPLIT_READ(ordered, lo, hi, addr)
#define IOMAP_WRITE_lohi(type, k, wreg, v, addr) IOMAP_SPLIT_WRITE(ordered, lo, hi, v, addr)
#define IOMAP_READ_hilo(type, k, reg, addr) IOMAP_SPLIT_READ(ordered, hi, lo, addr)
#define IOMAP_WRITE_hilo(type, k, wreg, v, addr) IOMAP_SPLIT_WRITE(ordered, hi, lo, v, addr)
#define IOMAP_ISSUES_lohi(bits) 4
#define IOMAP_ISSUES_hilo(bits) 4
#define IOMAP_ISSUES_none(bits) 0

/*
 * What a strategy puts around its access (its order), the same for MMIO and
 * ports: IOMAP_ORDER_R_<order>(type, access) is the value read and
 * IOMAP_ORDER_W_<order>(access) the write as a statement.  none, the access
 * alone, is everyone's; the architecture defines the others.
 */
#define IOMAP_ORDER_R_none(type, acc) (acc)
#define IOMAP_ORDER_W_none(acc) do { acc; } while (0)

/* iomap_readN_<id>/iomap_writeN_<id>: each strategy's single accesses on MMIO, at the widths its line gives. */
#define IOMAP_BUILD_MMIO(bits, type, k, reg, wreg, id, access, order)		\
static __always_inline type iomap_read##bits##_##id(const volatile void __iomem *addr) \
{ return IOMAP_ORDER_R_##order(type, IOMAP_READ_##access(type, k, reg, addr)); } \
static __always_inline void iomap_write##bits##_##id(type v, volatile void __iomem *addr) \
{ IOMAP_ORDER_W_##order(IOMAP_WRITE_##access(type, k, wreg, v, addr)); }
IOMAP_EACH_MMIO(IOMAP_BUILD_MMIO)
#undef IOMAP_BUILD_MMIO

/*
 * _rep: the same register, count times (a FIFO), never a range: a loop of
 * a strategy's single access, for the strategies whose line says loop (those
 * that order a loop's accesses one by one; fenced and locked order single
 * accesses, and a loop with barriers is barriered's).  It is asm-generic/io.h's
 * readsl (v6.1): nothing for 0, else do ... while (--count) over a count of
 * ctype (the kernel's readsX count an unsigned int, our strategies' loops an
 * unsigned long).  The buffer may be unaligned (the kernel's is aligned: its
 * loop stores through a u32 *).  One macro serves both spaces and the
 * kernel's names: rname/wname are the loops, rd/wr the single accesses they
 * repeat, rtype/wtype their address type.
 */
#define IOMAP_BUILD_REP_LOOP(rname, wname, rd, wr, rtype, wtype, type, ctype)	\
static __always_inline void rname(rtype addr, void *buf, ctype count)	\
{									\
	if (count) {							\
		unsigned char *p = (unsigned char *)buf;		\
									\
		do {							\
			type v = rd(addr);				\
									\
			__builtin_memcpy(p, &v, sizeof(v));		\
			p += sizeof(v);					\
		} while (--count);					\
	}								\
}									\
static __always_inline void wname(wtype addr, const void *buf, ctype count) \
{									\
	if (count) {							\
		const unsigned char *p = (const unsigned char *)buf;	\
									\
		do {							\
			type v;						\
									\
			__builtin_memcpy(&v, p, sizeof(v));		\
			p += sizeof(v);					\
			wr(v, addr);					\
		} while (--count);					\
	}								\
}
#define IOMAP_BUILD_MMIO_LOOP(bits, type, k, reg, wreg, id)			\
	IOMAP_BUILD_REP_LOOP(iomap_read##bits##_rep_##id, iomap_write##bits##_rep_##id, iomap_read##bits##_##id, \
			     iomap_write##bits##_##id, const volatile void __iomem *, volatile void __iomem *, \
			     type, unsigned long)
IOMAP_EACH_MMIO_LOOP(IOMAP_BUILD_MMIO_LOOP)
#undef IOMAP_BUILD_MMIO_LOOP

/*
 * The kernel's names, as asm-generic/io.h builds them on every architecture
 * (v6.1), at every width (readb, readw, readl, readq): readX() is the
 * ordered strategy (the architecture's access with its __io_br/__io_ar hooks
 * around it: x86's mov with a compiler barrier, arm64's ldr then dmb oshld
 * and a dependency); readX_relaxed() and __raw_readX() the relaxed one (the
 * bare access); readsX() and writesX() repeat __raw_readX on the one
 * register count times.
 */
#define IOMAP_BUILD_KERNEL_NAMES(bits, type, k, reg, wreg)			\
static __always_inline type read##k(const volatile void __iomem *addr)	\
{ return iomap_read##bits##_ordered(addr); }				\
static __always_inline void write##k(type v, volatile void __iomem *addr) \
{ iomap_write##bits##_ordered(v, addr); }				\
static __always_inline type read##k##_relaxed(const volatile void __iomem *addr) \
{ return iomap_read##bits##_relaxed(addr); }				\
static __always_inline void write##k##_relaxed(type v, volatile void __iomem *addr) \
{ iomap_write##bits##_relaxed(v, addr); }				\
static __always_inline type __raw_read##k(const volatile void __iomem *addr) \
{ return iomap_read##bits##_relaxed(addr); }				\
static __always_inline void __raw_write##k(type v, volatile void __iomem *addr) \
{ iomap_write##bits##_relaxed(v, addr); }				\
IOMAP_BUILD_REP_LOOP(reads##k, writes##k, iomap_read##bits##_relaxed, iomap_write##bits##_relaxed, \
		     const volatile void __iomem *, volatile void __iomem *, type, unsigned int)
IOMAP_WIDTHS(IOMAP_BUILD_KERNEL_NAMES)
#undef IOMAP_BUILD_KERNEL_NAMES

/*
 * 64-bit registers on devices that take only 32-bit accesses, as
 * <linux/io-64-nonatomic-lo-hi.h> and -hi-lo.h have them: two readl/writel
 * (or their _relaxed forms), in the order the name says.
 */
#define IOMAP_BUILD_SPLIT_NAMES(order, first, second, rel, s)			\
static __always_inline uint64_t order##_readq##rel(const volatile void __iomem *addr) \
{									\
	return IOMAP_SPLIT_READ(s, first, second, addr);		\
}									\
static __always_inline void order##_writeq##rel(uint64_t v, volatile void __iomem *addr) \
{									\
	IOMAP_SPLIT_WRITE(s, first, second, v, addr);			\
}
IOMAP_BUILD_SPLIT_NAMES(lo_hi, lo, hi, , ordered)
IOMAP_BUILD_SPLIT_NAMES(lo_hi, lo, hi, _relaxed, relaxed)
IOMAP_BUILD_SPLIT_NAMES(hi_lo, hi, lo, , ordered)
IOMAP_BUILD_SPLIT_NAMES(hi_lo, hi, lo, _relaxed, relaxed)
#undef IOMAP_BUILD_SPLIT_NAMES

/*
 * Port forms, where the architecture has port instructions, so that the same
 * families run on port targets: iomap_inN_<id>/iomap_outN_<id>, one in/out
 * of the exact width (IOMAP_IN_<access>, asm/io.h; a split: two 32-bit ones
 * for 64 bits) under the strategy's ordering, and their _rep loops, at the
 * widths its line gives.  A strategy without them is absent here, not
 * substituted.
 */
#define IOMAP_BUILD_PORT(bits, type, k, reg, wreg, id, access, order)		\
static __always_inline type iomap_in##bits##_##id(uint16_t port)		\
{ return IOMAP_ORDER_R_##order(type, IOMAP_IN_##access(type, k, port)); } \
static __always_inline void iomap_out##bits##_##id(type v, uint16_t port)	\
{ IOMAP_ORDER_W_##order(IOMAP_OUT_##access(type, k, v, port)); }
IOMAP_EACH_PORT(IOMAP_BUILD_PORT)
#undef IOMAP_BUILD_PORT
#define IOMAP_BUILD_PORT_LOOP(bits, type, k, reg, wreg, id)			\
	IOMAP_BUILD_REP_LOOP(iomap_in##bits##_rep_##id, iomap_out##bits##_rep_##id, iomap_in##bits##_##id,	\
			     iomap_out##bits##_##id, uint16_t, uint16_t, type, unsigned long)
IOMAP_EACH_PORT_LOOP(IOMAP_BUILD_PORT_LOOP)
#undef IOMAP_BUILD_PORT_LOOP
#undef IOMAP_BUILD_REP_LOOP

/*
 * Range copies of every strategy that has them, in the directions its line
 * gives (IOMAP_COPY_STRATEGIES; copy.c and the architecture's copy files say what
 * each issues).  The kernel's memcpy_fromio, memcpy_toio and memset_io are
 * the kernel strategy.  The word strategies take n in bytes and move n /
 * their element whole words, in one direction.
 */
#define IOMAP_DECLARE_copy_fromio(id) void iomap_copy_fromio_##id(void *dst, const volatile void __iomem *src, size_t n);
#define IOMAP_DECLARE_copy_toio(id) void iomap_copy_toio_##id(volatile void __iomem *dst, const void *src, size_t n);
#define IOMAP_DECLARE_set_io(id) void iomap_set_io_##id(volatile void __iomem *dst, int c, size_t n);
#define IOMAP_DECLARE_COPY(dir, id) IOMAP_DECLARE_##dir(id)
#define IOMAP_DECLARE_COPIES(id, dirs) IOMAP_COPY_DIRS_##dirs(IOMAP_DECLARE_COPY, id)
IOMAP_COPY_STRATEGIES(IOMAP_DECLARE_COPIES)
#undef IOMAP_DECLARE_COPIES
#undef IOMAP_DECLARE_COPY

void memcpy_fromio(void *dst, const volatile void __iomem *src, size_t n);
void memcpy_toio(volatile void __iomem *dst, const void *src, size_t n);
void memset_io(volatile void __iomem *dst, int c, size_t n);

/*
 * The kernel's word copies, count in words: __iowrite32_copy,
 * __iowrite64_copy (a __raw_writeq per word) and __ioread32_copy (a
 * __raw_readl per word), lib/iomap_copy.c's unless the architecture has its
 * own (x86: rep movsl for __iowrite32_copy).  The device side must be
 * aligned to the word.
 */
void __iowrite32_copy(volatile void __iomem *to, const void *from, size_t count);
void __iowrite64_copy(volatile void __iomem *to, const void *from, size_t count);
void __ioread32_copy(void *to, const volatile void __iomem *from, size_t count);

#ifdef __cplusplus
}
#endif

/* ioread32() and the other accessors on cookies, lib/iomap.c's or asm-generic's as the architecture selects */
#include "iomap/cookie.h"

#endif
