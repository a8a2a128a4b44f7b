/* chain-kernels.c: the chain kernels of the table and their baselines, as addresses in this program, for chain-check.sh */
#define _GNU_SOURCE
#include <link.h>
#include <stdint.h>
#include <stdio.h>

#include "iomap/target.h"
#include "kernels.h"

static uintptr_t load_bias;

/* The first object dl_iterate_phdr reports is the program itself: its load bias. */
static int first_object(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	(void)data;
	load_bias = (uintptr_t)info->dlpi_addr;
	return 1;
}

/* Where fn lies in the program file, as objdump numbers its addresses. */
static unsigned long file_address(rb_kernel_fn fn)
{
	return (unsigned long)((uintptr_t)fn - load_bias);
}

/*
 * One line per chain kernel, pairs taken from the table (never from symbol
 * names): what it is, the accesses per iteration, whether the table gives it
 * a note, then the kernel, its twin, the baseline and the baseline's twin,
 * and the device reads one access makes (two for a 64-bit split).
 */
int main(void)
{
	dl_iterate_phdr(first_object, NULL);
	for (size_t i = 0; i < rb_nr_kernels; i++) {
		const struct rb_kernel *k = &rb_kernels[i];

		/* fn NULL: another architecture's strategy, registered by name only to be skipped */
		if (k->family != &rb_families[REGBENCH_CHAIN] || !k->fn)
			continue;
		if (!k->base || !k->base_twin || !k->twin) {
			printf("%s/%s%u/%s-%s missing 0 0 0 0 0 1\n", k->family->name, k->op, k->bits, k->strategy,
			       iomap_space_name(k->space));
			continue;
		}
		printf("%s/%s%u/%s-%s %u %d %lx %lx %lx %lx %u\n", k->family->name, k->op, k->bits, k->strategy,
		       iomap_space_name(k->space), k->unroll, k->note != NULL, file_address(k->fn),
		       file_address(k->twin), file_address(k->base), file_address(k->base_twin),
		       k->widths ? k->bytes / k->widths : 1);
	}
	return 0;
}
