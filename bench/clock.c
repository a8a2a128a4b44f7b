/* clock.c: the timer's own cost and resolution, its text, the rate where nothing states it, and the core clock */
#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "estimate.h"
#include "insns.h"
#include "primitives.h"

static double monotonic_raw_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* The counter read around 50 ms of waiting, with timer t. */
static __always_inline uint64_t ticks_over(enum rb_timer t, double n1, double *n2)
{
	uint64_t t0 = rb_timer_start();

	do
		*n2 = monotonic_raw_ns();
	while (*n2 - n1 < 50e6);
	return rb_timer_stop(t) - t0;
}

/* The counter's rate measured over 50 ms of CLOCK_MONOTONIC_RAW (best of 5), for what states none. */
static double hz_calibrated(enum rb_timer t)
{
	double best = 0, best_err = 1e300;

	for (int i = 0; i < 5; i++) {
		double n0 = monotonic_raw_ns(), n1 = monotonic_raw_ns(), n2, n3;
		uint64_t ticks = RB_TIMED(t, ticks_over, n1, &n2);

		n3 = monotonic_raw_ns();
		/* the clock reads bracketing each counter read bound the error */
		if ((n1 - n0) + (n3 - n2) < best_err) {
			best_err = (n1 - n0) + (n3 - n2);
			best = (double)ticks / ((n2 + n3) / 2 - (n0 + n1) / 2) * 1e9;
		}
	}
	return best;
}

/* Work of n dependent adds, a length the optimizer cannot change. */
static void spin(unsigned int n)
{
	uint64_t x = 0;

	for (unsigned int i = 0; i < n; i++)
		__asm__ __volatile__(RB_ASM_ADD(x) : [x] "+r" (x));
}

static __always_inline void timer_empty(enum rb_timer t, uint64_t *out, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t t0 = rb_timer_start();

		out[i] = rb_timer_stop(t) - t0;
	}
}

void rb_timer_empty(enum rb_timer t, uint64_t *out, size_t n)
{
	RB_TIMED(t, timer_empty, out, n);
}

/* Pairs around work of every length up to 511 adds. */
static __always_inline void timer_around_work(enum rb_timer t, uint64_t *out, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t t0 = rb_timer_start();

		spin((unsigned int)i % 512);
		out[i] = rb_timer_stop(t) - t0;
	}
}

/*
 * The timer's own cost is the median of empty start/stop pairs.  Its
 * resolution is the step its readings move in, found from pairs around work
 * of every length up to a few hundred adds: serialized rdtsc on some
 * machines (virtual ones especially) moves in steps of tens of ticks, and a
 * difference smaller than a step is not a measurement.  Empty pairs alone
 * cannot tell it: on a machine where they all read the same, every one of
 * them is one step.
 */
static void timer_cost(struct rb_clock *c)
{
	enum { N = 20001 };
	uint64_t *s = malloc(N * sizeof(*s));
	double step;

	c->resolution = 1;
	if (!s)
		return;
	rb_timer_empty(c->timer, s, N);
	c->overhead = rb_median_u64(s, N);
	RB_TIMED(c->timer, timer_around_work, s, N);
	step = rb_timer_step(s, N);
	if (step > 0)
		c->resolution = step;
	free(s);
}

/*
 * How far the counter moves when it moves.  Where readings back to back can
 * read the same count, the counter is coarser than a reading, and the
 * median advance between readings that differ is its granule: qemu-user's
 * generic counter moves once a microsecond by 62 or 63 ticks of 62.5 MHz,
 * whose step the resolution check reads as 1 (1 divides both).  Where every
 * reading differs from the last (a TSC that ticks by 1, or by 27 on the
 * development VM, where a reading takes longer than a step), the
 * resolution is the granule.
 */
static void granularity(struct rb_clock *c)
{
	enum { N = 20001 };
	uint64_t *moved = malloc(N * sizeof(*moved)), prev = rb_timer_start();
	size_t changes = 0, same = 0;

	c->granularity = c->resolution;
	if (!moved)
		return;
	for (int i = 0; i < N; i++) {
		uint64_t now = rb_timer_start();

		if (now == prev)
			same++;
		else if (now > prev)
			moved[changes++] = now - prev;
		prev = now;
	}
	if (same && changes)
		c->granularity = fmax(c->resolution, rb_median_u64(moved, changes));
	free(moved);
}

static __always_inline uint64_t spin_timed(enum rb_timer t, uint64_t turns)
{
	uint64_t t0 = rb_timer_start();

	rb_dither_spin(turns);
	return rb_timer_stop(t) - t0;
}

/*
 * A sampled kernel's dither draws 0..range-1 turns of rb_dither_spin twice
 * (sampled.h).  One draw should span two granules of the counter, so that
 * the sum, spread over four, leaves the start's phase within a granule
 * nearly uniform: the turns of two granules, from the fastest of a few
 * timed spins (a slower core later makes the spread wider, never narrower).
 */
static void dither_range(struct rb_clock *c)
{
	enum { TURNS = 20000 };
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 5; i++) {
		uint64_t d = RB_TIMED(c->timer, spin_timed, TURNS);

		if (d < best)
			best = d;
	}
	double per_turn = ((double)best - c->overhead) / TURNS;
	double range = per_turn > 0 ? ceil(2 * c->granularity / per_turn) : 1;

	c->dither_range = range < 1 ? 1 : range > 1e6 ? 1000000 : (uint32_t)range;
}

/* One add per core cycle on every x86 core of the last 25 years and every Arm core: ticks per add give the core clock. */
double rb_core_per_tick(enum rb_timer t)
{
	double per_add = rb_primitive_ticks(t, RB_ADD_CHAIN, 9);

	return isfinite(per_add) && per_add > 0 ? 1 / per_add : 0;
}

