/* primitives.h: instructions whose cost is published (add, multiply, L1 loads and stores, fences), and the disturbance control, timed on the counter */
#ifndef REGBENCH_PRIMITIVES_H
#define REGBENCH_PRIMITIVES_H

#include "clock.h"
#include "estimate.h"
#include "insns.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * What every architecture times (dependent add: one core cycle on every x86
 * and Arm core; dependent multiply: latency; a pointer chase in L1:
 * load-to-use latency; independent L1 loads and stores: throughput), then
 * the fences whose cost its self-check knows (insns.h's RB_ARCH_FENCES).
 */
#define RB_FENCE_ID(id, what, name, insn, ...) id,
enum rb_primitive {
	RB_ADD_CHAIN,
	RB_MUL_CHAIN,
	RB_L1_LOAD_USE,
	RB_LOADS_PER_CYCLE,
	RB_STORES_PER_CYCLE,
	RB_ARCH_FENCES(RB_FENCE_ID)
	RB_NR_PRIMITIVES
};
#undef RB_FENCE_ID

/*
 * TSC ticks per unit of the primitive (per step, per instruction): 2n
 * versus n unrolled copies, each the fastest of `tries` runs.  For the
 * *_PER_CYCLE primitives the unit is one access, so the rate is
 * core_hz / tsc_hz / result.
 */
double rb_primitive_ticks(enum rb_timer t, enum rb_primitive p, int tries);

/*
 * Read the control that tells a disturbed machine (estimate.h says what it
 * is), with clk's timer and its own cost removed; about 90 µs.
 */
void rb_control_read(struct rb_control *c, const struct rb_clock *clk);

/*
 * Readings to start a history with: forty, half a millisecond apart (a
 * short disturbance at start-up then does not set the references).
 */
void rb_control_prime(struct rb_control_history *h, const struct rb_clock *clk);

#ifdef __cplusplus
}
#endif

#endif
