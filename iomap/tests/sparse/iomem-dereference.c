/* sparse fixture: a device register read by dereferencing the __iomem pointer instead of an accessor */
#include "iomap/io.h"

uint32_t fixture_dereference(const void __iomem *base);

uint32_t fixture_dereference(const void __iomem *base)
{
	const volatile uint32_t __iomem *status = base + 4;

	return *status;	/* sparse-expect: dereference of noderef expression */
}
