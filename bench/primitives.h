/* primitives.h: instructions whose cost is published (add, multiply, L1 loads and stores, fences), and the disturbance control, timed on the counter */
#ifndef REGBENCH_PRIMITIVES_H
#define REGBENCH_PRIMITIVES_H

#include "clock.h"
#include "estimate.h"
#include "published.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Timer ticks per unit of the primitive (per step, per instruction): 2n
 * versus n unrolled copies, each the fastest of `tries` runs.  For the
 * *_PER_CYCLE primitives the unit is one access, so the rate is
 * core_hz / tick_hz / result.
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
