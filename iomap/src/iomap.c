/* iomap.c: the warning handler, ioport_map, and lib/iomap.c's ioread/iowrite that dispatch on cookies (GENERIC_IOMAP) */
#include <errno.h>
#include <stdio.h>

#include "iomap/io.h"

static void warn_stderr(const char *msg)
{
	fprintf(stderr, "iomap: %s\n", msg);
}

static iomap_warn_fn warn_handler = warn_stderr;

iomap_warn_fn iomap_set_warn_handler(iomap_warn_fn fn)
{
	iomap_warn_fn old = warn_handler;

	warn_handler = fn ? fn : warn_stderr;
	return old;
}

void iomap_bad_cookie(const volatile void __iomem *addr, const char *access)
{
	char msg[128];

	snprintf(msg, sizeof(msg), "bad I/O cookie %p in %s (not from ioport_map or a target mapping)",
		 (const volatile void __force *)addr, access);
	warn_handler(msg);
}

void ioport_unmap(void __iomem *cookie)
{
	(void)cookie;
}

#ifndef IOMAP_GENERIC_IOMAP
/*
 * Where ports are memory (arm64), asm-generic's ioport_map: the port masked
 * to the I/O space, NULL above the part it maps (errno EINVAL here), else
 * PCI_IOBASE + port, a window only the kernel has: user space returns NULL
 * with errno ENODEV instead (cookie.h says more).
 */
void __iomem *ioport_map(unsigned long port, unsigned int nr)
{
	(void)nr;
	port &= IOMAP_IO_SPACE_LIMIT;
	if (port > IOMAP_MMIO_UPPER_LIMIT) {
		errno = EINVAL;
		return NULL;
	}
	errno = ENODEV;
	return NULL;
}
#else
void __iomem *ioport_map(unsigned long port, unsigned int nr)
{
	(void)nr;
	if (port > IOMAP_PIO_MASK)
		return NULL;
	return (void __iomem __force *)(port + IOMAP_PIO_OFFSET);
}

/*
 * Run is_pio with `port` for a port cookie, is_mmio for a mapping, and warn
 * for anything else (the caller then returns all-ones, as a read of a
 * missing device would).  iomap_cookie_kind() decides.
 */
#define IOMAP_DISPATCH(addr, access, is_pio, is_mmio) do {		\
	switch (iomap_cookie_kind(addr)) {				\
	case IOMAP_COOKIE_PIO: {					\
		uint16_t port = iomap_cookie_port(addr);		\
		(void)port;						\
		is_pio;							\
		break;							\
	}								\
	case IOMAP_COOKIE_MMIO:						\
		is_mmio;						\
		break;							\
	default:							\
		iomap_bad_cookie(addr, access);				\
	}								\
} while (0)

/*
 * Big-endian halves of a 64-bit port register, as lib/iomap.c reads them:
 * the low half (less significant) is the word at port + 4, byte-swapped.
 */
#define IOMAP_HALF_BE_lo(port) ((port) + 4)
#define IOMAP_HALF_BE_hi(port) (port)
#define PIO_READ64BE(first, second) ({					\
	uint32_t __iomap_lo, __iomap_hi;					\
	__iomap_##first = __builtin_bswap32(inl(IOMAP_HALF_BE_##first(port)));	\
	__iomap_##second = __builtin_bswap32(inl(IOMAP_HALF_BE_##second(port)));	\
	((uint64_t)__iomap_hi << 32) | __iomap_lo; })
