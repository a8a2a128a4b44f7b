/* chains.c: each chain kernel's baseline, the kernel as the compiler builds it without the reads, from hollow accessors */
#define IOMAP_HOLLOW
#include "iomap/io.h"
#include "insns.h"
#include "shapes.h"
#include "chains.h"

/*
 * A chain's figure is its kernel minus its baseline, so the baseline must be
 * the kernel's own instructions without the reads: the same C over the same
 * accessors, compiled here with IOMAP_HOLLOW, which keeps each asm statement
 * of the accessors (operands, clobbers, order) but not its instruction.  The
 * compiler then moves, extends and combines the values read exactly as in
 * the kernel; what the kernel has on top is the read and its ordering
 * (tests/chain-check.sh compares the two).  A C volatile read has no asm to
 * empty: RB_CHAIN_LOAD (insns.h) stands for it as the architecture's
 * compiler builds such a load.
 */
#define CHAIN_READ_deref(bits, type, rd, id, sp, off) RB_CHAIN_LOAD(type, io, off)
#define CHAIN_READ_ASM(bits, type, rd, id, sp, off) iomap_##rd##bits##_##id(sp##_AT(off))
#define CHAIN_READ_readl CHAIN_READ_ASM
#define CHAIN_READ_raw CHAIN_READ_ASM
#define CHAIN_READ_acq CHAIN_READ_ASM
#define CHAIN_READ_lohi CHAIN_READ_ASM
#define CHAIN_READ_hilo CHAIN_READ_ASM

#define CHAIN_BASE(bits, type, k, reg, wreg, id, access, order, sp, rd)	\
	UNROLLED_AS(, chain_##rd##base##bits##_##id, sp##_REG; uint64_t v = 0; uint64_t z = a->zero, \
		    v = CHAIN_READ_##access(bits, type, rd, id, sp, v & z), v)
IOMAP_EACH_MMIO(CHAIN_BASE, MMIO, read)
IOMAP_EACH_PORT(CHAIN_BASE, PIO, in)
