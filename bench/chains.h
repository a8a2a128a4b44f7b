/* chains.h: the chain baselines chains.c builds, one pair per chain kernel on MMIO and on ports */
#ifndef REGBENCH_CHAINS_H
#define REGBENCH_CHAINS_H

#include <stdint.h>

#include "iomap/io.h"
#include "kernels.h"

/*
 * chain_readbaseN_<id>, chain_inbaseN_<id> and their twins (_2): each chain
 * kernel of kernels.c without its reads, for every strategy and width that
 * has one (the list's MMIO and port columns).
 */
#define CHAIN_BASE_DECLARE(bits, type, k, reg, wreg, id, access, order, rd)	\
	uint64_t chain_##rd##base##bits##_##id(const struct rb_kernel_arg *a, uint64_t n);	\
	uint64_t chain_##rd##base##bits##_##id##_2(const struct rb_kernel_arg *a, uint64_t n);
IOMAP_EACH_MMIO(CHAIN_BASE_DECLARE, read)
IOMAP_EACH_PORT(CHAIN_BASE_DECLARE, in)
#undef CHAIN_BASE_DECLARE

#endif
