// SPDX-License-Identifier: GPL-2.0
/*
 * The regbench module's timed code: one function per line of
 * regbench-benchmarks.h, built from its shape, and the runner that times a
 * call of one in pieces.
 */
#include <linux/compiler.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/io-64-nonatomic-hi-lo.h>
#include <linux/io-64-nonatomic-lo-hi.h>
#include <linux/kernel.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>

#include "kmod.h"

/*
 * The timer, read as regbench reads it in user space (bench/arch/ARCH/timer.h
 * gives the reasons): on x86-64 lfence; rdtsc at the start and rdtscp;
 * lfence, or lfence; rdtsc; lfence where the CPU has no rdtscp, at the stop;
 * on arm64 isb; mrs cntvct_el0 at the start and dsb ld; isb; mrs cntvct_el0
 * at the stop.  The instructions are written again here, since that header
 * is user space's; a figure of either side is in the same ticks.
 */
#ifdef CONFIG_X86_64
static __always_inline u64 rbk_start(void)
{
	u32 lo, hi;

	asm volatile("lfence\n\trdtsc" : "=a" (lo), "=d" (hi) : : "memory");
	return ((u64)hi << 32) | lo;
}

static __always_inline u64 rbk_stop(bool rdtscp)
{
	u32 lo, hi;

	if (rdtscp)
		asm volatile("rdtscp\n\tlfence" : "=a" (lo), "=d" (hi) : : "rcx", "memory");
	else
		asm volatile("lfence\n\trdtsc\n\tlfence"
			     : "=a" (lo), "=d" (hi) : : "rcx", "memory");
	return ((u64)hi << 32) | lo;
}

unsigned int rbk_timers(void)
{
	unsigned int rdtscp = boot_cpu_has(X86_FEATURE_RDTSCP) ? REGBENCH_TIMER_RDTSCP : 0;

	return REGBENCH_TIMER_LFENCE | rdtscp;
}

u64 rbk_tick_hz(void)
{
	return (u64)tsc_khz * 1000;
}
#else
static __always_inline u64 rbk_start(void)
{
	u64 cnt;

	asm volatile("isb\n\tmrs %0, cntvct_el0" : "=r" (cnt) : : "memory");
	return cnt;
}

static __always_inline u64 rbk_stop(bool rdtscp)
{
	u64 cnt;

	asm volatile("dsb ld\n\tisb\n\tmrs %0, cntvct_el0" : "=r" (cnt) : : "memory");
	return cnt;
}

unsigned int rbk_timers(void)
{
	return REGBENCH_TIMER_CNTVCT;
}

u64 rbk_tick_hz(void)
{
	return read_sysreg(cntfrq_el0);
}
#endif

/*
 * What a timed loop keeps in registers, loaded once before it as
 * regbench's user-space kernels do: an access's "memory" clobber would
 * otherwise make the compiler load them again after every access.
 */
struct rbk_regs {
	void __iomem *io;
	unsigned long port;
	u64 value;
	u64 zero;
};

static __always_inline struct rbk_regs rbk_regs(const struct rbk_args *a)
{
	struct rbk_regs r = { a->io, a->port, a->value, a->zero };

	return r;
}

/* x through an identity the compiler cannot see through: a chain baseline's stand-in for a read */
static __always_inline unsigned long rbk_hide(unsigned long x)
{
	OPTIMIZER_HIDE_VAR(x);
	return x;
}

/* Keeps v computed: a chain's result is otherwise unused, and its baseline would be dropped. */
static __always_inline void rbk_use(u64 v)
{
	asm volatile("" : : "r" (v));
}

/* The register a benchmark works on, by space, and the one `off` further on (chains). */
#define REG_MMIO(r) ((r).io)
#define REG_PIO(r) ((r).port)
#define AT_MMIO(r, off) ((r).io + (off))
#define AT_PIO(r, off) ((r).port + (off))
#define NUM_MMIO(r, off) ((__force unsigned long)((r).io + (off)))
#define NUM_PIO(r, off) ((r).port + (off))

/*
 * An unrolled benchmark: its step (name##_step) eight times per iteration,
 * sixteen for the twin, the loop timed whole.  Each of the four copies
 * (twin or not; x86's two stop sequences) is its own code, so that no
 * branch on a flag sits inside a timed loop.  A step takes and returns the
 * value a chain carries from one read to the next.
 *
 * Every _call is __flatten: the kernel's accessors are plain inline
 * functions, which GCC leaves out of line in a file that uses them hundreds
 * of times (arm64's readl became a call in 102 places), so the loops would
 * time a call the accessor never makes in a driver.
 */
