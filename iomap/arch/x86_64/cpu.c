/* cpu.c (x86_64): whether this CPU and OS can execute a strategy's AVX instructions (CPUID and XCR0) */
#include <cpuid.h>
#include <stdbool.h>
#include <stdint.h>

#include "arch.h"

/* XCR0: which register states the OS saves, so whether AVX and AVX-512 are usable at all. */
static uint64_t xcr0(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("xgetbv" : "=a" (lo), "=d" (hi) : "c" (0));
	return ((uint64_t)hi << 32) | lo;
}

const char *iomap_arch_feature_missing(enum iomap_cpu_feature f)
{
	unsigned int a, b, c, d;
	bool avx_os, avx512_os;

	__cpuid(1, a, b, c, d);
	avx_os = (c & bit_OSXSAVE) && (xcr0() & 0x06) == 0x06;
	avx512_os = avx_os && (xcr0() & 0xe0) == 0xe0;
	__cpuid_count(7, 0, a, b, c, d);
	switch (f) {
	case IOMAP_FEATURE_avx2:
		return avx_os && (b & bit_AVX2) ? NULL : "this CPU or OS has no AVX2";
	case IOMAP_FEATURE_avx512f:
		return avx512_os && (b & bit_AVX512F) ? NULL : "this CPU or OS has no AVX-512F";
	default:
		return "not an x86-64 CPU feature";
	}
}
