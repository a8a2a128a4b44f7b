/* io.h: the accessor core: kernel-compatible MMIO and port-I/O accessors, each in every strategy */
#ifndef IOMAP_IO_H
#define IOMAP_IO_H

#include <stddef.h>
#include <stdint.h>

#include "iomap/compiler.h"
#include "iomap/strategies.h"

#ifdef __cplusplus
extern "C" {
#endif

#if !defined(__x86_64__)
# error "libiomap issues x86-64 instructions; no other architecture is implemented"
#endif

/*
 * Barriers, as the kernel maps them on x86-64.  dma_rmb/dma_wmb only order
 * normal memory, which x86 already does, so they are compiler barriers.
 */
static __always_inline void barrier(void) { __asm__ __volatile__("" ::: "memory"); }
static __always_inline void mb(void)  { __asm__ __volatile__("mfence" ::: "memory"); }
static __always_inline void rmb(void) { __asm__ __volatile__("lfence" ::: "memory"); }
static __always_inline void wmb(void) { __asm__ __volatile__("sfence" ::: "memory"); }
static __always_inline void dma_rmb(void) { barrier(); }
static __always_inline void dma_wmb(void) { barrier(); }

/*
 * A locked no-op on the top of the stack: a full barrier for normal and UC
 * memory (the kernel's smp_mb() on x86) that is often cheaper than mfence.
 * It does not order non-temporal stores, which is why wmb() stays sfence.
 */
static __always_inline void iomap_locked_mb(void)
{
	__asm__ __volatile__("lock orq $0, (%%rsp)" ::: "memory", "cc");
}

/*
 * io_stop_wc(): keeps write-combining stores before it from merging with
 * those after it.  x86 Linux leaves it the generic empty statement (not even
 * a compiler barrier): x86 has no instruction for it.
 */
#define io_stop_wc() do { } while (0)

/*
 * Every sized accessor is generated from one macro per operation, invoked once
 * per width: X(bits, C type, kernel suffix, value register constraint,
 * store source constraint, and whatever follows X in the call).  8-bit values need a byte-addressable register
 * ("q"); a 64-bit store immediate must fit a sign-extended 32-bit field ("e").
 */
#define IOMAP_WIDTHS(X, ...)					\
	X(8,  uint8_t,  b, "q", "qi", ##__VA_ARGS__)		\
	X(16, uint16_t, w, "r", "ri", ##__VA_ARGS__)		\
	X(32, uint32_t, l, "r", "ri", ##__VA_ARGS__)		\
	X(64, uint64_t, q, "r", "re", ##__VA_ARGS__)

/* The access instruction itself: exactly one mov of the width, optionally a compiler barrier. */
#define IOMAP_MOV_READ(type, k, reg, addr, ...) ({				\
	type __v;								\
	__asm__ __volatile__("mov" #k " %1, %0" : "=" reg (__v)		\
			     : "m" (*(const volatile type __force *)(addr)) __VA_ARGS__); \
	__v; })
#define IOMAP_MOV_WRITE(type, k, wreg, val, addr, ...)				\
	__asm__ __volatile__("mov" #k " %1, %0"				\
			     : "=m" (*(volatile type __force *)(addr))		\
			     : wreg ((type)(val)) __VA_ARGS__)

/*
 * The halves of a 64-bit register for the splits: IOMAP_HALF_<lo|hi>(addr)
 * is where a half lies (the high one 4 bytes further on), in either space.
 */
#define IOMAP_HALF_lo(addr) (addr)
#define IOMAP_HALF_hi(addr) ((addr) + 4)

/*
 * How a strategy issues one access (its access in strategies.h):
 * IOMAP_READ_<access>(type, k, reg, addr) is the value read,
 * IOMAP_WRITE_<access>(type, k, wreg, v, addr) the store.  The splits read
 * and write their halves with readl/writel, as lo_hi_readq does; each half
 * is a statement of its own, so the order is the one written.
 */
#define IOMAP_READ_mov(type, k, reg, addr) IOMAP_MOV_READ(type, k, reg, addr, : "memory")
#define IOMAP_WRITE_mov(type, k, wreg, v, addr) IOMAP_MOV_WRITE(type, k, wreg, v, addr, : "memory")
#define IOMAP_READ_raw(type, k, reg, addr) IOMAP_MOV_READ(type, k, reg, addr)
#define IOMAP_WRITE_raw(type, k, wreg, v, addr) IOMAP_MOV_WRITE(type, k, wreg, v, addr)
#define IOMAP_READ_deref(type, k, reg, addr) (*(const volatile type __force *)(addr))
#define IOMAP_WRITE_deref(type, k, wreg, v, addr) (*(volatile type __force *)(addr) = (type)(v))
/* a 64-bit access as two 32-bit ones of access acc (mov: readl's, raw: readl_relaxed's), first half first */
#define IOMAP_SPLIT_READ(acc, first, second, addr) ({				\
	const volatile char __iomem *__iomap_p = (const volatile char __iomem *)(addr); \
	uint32_t __iomap_lo, __iomap_hi;					\
	__iomap_##first = IOMAP_READ_##acc(uint32_t, l, "r", IOMAP_HALF_##first(__iomap_p)); \
	__iomap_##second = IOMAP_READ_##acc(uint32_t, l, "r", IOMAP_HALF_##second(__iomap_p)); \
	((uint64_t)__iomap_hi << 32) | __iomap_lo; })
#define IOMAP_SPLIT_WRITE(acc, first, second, v, addr) do {			\
	volatile char __iomem *__iomap_p = (volatile char __iomem *)(addr);	\
	uint32_t __iomap_lo = (uint32_t)(v);					\
	uint32_t __iomap_hi = (uint32_t)((uint64_t)(v) >> 32);		\
	IOMAP_WRITE_##acc(uint32_t, l, "ri", __iomap_##first, IOMAP_HALF_##first(__iomap_p)); \
	IOMAP_WRITE_##acc(uint32_t, l, "ri", __iomap_##second, IOMAP_HALF_##second(__iomap_p)); \
} while (0)
#define IOMAP_READ_lohi(type, k, reg, addr) IOMAP_SPLIT_READ(mov, lo, hi, addr)
#define IOMAP_WRITE_lohi(type, k, wreg, v, addr) IOMAP_SPLIT_WRITE(mov, lo, hi, v, addr)
#define IOMAP_READ_hilo(type, k, reg, addr) IOMAP_SPLIT_READ(mov, hi, lo, addr)
#define IOMAP_WRITE_hilo(type, k, wreg, v, addr) IOMAP_SPLIT_WRITE(mov, hi, lo, v, addr)

