/* cookie.h: ioread32() and the other accessors on cookies: lib/iomap.c's where the architecture selects GENERIC_IOMAP, asm-generic's where not */
#ifndef IOMAP_COOKIE_H
#define IOMAP_COOKIE_H

#include "iomap/io.h"

#ifdef __cplusplus
extern "C" {
#endif

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

/* ioport_map: a cookie for port (lib/iomap.c), or PCI_IOBASE + port where ports are memory */
void __iomem *ioport_map(unsigned long port, unsigned int nr);
void ioport_unmap(void __iomem *cookie);

/*
 * A bad cookie: warns (through the handler below) that `access` met it.  The
 * caller then reads all-ones, as a missing device would.  Out of line: it is
 * the cold path of every generic accessor.
 */
void iomap_bad_cookie(const volatile void __iomem *cookie, const char *access);

/*
 * Warnings (a bad cookie) go to a handler, stderr by default, so tests and
 * programs can catch them.  Returns the previous one.
 */
typedef void (*iomap_warn_fn)(const char *msg);
iomap_warn_fn iomap_set_warn_handler(iomap_warn_fn fn);

#ifdef IOMAP_GENERIC_IOMAP
/* What ioread32 and its inline form do here, in words (the help of regbench's dispatch family). */
#define IOMAP_IOREAD32_HELP "the generic ioread32 on an MMIO cookie: an out-of-line call that decodes it"
#define IOMAP_IOREAD32_INLINE_HELP \
	"ioread32 decoded inline (iomap_ioread32_inline): the cookie check where the access is, no call"

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

#else
/*
 * An architecture without GENERIC_IOMAP (arm64), as asm-generic/io.h has it
 * in Linux v6.1: a port is memory too, in the PCI_IOBASE window where the
 * kernel maps the PCI I/O space, so ioport_map() returns PCI_IOBASE + port,
 * an ordinary MMIO address, and ioread32() is readl(): no cookie to decode,
 * no call.  ioport_map() takes the port as the kernel does (port &=
 * IO_SPACE_LIMIT; above MMIO_UPPER_LIMIT: NULL, here with errno EINVAL);
 * where the kernel would return PCI_IOBASE + port, user space has no such
 * window: NULL with errno ENODEV, and a port target reaches ports otherwise
 * (vfio's region access).  iomap_cookie_kind() above still tells a mapping from
 * the cookies lib/iomap.c would make.  The 64-bit splits are
 * <linux/io-64-nonatomic-lo-hi.h>'s and -hi-lo.h's: two ioread32, in the
 * order the name says; the be forms swap each access and find the low half at +4.
 */
#define IOMAP_IOREAD32_HELP "ioread32 without GENERIC_IOMAP: readl inline, no cookie to decode"
#define IOMAP_IOREAD32_INLINE_HELP "iomap_ioread32_inline without GENERIC_IOMAP: readl, as ioread32 is"
#define IOMAP_BUILD_COOKIE_NAMES(bits, type, k, reg, wreg)			\
static __always_inline type ioread##bits(const volatile void __iomem *addr) { return read##k(addr); } \
static __always_inline void iowrite##bits(type v, volatile void __iomem *addr) { write##k(v, addr); } \
static __always_inline type iomap_ioread##bits##_inline(const volatile void __iomem *addr) \
{ return read##k(addr); }							\
static __always_inline void iomap_iowrite##bits##_inline(type v, volatile void __iomem *addr) \
{ write##k(v, addr); }							\
static __always_inline void ioread##bits##_rep(const volatile void __iomem *addr, void *dst, unsigned long count) \
{ reads##k(addr, dst, (unsigned int)count); }				\
static __always_inline void iowrite##bits##_rep(volatile void __iomem *addr, const void *src, unsigned long count) \
{ writes##k(addr, src, (unsigned int)count); }
IOMAP_WIDTHS(IOMAP_BUILD_COOKIE_NAMES)
#undef IOMAP_BUILD_COOKIE_NAMES
/*
 * The big-endian forms as arm64's asm/io.h writes them (v6.1), not as
 * asm-generic's swab of readl: the swap (rev) inside readl's ordering, so
 * that a read swaps before its barrier and the dependency is on the swapped
 * value, and a write swaps after its barrier.
 */
#define IOMAP_BUILD_COOKIE_BE(bits, type)					\
static __always_inline type ioread##bits##be(const volatile void __iomem *addr) \
{ return IOMAP_ORDER_R_io(type, __builtin_bswap##bits(iomap_read##bits##_relaxed(addr))); } \
static __always_inline void iowrite##bits##be(type v, volatile void __iomem *addr) \
{ IOMAP_ORDER_W_io(iomap_write##bits##_relaxed(__builtin_bswap##bits(v), addr)); }
IOMAP_BUILD_COOKIE_BE(16, uint16_t)
IOMAP_BUILD_COOKIE_BE(32, uint32_t)
IOMAP_BUILD_COOKIE_BE(64, uint64_t)
#undef IOMAP_BUILD_COOKIE_BE
/* A big-endian 64-bit register's low half is the word at +4. */
#define IOMAP_HALF_BE_lo(port) ((port) + 4)
#define IOMAP_HALF_BE_hi(port) (port)
#define IOMAP_BUILD_COOKIE_SPLIT(name, first, second, rd, wr, half)		\
static __always_inline uint64_t ioread64##name(const volatile void __iomem *addr) \
{									\
	const volatile char __iomem *p = (const volatile char __iomem *)addr; \
	uint32_t __iomap_lo, __iomap_hi;				\
									\
	__iomap_##first = rd(half##first(p));				\
	__iomap_##second = rd(half##second(p));				\
	return __iomap_lo + ((uint64_t)__iomap_hi << 32);		\
}									\
static __always_inline void iowrite64##name(uint64_t v, volatile void __iomem *addr) \
{									\
	volatile char __iomem *p = (volatile char __iomem *)addr;	\
	uint32_t __iomap_lo = (uint32_t)v, __iomap_hi = (uint32_t)(v >> 32); \
									\
	wr(__iomap_##first, half##first(p));				\
	wr(__iomap_##second, half##second(p));				\
}
IOMAP_BUILD_COOKIE_SPLIT(_lo_hi, lo, hi, ioread32, iowrite32, IOMAP_HALF_)
IOMAP_BUILD_COOKIE_SPLIT(_hi_lo, hi, lo, ioread32, iowrite32, IOMAP_HALF_)
IOMAP_BUILD_COOKIE_SPLIT(be_lo_hi, lo, hi, ioread32be, iowrite32be, IOMAP_HALF_BE_)
IOMAP_BUILD_COOKIE_SPLIT(be_hi_lo, hi, lo, ioread32be, iowrite32be, IOMAP_HALF_BE_)
#undef IOMAP_BUILD_COOKIE_SPLIT
#undef IOMAP_HALF_BE_lo
#undef IOMAP_HALF_BE_hi
#endif


#ifdef __cplusplus
}
#endif

#endif
