/* strategy.h: the strategies by name, with a function-pointer table each for C callers and dispatch costs */
#ifndef IOMAP_STRATEGY_H
#define IOMAP_STRATEGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "iomap/io.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The inline accessors in io.h are the fast path.  This table is what a
 * caller uses to pick a strategy by name at run time; calling through it
 * costs an indirect call, which the `dispatch` family measures.  A NULL entry
 * means the strategy does not define that operation (the strategy's `why_not`
 * texts say so); a strategy never falls back to another one.
 */
struct iomap_strategy {
	const char *name;		/* as on the command line and in benchmark names */
	const char *help;		/* one line: which instructions it issues */

	uint8_t  (*read8)(const volatile void __iomem *addr);
	uint16_t (*read16)(const volatile void __iomem *addr);
	uint32_t (*read32)(const volatile void __iomem *addr);
	uint64_t (*read64)(const volatile void __iomem *addr);
	void (*write8)(uint8_t v, volatile void __iomem *addr);
	void (*write16)(uint16_t v, volatile void __iomem *addr);
	void (*write32)(uint32_t v, volatile void __iomem *addr);
	void (*write64)(uint64_t v, volatile void __iomem *addr);

	/* _rep on MMIO; `string` has none (x86 cannot repeat one memory address) */
	void (*read_rep[4])(const volatile void __iomem *addr, void *buf, unsigned long count);
	void (*write_rep[4])(volatile void __iomem *addr, const void *buf, unsigned long count);

	void (*copy_fromio)(void *dst, const volatile void __iomem *src, size_t n);
	void (*copy_toio)(volatile void __iomem *dst, const void *src, size_t n);
	void (*set_io)(volatile void __iomem *dst, int c, size_t n);

	size_t copy_element;		/* widest access its copies issue, in bytes */
	const char *cpu_feature;	/* "avx2" or "avx512f" when it needs one, else NULL */
	const char *why_no_single;	/* why it has no single access, or NULL */
	const char *why_no_rep;		/* why it has no MMIO _rep, or NULL */
	const char *why_no_copy;	/* why it has no copy/set, or NULL */
};

extern const struct iomap_strategy iomap_strategies[];
extern const size_t iomap_nr_strategies;

/* The strategy called name, or NULL. */
const struct iomap_strategy *iomap_strategy_find(const char *name);

/* NULL when this CPU can execute the strategy's instructions, else why not. */
const char *iomap_strategy_cpu_missing(const struct iomap_strategy *s);

/* Index into read_rep/write_rep for a width in bits (8..64), or -1. */
static inline int iomap_width_index(unsigned int bits)
{
	switch (bits) {
	case 8:  return 0;
	case 16: return 1;
	case 32: return 2;
	case 64: return 3;
	default: return -1;
	}
}

#ifdef __cplusplus
}
#endif

#endif
