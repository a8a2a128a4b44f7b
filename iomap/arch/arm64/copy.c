/* copy.c (arm64): arm64's copy bodies: the loops, arm64 Linux's memcpy_toio, ldp/stp pairs, NEON */
#include "copy.h"

/*
 * What each arm64 copy strategy issues on the device side:
 *   a loop of single accesses     as on every architecture (copy.h): the
 *   (volatile, relaxed,           widest naturally aligned access of 1, 2, 4
 *   barriered)                    or 8 bytes that fits, each the strategy's
 *   kernel                        arm64 Linux v6.1 (arch/arm64/kernel/io.c,
 *                                 __memcpy_fromio, __memcpy_toio,
 *                                 __memset_io): __raw_readb/__raw_writeb until
 *                                 the device address is 8-byte aligned,
 *                                 __raw_readq/__raw_writeq (ldr x, str x)
 *                                 while 8 bytes remain, then bytes; no
 *                                 barrier (memcpy_toio() is the bare call)
 *   pair                          bytes until the device address is 16-byte
 *                                 aligned, one ldp or stp of two x registers
 *                                 per 16 bytes, then bytes
 *   neon                          the same shape with one ldr or str of a q
 *                                 register per 16 bytes
 * The word strategies are lib/iomap_copy.c's (copy.c).  The normal-memory
 * side may have any alignment: these are normal loads and stores there,
 * which arm64 allows unaligned.
 */

IOMAP_BUILD_COPY_LOOP(volatile)
IOMAP_BUILD_COPY_LOOP(relaxed)
IOMAP_BUILD_COPY_LOOP(barriered)

/* The head and tail of every copy here: one __raw_readb/__raw_writeb per byte, in order. */
static void iomap_copy_fromio_bytes(void *dst, const volatile void __iomem *src, size_t n)
{
	const volatile unsigned char __iomem *s = src;
	unsigned char *d = dst;

	for (size_t i = 0; i < n; i++)
		d[i] = __raw_readb(s + i);
}

static void iomap_copy_toio_bytes(volatile void __iomem *dst, const void *src, size_t n)
{
	volatile unsigned char __iomem *d = dst;
	const unsigned char *s = src;

	for (size_t i = 0; i < n; i++)
		__raw_writeb(s[i], d + i);
}

static void iomap_set_io_bytes(volatile void __iomem *dst, int c, size_t n)
{
	volatile unsigned char __iomem *d = dst;

	for (size_t i = 0; i < n; i++)
		__raw_writeb((uint8_t)c, d + i);
}

/* The kernel's body: one __raw_readq or __raw_writeq per 8 bytes (blocks of 8, device side aligned). */
static void words_from(unsigned char *d, const unsigned char *s, size_t blocks)
{
	for (; blocks; blocks--, d += 8, s += 8) {
		uint64_t v = __raw_readq((const volatile void __iomem __force *)s);

		memcpy(d, &v, 8);
	}
}

static void words_to(unsigned char *d, const unsigned char *s, size_t blocks)
{
	for (; blocks; blocks--, d += 8, s += 8) {
		uint64_t v;

		memcpy(&v, s, 8);
		__raw_writeq(v, (volatile void __iomem __force *)d);
	}
}

static void words_set(unsigned char *d, uint32_t v, size_t blocks)
{
	uint64_t q = ((uint64_t)v << 32) | v;

	for (; blocks; blocks--, d += 8)
		__raw_writeq(q, (volatile void __iomem __force *)d);
}

IOMAP_BUILD_COPY_ALIGNED(kernel, 8, bytes, words_from, words_to, words_set)

/*
 * The 16-byte bodies, each one asm loop: ldp/stp of two x registers, or
 * ldr/str of a q register.  The device side is aligned to 16; the
 * normal-memory side is not, which ldp, stp and q-register accesses allow
 * there.  Post-indexed addressing steps both pointers.  One body serves
 * both directions (the device is whichever side is aligned); each clobbers
 * v0, which only the NEON one uses.
 */
#define A64_COPY_BODY(name, ld, st)					\
static void name(unsigned char *d, const unsigned char *s, size_t blocks)	\
{									\
	uint64_t a, b;							\
									\
	if (!blocks)							\
		return;							\
	__asm__ __volatile__("1:\n\t"					\
			     ld "\n\t"					\
			     st "\n\t"					\
			     "subs %[n], %[n], #1\n\t"			\
			     "b.ne 1b"					\
			     : [s] "+r" (s), [d] "+r" (d), [n] "+r" (blocks),	\
			       [a] "=&r" (a), [b] "=&r" (b)		\
			     : : "v0", "memory", "cc");		\
}
A64_COPY_BODY(pair_body, "ldp %[a], %[b], [%[s]], #16", "stp %[a], %[b], [%[d]], #16")
A64_COPY_BODY(neon_body, "ldr q0, [%[s]], #16", "str q0, [%[d]], #16")

static void pair_set(unsigned char *d, uint32_t v, size_t blocks)
{
	uint64_t q = ((uint64_t)v << 32) | v;

	if (!blocks)
		return;
	__asm__ __volatile__("1:\n\t"
			     "stp %[q], %[q], [%[d]], #16\n\t"
			     "subs %[n], %[n], #1\n\t"
			     "b.ne 1b"
			     : [d] "+r" (d), [n] "+r" (blocks) : [q] "r" (q) : "memory", "cc");
}

static void neon_set(unsigned char *d, uint32_t v, size_t blocks)
{
	if (!blocks)
		return;
	__asm__ __volatile__("dup v0.4s, %w[v]\n\t"
			     "1:\n\t"
			     "str q0, [%[d]], #16\n\t"
			     "subs %[n], %[n], #1\n\t"
			     "b.ne 1b"
			     : [d] "+r" (d), [n] "+r" (blocks) : [v] "r" (v) : "v0", "memory", "cc");
}

IOMAP_BUILD_COPY_ALIGNED(pair, 16, bytes, pair_body, pair_body, pair_set)
IOMAP_BUILD_COPY_ALIGNED(neon, 16, bytes, neon_body, neon_body, neon_set)
