/* primitives.c: the published primitives as kernels of n and 2n unrolled copies, and the disturbance control, timed on the TSC */
#include <math.h>
#include <stdint.h>
#include <time.h>

#include "clock.h"
#include "primitives.h"
#include "selfcheck.h"

enum { ITERS = 1000, UNITS = 64 };

/*
 * body is one unit; a kernel repeats it UNITS (or 2 x UNITS) times per loop
 * iteration with .rept, so the twin's extra time is exactly UNITS x ITERS
 * units: loop and timer cost cancel.
 */
#define TIMED(count, body, ...) ({						\
	uint64_t t0 = rb_tsc_start();						\
	for (uint64_t i = 0; i < ITERS; i++)					\
		__asm__ __volatile__(".rept " #count "\n\t" body "\n\t.endr" __VA_ARGS__); \
	rb_tsc_stop() - t0; })
#define PRIMITIVE(name, setup, body, ...)					\
static uint64_t name(int twice)						\
{									\
	setup;								\
	return twice ? TIMED(128, body, __VA_ARGS__) : TIMED(64, body, __VA_ARGS__); \
}

static void *volatile chase[8] __attribute__((aligned(64)));
static uint64_t line[8] __attribute__((aligned(64)));

PRIMITIVE(add_chain, uint64_t x = 0, "add $1, %[x]", : [x] "+r" (x))
PRIMITIVE(imul_chain, uint64_t x = 1, "imul %[x], %[x]", : [x] "+r" (x))
PRIMITIVE(l1_load_use, void *p = (void *)chase; chase[0] = (void *)chase, "mov (%[p]), %[p]", : [p] "+r" (p))
PRIMITIVE(loads, , "mov (%[m]), %%rax", : : [m] "r" (line) : "rax")
PRIMITIVE(stores, , "mov %%rax, (%[m])", : : [m] "r" (line), "a" (0) : "memory")
PRIMITIVE(lfences, , "lfence", : : : "memory")
PRIMITIVE(mfences, , "mfence", : : : "memory")
PRIMITIVE(lockeds, , "lock orq $0, (%%rsp)", : : : "memory", "cc")

static uint64_t (*const kernels[RB_NR_PRIMITIVES])(int) = {
	add_chain, imul_chain, l1_load_use, loads, stores, lfences, mfences, lockeds,
};

/*
 * The control: 128 x CONTROL_ITERS adds as one dependent chain and as four
 * independent ones, and as many independent L1 loads and stores, each the
 * fastest of a few calls (about 90 µs in all).  Whole calls, not n versus
 * 2n: a fastest call cannot come out faster than the machine is.
 */
enum { CONTROL_ITERS = 200, CONTROL_TRIES = 5, CONTROL_OPS = 128 * CONTROL_ITERS };

static uint64_t adds_dependent(void)
{
	uint64_t x = 0, t0 = rb_tsc_start();

	for (int i = 0; i < CONTROL_ITERS; i++)
		__asm__ __volatile__(".rept 128\n\tadd $1, %0\n\t.endr" : "+r" (x));
	return rb_tsc_stop() - t0;
}

static uint64_t adds_independent(void)
{
	uint64_t a = 0, b = 0, c = 0, d = 0, t0 = rb_tsc_start();

	for (int i = 0; i < CONTROL_ITERS; i++)
		__asm__ __volatile__(".rept 32\n\tadd $1, %0\n\tadd $1, %1\n\tadd $1, %2\n\tadd $1, %3\n\t.endr"
				     : "+r" (a), "+r" (b), "+r" (c), "+r" (d));
	return rb_tsc_stop() - t0;
}

static uint64_t control_loads(void)
{
	uint64_t t0 = rb_tsc_start();

	for (int i = 0; i < CONTROL_ITERS; i++)
		__asm__ __volatile__(".rept 128\n\tmov (%0), %%rax\n\t.endr" : : "r" (line) : "rax");
	return rb_tsc_stop() - t0;
}

static uint64_t control_stores(void)
{
	uint64_t t0 = rb_tsc_start();

	for (int i = 0; i < CONTROL_ITERS; i++)
		__asm__ __volatile__(".rept 128\n\tmov %%rax, (%0)\n\t.endr" : : "r" (line), "a" (0) : "memory");
	return rb_tsc_stop() - t0;
}

void rb_control_read(struct rb_control *c, double overhead)
{
	double dep = INFINITY, ind = INFINITY, ld = INFINITY, st = INFINITY;

	for (int i = 0; i < CONTROL_TRIES; i++) {
		dep = fmin(dep, (double)adds_dependent() - overhead);
		ind = fmin(ind, (double)adds_independent() - overhead);
		ld = fmin(ld, (double)control_loads() - overhead);
		st = fmin(st, (double)control_stores() - overhead);
	}
	c->tick_per_add = dep / CONTROL_OPS;
	c->width = dep / ind;
	c->loads = dep / ld;
	c->stores = dep / st;
}

void rb_control_prime(struct rb_control_history *h, double overhead)
{
	struct timespec pause = { 0, 500 * 1000 };
	double loads = rb_expected(RB_LOADS_PER_CYCLE), stores = rb_expected(RB_STORES_PER_CYCLE);

	h->published.loads = isnan(loads) ? 0 : loads;
	h->published.stores = isnan(stores) ? 0 : stores;
	for (int i = 0; i < 40; i++) {
		struct rb_control c;

		rb_control_read(&c, overhead);
		rb_control_add(h, &c);
		nanosleep(&pause, NULL);
	}
}

double rb_primitive_ticks(enum rb_primitive p, int tries)
{
	double once = INFINITY, twice = INFINITY;

	kernels[p](1);	/* warm up: caches, branch predictors, the clock */
	/*
	 * Noise only adds time, so the fastest of each is the cleanest; the
	 * difference of two minima, not the minimum of differences, which a
	 * disturbed shorter run would bias low.
	 */
	for (int i = 0; i < tries; i++) {
		once = fmin(once, (double)kernels[p](0));
		twice = fmin(twice, (double)kernels[p](1));
	}
	return (twice - once) / (UNITS * ITERS);
}
