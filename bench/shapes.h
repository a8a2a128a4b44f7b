/* shapes.h: the shapes of the timed kernels (unrolled, sampled, batch) and the register each space works on, for kernels.c and chains.c */
#ifndef REGBENCH_SHAPES_H
#define REGBENCH_SHAPES_H

#include <stdint.h>

#include "iomap/io.h"
#include "clock.h"
#include "kernels.h"
#include "sampled.h"

#define UNROLL 8

#define REPEAT8(x) x x x x x x x x

/* An identity the compiler cannot see through. */
#define OPAQUE(x) __asm__ __volatile__("" : "+r" (x))

/*
 * The three kernel shapes, each one macro; setup must not contain a comma
 * outside parentheses.  UNROLLED makes name() with UNROLL copies of body per
 * iteration and name_2() with twice as many (UNROLLED_AS: not static, for
 * the kernels another file calls).
 */
#define UNROLLED_AS(linkage, name, setup, body, result)			\
static __always_inline uint64_t name##_x(const struct rb_kernel_arg *a, uint64_t iters, int twice) \
{									\
	setup;								\
	for (uint64_t i = 0; i < iters; i++) {				\
		REPEAT8(body;)						\
		if (twice) {						\
			REPEAT8(body;)					\
		}							\
	}								\
	return result;							\
}									\
linkage uint64_t name(const struct rb_kernel_arg *a, uint64_t n) { return name##_x(a, n, 0); } \
linkage uint64_t name##_2(const struct rb_kernel_arg *a, uint64_t n) { return name##_x(a, n, 1); }
#define UNROLLED(name, setup, body, result) UNROLLED_AS(static, name, setup, body, result)

/* SAMPLED times each body alone into mem[i], its start dithered, built once per timer (sampled.h). */
#define SAMPLED(name, setup, body) RB_SAMPLED(name, setup, body)

/* BATCH repeats body; the harness times the whole. */
#define BATCH(name, setup, body)						\
static uint64_t name(const struct rb_kernel_arg *a, uint64_t iters)	\
{									\
	setup;								\
	for (uint64_t i = 0; i < iters; i++)				\
		body;							\
	return 0;							\
}

/*
 * The register a kernel works on, per space: an MMIO pointer or a port
 * number.  AT(off) is the register `off` further on (chains depend on it);
 * NUM(off) is the same as a number, for the chain baselines.
 */
#define PORT_OF(io) ((uint16_t)((uintptr_t)(void __force *)(io) & IOMAP_PIO_MASK))
#define MMIO_REG volatile char __iomem *io = a->io
#define MMIO_AT(off) (io + (off))
#define MMIO_NUM(off) ((uintptr_t)(volatile void __force *)MMIO_AT(off))
#define PIO_REG uint16_t io = PORT_OF(a->io)
#define PIO_AT(off) ((uint16_t)(io + (off)))
#define PIO_NUM(off) PIO_AT(off)
/* A region's cookies (iomap/region.h) step like MMIO addresses; each access is a pread/pwrite. */
#define REGION_REG MMIO_REG
#define REGION_AT(off) MMIO_AT(off)
#define REGION_NUM(off) MMIO_NUM(off)

#endif
