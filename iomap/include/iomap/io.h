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
 * How a strategy issues one access (the access column of strategies.h):
 * IOMAP_READ_<access>(type, k, reg, addr) is the value read,
 * IOMAP_WRITE_<access>(type, k, wreg, v, addr) the store.
 */
#define IOMAP_READ_mov(type, k, reg, addr) IOMAP_MOV_READ(type, k, reg, addr, : "memory")
#define IOMAP_WRITE_mov(type, k, wreg, v, addr) IOMAP_MOV_WRITE(type, k, wreg, v, addr, : "memory")
#define IOMAP_READ_deref(type, k, reg, addr) (*(const volatile type __force *)(addr))
#define IOMAP_WRITE_deref(type, k, wreg, v, addr) (*(volatile type __force *)(addr) = (type)(v))

/*
 * What a strategy puts around its access (the order column), the same for
 * MMIO and ports: IOMAP_ORDER_R_<order>(type, access) is the value read,
 * IOMAP_ORDER_W_<order>(access) the write as a statement.
 *   none     the access alone
 *   rmb_wmb  the portable driver's ordering: read then lfence (rmb), sfence
 *            (wmb) then write
 *   mb       mfence before and after (a full mb() around the access)
 *   locked   a locked no-op before and after
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

/* __raw_readl and friends: one mov, not even a compiler barrier. */
#define IOMAP_BUILD_RAW(bits, type, k, reg, wreg)				\
static __always_inline type iomap_read##bits##_raw(const volatile void __iomem *addr) \
{ return IOMAP_MOV_READ(type, k, reg, addr); }				\
static __always_inline void iomap_write##bits##_raw(type v, volatile void __iomem *addr) \
{ IOMAP_MOV_WRITE(type, k, wreg, v, addr); }
IOMAP_WIDTHS(IOMAP_BUILD_RAW)
#undef IOMAP_BUILD_RAW

