/* cpu.c (arm64): whether this CPU and OS can execute a strategy's NEON instructions (the kernel's hwcaps) */
#include <sys/auxv.h>

#include "arch.h"

#ifndef HWCAP_ASIMD
# define HWCAP_ASIMD (1 << 1)
#endif

const char *iomap_arch_feature_missing(enum iomap_cpu_feature f)
{
	switch (f) {
	case IOMAP_FEATURE_asimd:
		return getauxval(AT_HWCAP) & HWCAP_ASIMD ? NULL : "this CPU or kernel has no Advanced SIMD (NEON)";
	default:
		return "not an arm64 CPU feature";
	}
}
