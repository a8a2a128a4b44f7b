/* sparse fixture: an accessor applied to normal memory, the mistake in the other direction */
#include "iomap/io.h"

uint32_t fixture_readl_normal(const uint32_t *shadow);

uint32_t fixture_readl_normal(const uint32_t *shadow)
{
	return readl(shadow);	/* sparse-expect: incorrect type in argument 1 (different address spaces) */
}
