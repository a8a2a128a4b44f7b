/* io.h: the accessor core: kernel-compatible MMIO and port-I/O accessors, each in every strategy */
#ifndef IOMAP_IO_H
#define IOMAP_IO_H

#include <stddef.h>
#include <stdint.h>

#include "iomap/compiler.h"

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
 * Every sized accessor is generated from one macro per operation, invoked once
 * per width: X(bits, C type, kernel suffix, value register constraint,
 * store source constraint).  8-bit values need a byte-addressable register
 * ("q"); a 64-bit store immediate must fit a sign-extended 32-bit field ("e").
 */
#define IOMAP_WIDTHS(X)					\
	X(8,  uint8_t,  b, "q", "qi")			\
	X(16, uint16_t, w, "r", "ri")			\
	X(32, uint32_t, l, "r", "ri")			\
	X(64, uint64_t, q, "r", "re")

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
 * Single-access strategies (see DESIGN.md):
 *   raw        one mov, no compiler barrier (the kernel's __raw_readl)
 *   volatile   a C volatile dereference of the exact-width type
 *   relaxed    one mov with a "memory" clobber (the kernel's readl on x86)
 *   barriered  the portable driver's ordering: read then lfence, sfence then write
 *   fenced     mfence before and after the access (a full mb() around it)
 *   locked     a locked no-op before and after the access
 */
#define IOMAP_BUILD_READ(bits, type, k, reg, wreg)				\
static __always_inline type iomap_read##bits##_raw(const volatile void __iomem *addr) \
{ return IOMAP_MOV_READ(type, k, reg, addr); }				\
static __always_inline type iomap_read##bits##_relaxed(const volatile void __iomem *addr) \
{ return IOMAP_MOV_READ(type, k, reg, addr, : "memory"); }		\
static __always_inline type iomap_read##bits##_volatile(const volatile void __iomem *addr) \
{ return *(const volatile type __force *)addr; }			\
static __always_inline type iomap_read##bits##_barriered(const volatile void __iomem *addr) \
{ type v = iomap_read##bits##_relaxed(addr); rmb(); return v; }		\
static __always_inline type iomap_read##bits##_fenced(const volatile void __iomem *addr) \
{ type v; mb(); v = iomap_read##bits##_relaxed(addr); mb(); return v; }	\
static __always_inline type iomap_read##bits##_locked(const volatile void __iomem *addr) \
{ type v; iomap_locked_mb(); v = iomap_read##bits##_relaxed(addr); iomap_locked_mb(); return v; }
IOMAP_WIDTHS(IOMAP_BUILD_READ)
#undef IOMAP_BUILD_READ

#define IOMAP_BUILD_WRITE(bits, type, k, reg, wreg)				\
static __always_inline void iomap_write##bits##_raw(type v, volatile void __iomem *addr) \
{ IOMAP_MOV_WRITE(type, k, wreg, v, addr); }				\
static __always_inline void iomap_write##bits##_relaxed(type v, volatile void __iomem *addr) \
{ IOMAP_MOV_WRITE(type, k, wreg, v, addr, : "memory"); }		\
static __always_inline void iomap_write##bits##_volatile(type v, volatile void __iomem *addr) \
{ *(volatile type __force *)addr = v; }					\
static __always_inline void iomap_write##bits##_barriered(type v, volatile void __iomem *addr) \
{ wmb(); iomap_write##bits##_relaxed(v, addr); }			\
static __always_inline void iomap_write##bits##_fenced(type v, volatile void __iomem *addr) \
{ mb(); iomap_write##bits##_relaxed(v, addr); mb(); }			\
static __always_inline void iomap_write##bits##_locked(type v, volatile void __iomem *addr) \
{ iomap_locked_mb(); iomap_write##bits##_relaxed(v, addr); iomap_locked_mb(); }
IOMAP_WIDTHS(IOMAP_BUILD_WRITE)
#undef IOMAP_BUILD_WRITE

/*
 * _rep: the same register, count times (a FIFO), never a range.  x86 has no
 * string instruction that repeats one memory address, so on MMIO every loop
 * strategy is a loop of its single access.  The buffer may be unaligned.
 * One macro serves both spaces: rd/wr name the single accessors
 * (read/write for MMIO, in/out for ports), rtype/wtype their address type.
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
#define IOMAP_MMIO_REP(s, bits, type)						\
	IOMAP_BUILD_REP_LOOP(read, write, const volatile void __iomem *, volatile void __iomem *, s, bits, type)
#define IOMAP_BUILD_REP(bits, type, k, reg, wreg)				\
	IOMAP_MMIO_REP(volatile, bits, type)					\
	IOMAP_MMIO_REP(relaxed, bits, type)					\
	IOMAP_MMIO_REP(barriered, bits, type)
IOMAP_WIDTHS(IOMAP_BUILD_REP)
#undef IOMAP_BUILD_REP
#undef IOMAP_MMIO_REP

/*
 * The kernel's names.  On x86 an uncached access is already strongly ordered,
 * so readl() is readl_relaxed(): one mov with a compiler barrier.  The
 * portable ordering of asm-generic is the `barriered` strategy.
 */
#define IOMAP_BUILD_KERNEL_NAMES(bits, type, k, reg, wreg)			\
static __always_inline type read##k(const volatile void __iomem *addr)	\
{ return iomap_read##bits##_relaxed(addr); }				\
static __always_inline type read##k##_relaxed(const volatile void __iomem *addr) \
{ return iomap_read##bits##_relaxed(addr); }				\
static __always_inline type __raw_read##k(const volatile void __iomem *addr) \
{ return iomap_read##bits##_raw(addr); }				\
static __always_inline void write##k(type v, volatile void __iomem *addr) \
{ iomap_write##bits##_relaxed(v, addr); }				\
static __always_inline void write##k##_relaxed(type v, volatile void __iomem *addr) \
{ iomap_write##bits##_relaxed(v, addr); }				\
static __always_inline void __raw_write##k(type v, volatile void __iomem *addr) \
{ iomap_write##bits##_raw(v, addr); }
IOMAP_WIDTHS(IOMAP_BUILD_KERNEL_NAMES)
#undef IOMAP_BUILD_KERNEL_NAMES

/*
 * Port I/O.  The kernel's argument order: out*(value, port).  These fault
 * (#GP, SIGSEGV) unless the process holds I/O permission for the port; the
 * port target obtains it, the trap target emulates the fault.  glibc's
 * <sys/io.h> defines the same names: do not include both.
 */
#define IOMAP_PORT_WIDTHS(X)				\
	X(8,  uint8_t,  b)				\
	X(16, uint16_t, w)				\
	X(32, uint32_t, l)

#define IOMAP_BUILD_PORT(bits, type, k)						\
static __always_inline type in##k(uint16_t port)				\
{ type v; __asm__ __volatile__("in" #k " %w1, %0" : "=a" (v) : "Nd" (port) : "memory"); return v; } \
static __always_inline void out##k(type v, uint16_t port)			\
{ __asm__ __volatile__("out" #k " %0, %w1" : : "a" (v), "Nd" (port) : "memory"); } \
static __always_inline void ins##k(uint16_t port, void *buf, unsigned long count) \
{ __asm__ __volatile__("rep ins" #k : "+D" (buf), "+c" (count) : "d" (port) : "memory"); } \
static __always_inline void outs##k(uint16_t port, const void *buf, unsigned long count) \
{ __asm__ __volatile__("rep outs" #k : "+S" (buf), "+c" (count) : "d" (port) : "memory"); }
IOMAP_PORT_WIDTHS(IOMAP_BUILD_PORT)
#undef IOMAP_BUILD_PORT

/*
 * Port accesses in the single-access strategies, so that the same families
 * run on port targets: relaxed is one in/out of the exact width, barriered,
 * fenced and locked put the MMIO strategies' ordering around it.  volatile
 * has no port form (C cannot dereference a port) and x86 has no 64-bit port
 * instruction: both are absent, not substituted.
 */
#define IOMAP_BUILD_PORT_IN(bits, type, k)					\
static __always_inline type iomap_in##bits##_relaxed(uint16_t port)		\
{ return in##k(port); }							\
static __always_inline type iomap_in##bits##_barriered(uint16_t port)		\
{ type v = in##k(port); rmb(); return v; }				\
static __always_inline type iomap_in##bits##_fenced(uint16_t port)		\
{ type v; mb(); v = in##k(port); mb(); return v; }			\
static __always_inline type iomap_in##bits##_locked(uint16_t port)		\
{ type v; iomap_locked_mb(); v = in##k(port); iomap_locked_mb(); return v; }
IOMAP_PORT_WIDTHS(IOMAP_BUILD_PORT_IN)
#undef IOMAP_BUILD_PORT_IN

#define IOMAP_BUILD_PORT_OUT(bits, type, k)					\
static __always_inline void iomap_out##bits##_relaxed(type v, uint16_t port)	\
{ out##k(v, port); }							\
static __always_inline void iomap_out##bits##_barriered(type v, uint16_t port) \
{ wmb(); out##k(v, port); }						\
static __always_inline void iomap_out##bits##_fenced(type v, uint16_t port)	\
{ mb(); out##k(v, port); mb(); }					\
static __always_inline void iomap_out##bits##_locked(type v, uint16_t port)	\
{ iomap_locked_mb(); out##k(v, port); iomap_locked_mb(); }
IOMAP_PORT_WIDTHS(IOMAP_BUILD_PORT_OUT)
#undef IOMAP_BUILD_PORT_OUT

/* Port _rep as loops of single accesses; the string strategy is insX/outsX above. */
#define IOMAP_PORT_REP(s, bits, type) IOMAP_BUILD_REP_LOOP(in, out, uint16_t, uint16_t, s, bits, type)
#define IOMAP_BUILD_PORT_REP(bits, type, k)					\
	IOMAP_PORT_REP(relaxed, bits, type)					\
	IOMAP_PORT_REP(barriered, bits, type)
IOMAP_PORT_WIDTHS(IOMAP_BUILD_PORT_REP)
#undef IOMAP_BUILD_PORT_REP
#undef IOMAP_PORT_REP
#undef IOMAP_BUILD_REP_LOOP

/*
 * Cookies, as in the kernel's lib/iomap.c: ioport_map() returns the port
 * number plus IOMAP_PIO_OFFSET, so every port cookie lies in
 * [IOMAP_PIO_OFFSET, IOMAP_PIO_RESERVED); anything from IOMAP_PIO_RESERVED up
 * is an MMIO mapping (user space never maps that low: vm.mmap_min_addr is
 * 64 KiB and the first page is never mappable); anything below is not a cookie.
 */
#define IOMAP_PIO_OFFSET	0x10000UL
#define IOMAP_PIO_MASK		0x0ffffUL
#define IOMAP_PIO_RESERVED	0x40000UL

enum iomap_cookie_kind { IOMAP_COOKIE_BAD, IOMAP_COOKIE_PIO, IOMAP_COOKIE_MMIO };

static __always_inline enum iomap_cookie_kind iomap_cookie_kind(const volatile void __iomem *cookie)
{
	uintptr_t c = (uintptr_t)(const volatile void __force *)cookie;

	if (c >= IOMAP_PIO_RESERVED)
		return IOMAP_COOKIE_MMIO;
	if (c >= IOMAP_PIO_OFFSET && c - IOMAP_PIO_OFFSET <= IOMAP_PIO_MASK)
		return IOMAP_COOKIE_PIO;
	return IOMAP_COOKIE_BAD;
}

void __iomem *ioport_map(unsigned long port, unsigned int nr);
void ioport_unmap(void __iomem *cookie);

/* Generic accessors: dispatch on the cookie; a bad cookie warns and reads all-ones. */
unsigned int ioread8(const void __iomem *addr);
unsigned int ioread16(const void __iomem *addr);
unsigned int ioread16be(const void __iomem *addr);
unsigned int ioread32(const void __iomem *addr);
unsigned int ioread32be(const void __iomem *addr);
uint64_t ioread64(const void __iomem *addr);
uint64_t ioread64be(const void __iomem *addr);
void iowrite8(uint8_t v, void __iomem *addr);
void iowrite16(uint16_t v, void __iomem *addr);
void iowrite16be(uint16_t v, void __iomem *addr);
void iowrite32(uint32_t v, void __iomem *addr);
void iowrite32be(uint32_t v, void __iomem *addr);
void iowrite64(uint64_t v, void __iomem *addr);
void iowrite64be(uint64_t v, void __iomem *addr);
void ioread8_rep(const void __iomem *addr, void *dst, unsigned long count);
void ioread16_rep(const void __iomem *addr, void *dst, unsigned long count);
void ioread32_rep(const void __iomem *addr, void *dst, unsigned long count);
void ioread64_rep(const void __iomem *addr, void *dst, unsigned long count);
void iowrite8_rep(void __iomem *addr, const void *src, unsigned long count);
void iowrite16_rep(void __iomem *addr, const void *src, unsigned long count);
void iowrite32_rep(void __iomem *addr, const void *src, unsigned long count);
void iowrite64_rep(void __iomem *addr, const void *src, unsigned long count);

/*
 * Warnings (a bad cookie, 64-bit port I/O) go to a handler, stderr by
 * default, so tests and programs can catch them.  Returns the previous one.
 */
typedef void (*iomap_warn_fn)(const char *msg);
iomap_warn_fn iomap_set_warn_handler(iomap_warn_fn fn);

/*
 * Range copies in every copy strategy (copy.c says what each issues).  The
 * kernel's memcpy_fromio/memcpy_toio/memset_io are the string-wide strategy:
 * byte head and tail, the widest string element in between.
 */
#define IOMAP_COPY_STRATEGIES(X)					\
	X(volatile) X(relaxed) X(barriered) X(string) X(string_wide)	\
	X(simd) X(simd_512) X(simd_nt)

#define IOMAP_DECLARE_COPY(s)							\
void iomap_copy_fromio_##s(void *dst, const volatile void __iomem *src, size_t n); \
void iomap_copy_toio_##s(volatile void __iomem *dst, const void *src, size_t n); \
void iomap_set_io_##s(volatile void __iomem *dst, int c, size_t n);
IOMAP_COPY_STRATEGIES(IOMAP_DECLARE_COPY)
#undef IOMAP_DECLARE_COPY

void memcpy_fromio(void *dst, const volatile void __iomem *src, size_t n);
void memcpy_toio(volatile void __iomem *dst, const void *src, size_t n);
void memset_io(volatile void __iomem *dst, int c, size_t n);

#ifdef __cplusplus
}
#endif

#endif
