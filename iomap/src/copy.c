/* copy.c: the copies every architecture has: lib/iomap_copy.c's word copies, the word strategies, the kernel's names */
#include "copy.h"

/*
 * The kernel's word copies, as lib/iomap_copy.c (v6.1) has them for every
 * architecture without its own: one __raw_writel, __raw_writeq or
 * __raw_readl per word, in order.  Weak, as there: x86 has its own
 * __iowrite32_copy (rep movsl).  The buffer side may be unaligned here
 * (memcpy of the word), the device side not.
 */
__attribute__((weak)) void __iowrite32_copy(volatile void __iomem *to, const void *from, size_t count)
{
	volatile unsigned char __iomem *d = to;
	const unsigned char *s = from;

	for (; count; count--, d += 4, s += 4) {
		uint32_t v;

		memcpy(&v, s, 4);
		__raw_writel(v, d);
	}
}

void __iowrite64_copy(volatile void __iomem *to, const void *from, size_t count)
{
	volatile unsigned char __iomem *d = to;
	const unsigned char *s = from;

	for (; count; count--, d += 8, s += 8) {
		uint64_t v;

		memcpy(&v, s, 8);
		__raw_writeq(v, d);
	}
}

void __ioread32_copy(void *to, const volatile void __iomem *from, size_t count)
{
	const volatile unsigned char __iomem *s = from;
	unsigned char *d = to;

	for (; count; count--, s += 4, d += 4) {
		uint32_t v = __raw_readl(s);

		memcpy(d, &v, 4);
	}
}

/* The word strategies: n bytes as n / word whole words. */
void iomap_copy_toio_iowrite32_copy(volatile void __iomem *dst, const void *src, size_t n)
{
	__iowrite32_copy(dst, src, n / 4);
}

void iomap_copy_toio_iowrite64_copy(volatile void __iomem *dst, const void *src, size_t n)
{
	__iowrite64_copy(dst, src, n / 8);
}

void iomap_copy_fromio_ioread32_copy(void *dst, const volatile void __iomem *src, size_t n)
{
	__ioread32_copy(dst, src, n / 4);
}


/* The kernel's names are the kernel strategy, on every architecture (its copy file says what that issues). */
void memcpy_fromio(void *dst, const volatile void __iomem *src, size_t n)
{
	iomap_copy_fromio_kernel(dst, src, n);
}

void memcpy_toio(volatile void __iomem *dst, const void *src, size_t n)
{
	iomap_copy_toio_kernel(dst, src, n);
}

void memset_io(volatile void __iomem *dst, int c, size_t n)
{
	iomap_set_io_kernel(dst, c, n);
}
