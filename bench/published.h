/* published.h: the primitives whose cost is published, and this CPU's published figures for them */
#ifndef REGBENCH_PUBLISHED_H
#define REGBENCH_PUBLISHED_H

#include <stddef.h>

#include "insns.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * What every architecture times (dependent add: one core cycle on every x86
 * and Arm core; dependent multiply: latency; a pointer chase in L1:
 * load-to-use latency; independent L1 loads and stores: throughput), then
 * the fences whose cost its self-check knows (insns.h's RB_ARCH_FENCES).
 * primitives.c times them; the columns of each architecture's table are
 * these, in this order.
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

#ifdef __cplusplus
}
#endif

#endif