#define PIO_WRITE64BE(first, second) do {					\
	uint32_t __iomap_lo = (uint32_t)v;						\
	uint32_t __iomap_hi = (uint32_t)(v >> 32);				\
	outl(__builtin_bswap32(__iomap_##first), IOMAP_HALF_BE_##first(port));	\
	outl(__builtin_bswap32(__iomap_##second), IOMAP_HALF_BE_##second(port));	\
} while (0)

/*
 * X(name, return type, all-ones of the access width, pio read, mmio read).
 * A failed read returns all-ones of its width, as a missing device would:
 * ioread8 gives 0xff, not 0xffffffff.
 */
#define IOMAP_GENERIC_READS(X)							\
	X(ioread8,    unsigned int, 0xffU,       return inb(port), return readb(addr)) \
	X(ioread16,   unsigned int, 0xffffU,     return inw(port), return readw(addr)) \
	X(ioread16be, unsigned int, 0xffffU,     return __builtin_bswap16(inw(port)), \
						 return __builtin_bswap16(__raw_readw(addr))) \
	X(ioread32,   unsigned int, 0xffffffffU, return inl(port), return readl(addr)) \
	X(ioread32be, unsigned int, 0xffffffffU, return __builtin_bswap32(inl(port)), \
						 return __builtin_bswap32(__raw_readl(addr))) \
	X(ioread64,   uint64_t, ~0ULL, return IOMAP_IN_lohi(uint64_t, q, port), return readq(addr)) \
	X(ioread64_lo_hi, uint64_t, ~0ULL, return IOMAP_IN_lohi(uint64_t, q, port), return readq(addr)) \
	X(ioread64_hi_lo, uint64_t, ~0ULL, return IOMAP_IN_hilo(uint64_t, q, port), return readq(addr)) \
	X(ioread64be, uint64_t, ~0ULL, return PIO_READ64BE(lo, hi), return __builtin_bswap64(readq(addr))) \
	X(ioread64be_lo_hi, uint64_t, ~0ULL, return PIO_READ64BE(lo, hi),	\
						 return __builtin_bswap64(readq(addr))) \
	X(ioread64be_hi_lo, uint64_t, ~0ULL, return PIO_READ64BE(hi, lo),	\
						 return __builtin_bswap64(readq(addr)))

#define IOMAP_BUILD_GENERIC_READ(name, type, ones, pio, mmio)			\
type name(const volatile void __iomem *addr)				\
{									\
	IOMAP_DISPATCH(addr, #name, pio, mmio);				\
	return ones;							\
}
IOMAP_GENERIC_READS(IOMAP_BUILD_GENERIC_READ)
#undef IOMAP_BUILD_GENERIC_READ

/* X(name, value type, pio write, mmio write) */
#define IOMAP_GENERIC_WRITES(X)							\
	X(iowrite8,    uint8_t,  outb(v, port), writeb(v, addr))		\
	X(iowrite16,   uint16_t, outw(v, port), writew(v, addr))		\
	X(iowrite16be, uint16_t, outw(__builtin_bswap16(v), port),		\
				 __raw_writew(__builtin_bswap16(v), addr))	\
	X(iowrite32,   uint32_t, outl(v, port), writel(v, addr))		\
	X(iowrite32be, uint32_t, outl(__builtin_bswap32(v), port),		\
				 __raw_writel(__builtin_bswap32(v), addr))	\
	X(iowrite64,   uint64_t, IOMAP_OUT_lohi(uint64_t, q, v, port), writeq(v, addr)) \
	X(iowrite64_lo_hi, uint64_t, IOMAP_OUT_lohi(uint64_t, q, v, port), writeq(v, addr)) \
	X(iowrite64_hi_lo, uint64_t, IOMAP_OUT_hilo(uint64_t, q, v, port), writeq(v, addr)) \
	X(iowrite64be, uint64_t, PIO_WRITE64BE(lo, hi), writeq(__builtin_bswap64(v), addr)) \
	X(iowrite64be_lo_hi, uint64_t, PIO_WRITE64BE(lo, hi), writeq(__builtin_bswap64(v), addr)) \
	X(iowrite64be_hi_lo, uint64_t, PIO_WRITE64BE(hi, lo), writeq(__builtin_bswap64(v), addr))

#define IOMAP_BUILD_GENERIC_WRITE(name, type, pio, mmio)			\
void name(type v, volatile void __iomem *addr)				\
{									\
	IOMAP_DISPATCH(addr, #name, pio, mmio);				\
}
IOMAP_GENERIC_WRITES(IOMAP_BUILD_GENERIC_WRITE)
#undef IOMAP_BUILD_GENERIC_WRITE

/*
 * 64-bit _rep on a port: x86 has no 64-bit string port instruction; each
 * element is two 32-bit accesses, low half first, as ioread64() does.
 */
static void pio_read64_rep(uint16_t port, void *dst, unsigned long count)
{
	for (unsigned char *p = dst; count; count--, p += 8) {
		uint64_t v = IOMAP_IN_lohi(uint64_t, q, port);

		__builtin_memcpy(p, &v, 8);
	}
}

static void pio_write64_rep(uint16_t port, const void *src, unsigned long count)
{
	for (const unsigned char *p = src; count; count--, p += 8) {
		uint64_t v;

		__builtin_memcpy(&v, p, 8);
		IOMAP_OUT_lohi(uint64_t, q, v, port);
	}
}

/*
 * _rep: on a port cookie the string instruction (rep insX/outsX), on MMIO
 * readsX/writesX (a loop of __raw_readX on the one register, as lib/iomap.c's
 * mmio_insl).  A bad cookie fills the destination with all-ones, as count
 * reads of a missing device would.
 */
#define IOMAP_BUILD_GENERIC_REP(bits, pio_read, pio_write)			\
void ioread##bits##_rep(const volatile void __iomem *addr, void *dst, unsigned long count) \
{									\
	IOMAP_DISPATCH(addr, "ioread" #bits "_rep", pio_read,		\
		       iomap_read##bits##_rep_relaxed(addr, dst, count)); \
	if (iomap_cookie_kind(addr) == IOMAP_COOKIE_BAD)		\
		__builtin_memset(dst, 0xff, count * (bits / 8));	\
}									\
void iowrite##bits##_rep(volatile void __iomem *addr, const void *src, unsigned long count) \
{									\
	IOMAP_DISPATCH(addr, "iowrite" #bits "_rep", pio_write,		\
		       iomap_write##bits##_rep_relaxed(addr, src, count)); \
}
IOMAP_BUILD_GENERIC_REP(8, insb(port, dst, count), outsb(port, src, count))
IOMAP_BUILD_GENERIC_REP(16, insw(port, dst, count), outsw(port, src, count))
IOMAP_BUILD_GENERIC_REP(32, insl(port, dst, count), outsl(port, src, count))
IOMAP_BUILD_GENERIC_REP(64, pio_read64_rep(port, dst, count), pio_write64_rep(port, src, count))
#undef IOMAP_BUILD_GENERIC_REP
#endif