#define UNROLLED(name)								\
static __always_inline u64 name##_loop(struct rbk_regs r, u64 iters, bool twice, bool rdtscp) \
{										\
	u64 i, v = 0, t0 = rbk_start();						\
										\
	for (i = 0; i < iters; i++) {						\
		v = name##_step(r, v);						\
		v = name##_step(r, v);						\
		v = name##_step(r, v);						\
		v = name##_step(r, v);						\
		v = name##_step(r, v);						\
		v = name##_step(r, v);						\
		v = name##_step(r, v);						\
		v = name##_step(r, v);						\
		if (twice) {							\
			v = name##_step(r, v);					\
			v = name##_step(r, v);					\
			v = name##_step(r, v);					\
			v = name##_step(r, v);					\
			v = name##_step(r, v);					\
			v = name##_step(r, v);					\
			v = name##_step(r, v);					\
			v = name##_step(r, v);					\
		}								\
	}									\
	t0 = rbk_stop(rdtscp) - t0;						\
	rbk_use(v);								\
	return t0;								\
}										\
static __flatten u64 name##_call(const struct rbk_args *a, u64 iters, unsigned int flags) \
{										\
	struct rbk_regs r = rbk_regs(a);					\
	bool twice = flags & REGBENCH_RUN_TWICE;				\
										\
	if (flags & REGBENCH_RUN_RDTSCP)					\
		return twice ? name##_loop(r, iters, true, true) :		\
			       name##_loop(r, iters, false, true);		\
	return twice ? name##_loop(r, iters, true, false) :			\
		       name##_loop(r, iters, false, false);			\
}

/*
 * The dither of sampled benchmarks, as regbench's user-space loop has it
 * (bench/sampled.h gives the reasons): before each sample a spin of a
 * number of turns drawn from xorshift64 (13, 7, 17), its low and high halves
 * two draws of 0 to range - 1, so that the start reading falls at a random
 * phase of the timer's tick and the mean of many readings resolves below one
 * step.  The spin is the same two instructions as user space's.
 */
static __always_inline u64 rbk_dither_next(u64 *state, u32 range)
{
	u64 x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*state = x;
	return 1 + (((x & 0xffffffffu) * range) >> 32) + (((x >> 32) * range) >> 32);
}

#ifdef CONFIG_X86_64
static __always_inline void rbk_spin(u64 n)
{
	asm volatile("1:\n\tdec %0\n\tjnz 1b" : "+r" (n) : : "cc");
}
#else
static __always_inline void rbk_spin(u64 n)
{
	asm volatile("1:\n\tsubs %0, %0, #1\n\tb.ne 1b" : "+r" (n) : : "cc");
}
#endif

/*
 * A sampled benchmark: each step timed alone into samples[i], its start
 * dithered; the step's register is `at` further on, at being the start
 * reading & zero (0 at run time), so that the access cannot begin before the
 * start reading has its value.  Its baseline (REGBENCH_RUN_BASE) computes
 * the same address and makes no access: what a sample holds beyond it.
 */
