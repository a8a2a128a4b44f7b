/* inkernel.c: a kernel: target's benchmarks, run by the regbench module through /dev/regbench */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

#include "inkernel.h"
#include "iomap/target.h"
#include "kmod/include/uapi/regbench.h"

/* The module's lines, as regbench names the benchmarks: family, op, width, strategy, space. */
struct line {
	enum regbench_family family;
	const char *op;
	unsigned int bits;
	const char *strategy;
	enum regbench_space space;
};

#define REGBENCH_BENCHMARK(fam, op, bits, strategy, sp, ...)			\
	{ REGBENCH_##fam, #op, bits, strategy, REGBENCH_SPACE_##sp },
static const struct line lines[] = {
#include "kmod/include/uapi/regbench-benchmarks.h"
};
#undef REGBENCH_BENCHMARK

#define NLINES (sizeof(lines) / sizeof(lines[0]))

/* regbench's space as the module's: the same two, numbered apart. */
static int space_of(enum iomap_space s)
{
	return s == IOMAP_SPACE_MMIO ? REGBENCH_SPACE_MMIO : s == IOMAP_SPACE_PIO ? REGBENCH_SPACE_PIO : -1;
}

int rb_inkernel_line(const struct rb_kernel *k)
{
	int family = (int)(k->family - rb_families);

	for (size_t i = 0; i < NLINES; i++)
		if ((int)lines[i].family == family && !strcmp(lines[i].op, k->op) && lines[i].bits == k->bits &&
		    !strcmp(lines[i].strategy, k->strategy) && (int)lines[i].space == space_of(k->space))
			return (int)i;
	return -1;
}

static unsigned int timer_flags(enum rb_timer timer)
{
#ifdef __x86_64__
	return timer == RB_TIMER_RDTSCP ? REGBENCH_RUN_RDTSCP : 0;
#else
	(void)timer;
	return 0;
#endif
}

/* What RUN's errno means (the harness checks first what it can, so these are rare). */
static int refused(int e, char *why, size_t whylen)
{
	const char *what;

	switch (e) {
	case E2BIG: what = "the call is larger than the module takes (REGBENCH_MAX_UNITS, REGBENCH_MAX_BUFFER)"; break;
	case EINTR: what = "interrupted by a signal"; break;
	case ENXIO: what = "no device is selected"; break;
	case EINVAL: what = "the module refused the call's offset, width, size or window"; break;
	case EOPNOTSUPP: what = "the module's CPU has no rdtscp"; break;
	default: what = strerror(e);
	}
	snprintf(why, whylen, "the regbench module: %s", what);
	errno = e;
	return -1;
}

int rb_inkernel_run(int fd, int line, enum rb_inkernel_form form, enum rb_timer timer, size_t off,
		    const struct rb_kernel_arg *a, uint64_t iters, uint64_t *ticks, char *why, size_t whylen)
{
	static const unsigned int forms[] = {
		[RB_IN_PLAIN] = 0, [RB_IN_TWIN] = REGBENCH_RUN_TWICE,
		[RB_IN_BASE] = REGBENCH_RUN_BASE, [RB_IN_BASE_TWIN] = REGBENCH_RUN_BASE | REGBENCH_RUN_TWICE,
	};
	struct regbench_run q = {
		.size = sizeof(q), .abi = REGBENCH_ABI, .flags = forms[form] | timer_flags(timer),
		.benchmark = (unsigned int)line, .off = off, .iters = iters, .n = a->n, .value = a->value,
	};

	if (line < 0 || (size_t)line >= NLINES)
		return refused(EINVAL, why, whylen);
	if (rb_family_sampled(&rb_families[lines[line].family])) {
		q.samples = (uintptr_t)a->mem;
		q.dither_seed = a->dither_seed;
		q.dither_range = a->dither_range;
	}
	if (ioctl(fd, REGBENCH_IOC_RUN, &q))
		return refused(errno, why, whylen);
	*ticks = q.ticks;
	return 0;
}

int rb_inkernel_empty(int fd, enum rb_timer timer, uint64_t *out, size_t n, char *why, size_t whylen)
{
	for (size_t done = 0; done < n;) {
		size_t now = n - done < REGBENCH_MAX_SAMPLES ? n - done : REGBENCH_MAX_SAMPLES;
		struct regbench_run q = {
			.size = sizeof(q), .abi = REGBENCH_ABI, .flags = REGBENCH_RUN_EMPTY | timer_flags(timer),
			.iters = now, .samples = (uintptr_t)(out + done),
		};

		if (ioctl(fd, REGBENCH_IOC_RUN, &q))
			return refused(errno, why, whylen);
		done += now;
	}
	return 0;
}

int rb_inkernel_info(int fd, char *version, size_t vlen, char *kernel, size_t klen)
{
	struct regbench_info info;

	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	if (ioctl(fd, REGBENCH_IOC_INFO, &info))
		return -1;
	snprintf(version, vlen, "%.*s", (int)sizeof(info.version), info.version);
	snprintf(kernel, klen, "%.*s", (int)sizeof(info.kernel), info.kernel);
	return 0;
}
