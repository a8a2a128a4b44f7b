/* sparse fixture: a kmalloc-style heap pointer declared and handed out as device memory */
#include <stdlib.h>

#include "iomap/io.h"

void __iomem *fixture_heap_as_iomem(size_t n);

void __iomem *fixture_heap_as_iomem(size_t n)
{
	void __iomem *regs = malloc(n);	/* sparse-expect: incorrect type in initializer (different address spaces) */

	return regs;
}
