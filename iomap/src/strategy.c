/* strategy.c: the run-time table of strategies, one entry per line of IOMAP_STRATEGIES */
#include <cpuid.h>
#include <string.h>

#include "iomap/strategy.h"

#define STR(x) STR_(x)
#define STR_(x) #x

#define SINGLE(id)								\
	.read8 = iomap_read8_##id, .read16 = iomap_read16_##id,		\
	.read32 = iomap_read32_##id, .read64 = iomap_read64_##id,		\
	.write8 = iomap_write8_##id, .write16 = iomap_write16_##id,		\
	.write32 = iomap_write32_##id, .write64 = iomap_write64_##id,
#define REP(id)									\
	.read_rep = { iomap_read8_rep_##id, iomap_read16_rep_##id,		\
		      iomap_read32_rep_##id, iomap_read64_rep_##id },		\
	.write_rep = { iomap_write8_rep_##id, iomap_write16_rep_##id,		\
		       iomap_write32_rep_##id, iomap_write64_rep_##id },
#define COPY(id)								\
	.copy_fromio = iomap_copy_fromio_##id, .copy_toio = iomap_copy_toio_##id, \
	.set_io = iomap_set_io_##id,

/* A column's value as a flag: 1 when the strategy has the form. */
#define FLAG(has) (has(1) + 0)

#define ENTRY(id_, name_, access, order, port, rep, copy_, element, feature_, help_, lacks_) { \
	.name = name_, .id = #id_, .help = help_, .lacks = lacks_,		\
	.single = FLAG(IOMAP_HAS_##access),				\
	.port_single = FLAG(IOMAP_HAS_##port) && FLAG(IOMAP_HAS_##access), \
	.mmio_rep = FLAG(IOMAP_LOOP_##rep),				\
	.port_rep = FLAG(IOMAP_HAS_##port) && FLAG(IOMAP_HAS_##rep), \
	.copy = FLAG(IOMAP_HAS_##copy_),					\
	.copy_element = element, .feature = IOMAP_FEATURE_##feature_,		\
	IOMAP_HAS_##access(SINGLE(id_)) IOMAP_LOOP_##rep(REP(id_)) IOMAP_HAS_##copy_(COPY(id_)) },

const struct iomap_strategy iomap_strategies[] = { IOMAP_STRATEGIES(ENTRY) };

const size_t iomap_nr_strategies = sizeof(iomap_strategies) / sizeof(iomap_strategies[0]);

const struct iomap_strategy *iomap_strategy_find(const char *name)
{
	for (size_t i = 0; i < iomap_nr_strategies; i++)
		if (!strcmp(iomap_strategies[i].name, name))
			return &iomap_strategies[i];
	return NULL;
}

static const struct iomap_strategy *by_id(const char *id)
{
	for (size_t i = 0; i < iomap_nr_strategies; i++)
		if (!strcmp(iomap_strategies[i].id, id))
			return &iomap_strategies[i];
	return NULL;
}

const struct iomap_strategy *iomap_strategy_kernel_single(void)
{
	return by_id(STR(IOMAP_KERNEL_SINGLE));
}

const struct iomap_strategy *iomap_strategy_kernel_copy(void)
{
	return by_id(STR(IOMAP_KERNEL_COPY));
}

/* XCR0: which register states the OS saves, so whether AVX and AVX-512 are usable at all. */
static uint64_t xcr0(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("xgetbv" : "=a" (lo), "=d" (hi) : "c" (0));
	return ((uint64_t)hi << 32) | lo;
}

const char *iomap_strategy_cpu_missing(const struct iomap_strategy *s)
{
	unsigned int a, b, c, d;
	bool avx_os, avx512_os;

	if (s->feature == IOMAP_FEATURE_none)
		return NULL;
	__cpuid(1, a, b, c, d);
	avx_os = (c & bit_OSXSAVE) && (xcr0() & 0x06) == 0x06;
	avx512_os = avx_os && (xcr0() & 0xe0) == 0xe0;
	__cpuid_count(7, 0, a, b, c, d);
	switch (s->feature) {
	case IOMAP_FEATURE_avx2:
		return avx_os && (b & bit_AVX2) ? NULL : "this CPU or OS has no AVX2";
	case IOMAP_FEATURE_avx512f:
		return avx512_os && (b & bit_AVX512F) ? NULL : "this CPU or OS has no AVX-512F";
	default:
		return "unknown CPU feature";
	}
}