/* iomap_readN_<id>/iomap_writeN_<id> of every strategy with a single access. */
#define IOMAP_BUILD_SINGLE(bits, type, k, reg, wreg, id, access, order)	\
static __always_inline type iomap_read##bits##_##id(const volatile void __iomem *addr) \
{ return IOMAP_ORDER_R_##order(type, IOMAP_READ_##access(type, k, reg, addr)); } \
static __always_inline void iomap_write##bits##_##id(type v, volatile void __iomem *addr) \
{ IOMAP_ORDER_W_##order(IOMAP_WRITE_##access(type, k, wreg, v, addr)); }
#define IOMAP_SINGLES(id, name, access, order, port, rep, copy, element, feature, help, lacks) \
	IOMAP_HAS_##access(IOMAP_WIDTHS(IOMAP_BUILD_SINGLE, id, access, order))
IOMAP_STRATEGIES(IOMAP_SINGLES)
#undef IOMAP_SINGLES
#undef IOMAP_BUILD_SINGLE

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
#define IOMAP_BUILD_MMIO_REP(bits, type, k, reg, wreg, id)			\
	IOMAP_BUILD_REP_LOOP(read, write, const volatile void __iomem *, volatile void __iomem *, id, bits, type)
#define IOMAP_MMIO_REPS(id, name, access, order, port, rep, copy, element, feature, help, lacks) \
	IOMAP_LOOP_##rep(IOMAP_WIDTHS(IOMAP_BUILD_MMIO_REP, id))
IOMAP_STRATEGIES(IOMAP_MMIO_REPS)
#undef IOMAP_MMIO_REPS
#undef IOMAP_BUILD_MMIO_REP

/*
 * The kernel's names.  On x86 an uncached access is already strongly ordered,
 * so readl() is readl_relaxed(): one mov with a compiler barrier
 * (IOMAP_KERNEL_SINGLE).  The portable ordering of asm-generic is the
 * `barriered` strategy.
 */
#define IOMAP_BUILD_KERNEL_NAMES(bits, type, k, reg, wreg)			\
static __always_inline type read##k(const volatile void __iomem *addr)	\
{ return IOMAP_CAT(iomap_read##bits##_, IOMAP_KERNEL_SINGLE)(addr); }	\
static __always_inline type read##k##_relaxed(const volatile void __iomem *addr) \
{ return IOMAP_CAT(iomap_read##bits##_, IOMAP_KERNEL_SINGLE)(addr); }	\
static __always_inline type __raw_read##k(const volatile void __iomem *addr) \
{ return iomap_read##bits##_raw(addr); }				\
static __always_inline void write##k(type v, volatile void __iomem *addr) \
{ IOMAP_CAT(iomap_write##bits##_, IOMAP_KERNEL_SINGLE)(v, addr); }	\
static __always_inline void write##k##_relaxed(type v, volatile void __iomem *addr) \
{ IOMAP_CAT(iomap_write##bits##_, IOMAP_KERNEL_SINGLE)(v, addr); }	\
static __always_inline void __raw_write##k(type v, volatile void __iomem *addr) \
{ iomap_write##bits##_raw(v, addr); }
IOMAP_WIDTHS(IOMAP_BUILD_KERNEL_NAMES)
#undef IOMAP_BUILD_KERNEL_NAMES

/*
 * Port I/O.  The kernel's argument order: out*(value, port).  These fault
 * (#GP, SIGSEGV) unless the process holds I/O permission for the port; the
 * port target obtains it, the trap target emulates the fault.  glibc's
 * <sys/io.h> defines the same names: do not include both.  x86 has no 64-bit
 * port instruction, so ports have three widths.
 */
#define IOMAP_PORT_WIDTHS(X, ...)				\
	X(8,  uint8_t,  b, ##__VA_ARGS__)			\
	X(16, uint16_t, w, ##__VA_ARGS__)			\
	X(32, uint32_t, l, ##__VA_ARGS__)

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
 * Port forms of the strategies that have them (port column 1), so that the
 * same families run on port targets: one in/out of the exact width under the
 * strategy's ordering; their _rep as a loop of it, or rep insX/outsX for the
 * string strategy.  A strategy without them is absent here, not substituted.
 */
#define IOMAP_BUILD_PORT_SINGLE(bits, type, k, id, order)			\
static __always_inline type iomap_in##bits##_##id(uint16_t port)		\
{ return IOMAP_ORDER_R_##order(type, in##k(port)); }			\
static __always_inline void iomap_out##bits##_##id(type v, uint16_t port)	\
{ IOMAP_ORDER_W_##order(out##k(v, port)); }
#define IOMAP_BUILD_PORT_REP_loop(bits, type, k, id)				\
	IOMAP_BUILD_REP_LOOP(in, out, uint16_t, uint16_t, id, bits, type)
#define IOMAP_BUILD_PORT_REP_string(bits, type, k, id)				\
static __always_inline void iomap_in##bits##_rep_##id(uint16_t port, void *buf, unsigned long count) \
{ ins##k(port, buf, count); }						\
static __always_inline void iomap_out##bits##_rep_##id(uint16_t port, const void *buf, unsigned long count) \
{ outs##k(port, buf, count); }
#define IOMAP_PORTS(id, name, access, order, port, rep, copy, element, feature, help, lacks) \
	IOMAP_HAS_##port(IOMAP_HAS_##access(IOMAP_PORT_WIDTHS(IOMAP_BUILD_PORT_SINGLE, id, order)) \
			 IOMAP_HAS_##rep(IOMAP_PORT_WIDTHS(IOMAP_BUILD_PORT_REP_##rep, id)))
IOMAP_STRATEGIES(IOMAP_PORTS)
#undef IOMAP_PORTS
#undef IOMAP_BUILD_PORT_SINGLE
#undef IOMAP_BUILD_PORT_REP_loop
#undef IOMAP_BUILD_PORT_REP_string
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
 * Range copies of every strategy with a copy column (copy.c says what each
 * issues).  The kernel's memcpy_fromio/memcpy_toio/memset_io are
 * IOMAP_KERNEL_COPY.
 */
#define IOMAP_DECLARE_COPY(id, name, access, order, port, rep, copy, element, feature, help, lacks) \
	IOMAP_HAS_##copy(						\
void iomap_copy_fromio_##id(void *dst, const volatile void __iomem *src, size_t n); \
void iomap_copy_toio_##id(volatile void __iomem *dst, const void *src, size_t n); \
void iomap_set_io_##id(volatile void __iomem *dst, int c, size_t n);)
IOMAP_STRATEGIES(IOMAP_DECLARE_COPY)
#undef IOMAP_DECLARE_COPY

void memcpy_fromio(void *dst, const volatile void __iomem *src, size_t n);
void memcpy_toio(volatile void __iomem *dst, const void *src, size_t n);
void memset_io(volatile void __iomem *dst, int c, size_t n);

#ifdef __cplusplus
}
#endif

#endif
