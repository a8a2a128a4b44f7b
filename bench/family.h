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
	const char *instead;		/* a sampled family: what to read where an access is below one timer step */
};

/* The families' numbers are the ones regbench and its kernel module share (bench/kmod/include/uapi/regbench.h). */
enum rb_family_id {
	RB_LAT = REGBENCH_LAT, RB_CHAIN = REGBENCH_CHAIN, RB_THRPT = REGBENCH_THRPT, RB_FLUSH = REGBENCH_FLUSH,
	RB_REP = REGBENCH_REP, RB_COPY = REGBENCH_COPY, RB_BARRIER = REGBENCH_BARRIER, RB_DISPATCH = REGBENCH_DISPATCH,
	RB_NR_FAMILIES = REGBENCH_NR_FAMILIES
};

/* Every family, in the order reports show them. */
extern const struct rb_family rb_families[RB_NR_FAMILIES];

/* A sampled family's values move in steps of the timer's resolution. */
static inline bool rb_family_sampled(const struct rb_family *f)
{
	return f->shape == RB_SAMPLED;
}

#ifdef __cplusplus
}
#endif

#endif
