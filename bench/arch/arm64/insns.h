/* insns.h (arm64): the instructions the primitives, the control and the barrier family time */
#ifndef REGBENCH_ARCH_INSNS_H
#define REGBENCH_ARCH_INSNS_H

/*
 * One instruction each, with named asm operands, for primitives.c's kernels
 * and the control: an add of x to itself, a multiply of x by itself, a load of
 * the pointer p points at into p, a load from m into t, a store of t to m.
 * The add takes a register, as on x86-64, where a renamer folds immediates.
 */
#define RB_ASM_ADD(x) "add %[" #x "], %[" #x "], %[" #x "]"
#define RB_ASM_MUL(x) "mul %[" #x "], %[" #x "], %[" #x "]"
#define RB_ASM_CHASE(p) "ldr %[" #p "], [%[" #p "]]"
#define RB_ASM_LOAD(t, m) "ldr %[" #t "], [%[" #m "]]"
#define RB_ASM_STORE(t, m) "str %[" #t "], [%[" #m "]]"
#define RB_MUL_WHAT "dependent mul x (cycles)"

/*
 * What stands for a C volatile load of a type at base + off in a chain's
 * baseline (chains.c): arm64's compiler folds the add into the load (ldrb
 * w0, [x2, x0]) and zero-extends what a narrow volatile load leaves (and
 * #0xff), so the stand-in takes base and offset apart and leaves a value of
 * the type, which nothing is known of.  (The type in its text keeps the
 * compiler from taking the stand-ins of two widths for the same code.)
 */
#define RB_CHAIN_LOAD(type, base, off) ({						\
	type __r;									\
	__asm__ __volatile__("/* " #type " */" : "=r" (__r)				\
			     : "r" ((uintptr_t)(volatile void __force *)(base)), "r" ((uint64_t)(off))); \
	__r; })

/* No fence has a published cost on an Arm core: the self-check times none (the barrier family does). */
#define RB_ARCH_FENCES(F)

/*
 * The barrier family (barrier/NAME): X(name, statement) for this
 * architecture's, SKIP(name, reason) for another's, so that a name means one
 * thing on every architecture.  dmb orders memory accesses against each
 * other within a domain (ish: the inner shareable one, the CPUs; osh: the
 * outer shareable one, with devices; sy: the full system), and the ld and
 * st forms only loads before later accesses or stores before later stores:
 * Linux v6.1's __io_ar is dmb oshld and __io_bw dmb oshst, its smp_mb
 * dmb ish, its mb dsb sy.  dsb also waits for the accesses to complete
 * before any later instruction runs; isb refetches what follows.
 */
#define RB_DMB(option) __asm__ __volatile__("dmb " #option ::: "memory")
#define RB_BARRIERS(X, SKIP)							\
	X(compiler, barrier())							\
	X(dmb_ish, RB_DMB(ish)) X(dmb_ishld, RB_DMB(ishld))			\
	X(dmb_osh, RB_DMB(osh)) X(dmb_oshld, RB_DMB(oshld)) X(dmb_oshst, RB_DMB(oshst))	\
	X(dmb_sy, RB_DMB(sy))							\
	X(dsb_sy, __asm__ __volatile__("dsb sy" ::: "memory"))			\
	X(isb, __asm__ __volatile__("isb" ::: "memory"))			\
	RB_X86_BARRIERS(SKIP)

/* x86-64's barriers, named here to be skipped (bench/arch/x86_64/insns.h issues them). */
#define RB_X86_ONLY "an x86-64 instruction, and this is an arm64 build (arm64 has dmb, dsb and isb)"
#define RB_X86_BARRIERS(SKIP)							\
	SKIP(lfence, RB_X86_ONLY) SKIP(sfence, RB_X86_ONLY) SKIP(mfence, RB_X86_ONLY) SKIP(locked, RB_X86_ONLY)

#endif