#define SAMPLED(name, sp)							\
static __always_inline void name##_base_step(struct rbk_regs r, u64 at)		\
{										\
	rbk_use(rbk_hide(NUM_##sp(r, at)));					\
}										\
static __always_inline void name##_loop(const struct rbk_args *a, u64 iters,	\
					bool rdtscp, bool base)			\
{										\
	struct rbk_regs r = rbk_regs(a);					\
	u64 i, t0, at, state = *a->dither;					\
	u32 range = a->dither_range;						\
										\
	for (i = 0; i < iters; i++) {						\
		rbk_spin(rbk_dither_next(&state, range));			\
		t0 = rbk_start();						\
		at = t0 & r.zero;						\
		if (base)							\
			name##_base_step(r, at);				\
		else								\
			name##_step(r, at);					\
		a->samples[i] = rbk_stop(rdtscp) - t0;				\
	}									\
	*a->dither = state;							\
}										\
static __flatten u64 name##_call(const struct rbk_args *a, u64 iters, unsigned int flags) \
{										\
	bool base = flags & REGBENCH_RUN_BASE;					\
										\
	if (flags & REGBENCH_RUN_RDTSCP)					\
		base ? name##_loop(a, iters, true, true) : name##_loop(a, iters, true, false); \
	else									\
		base ? name##_loop(a, iters, false, true) : name##_loop(a, iters, false, false); \
	return 0;								\
}

/* A batch: iters calls of the step (n elements or bytes each), timed whole. */
#define BATCH(name)								\
static __always_inline u64 name##_loop(const struct rbk_args *a, u64 iters, bool rdtscp) \
{										\
	u64 i, t0 = rbk_start();						\
										\
	for (i = 0; i < iters; i++)						\
		name##_step(a);							\
	return rbk_stop(rdtscp) - t0;						\
}										\
static __flatten u64 name##_call(const struct rbk_args *a, u64 iters, unsigned int flags) \
{										\
	if (flags & REGBENCH_RUN_RDTSCP)					\
		return name##_loop(a, iters, true);				\
	return name##_loop(a, iters, false);					\
}

/*
 * The shapes of regbench-benchmarks.h, each a step (name##_step: one access,
 * or a call of n elements or bytes) and its timing.  A read's value is
 * dropped: the kernel's accessors are volatile or asm volatile, so the
 * access is still made.  A chain reads the register `v & zero` further on,
 * zero being 0 at run time, so each read waits for the last; its baseline
 * (name##_base) computes the same address without the read.
 */
#define SHAPE_SAMPLED_READ(name, sp, rd)					\
static __always_inline void name##_step(struct rbk_regs r, u64 at)		\
{										\
	(void)rd(AT_##sp(r, at));						\
}										\
SAMPLED(name, sp)

#define SHAPE_SAMPLED_WRITE(name, sp, wr, type)					\
static __always_inline void name##_step(struct rbk_regs r, u64 at)		\
{										\
	wr((type)r.value, AT_##sp(r, at));					\
}										\
SAMPLED(name, sp)

/* a write and the read-back of the same register: when the write has landed */
#define SHAPE_SAMPLED_FLUSH(name, sp, wr, rd, type)				\
static __always_inline void name##_step(struct rbk_regs r, u64 at)		\
{										\
	wr((type)r.value, AT_##sp(r, at));					\
	(void)rd(AT_##sp(r, at));						\
}										\
SAMPLED(name, sp)

#define SHAPE_UNROLLED_READ(name, sp, rd)					\
static __always_inline u64 name##_step(struct rbk_regs r, u64 v)		\
{										\
	(void)rd(REG_##sp(r));							\
	return v;								\
}										\
UNROLLED(name)

#define SHAPE_UNROLLED_WRITE(name, sp, wr, type)				\
static __always_inline u64 name##_step(struct rbk_regs r, u64 v)		\
{										\
	wr((type)r.value, REG_##sp(r));						\
	return v;								\
}										\
UNROLLED(name)

#define SHAPE_UNROLLED_BARRIER(name, sp, stmt)					\
static __always_inline u64 name##_step(struct rbk_regs r, u64 v)		\
{										\
	stmt;									\
	return v;								\
}										\
UNROLLED(name)

/* ioread32 on the cookie pci_iomap gave: the generic iomap's decode where there is one (x86) */
#define SHAPE_UNROLLED_COOKIE(name, sp, rd)					\
static __always_inline u64 name##_step(struct rbk_regs r, u64 v)		\
{										\
	(void)rd(r.io);								\
	return v;								\
}										\
UNROLLED(name)

/* readl through a function pointer the compiler cannot see through: an indirect call */
#define SHAPE_UNROLLED_TABLE(name, sp, rd)					\
static __always_inline u64 name##_step(struct rbk_regs r, u64 v)		\
{										\
	u32 (*read32)(const void __iomem *addr) = rbk_##rd;			\
										\
	OPTIMIZER_HIDE_VAR(read32);						\
	(void)read32(r.io);							\
	return v;								\
}										\
UNROLLED(name)

#define SHAPE_CHAIN(name, sp, rd, type)						\
static __always_inline u64 name##_read_step(struct rbk_regs r, u64 v)		\
{										\
	return rd(AT_##sp(r, v & r.zero));					\
}										\
UNROLLED(name##_read)								\
static __always_inline u64 name##_base_step(struct rbk_regs r, u64 v)		\
{										\
	return (type)rbk_hide(NUM_##sp(r, v & r.zero));				\
}										\
UNROLLED(name##_base)								\
static __flatten u64 name##_call(const struct rbk_args *a, u64 iters, unsigned int flags)	\
{										\
	if (flags & REGBENCH_RUN_BASE)						\
		return name##_base_call(a, iters, flags);			\
	return name##_read_call(a, iters, flags);				\
}

#define SHAPE_BATCH_REP_READ(name, sp, rd)					\
static __always_inline void name##_step(const struct rbk_args *a)		\
{										\
	struct rbk_regs r = rbk_regs(a);					\
										\
	rd(REG_##sp(r), a->buf, a->n);						\
}										\
BATCH(name)

#define SHAPE_BATCH_REP_WRITE(name, sp, wr)					\
static __always_inline void name##_step(const struct rbk_args *a)		\
{										\
	struct rbk_regs r = rbk_regs(a);					\
										\
	wr(REG_##sp(r), a->buf, a->n);						\
}										\
BATCH(name)

#define SHAPE_BATCH_FROMIO(name, sp, f)						\
static __always_inline void name##_step(const struct rbk_args *a)		\
{										\
	f(a->buf, a->io, a->n);							\
}										\
BATCH(name)

#define SHAPE_BATCH_TOIO(name, sp, f)						\
static __always_inline void name##_step(const struct rbk_args *a)		\
{										\
	f(a->io, a->buf, a->n);							\
}										\
BATCH(name)

#define SHAPE_BATCH_SET(name, sp, f)						\
static __always_inline void name##_step(const struct rbk_args *a)		\
{										\
	f(a->io, (u8)a->value, a->n);						\
}										\
BATCH(name)

/* lib/iomap_copy.c's word copies count words, not bytes */
#define SHAPE_BATCH_WORDS_TOIO(name, sp, f, word)				\
static __always_inline void name##_step(const struct rbk_args *a)		\
{										\
	f(a->io, a->buf, a->n / (word));					\
}										\
BATCH(name)

#define SHAPE_BATCH_WORDS_FROMIO(name, sp, f, word)				\
static __always_inline void name##_step(const struct rbk_args *a)		\
{										\
	f(a->buf, a->io, a->n / (word));					\
}										\
BATCH(name)

/* Each shape's row of the table: how the runner treats it. */
#define ROW(name, sh, sp, bytes_, word_, r, w, reg)				\
	{ .fn = name##_call, .shape = RBK_##sh, .space = REGBENCH_SPACE_##sp, .bytes = bytes_,	\
	  .word = word_, .reads = r, .writes = w, .at_register = reg },
#define ROW_SAMPLED_READ(name, sp, bits, ...)					\
	ROW(name, SAMPLED, sp, (bits) / 8, 0, true, false, true)
#define ROW_SAMPLED_WRITE(name, sp, bits, ...)					\
	ROW(name, SAMPLED, sp, (bits) / 8, 0, false, true, true)
#define ROW_SAMPLED_FLUSH(name, sp, bits, ...)					\
	ROW(name, SAMPLED, sp, (bits) / 8, 0, true, true, true)
#define ROW_UNROLLED_READ(name, sp, bits, ...)					\
	ROW(name, UNROLLED, sp, (bits) / 8, 0, true, false, true)
#define ROW_UNROLLED_WRITE(name, sp, bits, ...)					\
	ROW(name, UNROLLED, sp, (bits) / 8, 0, false, true, true)
#define ROW_UNROLLED_BARRIER(name, sp, bits, ...) ROW(name, UNROLLED, sp, 0, 0, false, false, false)
#define ROW_UNROLLED_COOKIE(name, sp, bits, ...) ROW(name, UNROLLED, sp, 4, 0, true, false, true)
#define ROW_UNROLLED_TABLE(name, sp, bits, ...) ROW(name, UNROLLED, sp, 4, 0, true, false, true)
#define ROW_CHAIN(name, sp, bits, ...) ROW(name, CHAIN, sp, (bits) / 8, 0, true, false, true)
#define ROW_BATCH_REP_READ(name, sp, bits, ...)					\
	ROW(name, BATCH_REP, sp, (bits) / 8, 0, true, false, true)
#define ROW_BATCH_REP_WRITE(name, sp, bits, ...)				\
	ROW(name, BATCH_REP, sp, (bits) / 8, 0, false, true, true)
#define ROW_BATCH_FROMIO(name, sp, bits, ...) ROW(name, BATCH_COPY, sp, 0, 0, true, false, true)
#define ROW_BATCH_TOIO(name, sp, bits, ...) ROW(name, BATCH_COPY, sp, 0, 0, false, true, true)
#define ROW_BATCH_SET(name, sp, bits, ...) ROW(name, BATCH_COPY, sp, 0, 0, false, true, true)
#define ROW_BATCH_WORDS_TOIO(name, sp, bits, f, word)				\
	ROW(name, BATCH_COPY, sp, 0, word, false, true, true)
#define ROW_BATCH_WORDS_FROMIO(name, sp, bits, f, word)				\
	ROW(name, BATCH_COPY, sp, 0, word, true, false, true)

/* dispatch/read32/table's callee: readl, out of line */
static noinline u32 rbk_readl(const void __iomem *addr)
{
	return readl(addr);
}

/* Each line's code, named from its family, op, width, space and tok. */
#define REGBENCH_BENCHMARK(fam, op, bits, strategy, sp, tok, shape, ...)	\
	SHAPE_##shape(rbk_##fam##_##op##bits##_##sp##_##tok, sp, __VA_ARGS__)
#include "regbench-benchmarks.h"
#undef REGBENCH_BENCHMARK

/* The table, in the lines' order: a line's number is its place. */
#define REGBENCH_BENCHMARK(fam, op, bits, strategy, sp, tok, shape, ...)	\
	ROW_##shape(rbk_##fam##_##op##bits##_##sp##_##tok, sp, bits, __VA_ARGS__)
const struct rbk_benchmark rbk_benchmarks[] = {
#include "regbench-benchmarks.h"
};

#undef REGBENCH_BENCHMARK

const unsigned int rbk_nr_benchmarks = ARRAY_SIZE(rbk_benchmarks);

/* The lines' identities, for INFO's fingerprint (regbench.h). */
#define REGBENCH_BENCHMARK REGBENCH_IDENTITY
static const struct regbench_identity rbk_identities[] = {
#include "regbench-benchmarks.h"
};

#undef REGBENCH_BENCHMARK

u32 rbk_fingerprint(void)
{
	u32 hash = REGBENCH_FNV1A_START;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rbk_identities); i++)
		hash = regbench_fingerprint(hash, &rbk_identities[i]);
	return hash;
}

/* The timer alone, sampled: REGBENCH_RUN_EMPTY (its "register" is a number it never touches). */
static __always_inline void rbk_empty_step(struct rbk_regs r, u64 at)
{
}

SAMPLED(rbk_empty, PIO)
static const struct rbk_benchmark rbk_timer_alone = { .fn = rbk_empty_call, .shape = RBK_SAMPLED };

u64 rbk_units(const struct rbk_benchmark *b, u64 n, unsigned int flags)
{
	switch (b->shape) {
	case RBK_UNROLLED:
	case RBK_CHAIN:
		return flags & REGBENCH_RUN_TWICE ? 16 : 8;
	case RBK_BATCH_REP:
		return n;
	case RBK_BATCH_COPY:
		return DIV_ROUND_UP(n, 8);
	default:
		return 1;
	}
}

int rbk_run(const struct rbk_benchmark *b, struct rbk_args *a, u64 iters, unsigned int flags,
	    u64 *ticks, bool *irqs_off)
{
	/*
	 * A piece is as many iterations as REGBENCH_IRQS_OFF_UNITS accesses of
	 * the plain form take, so that the twin and the baseline are cut at the
	 * same iterations: each piece's two counter readings then cancel in
	 * their difference, as a whole call's do.
	 */
	const struct rbk_benchmark *code = flags & REGBENCH_RUN_EMPTY ? &rbk_timer_alone : b;
	u64 units = max_t(u64, 1, rbk_units(code, a->n, flags & ~REGBENCH_RUN_TWICE));
	u64 piece = max_t(u64, 1, REGBENCH_IRQS_OFF_UNITS / units);
	bool quiet = units <= REGBENCH_IRQS_OFF_UNITS;
	u64 *samples = a->samples;
	unsigned long irq;
	u64 done, now;

	*ticks = 0;
	*irqs_off = quiet;
	for (done = 0; done < iters; done += now) {
		now = min(piece, iters - done);
		a->samples = samples + (code->shape == RBK_SAMPLED ? done : 0);
		preempt_disable();
		if (quiet)
			local_irq_save(irq);
		*ticks += code->fn(a, now, flags);
		if (quiet)
			local_irq_restore(irq);
		preempt_enable();
		if (done + now < iters) {
			if (fatal_signal_pending(current)) {
				a->samples = samples;
				return -EINTR;
			}
			cond_resched();
		}
	}
	a->samples = samples;
	return 0;
}
