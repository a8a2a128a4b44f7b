/* strategy.c: the run-time table of strategies, one entry per line of IOMAP_STRATEGIES */
#include <cpuid.h>
#include <string.h>

#include "iomap/strategy.h"

#define STR(x) STR_(x)
#define STR_(x) #x

/* The single accessors of each width the access column has (a split has only 64). */
#define SINGLE_AT(bits, type, k, reg, wreg, id, access)				\
	IOMAP_AT_##access(bits, .read##bits = iomap_read##bits##_##id, .write##bits = iomap_write##bits##_##id,)
#define SINGLE(id, access) IOMAP_WIDTHS(SINGLE_AT, id, access)
#define REP(id)									\
	.read_rep = { iomap_read8_rep_##id, iomap_read16_rep_##id,		\
		      iomap_read32_rep_##id, iomap_read64_rep_##id },		\
	.write_rep = { iomap_write8_rep_##id, iomap_write16_rep_##id,		\
		       iomap_write32_rep_##id, iomap_write64_rep_##id },
#define COPY(id, copy)								\
	IOMAP_FROMIO_##copy(.copy_fromio = iomap_copy_fromio_##id,)		\
	IOMAP_TOIO_##copy(.copy_toio = iomap_copy_toio_##id,)			\
	IOMAP_SET_##copy(.set_io = iomap_set_io_##id,)

/* A column's value as a flag: 1 when the strategy has the form. */
#define FLAG(has) (has(1) + 0)
/* The widths (as a sum of byte counts) at which an access kind has a form. */
#define WIDTH_BYTES(bits, type, k, reg, wreg, at) at(bits, bits / 8 +)
#define WIDTHS_OF(at) (IOMAP_WIDTHS(WIDTH_BYTES, at) 0)

#define ENTRY(id_, name_, access, order, port, rep, copy_, widths, feature_, help_, lacks_) { \
	.name = name_, .id = #id_, .help = help_, .lacks = lacks_,		\
	.single = FLAG(IOMAP_HAS_##access) && FLAG(IOMAP_ORDER_MMIO_##order), \
	.single_widths = FLAG(IOMAP_ORDER_MMIO_##order) ? WIDTHS_OF(IOMAP_AT_##access) : 0, \
	.single_issues64 = IOMAP_ISSUES_##access(64),			\
	.port_single = FLAG(IOMAP_HAS_##port) && FLAG(IOMAP_HAS_##access), \
	.port_widths = FLAG(IOMAP_HAS_##port) ? WIDTHS_OF(IOMAP_PORT_AT_##access) : 0, \
	.delay_port = IOMAP_DELAY_PORT_##order,				\
	.mmio_rep = FLAG(IOMAP_LOOP_##rep),				\
	.port_rep = FLAG(IOMAP_HAS_##port) && FLAG(IOMAP_HAS_##rep), \
	.copy = FLAG(IOMAP_HAS_##copy_),					\
	.copy_widths = widths, .copy_element = IOMAP_WIDEST(widths),		\
	.copy_words = IOMAP_WORDS_##copy_, .feature = IOMAP_FEATURE_##feature_,	\
	IOMAP_HAS_##access(IOMAP_ORDER_MMIO_##order(SINGLE(id_, access)))	\
	IOMAP_LOOP_##rep(REP(id_)) IOMAP_HAS_##copy_(COPY(id_, copy_)) },

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

const struct iomap_strategy *iomap_strategy_kernel_relaxed(void)
{
	return by_id(STR(IOMAP_KERNEL_RELAXED));
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
