/* strategy.c: the table of strategies, by name, with pointers to their out-of-line copies */
#include <cpuid.h>
#include <string.h>

#include "iomap/strategy.h"

#define SINGLE(s)								\
	.read8 = iomap_read8_##s, .read16 = iomap_read16_##s,			\
	.read32 = iomap_read32_##s, .read64 = iomap_read64_##s,		\
	.write8 = iomap_write8_##s, .write16 = iomap_write16_##s,		\
	.write32 = iomap_write32_##s, .write64 = iomap_write64_##s
#define REP(s)									\
	.read_rep = { iomap_read8_rep_##s, iomap_read16_rep_##s,		\
		      iomap_read32_rep_##s, iomap_read64_rep_##s },		\
	.write_rep = { iomap_write8_rep_##s, iomap_write16_rep_##s,		\
		       iomap_write32_rep_##s, iomap_write64_rep_##s }
#define COPY(s, element)							\
	.copy_fromio = iomap_copy_fromio_##s, .copy_toio = iomap_copy_toio_##s,	\
	.set_io = iomap_set_io_##s, .copy_element = element

static const char ordering_only[] =
	"it orders single accesses; loops and copies with barriers are the barriered strategy";
static const char ranges_only[] = "it moves ranges; a single access is one mov (the relaxed strategy)";
static const char no_mmio_rep[] =
	"x86 has no string instruction that repeats one memory address; string _rep is rep insX/outsX on port targets";
static const char vector_no_rep[] = "vector accesses move ranges, not one register count times";

const struct iomap_strategy iomap_strategies[] = {
	{ .name = "volatile", .help = "C volatile dereference of the exact-width type",
	  SINGLE(volatile), REP(volatile), COPY(volatile, 8) },
	{ .name = "relaxed", .help = "one inline-asm mov of the exact width with a compiler barrier (x86 readl)",
	  SINGLE(relaxed), REP(relaxed), COPY(relaxed, 8) },
	{ .name = "barriered", .help = "portable ordering: read then lfence, sfence then write",
	  SINGLE(barriered), REP(barriered), COPY(barriered, 8) },
	{ .name = "fenced", .help = "mfence before and after the access",
	  SINGLE(fenced), .why_no_rep = ordering_only, .why_no_copy = ordering_only },
	{ .name = "locked", .help = "a locked no-op (lock or $0,(%rsp)) before and after the access",
	  SINGLE(locked), .why_no_rep = ordering_only, .why_no_copy = ordering_only },
	{ .name = "string", .help = "rep movsb / rep stosb (byte elements); rep insX/outsX for port _rep",
	  COPY(string, 1), .why_no_single = ranges_only, .why_no_rep = no_mmio_rep },
	{ .name = "string-wide", .help = "byte head and tail, rep movsq / rep stosq between",
	  COPY(string_wide, 8), .why_no_single = ranges_only, .why_no_rep = no_mmio_rep },
	{ .name = "simd", .help = "AVX2 32-byte aligned loads/stores, relaxed head and tail",
	  COPY(simd, 32), .cpu_feature = "avx2", .why_no_single = ranges_only,
	  .why_no_rep = vector_no_rep },
	{ .name = "simd-512", .help = "AVX-512 64-byte aligned loads/stores, relaxed head and tail",
	  COPY(simd_512, 64), .cpu_feature = "avx512f", .why_no_single = ranges_only,
	  .why_no_rep = vector_no_rep },
	{ .name = "simd-nt", .help = "AVX2 non-temporal vmovntdqa/vmovntdq then sfence (meant for WC)",
	  COPY(simd_nt, 32), .cpu_feature = "avx2", .why_no_single = ranges_only,
	  .why_no_rep = vector_no_rep },
};

const size_t iomap_nr_strategies = sizeof(iomap_strategies) / sizeof(iomap_strategies[0]);

const struct iomap_strategy *iomap_strategy_find(const char *name)
{
	for (size_t i = 0; i < iomap_nr_strategies; i++)
		if (!strcmp(iomap_strategies[i].name, name))
			return &iomap_strategies[i];
	return NULL;
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

	if (!s->cpu_feature)
		return NULL;
	__cpuid(1, a, b, c, d);
	avx_os = (c & bit_OSXSAVE) && (xcr0() & 0x06) == 0x06;
	avx512_os = avx_os && (xcr0() & 0xe0) == 0xe0;
	__cpuid_count(7, 0, a, b, c, d);
	if (!strcmp(s->cpu_feature, "avx2"))
		return avx_os && (b & bit_AVX2) ? NULL : "this CPU or OS has no AVX2";
	if (!strcmp(s->cpu_feature, "avx512f"))
		return avx512_os && (b & bit_AVX512F) ? NULL : "this CPU or OS has no AVX-512F";
	return "unknown CPU feature";
}
