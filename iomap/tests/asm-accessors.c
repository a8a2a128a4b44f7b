/* asm-accessors.c: one out-of-line function per inline accessor, for asm-check.sh to disassemble */
#include "iomap/io.h"

/*
 * Each function is only its accessor, so its body is the accessor's code:
 * asm-check.sh requires exactly one memory instruction in it, a mov of the
 * accessor's width in the right direction.  Names say what to expect:
 * asm_{read,write}BITS_STRATEGY[_imm].  Prototypes keep -Wmissing-prototypes
 * and sparse quiet; noinline and external linkage keep every body in the
 * object whatever the optimizer thinks of it.
 */
#define ASM_ACCESSORS(bits, type, k, reg, wreg, s)				\
type asm_read##bits##_##s(const volatile void __iomem *addr);			\
void asm_write##bits##_##s(type v, volatile void __iomem *addr);		\
__attribute__((noinline)) type asm_read##bits##_##s(const volatile void __iomem *addr) \
{ return iomap_read##bits##_##s(addr); }					\
__attribute__((noinline)) void asm_write##bits##_##s(type v, volatile void __iomem *addr) \
{ iomap_write##bits##_##s(v, addr); }

/*
 * A constant value: the store may take it as an immediate ("i", or "e" for
 * 64 bits), and the 64-bit constant below does not fit a sign-extended
 * imm32, so it must reach the store through a register, still one mov.
 */
#define ASM_IMM_WRITE(bits, type, k, reg, wreg, s)				\
void asm_write##bits##_##s##_imm(volatile void __iomem *addr);		\
__attribute__((noinline)) void asm_write##bits##_##s##_imm(volatile void __iomem *addr) \
{ iomap_write##bits##_##s((type)(0x123456789abcdef0ULL >> (64 - bits)), addr); }

#define ASM_WIDTH(bits, type, k, reg, wreg)					\
	ASM_ACCESSORS(bits, type, k, reg, wreg, relaxed)			\
	ASM_ACCESSORS(bits, type, k, reg, wreg, volatile)			\
	ASM_ACCESSORS(bits, type, k, reg, wreg, raw)				\
	ASM_IMM_WRITE(bits, type, k, reg, wreg, relaxed)			\
	ASM_IMM_WRITE(bits, type, k, reg, wreg, raw)
IOMAP_WIDTHS(ASM_WIDTH)
