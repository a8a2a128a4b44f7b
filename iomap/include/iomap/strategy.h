/* strategy.h: every strategy at run time: what it can do, by name, with a function-pointer table each */
#ifndef IOMAP_STRATEGY_H
#define IOMAP_STRATEGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "iomap/io.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a strategy's instructions need of the CPU. */
enum iomap_cpu_feature { IOMAP_FEATURE_none, IOMAP_FEATURE_avx2, IOMAP_FEATURE_avx512f, IOMAP_FEATURE_asimd };

/*
 * The inline accessors in io.h are the fast path.  This table, one row per
 * strategy (strategy.c), says what each can do and is what a caller uses to
 * pick a strategy by name at run time; calling through it costs an indirect call,
 * which regbench's dispatch family measures.  A form the strategy lacks has
 * NULL pointers and a false flag (`lacks` says why); a strategy never falls
 * back to another one.
 */
struct iomap_strategy {
	const char *name;		/* as on the command line and in benchmark names */
	const char *id;			/* the C identifier of its accessors */
	const char *help;		/* one line: which instructions it issues */
	const char *lacks;		/* what it does not do and why, or "" */
	const char *absent;		/* why this architecture has none of its forms (another one's), or NULL */

	bool single;			/* readN/writeN on MMIO, at single_widths */
	unsigned int single_widths;	/* the widths it has them in, as a sum of byte counts (8: 64-bit only) */
	unsigned int single_issues64;	/* the width of each device access its 64-bit access issues (a split: 4) */
	bool port_single;		/* inN/outN, at port_widths (x86 has no 64-bit port I/O: only a split has 64) */
	unsigned int port_widths;
	unsigned int delay_port;	/* a port its ordering writes besides the register (0x80: I/O delay), or 0 */
	bool mmio_rep;			/* _rep on one MMIO register */
	bool port_rep;			/* _rep on one port */
	bool copy;			/* any of copy_fromio, copy_toio, set_io */
	unsigned int copy_widths;	/* the widths its copies issue, as a sum of byte counts */
	unsigned int copy_element;	/* the widest of them */
	bool copy_words;		/* copies only whole copy_element words, at an aligned device address */
	enum iomap_cpu_feature feature;

	uint8_t  (*read8)(const volatile void __iomem *addr);
	uint16_t (*read16)(const volatile void __iomem *addr);
	uint32_t (*read32)(const volatile void __iomem *addr);
	uint64_t (*read64)(const volatile void __iomem *addr);
	void (*write8)(uint8_t v, volatile void __iomem *addr);
	void (*write16)(uint16_t v, volatile void __iomem *addr);
	void (*write32)(uint32_t v, volatile void __iomem *addr);
	void (*write64)(uint64_t v, volatile void __iomem *addr);

	/* _rep on MMIO, indexed by iomap_width_index() */
	void (*read_rep[4])(const volatile void __iomem *addr, void *buf, unsigned long count);
	void (*write_rep[4])(volatile void __iomem *addr, const void *buf, unsigned long count);

	/* the copies; a word strategy has one direction only, the others NULL */
	void (*copy_fromio)(void *dst, const volatile void __iomem *src, size_t n);
	void (*copy_toio)(volatile void __iomem *dst, const void *src, size_t n);
	void (*set_io)(volatile void __iomem *dst, int c, size_t n);
};

extern const struct iomap_strategy iomap_strategies[];
extern const size_t iomap_nr_strategies;

/* The strategy called name, or NULL. */
const struct iomap_strategy *iomap_strategy_find(const char *name);

/* The strategy whose accessors carry id (iomap_read32_<id>: lo_hi for lo-hi), or NULL. */
const struct iomap_strategy *iomap_strategy_find_id(const char *id);

/*
 * The strategies the kernel's readX/writeX, readX_relaxed/__raw_readX and
 * memcpy_*io/memset_io are on every architecture: ordered, relaxed, kernel.
 */
const struct iomap_strategy *iomap_strategy_kernel_single(void);
const struct iomap_strategy *iomap_strategy_kernel_relaxed(void);
const struct iomap_strategy *iomap_strategy_kernel_copy(void);

/*
 * NULL when this CPU can execute the strategy's instructions, else why not
 * (a strategy of another architecture: its row's absent).
 */
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
