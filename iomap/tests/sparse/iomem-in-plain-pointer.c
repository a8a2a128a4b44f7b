/* sparse fixture: a plain uint32_t * holding an __iomem address, passed to iowrite32 */
#include "iomap/io.h"

void fixture_plain_pointer(void __iomem *base);

void fixture_plain_pointer(void __iomem *base)
{
	/* The __force cast hides the first mistake; the call must still be caught. */
	uint32_t *reg = (uint32_t __force *)(base + 0x10);

	iowrite32(1, reg);	/* sparse-expect: incorrect type in argument 2 (different address spaces) */
}
