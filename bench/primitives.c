/* primitives.c: the published primitives as kernels of n and 2n unrolled copies, and the disturbance control, timed on the counter */
#include <math.h>
#include <stdint.h>
#include <time.h>

#include "clock.h"
#include "primitives.h"
#include "published.h"

enum { ITERS = 1000, UNITS = 64 };

/*
 * body is one unit; a kernel repeats it UNITS (or 2 x UNITS) times per loop
 * iteration with .rept, so the twin's extra time is exactly UNITS x ITERS
 * units: loop and timer cost cancel.
 */
#define TIMED(count, body, ...) ({						\
	uint64_t t0 = rb_timer_start();						\
	for (uint64_t i = 0; i < ITERS; i++)					\
		__asm__ __volatile__(".rept " #count "\n\t" body "\n\t.endr" __VA_ARGS__); \
	rb_timer_stop(timer) - t0; })
#define PRIMITIVE(name, setup, body, ...)					\
static __always_inline uint64_t name##_t(enum rb_timer timer, int twice)	\
{									\
	setup;								\
	return twice ? TIMED(128, body, __VA_ARGS__) : TIMED(64, body, __VA_ARGS__); \
}									\
static uint64_t name(int twice, enum rb_timer timer) { return RB_TIMED(timer, name##_t, twice); }

static void *volatile chase[8] __attribute__((aligned(64)));
static uint64_t line[8] __attribute__((aligned(64)));

PRIMITIVE(add_chain, uint64_t x = 0, RB_ASM_ADD(x), : [x] "+r" (x))
PRIMITIVE(mul_chain, uint64_t x = 1, RB_ASM_MUL(x), : [x] "+r" (x))
PRIMITIVE(l1_load_use, void *p = (void *)chase; chase[0] = (void *)chase, RB_ASM_CHASE(p), : [p] "+r" (p))
PRIMITIVE(loads, uint64_t t, RB_ASM_LOAD(t, m), : [t] "=&r" (t) : [m] "r" (line))
PRIMITIVE(stores, , RB_ASM_STORE(t, m), : : [m] "r" (line), [t] "r" (0ull) : "memory")
#define FENCE(id, what, name, insn, ...) PRIMITIVE(name, , insn, : : : __VA_ARGS__)
RB_ARCH_FENCES(FENCE)
#undef FENCE

#define FENCE_KERNEL(id, what, name, insn, ...) name,
static uint64_t (*const kernels[RB_NR_PRIMITIVES])(int, enum rb_timer) = {
	add_chain, mul_chain, l1_load_use, loads, stores, RB_ARCH_FENCES(FENCE_KERNEL)
};
#undef FENCE_KERNEL

/*
 * The control: 128 x CONTROL_ITERS adds as one dependent chain and as four
 * independent ones, and as many independent L1 loads and stores, each the
 * fastest of a few calls (about 90 µs in all).  Whole calls, not n versus
 * 2n: a fastest call cannot come out faster than the machine is.
 */
enum { CONTROL_ITERS = 200, CONTROL_TRIES = 5, CONTROL_OPS = 128 * CONTROL_ITERS };

#define CONTROL(name, setup, body, ...)						\
static __always_inline uint64_t name##_t(enum rb_timer timer)		\
{									\
	setup;								\
	uint64_t t0 = rb_timer_start();					\
									\
	for (int i = 0; i < CONTROL_ITERS; i++)				\
		__asm__ __volatile__(body __VA_ARGS__);			\
	return rb_timer_stop(timer) - t0;					\
}									\
static uint64_t name(enum rb_timer timer) { return RB_TIMED(timer, name##_t); }

CONTROL(adds_dependent, uint64_t x = 0, ".rept 128\n\t" RB_ASM_ADD(x) "\n\t.endr", : [x] "+r" (x))
CONTROL(adds_independent, uint64_t a = 0; uint64_t b = 0; uint64_t c = 0; uint64_t d = 0,
	".rept 32\n\t" RB_ASM_ADD(a) "\n\t" RB_ASM_ADD(b) "\n\t" RB_ASM_ADD(c) "\n\t" RB_ASM_ADD(d) "\n\t.endr",
	: [a] "+r" (a), [b] "+r" (b), [c] "+r" (c), [d] "+r" (d))
CONTROL(control_loads, uint64_t t, ".rept 128\n\t" RB_ASM_LOAD(t, m) "\n\t.endr", : [t] "=&r" (t) : [m] "r" (line))
CONTROL(control_stores, , ".rept 128\n\t" RB_ASM_STORE(t, m) "\n\t.endr", : : [m] "r" (line), [t] "r" (0ull) : "memory")

void rb_control_read(struct rb_control *c, const struct rb_clock *clk)
{
	double dep = INFINITY, ind = INFINITY, ld = INFINITY, st = INFINITY, overhead = clk->overhead;

	for (int i = 0; i < CONTROL_TRIES; i++) {
		dep = fmin(dep, (double)adds_dependent(clk->timer) - overhead);
		ind = fmin(ind, (double)adds_independent(clk->timer) - overhead);
		ld = fmin(ld, (double)control_loads(clk->timer) - overhead);
		st = fmin(st, (double)control_stores(clk->timer) - overhead);
	}
	c->tick_per_add = dep / CONTROL_OPS;
	c->width = dep / ind;
	c->loads = dep / ld;
	c->stores = dep / st;
}

void rb_control_prime(struct rb_control_history *h, const struct rb_clock *clk)
{
	struct timespec pause = { 0, 500 * 1000 };
	double loads = rb_expected(RB_LOADS_PER_CYCLE), stores = rb_expected(RB_STORES_PER_CYCLE);

	h->published.loads = isnan(loads) ? 0 : loads;
	h->published.stores = isnan(stores) ? 0 : stores;
	for (int i = 0; i < 40; i++) {
		struct rb_control c;

		rb_control_read(&c, clk);
		rb_control_add(h, &c);
		nanosleep(&pause, NULL);
	}
}

double rb_primitive_ticks(enum rb_timer t, enum rb_primitive p, int tries)
{
	double once = INFINITY, twice = INFINITY;

	kernels[p](1, t);	/* warm up: caches, branch predictors, the clock */
	/*
	 * Noise only adds time, so the fastest of each is the cleanest; the
	 * difference of two minima, not the minimum of differences, which a
	 * disturbed shorter run would bias low.
	 */
	for (int i = 0; i < tries; i++) {
		once = fmin(once, (double)kernels[p](0, t));
		twice = fmin(twice, (double)kernels[p](1, t));
	}
	return (twice - once) / (UNITS * ITERS);
}
