/* family.c: the family table; kernels.c points each kernel at its family, the harness and the JSON read it from here */
#include "family.h"

/*
 * _rep counts: a short burst, a longer one, a long one.  Copy sizes: one
 * each in L1, L2 and L3 on ram (a copy touches twice its size: 8 KiB, 512
 * KiB, 8 MiB), 4 MiB needing a target that large (ram's default is).  Three
 * points each keep the suite's copy and _rep benchmarks as many as before
 * the kernel's strategies came; --counts and --sizes replace them.
 */
static const size_t counts[] = { 8, 64, 512, 0 }, quick_counts[] = { 8, 256, 0 };
static const size_t sizes[] = { 4096, 256 << 10, 4 << 20, 0 }, quick_sizes[] = { 64, 4096, 0 };

/*
 * spread is how far a family's results move between back-to-back runs of
 * one build, undisturbed in both, at the 98th percentile (core-clock changes
 * taken out), the larger of two machines, measured with
 * scripts/tests/verdict_rates.py on the Ice Lake VM and the AMD EPYC Zen 5
 * VM (six runs each, 15 pairs): chain/ 1.9% (Zen 5: a rare run puts an
 * ordered read 28% apart), thrpt/ 3.3%, barrier/ 1%, rep/ 38% and copy/ 78%
 * (Zen 5: _rep loops and copies switch between speeds from one run to the
 * next, up to 2.5x for copies), lat/ 0 (whole timer steps), flush/ 14%,
 * dispatch/ 35% (Ice Lake: the indirect calls).  The rows round them up,
 * lat/ and flush/ wider than measured (30% and 40%, as first set, when
 * each run's timer calibration still moved lat/).  A
 * report's verdict on one run a side needs a difference at least this wide
 * (docs/METHOD.md, "Verdicts"); a family without one (0) takes the floor of
 * a result measured disturbed.
 */
const struct rb_family rb_families[REGBENCH_NR_FAMILIES] = {
	[REGBENCH_LAT] = { "lat", "one access at a time between serializing timer reads (the mean of all samples, each start "
			   "dithered against the timer's tick)",
			   "access", RB_SAMPLED, RB_PARAM_NONE, NULL, NULL, RB_AT_REG,
			   RB_REPORT_PERCENTILES | RB_REPORT_OUTLIERS | RB_REPORT_HISTOGRAM,
			   .below_step = "chain/ gives a read's latency and thrpt/ an access's issue cost, in bulk "
					 "and below one step",
			   .role = RB_ROLE_SERIALIZED, .headline = "read32 read64", .spread = 0.30 },
	[REGBENCH_CHAIN] = { "chain", "dependent reads, each address from the last value: read latency",
			     "read", RB_UNROLLED, RB_PARAM_NONE, NULL, NULL, RB_AT_REG, 0,
			     .role = RB_ROLE_LATENCY, .headline = "read32 read64", .spread = 0.02 },
	[REGBENCH_THRPT] = { "thrpt", "independent back-to-back accesses: issue cost",
			     "access", RB_UNROLLED, RB_PARAM_NONE, NULL, NULL, RB_AT_REG, 0,
			     .role = RB_ROLE_ISSUE, .headline = "read32 read64 write32 write64", .spread = 0.05 },
	[REGBENCH_FLUSH] = { "flush", "a write and the read-back of the same register: when a posted write has landed",
			     "write+read", RB_SAMPLED, RB_PARAM_NONE, NULL, NULL, RB_AT_REG, RB_REPORT_OUTLIERS,
			     .below_step = "thrpt/ gives the write's issue cost and chain/ the read's latency, in bulk "
					   "and below one step",
			     .headline = "write32", .spread = 0.40 },
	[REGBENCH_REP] = { "rep", "_rep of N elements on one register (a FIFO)",
			   "element", RB_BATCH, RB_PARAM_COUNT, counts, quick_counts, RB_AT_FIFO, 0,
			   .headline = "read32", .spread = 0.40 },
	[REGBENCH_COPY] = { "copy", "memcpy_fromio / memcpy_toio / memset_io of N bytes",
			    "copy", RB_BATCH, RB_PARAM_SIZE, sizes, quick_sizes, RB_AT_COPY, 0,
			    .role = RB_ROLE_COPIES, .spread = 0.80 },
	[REGBENCH_BARRIER] = { "barrier", "an ordering primitive alone",
			       "barrier", RB_UNROLLED, RB_PARAM_NONE, NULL, NULL, RB_AT_NOTHING, 0,
			       .role = RB_ROLE_ORDERING, .headline = "all", .spread = 0.05 },
	[REGBENCH_DISPATCH] = { "dispatch", "generic cookie ioread32 versus the direct accessor and an indirect call",
				"read", RB_UNROLLED, RB_PARAM_NONE, NULL, NULL, RB_AT_REG, 0,
				.role = RB_ROLE_COOKIE, .headline = "all", .spread = 0.40 },
};

const struct rb_percentile_counter rb_percentile_counters[RB_NR_PERCENTILES] = {
	{ "min", 0 }, { "p50", 0.5 }, { "p90", 0.9 }, { "p99", 0.99 }, { "p999", 0.999 }, { "max", 1 },
};
