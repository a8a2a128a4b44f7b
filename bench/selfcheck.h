/* selfcheck.h: the published cost of each primitive on this CPU, set beside what it measures here */
#ifndef REGBENCH_SELFCHECK_H
#define REGBENCH_SELFCHECK_H

#include <stdio.h>

#include "clock.h"
#include "primitives.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A core's published figures: core cycles, or accesses per cycle for rates; NAN where none is published. */
struct rb_reference {
	const char *name;		/* the core as the table names it: "Zen 5", "Neoverse N1" */
	double v[RB_NR_PRIMITIVES];
};

/*
 * bench/arch/ARCH/cpu.c: this CPU's row of its architecture's table, or NULL
 * for a core it does not know; what identifies the CPU ("family 0x1a model
 * 0x2", "MIDR 0x410fd0c1") into id.
 */
const struct rb_reference *rb_cpu_reference(char *id, size_t len);

/* This CPU's core as the reference table names it ("Zen 5", "Ice Lake"), or NULL for one it does not know. */
const char *rb_cpu_name(void);

/* The published figure for this CPU (core cycles, or accesses per cycle for rates), or NAN. */
double rb_expected(enum rb_primitive p);

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
