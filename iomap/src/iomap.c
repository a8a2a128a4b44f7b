/* iomap.c: ioport_map cookies and the generic ioread/iowrite accessors that dispatch on them */
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

static void bad_io_access(const volatile void __iomem *addr, const char *access)
{
	char msg[128];

	snprintf(msg, sizeof(msg), "bad I/O cookie %p in %s (not from ioport_map or a target mapping)",
		 (const void __force *)addr, access);
	warn_handler(msg);
}

void __iomem *ioport_map(unsigned long port, unsigned int nr)
{
	(void)nr;
	if (port > IOMAP_PIO_MASK)
		return NULL;
	return (void __iomem __force *)(port + IOMAP_PIO_OFFSET);
}

void ioport_unmap(void __iomem *cookie)
{
	(void)cookie;
}

static uint16_t cookie_port(const volatile void __iomem *addr)
{
	return (uint16_t)((uintptr_t)(const volatile void __force *)addr & IOMAP_PIO_MASK);
}

/*
 * The one place that decodes a cookie: run is_pio with `port` for a port
 * cookie, is_mmio for a mapping, and warn for anything else (the caller then
 * returns all-ones, as a read of a missing device would).
 */
#define IOMAP_DISPATCH(addr, access, is_pio, is_mmio) do {		\
	switch (iomap_cookie_kind(addr)) {				\
	case IOMAP_COOKIE_PIO: {					\
		uint16_t port = cookie_port(addr);			\
		(void)port;						\
		is_pio;							\
		break;							\
	}								\
	case IOMAP_COOKIE_MMIO:						\
		is_mmio;						\
		break;							\
	default:							\
		bad_io_access(addr, access);				\
	}								\
} while (0)

/* x86 has no 64-bit port instruction: a 64-bit access to a port cookie is refused. */
static void no_pio64(const volatile void __iomem *addr, const char *access)
{
	char msg[128];

	snprintf(msg, sizeof(msg), "%s on port cookie %p: no 64-bit port I/O on x86 (use two 32-bit accesses)",
		 access, (const void __force *)addr);
	warn_handler(msg);
}
#define NO_PIO64(access) no_pio64(addr, access)

/*
 * X(name, return type, all-ones of the access width, pio read, mmio read).
 * A failed read returns all-ones of its width, as a missing device would:
 * ioread8 gives 0xff, not 0xffffffff.
 */
#define IOMAP_GENERIC_READS(X)							\
	X(ioread8,    unsigned int, 0xffU,       return inb(port), return readb(addr)) \
	X(ioread16,   unsigned int, 0xffffU,     return inw(port), return readw(addr)) \
	X(ioread16be, unsigned int, 0xffffU,     return __builtin_bswap16(inw(port)), \
						 return __builtin_bswap16(readw(addr))) \
	X(ioread32,   unsigned int, 0xffffffffU, return inl(port), return readl(addr)) \
	X(ioread32be, unsigned int, 0xffffffffU, return __builtin_bswap32(inl(port)), \
						 return __builtin_bswap32(readl(addr))) \
	X(ioread64,   uint64_t,     ~0ULL,       NO_PIO64("ioread64"), return readq(addr)) \
	X(ioread64be, uint64_t,     ~0ULL,       NO_PIO64("ioread64be"),	\
						 return __builtin_bswap64(readq(addr)))

#define IOMAP_BUILD_GENERIC_READ(name, type, ones, pio, mmio)			\
type name(const void __iomem *addr)					\
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
				 writew(__builtin_bswap16(v), addr))		\
	X(iowrite32,   uint32_t, outl(v, port), writel(v, addr))		\
	X(iowrite32be, uint32_t, outl(__builtin_bswap32(v), port),		\
				 writel(__builtin_bswap32(v), addr))		\
	X(iowrite64,   uint64_t, NO_PIO64("iowrite64"), writeq(v, addr))	\
	X(iowrite64be, uint64_t, NO_PIO64("iowrite64be"),			\
				 writeq(__builtin_bswap64(v), addr))

#define IOMAP_BUILD_GENERIC_WRITE(name, type, pio, mmio)			\
void name(type v, void __iomem *addr)					\
{									\
	IOMAP_DISPATCH(addr, #name, pio, mmio);				\
}
IOMAP_GENERIC_WRITES(IOMAP_BUILD_GENERIC_WRITE)
#undef IOMAP_BUILD_GENERIC_WRITE

/*
 * _rep: on a port cookie the string instruction (rep insX/outsX), on MMIO a
 * loop of relaxed accesses to the one register.  A bad cookie fills the
 * destination with all-ones, as count reads of a missing device would.
 */
#define IOMAP_BUILD_GENERIC_REP(bits, pio_read, pio_write)			\
void ioread##bits##_rep(const void __iomem *addr, void *dst, unsigned long count) \
{									\
	IOMAP_DISPATCH(addr, "ioread" #bits "_rep", pio_read,		\
		       iomap_read##bits##_rep_relaxed(addr, dst, count));	\
	if (iomap_cookie_kind(addr) == IOMAP_COOKIE_BAD)		\
		__builtin_memset(dst, 0xff, count * (bits / 8));	\
}									\
void iowrite##bits##_rep(void __iomem *addr, const void *src, unsigned long count) \
{									\
	IOMAP_DISPATCH(addr, "iowrite" #bits "_rep", pio_write,		\
		       iomap_write##bits##_rep_relaxed(addr, src, count));	\
}
IOMAP_BUILD_GENERIC_REP(8,  insb(port, dst, count), outsb(port, src, count))
IOMAP_BUILD_GENERIC_REP(16, insw(port, dst, count), outsw(port, src, count))
IOMAP_BUILD_GENERIC_REP(32, insl(port, dst, count), outsl(port, src, count))
IOMAP_BUILD_GENERIC_REP(64, (NO_PIO64("ioread64_rep"), __builtin_memset(dst, 0xff, count * 8)),
			NO_PIO64("iowrite64_rep"))
#undef IOMAP_BUILD_GENERIC_REP
