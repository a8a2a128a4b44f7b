/* selfcheck.h: the published cost of each primitive on this CPU, set beside what it measures here */
#ifndef REGBENCH_SELFCHECK_H
#define REGBENCH_SELFCHECK_H

#include <stdio.h>

#include "clock.h"
#include "primitives.h"
#include "published.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Print the self-check table for this CPU to f.  Returns 0 when every figure
 * with a reference matches it, 1 when one is off on an undisturbed machine,
 * 3 when some could only be measured while the control read the machine
 * disturbed (and none was off).
 */
int rb_selfcheck(FILE *f, const struct rb_clock *clk);

#ifdef __cplusplus
}
#endif

#endif