/*
 * Port I/O, the same way: IOMAP_IN_<access>(type, k, port) and
 * IOMAP_OUT_<access>(type, k, v, port).  x86 Linux's inb/outb have no
 * "memory" clobber (raw); mov adds one.  A split is two 32-bit accesses to
 * port and port + 4, as lib/iomap.c does 64-bit port I/O.
 */
#define IOMAP_IN(type, k, port, ...) ({						\
	type __v;								\
	__asm__ __volatile__("in" #k " %w1, %0" : "=a" (__v) : "Nd" ((uint16_t)(port)) __VA_ARGS__); \
	__v; })
#define IOMAP_OUT(type, k, v, port, ...)					\
	__asm__ __volatile__("out" #k " %0, %w1" : : "a" ((type)(v)), "Nd" ((uint16_t)(port)) __VA_ARGS__)
#define IOMAP_IN_mov(type, k, port) IOMAP_IN(type, k, port, : "memory")
#define IOMAP_OUT_mov(type, k, v, port) IOMAP_OUT(type, k, v, port, : "memory")
#define IOMAP_IN_raw(type, k, port) IOMAP_IN(type, k, port)
#define IOMAP_OUT_raw(type, k, v, port) IOMAP_OUT(type, k, v, port)
#define IOMAP_IN_SPLIT(first, second, port) ({				\
	uint16_t __iomap_port = (uint16_t)(port);				\
	uint32_t __iomap_lo, __iomap_hi;					\
	__iomap_##first = IOMAP_IN(uint32_t, l, IOMAP_HALF_##first(__iomap_port)); \
	__iomap_##second = IOMAP_IN(uint32_t, l, IOMAP_HALF_##second(__iomap_port)); \
	((uint64_t)__iomap_hi << 32) | __iomap_lo; })
