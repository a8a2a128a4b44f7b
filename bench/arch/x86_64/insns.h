/* insns.h (x86-64): the instructions the primitives, the control and the barrier family time */
#ifndef REGBENCH_ARCH_INSNS_H
#define REGBENCH_ARCH_INSNS_H

/*
 * One instruction each, with named asm operands, for primitives.c's kernels
 * and the control: an add of x to itself, a multiply of x by itself, a load of
 * the pointer p points at into p, a load from m into t, a store of t to m.
 * The add takes a register, never an immediate: Golden Cove and later Intel
 * cores fold an add of an immediate in the renamer, so a chain of add $1
 * ran at a third of a cycle an add on an Emerald Rapids VM (0.26 TSC ticks
 * against 0.79 for add reg, reg at 2.3 GHz) and the core clock it defines
 * came out three times too fast.
 */
#define RB_ASM_ADD(x) "add %[" #x "], %[" #x "]"
#define RB_ASM_MUL(x) "imul %[" #x "], %[" #x "]"
#define RB_ASM_CHASE(p) "mov (%[" #p "]), %[" #p "]"
#define RB_ASM_LOAD(t, m) "mov (%[" #m "]), %[" #t "]"
#define RB_ASM_STORE(t, m) "mov %[" #t "], (%[" #m "])"
#define RB_MUL_WHAT "dependent imul r64 (cycles)"

/*
 * The fences the self-check times back to back (uops.info publishes their
 * cost): F(id, what, name, instruction, clobbers...).
 */
#define RB_ARCH_FENCES(F)							\
	F(RB_LFENCE, "lfence back to back (cycles)", lfences, "lfence", "memory")	\
	F(RB_MFENCE, "mfence back to back (cycles)", mfences, "mfence", "memory")	\
	F(RB_LOCKED, "lock or back to back (cycles)", lockeds, "lock orq $0, (%%rsp)", "memory", "cc")

/*
 * The barrier family (barrier/NAME): X(name, statement) for this
 * architecture's, as the kernel's names issue them on x86-64 (rmb is lfence,
 * wmb sfence, mb mfence; iomap_locked_mb the locked or the kernel's
 * smp_mb() uses); SKIP(name, reason) for another's, so that a name means
 * one thing on every architecture and is skipped with its reason where it
 * does not exist.
 */
#define RB_BARRIERS(X, SKIP)							\
	X(compiler, barrier()) X(lfence, rmb()) X(sfence, wmb())		\
	X(mfence, mb()) X(locked, iomap_locked_mb())				\
	RB_ARM64_BARRIERS(SKIP)

/* arm64's barriers, named here to be skipped (bench/arch/arm64/insns.h issues them). */
#define RB_ARM64_ONLY "an arm64 barrier, and this is an x86-64 build (x86-64 has lfence, sfence, mfence, locked)"
#define RB_ARM64_BARRIERS(SKIP)							\
	SKIP(dmb_ish, RB_ARM64_ONLY) SKIP(dmb_ishld, RB_ARM64_ONLY) SKIP(dmb_osh, RB_ARM64_ONLY)	\
	SKIP(dmb_oshld, RB_ARM64_ONLY) SKIP(dmb_oshst, RB_ARM64_ONLY) SKIP(dmb_sy, RB_ARM64_ONLY)	\
	SKIP(dsb_sy, RB_ARM64_ONLY) SKIP(isb, RB_ARM64_ONLY)

/*
 * What stands for a C volatile load of a type at base + off in a chain's
 * baseline (chains.c): x86-64's compiler adds base and offset first and
 * loads with a zero-extending mov (movzbl (%rax),%eax), so the stand-in is
 * the address, through an identity the compiler cannot see through, at its
 * own 64 bits: nothing is left to extend.
 */
#define RB_CHAIN_LOAD(type, base, off) ({						\
	uintptr_t __r = (uintptr_t)(volatile void __force *)((base) + (off));		\
	__asm__ __volatile__("" : "+r" (__r));						\
	__r; })

#endif