/*
 * Core cycles from the hardware, where the machine exposes a counter to
 * perf_event_open: user-mode cycles of this thread (the accesses run in user
 * mode; a trapped access's kernel and handler time is then not counted, and
 * the source says so).  Where the architecture can read the counter in user
 * mode and the kernel lets it (arm64: kernel.perf_user_access = 1, the
 * event asked for with config1's rdpmc bit), its user page gives the
 * counter to read around each kernel call; else each read is a read() of
 * the event.
 */
static void core_counter_open(struct rb_clock *c)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE, .size = sizeof(attr), .config = PERF_COUNT_HW_CPU_CYCLES,
		.exclude_kernel = 1, .exclude_hv = 1, .config1 = rb_core_user_config1,
	};
	struct perf_event_mmap_page *pg;
	const char *why;

	c->core_page = NULL;
	c->core_fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (c->core_fd < 0) {
		snprintf(c->core_cycles_source, sizeof(c->core_cycles_source),
			 "estimated: " RB_TICKS " over the " RB_TICKS " of a dependent add, measured beside each repetition "
			 "(no hardware counter: %s)",
			 strerror(errno));
		return;
	}
	if (!rb_core_user_config1) {
		snprintf(c->core_cycles_source, sizeof(c->core_cycles_source),
			 "counted: perf_event PERF_COUNT_HW_CPU_CYCLES, user mode only");
		return;
	}
	pg = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, c->core_fd, 0);
	if (pg == MAP_FAILED)
		why = strerror(errno);
	else if (!pg->cap_user_rdpmc)
		why = "the kernel gives user mode no access to it";
	else if (!pg->index)
		why = "user access is off (sysctl kernel.perf_user_access is 0)";
	else
		why = NULL;
	if (why) {
		if (pg != MAP_FAILED)
			munmap(pg, (size_t)sysconf(_SC_PAGESIZE));
		snprintf(c->core_cycles_source, sizeof(c->core_cycles_source),
			 "counted: perf_event PERF_COUNT_HW_CPU_CYCLES, user mode only, a read() of the event "
			 "around each call (not read in user mode: %s)",
			 why);
		return;
	}
	c->core_page = pg;
	snprintf(c->core_cycles_source, sizeof(c->core_cycles_source),
		 "counted: the PMU's %s, read in user mode through perf_event's user page "
		 "(PERF_COUNT_HW_CPU_CYCLES, user mode only)",
		 rb_core_user_counter_name(pg->index - 1));
}

/* The user page's counter: its offset plus the hardware count, as the page's lock says they belong together. */
static int core_read_user(const volatile struct perf_event_mmap_page *pg, uint64_t *v)
{
	for (;;) {
		uint32_t seq = pg->lock, idx;
		uint64_t count = 0;
		int64_t offset;
		unsigned int width;

		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		idx = pg->index;
		offset = pg->offset;
		width = pg->pmc_width;
		if (idx) {
			count = rb_core_user_counter(idx - 1);
			if (width > 0 && width < 64)
				count &= (UINT64_C(1) << width) - 1;
		}
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		if (pg->lock != seq)
			continue;
		if (!idx)
			return -1;
		*v = (uint64_t)offset + count;
		return 0;
	}
}

uint64_t rb_core_read(const struct rb_clock *c)
{
	uint64_t v = 0;

	if (c->core_page && !core_read_user(c->core_page, &v))
		return v;
	if (c->core_fd >= 0 && read(c->core_fd, &v, sizeof(v)) != sizeof(v))
		v = 0;
	return v;
}

/*
 * An asm sequence as one line: its instructions joined by ';', without the
 * operand placeholders (%[cnt], ) that stand for a register the compiler
 * picks.
 */
static void asm_line(char *out, size_t len, const char *insns)
{
	size_t n = 0;

	for (const char *p = insns; *p && n + 1 < len; p++) {
		if (*p == '%' && p[1] == '[') {
			p = strchr(p, ']');
			if (!p)
				break;
			if (p[1] == ',')
				p++;
			if (p[1] == ' ')
				p++;
			continue;
		}
		if (*p != '\t')
			out[n++] = *p == '\n' ? ';' : *p;
	}
	out[n] = '\0';
}

const char *rb_timer_text(enum rb_timer t)
{
	static const char *const stops[RB_NR_TIMERS] = RB_TIMER_STOPS;
	static char text[RB_NR_TIMERS][96];
	char start[40], stop[48];

	asm_line(start, sizeof(start), RB_TIMER_START_ASM);
	asm_line(stop, sizeof(stop), stops[t]);
	snprintf(text[t], sizeof(text[t]), "%s .. %s", start, stop);
	return text[t];
}

int rb_clock_init(struct rb_clock *c, char *why, size_t whylen)
{
	static char calibrated[200];

	memset(c, 0, sizeof(*c));
	if (rb_clock_arch_init(c, why, whylen))
		return -1;
	if (c->tick_hz <= 0) {
		snprintf(calibrated, sizeof(calibrated), "calibrated against CLOCK_MONOTONIC_RAW (50 ms, best of 5)%s%s",
			 c->tick_hz_source ? ": " : "", c->tick_hz_source ? c->tick_hz_source : "");
		c->tick_hz = hz_calibrated(c->timer);
		c->tick_hz_source = calibrated;
	}
	timer_cost(c);
	granularity(c);
	dither_range(c);
	c->core_hz = c->tick_hz * rb_core_per_tick(c->timer);
	c->core_hz_source = "estimate: dependent add chain at 1 add per core cycle, timed on the " RB_COUNTER_NAME;
	core_counter_open(c);
	return 0;
}
