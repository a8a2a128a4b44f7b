/* sparse fixture: plain memcpy from device memory where memcpy_fromio belongs */
#include <string.h>

#include "iomap/io.h"

void fixture_memcpy_from_iomem(void *dst, const void __iomem *fifo, size_t n);

void fixture_memcpy_from_iomem(void *dst, const void __iomem *fifo, size_t n)
{
	memcpy(dst, fifo, n);	/* sparse-expect: incorrect type in argument 2 (different address spaces) */
}
