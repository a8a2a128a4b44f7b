/* family.h: the benchmark families as data: what each measures, its shape and unit, what it sweeps, where and what it reports */
#ifndef REGBENCH_FAMILY_H
#define REGBENCH_FAMILY_H

#include <stdbool.h>
#include <stddef.h>

#include "kmod/include/uapi/regbench.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * How a family's kernels are timed, so what one unit of `cycles` is:
 *   RB_UNROLLED  accesses unrolled in the kernel's loop, with a twin of twice
 *                as many (n versus 2n: loop and timer cost cancel)
 *   RB_SAMPLED   each access timed alone; every sample kept
 *   RB_BATCH     calls of N elements or bytes, timed as a whole
 */
enum rb_shape { RB_UNROLLED, RB_SAMPLED, RB_BATCH };

/* What a family's /N parameter is: nothing, a _rep count (cost per element), a copy size in bytes (cost per call). */
enum rb_param { RB_PARAM_NONE, RB_PARAM_COUNT, RB_PARAM_SIZE };

/* Which of the offsets a target names the family works at (iomap_target). */
enum rb_where { RB_AT_REG, RB_AT_FIFO, RB_AT_COPY, RB_AT_NOTHING };

/*
 * The question of a report's first screen a family answers, if one: what
 * one access costs alone between two timer reads (serialized), a read's
 * latency when each waits for the last (latency), an access's cost back to
 * back (issue), which copy is fastest at which size (copies), what an
 * ordering primitive costs alone (ordering), what ioread32's cookie costs
 * over a direct access (cookie).  A report finds its benchmarks by it, not
 * by the family's name.
 */
enum rb_role { RB_ROLE_NONE, RB_ROLE_SERIALIZED, RB_ROLE_LATENCY, RB_ROLE_ISSUE, RB_ROLE_COPIES, RB_ROLE_ORDERING,
	       RB_ROLE_COOKIE };

/* What a family reports beyond cycles, core_cycles, ns and bytes_per_second. */
#define RB_REPORT_PERCENTILES	1u	/* rb_percentile_counters: min p50 p90 p99 p999 max */
#define RB_REPORT_OUTLIERS	2u	/* samples beyond the far-out fence */
#define RB_REPORT_HISTOGRAM	4u	/* the samples binned, in the JSON */

/* The percentiles a RB_REPORT_PERCENTILES family reports, each a counter: its name and quantile (1: the most). */
struct rb_percentile_counter {
	const char *counter;
	double q;
};
#define RB_NR_PERCENTILES 6
extern const struct rb_percentile_counter rb_percentile_counters[RB_NR_PERCENTILES];

struct rb_family {
	const char *name;		/* the first part of a benchmark name: "lat" */
	const char *what;		/* what it measures, one line */
	const char *unit;		/* what one unit of `cycles` is: access, element, copy, ... */
	enum rb_shape shape;
	enum rb_param param;
	const size_t *sweep, *quick;	/* the values of /N it runs, and under --quick (0-terminated) */
	enum rb_where where;
	unsigned int reports;		/* RB_REPORT_* */
	const char *below_step;		/* a sampled family: what to read where its results are below one timer step */
	/* what a report needs to know of it, which the JSON carries (regbench.families[name]): */
	enum rb_role role;
	const char *headline;		/* its rows a summary shows first: "read32 read64" of the kernel's readl, "all" */
	double spread;			/* how far its results move between two runs of one build; 0: not measured */
};

/*
 * Every family, in the order reports show them, at its number: the families
 * are listed once, as enum regbench_family (REGBENCH_LAT, ...) of the
 * interface regbench and its kernel module share (kmod/include/uapi/regbench.h).
 */
extern const struct rb_family rb_families[REGBENCH_NR_FAMILIES];

/* A sampled family's values move in steps of the timer's resolution. */
static inline bool rb_family_sampled(const struct rb_family *f)
{
	return f->shape == RB_SAMPLED;
}

#ifdef __cplusplus
}
#endif

#endif
