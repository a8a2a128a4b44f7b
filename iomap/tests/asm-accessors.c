/* asm-accessors.c: one out-of-line function per inline accessor, and the compiler-barrier probes, for asm-check-ARCH.sh */
#include "iomap/io.h"

/*
 * Each function is only its accessor, so its body is the accessor's code:
 * asm-check-x86_64.sh requires exactly one memory instruction in it, a mov of the
 * accessor's width in the right direction.  Names say what to expect:
 * asm_{read,write}BITS_STRATEGY[_imm].  Prototypes keep -Wmissing-prototypes
 * and sparse quiet; noinline and external linkage keep every body in the
 * object whatever the optimizer thinks of it.
 */
#define OUT_OF_LINE(prefix, bits, type, s)					\
type prefix##_read##bits##_##s(const volatile void __iomem *addr);		\
void prefix##_write##bits##_##s(type v, volatile void __iomem *addr);		\
__attribute__((noinline)) type prefix##_read##bits##_##s(const volatile void __iomem *addr) \
{ return iomap_read##bits##_##s(addr); }					\
__attribute__((noinline)) void prefix##_write##bits##_##s(type v, volatile void __iomem *addr) \
{ iomap_write##bits##_##s(v, addr); }
#define ASM_ACCESSORS(bits, type, k, reg, wreg, s) OUT_OF_LINE(asm, bits, type, s)

/*
 * A constant value: the store may take it as an immediate ("i", or "e" for
 * 64 bits), and the 64-bit constant below does not fit a sign-extended
 * imm32, so it must reach the store through a register, still one mov.
 */
#define ASM_IMM_WRITE(bits, type, k, reg, wreg, s)				\
void asm_write##bits##_##s##_imm(volatile void __iomem *addr);		\
__attribute__((noinline)) void asm_write##bits##_##s##_imm(volatile void __iomem *addr) \
{ iomap_write##bits##_##s((type)(0x123456789abcdef0ULL >> (64 - bits)), addr); }

/*
 * The compiler barrier, where it can be seen: a normal load before the
 * access and the same load after it.  readl's "memory" clobber says the
 * access may have changed any memory, so the load must be made again
 * (asm_reload_*_ordered: two loads of *p); readl_relaxed has none, so the
 * compiler may use the first load for both, or move it across the access
 * (asm_reload_*_relaxed: one load of *p).  p is restrict so that a write's
 * "=m" operand cannot be taken for *p either.  asm-check-ARCH.sh counts them.
 */
#define ASM_RELOAD(bits, type, k, reg, wreg, s, rd, wr)			\
int asm_reload_read##bits##_##s(const volatile void __iomem *addr, const int *restrict p); \
int asm_reload_write##bits##_##s(volatile void __iomem *addr, const int *restrict p); \
__attribute__((noinline)) int asm_reload_read##bits##_##s(const volatile void __iomem *addr, \
							  const int *restrict p) \
{ int x = *p; (void)rd(addr); return x + *p; }				\
__attribute__((noinline)) int asm_reload_write##bits##_##s(volatile void __iomem *addr, \
							   const int *restrict p) \
{ int x = *p; wr(1, addr); return x + *p; }

#define ASM_WIDTH(bits, type, k, reg, wreg)					\
	ASM_ACCESSORS(bits, type, k, reg, wreg, ordered)			\
	ASM_ACCESSORS(bits, type, k, reg, wreg, relaxed)			\
	ASM_ACCESSORS(bits, type, k, reg, wreg, volatile)			\
	ASM_IMM_WRITE(bits, type, k, reg, wreg, ordered)			\
	ASM_IMM_WRITE(bits, type, k, reg, wreg, relaxed)			\
	ASM_RELOAD(bits, type, k, reg, wreg, ordered, read##k, write##k)	\
	ASM_RELOAD(bits, type, k, reg, wreg, relaxed, read##k##_relaxed, write##k##_relaxed)
IOMAP_WIDTHS(ASM_WIDTH)

/*
 * Every strategy's single accesses, at every width it has, for the
 * architectures whose check reads whole sequences (asm-check-arm64.sh:
 * barriers and dependencies around the access, not one instruction):
 * seq_{read,write}BITS_ID.  asm-check-x86_64.sh looks only at asm_*.
 */
#define SEQ_WIDTH(bits, type, k, reg, wreg, id, access, order) OUT_OF_LINE(seq, bits, type, id)
IOMAP_EACH_MMIO(SEQ_WIDTH)

#ifndef IOMAP_GENERIC_IOMAP
/*
 * The kernel's names without GENERIC_IOMAP (arm64), out of line as kn_<name>,
 * for asm-check-arm64.sh to set beside the kernel's own (kernel-accessors.c).
 */
#include "kernel-names.h"
KERNEL_NAMES(KERNEL_NAME_READ, KERNEL_NAME_WRITE, KERNEL_NAME_REP)
#endif