#define IOMAP_OUT_SPLIT(first, second, v, port) do {				\
	uint16_t __iomap_port = (uint16_t)(port);				\
	uint32_t __iomap_lo = (uint32_t)(v);					\
	uint32_t __iomap_hi = (uint32_t)((uint64_t)(v) >> 32);		\
	IOMAP_OUT(uint32_t, l, __iomap_##first, IOMAP_HALF_##first(__iomap_port)); \
	IOMAP_OUT(uint32_t, l, __iomap_##second, IOMAP_HALF_##second(__iomap_port)); \
} while (0)
#define IOMAP_IN_lohi(type, k, port) IOMAP_IN_SPLIT(lo, hi, port)
#define IOMAP_OUT_lohi(type, k, v, port) IOMAP_OUT_SPLIT(lo, hi, v, port)
#define IOMAP_IN_hilo(type, k, port) IOMAP_IN_SPLIT(hi, lo, port)
#define IOMAP_OUT_hilo(type, k, v, port) IOMAP_OUT_SPLIT(hi, lo, v, port)

/*
 * x86 Linux's I/O delay (native_io_delay, the default io_delay=0x80): a
 * write of whatever AL holds to port 0x80, the POST-code port, which takes
 * about a microsecond on old ISA buses.  It is the statement the kernel has.
 */
static __always_inline void iomap_io_delay(void)
{
	__asm__ __volatile__("outb %al, $0x80");
}

/*
 * What a strategy puts around its access (its order), the same for
 * MMIO and ports: IOMAP_ORDER_R_<order>(type, access) is the value read,
 * IOMAP_ORDER_W_<order>(access) the write as a statement.
 *   none     the access alone
 *   rmb_wmb  the portable driver's ordering: read then lfence (rmb), sfence
 *            (wmb) then write
 *   mb       mfence before and after (a full mb() around the access)
 *   locked   a locked no-op before and after
 *   io_delay the access, then the I/O delay (x86 inb_p/outb_p)
 */
#define IOMAP_ORDER_R_none(type, acc) (acc)
#define IOMAP_ORDER_W_none(acc) do { acc; } while (0)
#define IOMAP_ORDER_R_rmb_wmb(type, acc) ({ type __iomap_v = (acc); rmb(); __iomap_v; })
#define IOMAP_ORDER_W_rmb_wmb(acc) do { wmb(); acc; } while (0)
#define IOMAP_ORDER_R_mb(type, acc) ({ type __iomap_v; mb(); __iomap_v = (acc); mb(); __iomap_v; })
#define IOMAP_ORDER_W_mb(acc) do { mb(); acc; mb(); } while (0)
#define IOMAP_ORDER_R_locked(type, acc)						\
	({ type __iomap_v; iomap_locked_mb(); __iomap_v = (acc); iomap_locked_mb(); __iomap_v; })
#define IOMAP_ORDER_W_locked(acc) do { iomap_locked_mb(); acc; iomap_locked_mb(); } while (0)
#define IOMAP_ORDER_R_io_delay(type, acc) ({ type __iomap_v = (acc); iomap_io_delay(); __iomap_v; })
#define IOMAP_ORDER_W_io_delay(acc) do { acc; iomap_io_delay(); } while (0)

/*
 * What an access form has (the access and order of strategies.h):
 * IOMAP_AT_<access>(bits, ...) keeps its arguments when an MMIO access of
 * `bits` exists (a split has only 64), IOMAP_PORT_AT_<access>(bits, ...)
 * when a port one does (x86 has no 64-bit port instruction, so only a split
 * has 64 there; C cannot dereference a port), IOMAP_REGION_AT_<access>(bits,
 * ...) when one through a region does (one pread/pwrite of the width), and
 * IOMAP_ISSUES_<access>(bits) is the width in bytes of each device access
 * that one access of `bits` issues.  IOMAP_ORDER_MMIO_<order>(...) keeps
 * its arguments when the ordering has an MMIO form.
 */
#define IOMAP_AT_mov(bits, ...) __VA_ARGS__
#define IOMAP_AT_raw(bits, ...) __VA_ARGS__
#define IOMAP_AT_deref(bits, ...) __VA_ARGS__
#define IOMAP_AT_lohi(bits, ...) IOMAP_ONLY64_##bits(__VA_ARGS__)
#define IOMAP_AT_hilo(bits, ...) IOMAP_ONLY64_##bits(__VA_ARGS__)
#define IOMAP_PORT_AT_mov(bits, ...) IOMAP_NOT64_##bits(__VA_ARGS__)
#define IOMAP_PORT_AT_raw(bits, ...) IOMAP_NOT64_##bits(__VA_ARGS__)
#define IOMAP_PORT_AT_deref(bits, ...)
#define IOMAP_PORT_AT_lohi(bits, ...) IOMAP_ONLY64_##bits(__VA_ARGS__)
#define IOMAP_PORT_AT_hilo(bits, ...) IOMAP_ONLY64_##bits(__VA_ARGS__)
#define IOMAP_REGION_AT_mov(bits, ...) __VA_ARGS__
#define IOMAP_REGION_AT_raw(bits, ...) __VA_ARGS__
#define IOMAP_REGION_AT_deref(bits, ...)
#define IOMAP_REGION_AT_lohi(bits, ...)
#define IOMAP_REGION_AT_hilo(bits, ...)
#define IOMAP_ONLY64_8(...)
#define IOMAP_ONLY64_16(...)
#define IOMAP_ONLY64_32(...)
#define IOMAP_ONLY64_64(...) __VA_ARGS__
#define IOMAP_NOT64_8(...) __VA_ARGS__
#define IOMAP_NOT64_16(...) __VA_ARGS__
#define IOMAP_NOT64_32(...) __VA_ARGS__
#define IOMAP_NOT64_64(...)
#define IOMAP_ISSUES_mov(bits) ((bits) / 8)
#define IOMAP_ISSUES_raw(bits) ((bits) / 8)
#define IOMAP_ISSUES_deref(bits) ((bits) / 8)
#define IOMAP_ISSUES_lohi(bits) 4
#define IOMAP_ISSUES_hilo(bits) 4
#define IOMAP_ORDER_MMIO_none(...) __VA_ARGS__
#define IOMAP_ORDER_MMIO_rmb_wmb(...) __VA_ARGS__
#define IOMAP_ORDER_MMIO_mb(...) __VA_ARGS__
#define IOMAP_ORDER_MMIO_locked(...) __VA_ARGS__
#define IOMAP_ORDER_MMIO_io_delay(...)

/* iomap_readN_<id>/iomap_writeN_<id> of every strategy with an MMIO single access, at its widths. */
#define IOMAP_BUILD_SINGLE(bits, type, k, reg, wreg, id, access, order)	\
	IOMAP_AT_##access(bits,							\
static __always_inline type iomap_read##bits##_##id(const volatile void __iomem *addr) \
{ return IOMAP_ORDER_R_##order(type, IOMAP_READ_##access(type, k, reg, addr)); } \
static __always_inline void iomap_write##bits##_##id(type v, volatile void __iomem *addr) \
{ IOMAP_ORDER_W_##order(IOMAP_WRITE_##access(type, k, wreg, v, addr)); })
#define IOMAP_SINGLES(id, access, order)					\
	IOMAP_ORDER_MMIO_##order(IOMAP_WIDTHS(IOMAP_BUILD_SINGLE, id, access, order))
IOMAP_STRATEGIES(IOMAP_SINGLES)
#undef IOMAP_SINGLES
#undef IOMAP_BUILD_SINGLE

/*
 * _rep: the same register, count times (a FIFO), never a range.  x86 has no
 * string instruction that repeats one memory address, so on MMIO _rep is a
 * loop of a strategy's single access: volatile, ordered, relaxed and
 * barriered have one (fenced and locked order single accesses: a loop with
 * barriers is barriered's).  The buffer may be unaligned.  One macro serves
 * both spaces: rd/wr name the single accessors (read/write for MMIO, in/out
 * for ports), rtype/wtype their address type.
 */
#define IOMAP_BUILD_REP_LOOP(rd, wr, rtype, wtype, s, bits, type)		\
static __always_inline void iomap_##rd##bits##_rep_##s(rtype addr, void *buf, unsigned long count) \
{									\
	unsigned char *p = (unsigned char *)buf;			\
	for (; count; count--, p += sizeof(type)) {			\
		type v = iomap_##rd##bits##_##s(addr);			\
		__builtin_memcpy(p, &v, sizeof(v));			\
	}								\
}									\
static __always_inline void iomap_##wr##bits##_rep_##s(wtype addr, const void *buf, unsigned long count) \
{									\
	const unsigned char *p = (const unsigned char *)buf;		\
	for (; count; count--, p += sizeof(type)) {			\
		type v;							\
		__builtin_memcpy(&v, p, sizeof(v));			\
		iomap_##wr##bits##_##s(v, addr);			\
	}								\
}
#define IOMAP_BUILD_MMIO_REP(bits, type, k, reg, wreg, id)			\
	IOMAP_BUILD_REP_LOOP(read, write, const volatile void __iomem *, volatile void __iomem *, id, bits, type)
IOMAP_WIDTHS(IOMAP_BUILD_MMIO_REP, volatile)
IOMAP_WIDTHS(IOMAP_BUILD_MMIO_REP, ordered)
IOMAP_WIDTHS(IOMAP_BUILD_MMIO_REP, relaxed)
IOMAP_WIDTHS(IOMAP_BUILD_MMIO_REP, barriered)
#undef IOMAP_BUILD_MMIO_REP

/*
 * The kernel's names, as x86 Linux defines them: readl() is the mov with a
 * compiler barrier (IOMAP_KERNEL_SINGLE); readl_relaxed() and __raw_readl()
 * are the same mov without it (IOMAP_KERNEL_RELAXED).  On x86 an uncached
 * access is already strongly ordered, so that barrier is all readl adds; the
 * portable ordering of asm-generic is the `barriered` strategy.  readsl() and
 * writesl() (asm-generic's, which x86 uses) repeat __raw_readl on the one
 * register count times.
 */
#define IOMAP_BUILD_KERNEL_READ(name, bits, strategy)				\
static __always_inline uint##bits##_t name(const volatile void __iomem *addr) \
{ return IOMAP_CAT(iomap_read##bits##_, strategy)(addr); }
#define IOMAP_BUILD_KERNEL_WRITE(name, bits, strategy)				\
static __always_inline void name(uint##bits##_t v, volatile void __iomem *addr) \
{ IOMAP_CAT(iomap_write##bits##_, strategy)(v, addr); }
#define IOMAP_BUILD_KERNEL_READS(name, bits, strategy)				\
static __always_inline void name(const volatile void __iomem *addr, void *buffer, unsigned int count) \
{ IOMAP_CAT(iomap_read##bits##_rep_, strategy)(addr, buffer, count); }
#define IOMAP_BUILD_KERNEL_WRITES(name, bits, strategy)			\
static __always_inline void name(volatile void __iomem *addr, const void *buffer, unsigned int count) \
{ IOMAP_CAT(iomap_write##bits##_rep_, strategy)(addr, buffer, count); }
/* {read,write}{b,w,l,q}() */
IOMAP_BUILD_KERNEL_READ(readb, 8, IOMAP_KERNEL_SINGLE)
IOMAP_BUILD_KERNEL_READ(readw, 16, IOMAP_KERNEL_SINGLE)
IOMAP_BUILD_KERNEL_READ(readl, 32, IOMAP_KERNEL_SINGLE)
IOMAP_BUILD_KERNEL_READ(readq, 64, IOMAP_KERNEL_SINGLE)
IOMAP_BUILD_KERNEL_WRITE(writeb, 8, IOMAP_KERNEL_SINGLE)
IOMAP_BUILD_KERNEL_WRITE(writew, 16, IOMAP_KERNEL_SINGLE)
IOMAP_BUILD_KERNEL_WRITE(writel, 32, IOMAP_KERNEL_SINGLE)
IOMAP_BUILD_KERNEL_WRITE(writeq, 64, IOMAP_KERNEL_SINGLE)
/* {read,write}{b,w,l,q}_relaxed() */
IOMAP_BUILD_KERNEL_READ(readb_relaxed, 8, IOMAP_KERNEL_RELAXED)
IOMAP_BUILD_KERNEL_READ(readw_relaxed, 16, IOMAP_KERNEL_RELAXED)
IOMAP_BUILD_KERNEL_READ(readl_relaxed, 32, IOMAP_KERNEL_RELAXED)
IOMAP_BUILD_KERNEL_READ(readq_relaxed, 64, IOMAP_KERNEL_RELAXED)
IOMAP_BUILD_KERNEL_WRITE(writeb_relaxed, 8, IOMAP_KERNEL_RELAXED)
IOMAP_BUILD_KERNEL_WRITE(writew_relaxed, 16, IOMAP_KERNEL_RELAXED)
IOMAP_BUILD_KERNEL_WRITE(writel_relaxed, 32, IOMAP_KERNEL_RELAXED)
IOMAP_BUILD_KERNEL_WRITE(writeq_relaxed, 64, IOMAP_KERNEL_RELAXED)
/* __raw_{read,write}{b,w,l,q}() */
IOMAP_BUILD_KERNEL_READ(__raw_readb, 8, IOMAP_KERNEL_RELAXED)
IOMAP_BUILD_KERNEL_READ(__raw_readw, 16, IOMAP_KERNEL_RELAXED)
IOMAP_BUILD_KERNEL_READ(__raw_readl, 32, IOMAP_KERNEL_RELAXED)
IOMAP_BUILD_KERNEL_READ(__raw_readq, 64, IOMAP_KERNEL_RELAXED)
IOMAP_BUILD_KERNEL_WRITE(__raw_writeb, 8, IOMAP_KERNEL_RELAXED)
IOMAP_BUILD_KERNEL_WRITE(__raw_writew, 16, IOMAP_KERNEL_RELAXED)
IOMAP_BUILD_KERNEL_WRITE(__raw_writel, 32, IOMAP_KERNEL_RELAXED)
IOMAP_BUILD_KERNEL_WRITE(__raw_writeq, 64, IOMAP_KERNEL_RELAXED)
/* {read,write}s{b,w,l,q}() */
IOMAP_BUILD_KERNEL_READS(readsb, 8, IOMAP_KERNEL_RELAXED)
IOMAP_BUILD_KERNEL_READS(readsw, 16, IOMAP_KERNEL_RELAXED)
IOMAP_BUILD_KERNEL_READS(readsl, 32, IOMAP_KERNEL_RELAXED)
IOMAP_BUILD_KERNEL_READS(readsq, 64, IOMAP_KERNEL_RELAXED)
IOMAP_BUILD_KERNEL_WRITES(writesb, 8, IOMAP_KERNEL_RELAXED)
IOMAP_BUILD_KERNEL_WRITES(writesw, 16, IOMAP_KERNEL_RELAXED)
IOMAP_BUILD_KERNEL_WRITES(writesl, 32, IOMAP_KERNEL_RELAXED)
IOMAP_BUILD_KERNEL_WRITES(writesq, 64, IOMAP_KERNEL_RELAXED)
#undef IOMAP_BUILD_KERNEL_READ
#undef IOMAP_BUILD_KERNEL_WRITE
#undef IOMAP_BUILD_KERNEL_READS
#undef IOMAP_BUILD_KERNEL_WRITES

/*
 * 64-bit registers on devices that take only 32-bit accesses, as
 * <linux/io-64-nonatomic-lo-hi.h> and -hi-lo.h have them: two readl/writel
 * (or their _relaxed forms), in the order the name says.
 */
#define IOMAP_BUILD_SPLIT_NAMES(order, first, second, rel, acc)		\
static __always_inline uint64_t order##_readq##rel(const volatile void __iomem *addr) \
{									\
	return IOMAP_SPLIT_READ(acc, first, second, addr);		\
}									\
static __always_inline void order##_writeq##rel(uint64_t v, volatile void __iomem *addr) \
{									\
	IOMAP_SPLIT_WRITE(acc, first, second, v, addr);			\
}
IOMAP_BUILD_SPLIT_NAMES(lo_hi, lo, hi, , mov)
IOMAP_BUILD_SPLIT_NAMES(lo_hi, lo, hi, _relaxed, raw)
IOMAP_BUILD_SPLIT_NAMES(hi_lo, hi, lo, , mov)
IOMAP_BUILD_SPLIT_NAMES(hi_lo, hi, lo, _relaxed, raw)
#undef IOMAP_BUILD_SPLIT_NAMES

/*
 * Port I/O.  The kernel's argument order: out*(value, port).  These fault
 * (#GP, SIGSEGV) unless the process holds I/O permission for the port; the
 * port target obtains it, the trap target emulates the fault.  glibc's
 * <sys/io.h> defines the same names: do not include both.  x86 has no 64-bit
 * port instruction, so ports have three widths.  As x86 Linux: inb/outb
 * without a "memory" clobber, the string forms with one (they touch the
 * buffer), inb_p/outb_p followed by the I/O delay, and insb_p/outsb_p the
 * plain string forms (asm-generic's, which x86 does not override).
 */
/* in/out{b,w,l}(), their _p forms and the string forms, for each width: its type and mnemonic suffix */
#define IOMAP_BUILD_PORT(type, k, in, out, in_p, out_p, ins, outs, ins_p, outs_p) \
static __always_inline type in(uint16_t port) { return IOMAP_IN_raw(type, k, port); } \
static __always_inline void out(type v, uint16_t port) { IOMAP_OUT_raw(type, k, v, port); } \
static __always_inline type in_p(uint16_t port)				\
{ return IOMAP_ORDER_R_io_delay(type, in(port)); }			\
static __always_inline void out_p(type v, uint16_t port)			\
{ IOMAP_ORDER_W_io_delay(out(v, port)); }				\
static __always_inline void ins(uint16_t port, void *buf, unsigned long count) \
{ __asm__ __volatile__("rep ins" #k : "+D" (buf), "+c" (count) : "d" (port) : "memory"); } \
static __always_inline void outs(uint16_t port, const void *buf, unsigned long count) \
{ __asm__ __volatile__("rep outs" #k : "+S" (buf), "+c" (count) : "d" (port) : "memory"); } \
static __always_inline void ins_p(uint16_t port, void *buf, unsigned long count) \
{ ins(port, buf, count); }						\
static __always_inline void outs_p(uint16_t port, const void *buf, unsigned long count) \
{ outs(port, buf, count); }
IOMAP_BUILD_PORT(uint8_t, b, inb, outb, inb_p, outb_p, insb, outsb, insb_p, outsb_p)
IOMAP_BUILD_PORT(uint16_t, w, inw, outw, inw_p, outw_p, insw, outsw, insw_p, outsw_p)
IOMAP_BUILD_PORT(uint32_t, l, inl, outl, inl_p, outl_p, insl, outsl, insl_p, outsl_p)
#undef IOMAP_BUILD_PORT

/*
 * Port forms of the strategies with a single access that has one (every
 * access but deref), so that the same families run on port targets: one
 * in/out of the exact width under the strategy's ordering (a split: two
 * 32-bit ones for 64 bits).  Their _rep: a loop of it for the strategies
 * whose MMIO _rep is a loop and that have port forms, rep insX/outsX for
 * string.  A strategy without them is absent here, not substituted.
 */
#define IOMAP_BUILD_PORT_SINGLE(bits, type, k, reg, wreg, id, access, order)	\
	IOMAP_PORT_AT_##access(bits,						\
static __always_inline type iomap_in##bits##_##id(uint16_t port)		\
{ return IOMAP_ORDER_R_##order(type, IOMAP_IN_##access(type, k, port)); } \
static __always_inline void iomap_out##bits##_##id(type v, uint16_t port)	\
{ IOMAP_ORDER_W_##order(IOMAP_OUT_##access(type, k, v, port)); })
#define IOMAP_PORTS(id, access, order) IOMAP_WIDTHS(IOMAP_BUILD_PORT_SINGLE, id, access, order)
IOMAP_STRATEGIES(IOMAP_PORTS)
#undef IOMAP_PORTS
#undef IOMAP_BUILD_PORT_SINGLE
#define IOMAP_PORT_WIDTHS(X, ...)				\
	X(8,  uint8_t,  b, ##__VA_ARGS__)			\
	X(16, uint16_t, w, ##__VA_ARGS__)			\
	X(32, uint32_t, l, ##__VA_ARGS__)
#define IOMAP_BUILD_PORT_REP_LOOP(bits, type, k, id)				\
	IOMAP_BUILD_REP_LOOP(in, out, uint16_t, uint16_t, id, bits, type)
IOMAP_PORT_WIDTHS(IOMAP_BUILD_PORT_REP_LOOP, ordered)
IOMAP_PORT_WIDTHS(IOMAP_BUILD_PORT_REP_LOOP, relaxed)
IOMAP_PORT_WIDTHS(IOMAP_BUILD_PORT_REP_LOOP, barriered)
#undef IOMAP_BUILD_PORT_REP_LOOP
#undef IOMAP_BUILD_REP_LOOP
/* string's port _rep: rep insX/outsX */
static __always_inline void iomap_in8_rep_string(uint16_t port, void *buf, unsigned long count) { insb(port, buf, count); }
static __always_inline void iomap_in16_rep_string(uint16_t port, void *buf, unsigned long count) { insw(port, buf, count); }
static __always_inline void iomap_in32_rep_string(uint16_t port, void *buf, unsigned long count) { insl(port, buf, count); }
static __always_inline void iomap_out8_rep_string(uint16_t port, const void *buf, unsigned long count)
{ outsb(port, buf, count); }
static __always_inline void iomap_out16_rep_string(uint16_t port, const void *buf, unsigned long count)
{ outsw(port, buf, count); }
static __always_inline void iomap_out32_rep_string(uint16_t port, const void *buf, unsigned long count)
{ outsl(port, buf, count); }

/*
 * Cookies, exactly as the kernel's lib/iomap.c (IO_COND): ioport_map()
 * returns the port number plus IOMAP_PIO_OFFSET; a cookie from
 * IOMAP_PIO_RESERVED up is an MMIO mapping (user space never maps that low:
 * vm.mmap_min_addr is 64 KiB and the first page is never mappable); one
 * strictly above IOMAP_PIO_OFFSET and below IOMAP_PIO_RESERVED is port
 * (cookie & IOMAP_PIO_MASK); anything else is not a cookie, so port 0's
 * cookie (IOMAP_PIO_OFFSET itself) is a bad one.
 */
#define IOMAP_PIO_OFFSET	0x10000UL
#define IOMAP_PIO_MASK		0x0ffffUL
#define IOMAP_PIO_RESERVED	0x40000UL

enum iomap_cookie_kind { IOMAP_COOKIE_BAD, IOMAP_COOKIE_PIO, IOMAP_COOKIE_MMIO };

/* The one place that decodes a cookie (with iomap_cookie_port below). */
static __always_inline enum iomap_cookie_kind iomap_cookie_kind(const volatile void __iomem *cookie)
{
	uintptr_t c = (uintptr_t)(const volatile void __force *)cookie;

	if (__builtin_expect(c >= IOMAP_PIO_RESERVED, 1))
		return IOMAP_COOKIE_MMIO;
	if (c > IOMAP_PIO_OFFSET)
		return IOMAP_COOKIE_PIO;
	return IOMAP_COOKIE_BAD;
}

static __always_inline uint16_t iomap_cookie_port(const volatile void __iomem *cookie)
{
	return (uint16_t)((uintptr_t)(const volatile void __force *)cookie & IOMAP_PIO_MASK);
}

void __iomem *ioport_map(unsigned long port, unsigned int nr);
void ioport_unmap(void __iomem *cookie);

/*
 * A bad cookie: warns (through the handler below) that `access` met it.  The
 * caller then reads all-ones, as a missing device would.  Out of line: it is
 * the cold path of every generic accessor.
 */
void iomap_bad_cookie(const volatile void __iomem *cookie, const char *access);

/*
 * The generic accessors inline: the cookie decoded where the access is, with
 * no call unless the cookie is bad: what user space can afford where the
 * kernel keeps ioread32() out of line.  64-bit port I/O is two 32-bit
 * accesses, the low half first, as ioread64() of lib/iomap.c does.
 */
#define IOMAP_BUILD_INLINE_COOKIE(rname, wname, type, k, read, write, in, out)	\
static __always_inline type rname(const volatile void __iomem *addr)	\
{									\
	switch (iomap_cookie_kind(addr)) {				\
	case IOMAP_COOKIE_MMIO:						\
		return read(addr);					\
	case IOMAP_COOKIE_PIO:						\
		return in(type, k, iomap_cookie_port(addr));		\
	default:							\
		iomap_bad_cookie(addr, #rname);				\
		return (type)~(type)0;					\
	}								\
}									\
static __always_inline void wname(type v, volatile void __iomem *addr)	\
{									\
	switch (iomap_cookie_kind(addr)) {				\
	case IOMAP_COOKIE_MMIO:						\
		write(v, addr);						\
		break;							\
	case IOMAP_COOKIE_PIO:						\
		out(type, k, v, iomap_cookie_port(addr));		\
		break;							\
	default:							\
		iomap_bad_cookie(addr, #wname);				\
	}								\
}
IOMAP_BUILD_INLINE_COOKIE(iomap_ioread8_inline, iomap_iowrite8_inline, uint8_t, b, readb, writeb,
			  IOMAP_IN_raw, IOMAP_OUT_raw)
IOMAP_BUILD_INLINE_COOKIE(iomap_ioread16_inline, iomap_iowrite16_inline, uint16_t, w, readw, writew,
			  IOMAP_IN_raw, IOMAP_OUT_raw)
IOMAP_BUILD_INLINE_COOKIE(iomap_ioread32_inline, iomap_iowrite32_inline, uint32_t, l, readl, writel,
			  IOMAP_IN_raw, IOMAP_OUT_raw)
IOMAP_BUILD_INLINE_COOKIE(iomap_ioread64_inline, iomap_iowrite64_inline, uint64_t, q, readq, writeq,
			  IOMAP_IN_lohi, IOMAP_OUT_lohi)
#undef IOMAP_BUILD_INLINE_COOKIE

/*
 * The generic accessors, out of line as in the kernel (lib/iomap.c): they
 * dispatch on the cookie; a bad cookie warns and reads all-ones of the width.
 * 64-bit ones on a port are two 32-bit accesses: ioread64/iowrite64 and the
 * _lo_hi forms low half first, the _hi_lo forms high half first (the be forms
 * swap each half and take the low half from port + 4); on MMIO every one is
 * a single 64-bit access (readq/writeq), as lib/iomap.c has them.
 */
unsigned int ioread8(const volatile void __iomem *addr);
unsigned int ioread16(const volatile void __iomem *addr);
unsigned int ioread16be(const volatile void __iomem *addr);
unsigned int ioread32(const volatile void __iomem *addr);
unsigned int ioread32be(const volatile void __iomem *addr);
uint64_t ioread64(const volatile void __iomem *addr);
uint64_t ioread64be(const volatile void __iomem *addr);
uint64_t ioread64_lo_hi(const volatile void __iomem *addr);
uint64_t ioread64_hi_lo(const volatile void __iomem *addr);
uint64_t ioread64be_lo_hi(const volatile void __iomem *addr);
uint64_t ioread64be_hi_lo(const volatile void __iomem *addr);
void iowrite8(uint8_t v, volatile void __iomem *addr);
void iowrite16(uint16_t v, volatile void __iomem *addr);
void iowrite16be(uint16_t v, volatile void __iomem *addr);
void iowrite32(uint32_t v, volatile void __iomem *addr);
void iowrite32be(uint32_t v, volatile void __iomem *addr);
void iowrite64(uint64_t v, volatile void __iomem *addr);
void iowrite64be(uint64_t v, volatile void __iomem *addr);
void iowrite64_lo_hi(uint64_t v, volatile void __iomem *addr);
void iowrite64_hi_lo(uint64_t v, volatile void __iomem *addr);
void iowrite64be_lo_hi(uint64_t v, volatile void __iomem *addr);
void iowrite64be_hi_lo(uint64_t v, volatile void __iomem *addr);
void ioread8_rep(const volatile void __iomem *addr, void *dst, unsigned long count);
void ioread16_rep(const volatile void __iomem *addr, void *dst, unsigned long count);
void ioread32_rep(const volatile void __iomem *addr, void *dst, unsigned long count);
void ioread64_rep(const volatile void __iomem *addr, void *dst, unsigned long count);
void iowrite8_rep(volatile void __iomem *addr, const void *src, unsigned long count);
void iowrite16_rep(volatile void __iomem *addr, const void *src, unsigned long count);
void iowrite32_rep(volatile void __iomem *addr, const void *src, unsigned long count);
void iowrite64_rep(volatile void __iomem *addr, const void *src, unsigned long count);

/*
 * Warnings (a bad cookie) go to a handler, stderr by default, so tests and
 * programs can catch them.  Returns the previous one.
 */
typedef void (*iomap_warn_fn)(const char *msg);
iomap_warn_fn iomap_set_warn_handler(iomap_warn_fn fn);

/*
 * Range copies of every strategy that has them, in the directions it has
 * (copy.c says what each issues).  The kernel's memcpy_fromio, memcpy_toio
 * and memset_io are IOMAP_KERNEL_COPY.  The word strategies take n in bytes
 * and move n / their element whole words, in one direction.
 */
#define IOMAP_DECLARE_COPIES(id)							\
void iomap_copy_fromio_##id(void *dst, const volatile void __iomem *src, size_t n);	\
void iomap_copy_toio_##id(volatile void __iomem *dst, const void *src, size_t n);	\
void iomap_set_io_##id(volatile void __iomem *dst, int c, size_t n);
IOMAP_DECLARE_COPIES(volatile)
IOMAP_DECLARE_COPIES(relaxed)
IOMAP_DECLARE_COPIES(barriered)
IOMAP_DECLARE_COPIES(string)
IOMAP_DECLARE_COPIES(string_wide)
IOMAP_DECLARE_COPIES(kernel)
IOMAP_DECLARE_COPIES(kernel_unrolled)
IOMAP_DECLARE_COPIES(simd)
IOMAP_DECLARE_COPIES(simd_512)
IOMAP_DECLARE_COPIES(simd_nt)
#undef IOMAP_DECLARE_COPIES
void iomap_copy_toio_iowrite32_copy(volatile void __iomem *dst, const void *src, size_t n);
void iomap_copy_toio_iowrite64_copy(volatile void __iomem *dst, const void *src, size_t n);
void iomap_copy_fromio_ioread32_copy(void *dst, const volatile void __iomem *src, size_t n);

void memcpy_fromio(void *dst, const volatile void __iomem *src, size_t n);
void memcpy_toio(volatile void __iomem *dst, const void *src, size_t n);
void memset_io(volatile void __iomem *dst, int c, size_t n);

/*
 * The kernel's word copies, count in words: __iowrite32_copy (x86: rep movsl),
 * __iowrite64_copy (a __raw_writeq per word: x86 has no override of the
 * generic one), __ioread32_copy (a __raw_readl per word).  The device side
 * must be aligned to the word.
 */
void __iowrite32_copy(volatile void __iomem *to, const void *from, size_t count);
void __iowrite64_copy(volatile void __iomem *to, const void *from, size_t count);
void __ioread32_copy(void *to, const volatile void __iomem *from, size_t count);

#ifdef __cplusplus
}
#endif

#endif
