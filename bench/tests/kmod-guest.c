/* kmod-guest.c: the regbench module's interface as a hostile caller meets it, and accesses laid out for the device's own log (runs in the QEMU guest) */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "../kmod/include/uapi/regbench.h"

/*
 * kmod-guest hostile    every check the module must make of what it is given, each one line
 * kmod-guest accesses   accesses of known widths and counts, each preceded by the "expect" lines
 *                       of what the device must see (scripts/guest-test compares them with
 *                       QEMU's trace of the device models: memory_region_ops_read/write)
 * kmod-guest users      two open files at once, and threads sharing one
 *
 * The guest's devices (scripts/guest): edu at 00:04.0 (1234:11e8, BAR0 1 MiB: 0x04 is the only
 * register written here), pci-testdev at 00:05.0 (1b36:0005, BAR0 4 KiB MMIO, BAR1 256 ports of
 * which 0x80..0x83 take writes), a second edu at 00:07.0 that the caller binds to pci-stub first.
 */
static int failed, passed;

#define CHECK(cond, ...)							\
	do {									\
		if (cond) {							\
			passed++;						\
			printf("ok: kmod: ");					\
		} else {							\
			failed++;						\
			printf("FAIL: kmod: ");					\
		}								\
		printf(__VA_ARGS__);						\
		printf("\n");							\
	} while (0)

/* The module's lines, to find one by what regbench calls it. */
#define REGBENCH_BENCHMARK REGBENCH_IDENTITY
static const struct regbench_identity lines[] = {
#include "../kmod/include/uapi/regbench-benchmarks.h"
};
#undef REGBENCH_BENCHMARK
#define NLINES (sizeof(lines) / sizeof(lines[0]))

static unsigned int line(const char *family, const char *op, const char *bits, const char *strategy,
			 const char *space)
{
	for (size_t i = 0; i < NLINES; i++)
		if (!strcmp(lines[i].family, family) && !strcmp(lines[i].op, op) && !strcmp(lines[i].bits, bits) &&
		    !strcmp(lines[i].strategy, strategy) && !strcmp(lines[i].space, space))
			return (unsigned int)i;
	fprintf(stderr, "kmod-guest: no line %s %s %s %s %s\n", family, op, bits, strategy, space);
	exit(2);
}

static int open_dev(void)
{
	int fd = open(REGBENCH_DEVICE, O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		printf("FAIL: kmod: open %s: %s\n", REGBENCH_DEVICE, strerror(errno));
		exit(1);
	}
	return fd;
}

struct dev {
	unsigned int bus, devfn, vendor, device;
};
static const struct dev edu = { 0, 4 << 3, 0x1234, 0x11e8 }, testdev = { 0, 5 << 3, 0x1b36, 0x0005 },
			edu2 = { 0, 7 << 3, 0x1234, 0x11e8 };

static struct regbench_select sel(const struct dev *d, unsigned int bar, uint64_t off, uint64_t len)
{
	struct regbench_select q = { .size = sizeof(q), .abi = REGBENCH_ABI, .bus = d->bus, .devfn = d->devfn,
				     .vendor = d->vendor, .device = d->device, .bar = bar, .off = off, .len = len };

	return q;
}

/* ioctl's errno, or 0 */
static int call(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? errno : 0;
}

static struct regbench_run run_of(unsigned int benchmark, uint64_t off, uint64_t iters, uint64_t n)
{
	struct regbench_run q = { .size = sizeof(q), .abi = REGBENCH_ABI, .benchmark = benchmark, .off = off,
				  .iters = iters, .n = n, .value = 0x5a5a5a5a5a5a5a5aull };

	return q;
}

static const char *name(int e)
{
	return e ? strerror(e) : "success";
}

#define EXPECT_ERRNO(want, got, ...)						\
	do {									\
		int got_ = (got);						\
		char what_[160];						\
										\
		snprintf(what_, sizeof(what_), __VA_ARGS__);			\
		CHECK(got_ == (want), "%s -> %s%s%s", what_, name(want),	\
		      got_ == (want) ? "" : ", not ", got_ == (want) ? "" : name(got_)); \
	} while (0)

static void hostile(void)
{
	int fd = open_dev();
	struct regbench_info info = { .size = sizeof(info) };
	struct regbench_select q;
	struct regbench_read r;
	struct regbench_run x;
	uint64_t samples[16];		/* a sampled run's 8, then its baseline's */
	unsigned char big[sizeof(struct regbench_select) + 16];

	/* the struct's size and ABI, and the ioctl itself */
	EXPECT_ERRNO(0, call(fd, REGBENCH_IOC_INFO, &info), "INFO");
	CHECK(info.abi == REGBENCH_ABI && info.benchmarks == NLINES, "INFO: ABI %u, %u benchmarks (this program: %u)",
	      info.abi, info.benchmarks, (unsigned int)NLINES);
	info.size = 4;
	EXPECT_ERRNO(EINVAL, call(fd, REGBENCH_IOC_INFO, &info), "INFO with size 4");
	EXPECT_ERRNO(EFAULT, call(fd, REGBENCH_IOC_INFO, NULL), "INFO at address 0");
	EXPECT_ERRNO(EFAULT, call(fd, REGBENCH_IOC_SELECT, (void *)16), "SELECT at address 16");
	EXPECT_ERRNO(ENOTTY, call(fd, _IOWR(REGBENCH_IOC_MAGIC, 9, struct regbench_run), &info), "ioctl number 9");
	EXPECT_ERRNO(ENOTTY, call(fd, _IOWR('x', 1, struct regbench_info), &info), "another magic");
	q = sel(&edu, 0, 0, 4);
	q.size = 1u << 20;
	EXPECT_ERRNO(EINVAL, call(fd, REGBENCH_IOC_SELECT, &q), "SELECT with size 1 MiB");
	q = sel(&edu, 0, 0, 4);
	q.abi = REGBENCH_ABI + 1;
	EXPECT_ERRNO(EPROTO, call(fd, REGBENCH_IOC_SELECT, &q), "SELECT of another ABI");
	memset(big, 0, sizeof(big));
	q = sel(&edu, 0, 0, 4);
	q.size = sizeof(big);
	memcpy(big, &q, sizeof(q));
	EXPECT_ERRNO(0, call(fd, REGBENCH_IOC_SELECT, big), "SELECT in a larger struct whose tail is zero");
	big[sizeof(big) - 1] = 1;
	EXPECT_ERRNO(E2BIG, call(fd, REGBENCH_IOC_SELECT, big), "SELECT in a larger struct whose tail is not zero");
	close(fd);
	fd = open_dev();

	/* nothing runs or reads before a device is selected, but the timer alone */
	r = (struct regbench_read){ .size = sizeof(r), .abi = REGBENCH_ABI, .bytes = 4 };
	EXPECT_ERRNO(ENXIO, call(fd, REGBENCH_IOC_READ, &r), "READ before SELECT");
	x = run_of(line("THRPT", "read", "32", "ordered", "MMIO"), 0, 1, 0);
	EXPECT_ERRNO(ENXIO, call(fd, REGBENCH_IOC_RUN, &x), "RUN before SELECT");
	x = run_of(0, 0, 8, 0);
	x.flags = REGBENCH_RUN_EMPTY;
	x.samples = (uintptr_t)samples;
	EXPECT_ERRNO(0, call(fd, REGBENCH_IOC_RUN, &x), "RUN of the timer alone before SELECT");

	/* SELECT: the device, the BAR, the window, the flags */
	struct { const char *what; struct regbench_select q; int e; } selects[] = {
		{ "an unknown flag", sel(&edu, 0, 0, 4), EINVAL },
		{ "BAR 6", sel(&edu, 6, 0, 4), EINVAL },
		{ "widths 16 bytes", sel(&edu, 0, 0, 4), EINVAL },
		{ "an empty window", sel(&edu, 0, 0, 0), EINVAL },
		{ "a window past the BAR", sel(&edu, 0, 1 << 20, 4), EINVAL },
		{ "a window that wraps around", sel(&edu, 0, 8, UINT64_MAX - 3), EINVAL },
		{ "a write window outside the window", sel(&edu, 0, 0, 8), EINVAL },
		{ "a write window that wraps around", sel(&edu, 0, 0, 8), EINVAL },
		{ "an empty slot", sel(&(struct dev){ 0, 31 << 3, 0x1234, 0x11e8 }, 0, 0, 4), ENODEV },
		{ "bus 256", sel(&(struct dev){ 256, 4 << 3, 0x1234, 0x11e8 }, 0, 0, 4), EINVAL },
		{ "ids that are not the slot's", sel(&(struct dev){ 0, 4 << 3, 0x1af4, 0x1110 }, 0, 0, 4), ENODEV },
		{ "a BAR the device does not have", sel(&edu, 2, 0, 4), ENXIO },
		{ "write-combining on a non-prefetchable BAR", sel(&edu, 0, 0, 4), EINVAL },
		{ "a device bound to a driver", sel(&edu2, 0, 0, 4), EBUSY },
		{ "out fields set", sel(&edu, 0, 0, 4), EINVAL },
	};
	selects[0].q.flags = 0x80;
	selects[2].q.widths = 0x10;
	selects[6].q.write_off = 8;
	selects[6].q.write_len = 4;
	selects[7].q.write_off = 4;
	selects[7].q.write_len = UINT64_MAX;
	selects[12].q.flags = REGBENCH_SELECT_WC;
	selects[14].q.mapping = 1;
	for (size_t i = 0; i < sizeof(selects) / sizeof(selects[0]); i++)
		EXPECT_ERRNO(selects[i].e, call(fd, REGBENCH_IOC_SELECT, &selects[i].q), "SELECT of %s", selects[i].what);
	q = sel(&edu2, 0, 0, 4);
	q.flags = REGBENCH_SELECT_FORCE;
	EXPECT_ERRNO(0, call(fd, REGBENCH_IOC_SELECT, &q), "SELECT of a device bound to a driver, with FORCE");

	/* a read-only window of edu: 8 bytes, 32-bit accesses only */
	q = sel(&edu, 0, 0, 8);
	q.widths = 4;
	EXPECT_ERRNO(0, call(fd, REGBENCH_IOC_SELECT, &q), "SELECT of edu BAR0 0+8, 32-bit only");
	CHECK(q.space == REGBENCH_SPACE_MMIO && q.mapping == REGBENCH_MAP_UC, "SELECT says: memory, uncached");
	struct { const char *what; uint64_t off; uint32_t bytes; int e; } reads[] = {
		{ "3 bytes", 0, 3, EINVAL }, { "16 bytes", 0, 16, EINVAL }, { "a 64-bit read, 32 allowed", 0, 8, EINVAL },
		{ "a misaligned read", 2, 4, EINVAL }, { "past the window", 8, 4, EINVAL },
		{ "far past the window", UINT64_MAX - 1, 4, EINVAL }, { "the ID register", 0, 4, 0 },
	};
	for (size_t i = 0; i < sizeof(reads) / sizeof(reads[0]); i++) {
		r = (struct regbench_read){ .size = sizeof(r), .abi = REGBENCH_ABI, .off = reads[i].off,
					    .bytes = reads[i].bytes };
		EXPECT_ERRNO(reads[i].e, call(fd, REGBENCH_IOC_READ, &r), "READ of %s", reads[i].what);
	}
	CHECK((r.value & 0xff) == 0xed, "READ of edu's ID register: 0x%llx (edu's reads 0x..ed)",
	      (unsigned long long)r.value);

	/* RUN: what each benchmark takes */
	unsigned int lat = line("LAT", "read", "32", "ordered", "MMIO"), thrpt = line("THRPT", "read", "32", "ordered", "MMIO");
	unsigned int wr = line("THRPT", "write", "32", "ordered", "MMIO"), rep = line("REP", "read", "32", "relaxed", "MMIO");
	unsigned int copy = line("COPY", "fromio", "0", "kernel", "MMIO"), chain = line("CHAIN", "read", "32", "ordered", "MMIO");
	unsigned int q64 = line("THRPT", "read", "64", "ordered", "MMIO");
	struct { const char *what; struct regbench_run x; int e; } runs[] = {
		{ "benchmark past the list", run_of(NLINES, 0, 1, 0), EINVAL },
		{ "benchmark 2^31", run_of(1u << 31, 0, 1, 0), EINVAL },
		{ "no iterations", run_of(thrpt, 0, 0, 0), EINVAL },
		{ "2^60 iterations", run_of(thrpt, 0, 1ull << 60, 0), E2BIG },
		{ "an unknown flag", run_of(thrpt, 0, 1, 0), EINVAL },
		{ "the twin of a sampled benchmark", run_of(lat, 0, 1, 0), EINVAL },
		{ "the baseline of an unchained one", run_of(thrpt, 0, 1, 0), EINVAL },
		{ "samples without a buffer", run_of(lat, 0, 1, 0), EINVAL },
		{ "4097 samples", run_of(lat, 0, 4097, 0), EINVAL },
		{ "samples into address 8", run_of(lat, 0, 4, 0), EFAULT },
		{ "a buffer for an unsampled one", run_of(thrpt, 0, 1, 0), EINVAL },
		{ "a misaligned register", run_of(thrpt, 2, 1, 0), EINVAL },
		{ "a register past the window", run_of(thrpt, 8, 1, 0), EINVAL },
		{ "a register far past the window", run_of(thrpt, UINT64_MAX - 3, 1, 0), EINVAL },
		{ "a 64-bit read where 32 is allowed", run_of(q64, 0, 1, 0), EINVAL },
		{ "a write without a write window", run_of(wr, 4, 1, 0), EINVAL },
		{ "_rep of no elements", run_of(rep, 0, 1, 0), EINVAL },
		{ "_rep of 2^40 elements", run_of(rep, 0, 1, 1ull << 40), E2BIG },
		{ "n for a single access", run_of(thrpt, 0, 1, 4), EINVAL },
		{ "a copy past the window", run_of(copy, 4, 1, 8), EINVAL },
		{ "a copy far past the window", run_of(copy, 4, 1, UINT64_MAX), EINVAL },
		{ "padding not zero", run_of(thrpt, 0, 1, 0), EINVAL },
		{ "an out field set", run_of(thrpt, 0, 1, 0), EINVAL },
		{ "the timer alone with a benchmark", run_of(thrpt, 0, 1, 0), EINVAL },
		{ "a port benchmark on memory", run_of(thrpt, 0, 1, 0), EINVAL },
		{ "a dither range of 4097 turns", run_of(lat, 0, 1, 0), EINVAL },
		{ "a dither for an unsampled one", run_of(thrpt, 0, 1, 0), EINVAL },
		{ "the second padding not zero", run_of(thrpt, 0, 1, 0), EINVAL },
		{ "chain's baseline", run_of(chain, 0, 4, 0), 0 },
		{ "edu's ID register, sampled and dithered", run_of(lat, 0, 8, 0), 0 },
		{ "a sampled one's baseline", run_of(lat, 0, 8, 0), 0 },
	};
	runs[4].x.flags = 0x100;
	runs[5].x.flags = REGBENCH_RUN_TWICE;
	runs[5].x.samples = (uintptr_t)samples;
	runs[6].x.flags = REGBENCH_RUN_BASE;
	runs[8].x.samples = (uintptr_t)samples;
	runs[9].x.samples = 8;
	runs[10].x.samples = (uintptr_t)samples;
	runs[21].x.pad = 1;
	runs[22].x.ticks = 1;
	runs[23].x.flags = REGBENCH_RUN_EMPTY;
	runs[23].x.samples = (uintptr_t)samples;
#ifdef __x86_64__
	runs[24].x.benchmark = line("THRPT", "read", "32", "ordered", "PIO");
#else
	runs[24].x.benchmark = NLINES;		/* arm64 has no port lines: any line past the list is refused too */
#endif
	runs[25].x.samples = (uintptr_t)samples;
	runs[25].x.dither_range = REGBENCH_MAX_DITHER + 1;
	runs[26].x.dither_seed = 1;
	runs[27].x.pad2 = 1;
	runs[28].x.flags = REGBENCH_RUN_BASE | REGBENCH_RUN_TWICE;
	runs[29].x.samples = (uintptr_t)samples;
	runs[29].x.dither_seed = 0x9e3779b97f4a7c15ull;
	runs[29].x.dither_range = 64;
	runs[30].x.samples = (uintptr_t)(samples + 8);
	runs[30].x.flags = REGBENCH_RUN_BASE;
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++)
		EXPECT_ERRNO(runs[i].e, call(fd, REGBENCH_IOC_RUN, &runs[i].x), "RUN of %s", runs[i].what);
	CHECK(runs[29].x.dither_seed != 0x9e3779b97f4a7c15ull, "a dithered run hands back the generator's state");
	CHECK(samples[0] > 0 && samples[0] < 100000000, "a sampled read took %llu ticks",
	      (unsigned long long)samples[0]);
	CHECK(samples[8] < 100000000, "a sampled baseline took %llu ticks", (unsigned long long)samples[8]);
#ifndef __x86_64__
	x = run_of(thrpt, 0, 1, 0);
	x.flags = REGBENCH_RUN_RDTSCP;
	EXPECT_ERRNO(EOPNOTSUPP, call(fd, REGBENCH_IOC_RUN, &x), "RUN with x86's rdtscp on arm64");
#endif

	/* a write window: edu's 0x04, and a write just outside it */
	q = sel(&edu, 0, 0, 8);
	q.widths = 4;
	q.write_off = 4;
	q.write_len = 4;
	EXPECT_ERRNO(0, call(fd, REGBENCH_IOC_SELECT, &q), "SELECT of edu BAR0 0+8 with the write window 4+4");
	x = run_of(wr, 4, 1, 0);
	EXPECT_ERRNO(0, call(fd, REGBENCH_IOC_RUN, &x), "RUN of a write inside the write window");
	x = run_of(wr, 0, 1, 0);
	EXPECT_ERRNO(EINVAL, call(fd, REGBENCH_IOC_RUN, &x), "RUN of a write outside the write window");
	close(fd);
}

/*
 * Where BAR bar of the device in slot 0000:00:DD.0 starts, as sysfs says (the
 * address QEMU's trace gives an access: a bus address, or a port).
 */
static uint64_t bar_start(const struct dev *d, unsigned int bar)
{
	char path[80];
	unsigned long long start = 0, end, flags;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/0000:%02x:%02x.%x/resource", d->bus, d->devfn >> 3,
		 d->devfn & 7);
	f = fopen(path, "r");
	for (unsigned int i = 0; f && i <= bar; i++)
		if (fscanf(f, "%llx %llx %llx", &start, &end, &flags) != 3)
			start = 0;
	if (f)
		fclose(f);
	if (!start) {
		printf("FAIL: kmod: accesses: no BAR %u in %s\n", bar, path);
		exit(1);
	}
	return start;
}

/*
 * The BAR whose accesses the next expect lines name.  QEMU's pci-testdev
 * model takes single bytes (its regions' largest access is one byte), so
 * QEMU hands it each wider access as that many bytes, in order: its lines
 * say so.  edu's takes 4 and 8 bytes whole.
 */
static const char *region;
static uint64_t region_start;
static bool region_bytes;

static void in_region(const char *name_, const struct dev *d, unsigned int bar, bool bytes)
{
	region = name_;
	region_start = bar_start(d, bar);
	region_bytes = bytes;
}

/* Prints what the device must see next: dir R or W, width in bytes, at offset off of the BAR, count times. */
static void expect(char dir, unsigned int bytes, uint64_t off, unsigned int count)
{
	for (unsigned int i = 0; i < count; i++)
		for (unsigned int b = 0; b < (region_bytes ? bytes : 1); b++)
			printf("expect %s %c %u 0x%llx\n", region, dir, region_bytes ? 1 : bytes,
			       (unsigned long long)(region_start + off + b));
}

static void must(int fd, unsigned long cmd, void *arg, const char *what)
{
	int e = call(fd, cmd, arg);

	if (e) {
		printf("FAIL: kmod: accesses: %s: %s\n", what, strerror(e));
		exit(1);
	}
}

static void select_or_die(int fd, struct regbench_select q)
{
	must(fd, REGBENCH_IOC_SELECT, &q, "SELECT");
}

static void run_once(int fd, unsigned int benchmark, unsigned int flags, uint64_t off, uint64_t iters, uint64_t n)
{
	static uint64_t samples[REGBENCH_MAX_SAMPLES];
	struct regbench_run x = run_of(benchmark, off, iters, n);

	x.flags = flags;
	if (!strcmp(lines[benchmark].family, "LAT") || !strcmp(lines[benchmark].family, "FLUSH"))
		x.samples = (uintptr_t)samples;
	must(fd, REGBENCH_IOC_RUN, &x, lines[benchmark].family);
}

/*
 * Each call's accesses, as the device sees them: edu's 4- and 8-byte ones
 * whole (its 0x80 is the DMA source address, read here only), pci-testdev's
 * MMIO and ports as bytes (above).  What each kernel accessor
 * issues is Linux v6.1's: readl one 4-byte read, lo_hi_readq the low half
 * first, readsl count reads of one register, memcpy_fromio on x86 a byte
 * and a word to align the device side then rep movsl and the tail, on
 * arm64 bytes to an 8-byte boundary then 8-byte reads and a byte tail.
 */
static void accesses(void)
{
	int fd = open_dev();
	struct regbench_select q = sel(&edu, 0, 0, 0x100);

	q.write_off = 4;
	q.write_len = 4;
	select_or_die(fd, q);
	in_region("edu-mmio", &edu, 0, false);
	expect('R', 4, 0, 8);
	run_once(fd, line("THRPT", "read", "32", "ordered", "MMIO"), 0, 0, 1, 0);
	expect('R', 4, 0, 16);
	run_once(fd, line("THRPT", "read", "32", "relaxed", "MMIO"), REGBENCH_RUN_TWICE, 0, 1, 0);
	expect('R', 4, 0, 3);
	run_once(fd, line("LAT", "read", "32", "ordered", "MMIO"), 0, 0, 3, 0);
	expect('R', 8, 0x80, 8);
	run_once(fd, line("CHAIN", "read", "64", "ordered", "MMIO"), 0, 0x80, 1, 0);
	run_once(fd, line("CHAIN", "read", "64", "ordered", "MMIO"), REGBENCH_RUN_BASE, 0x80, 1, 0);
	for (int i = 0; i < 2; i++) {
		expect('R', 4, 0x80, 1);
		expect('R', 4, 0x84, 1);
	}
	run_once(fd, line("LAT", "read", "64", "lo_hi", "MMIO"), 0, 0x80, 2, 0);
	expect('R', 4, 0x84, 1);
	expect('R', 4, 0x80, 1);
	run_once(fd, line("LAT", "read", "64", "hi_lo", "MMIO"), 0, 0x80, 1, 0);
	expect('R', 4, 0, 5);
	run_once(fd, line("REP", "read", "32", "relaxed", "MMIO"), 0, 0, 1, 5);
	expect('R', 4, 0, 24);
	run_once(fd, line("DISPATCH", "read", "32", "cookie-mmio", "MMIO"), 0, 0, 1, 0);
	run_once(fd, line("DISPATCH", "read", "32", "table", "MMIO"), 0, 0, 1, 0);
	run_once(fd, line("DISPATCH", "read", "32", "direct", "MMIO"), 0, 0, 1, 0);
	for (int i = 0; i < 2; i++) {
		expect('W', 4, 4, 1);
		expect('R', 4, 4, 1);
	}
	run_once(fd, line("FLUSH", "write", "32", "relaxed", "MMIO"), 0, 4, 2, 0);
	expect('W', 4, 4, 1);
	run_once(fd, line("COPY", "toio", "0", "iowrite32_copy", "MMIO"), 0, 4, 1, 4);
	/* the barriers touch no device */
	run_once(fd, line("BARRIER", "compiler", "0", "", "MMIO"), 0, 0, 4, 0);

	q = sel(&testdev, 0, 0, 0x1000);
	select_or_die(fd, q);
	in_region("pci-testdev-mmio", &testdev, 0, true);
	expect('R', 1, 0x10, 8);
	run_once(fd, line("THRPT", "read", "8", "ordered", "MMIO"), 0, 0x10, 1, 0);
	expect('R', 2, 0x10, 2);
	run_once(fd, line("LAT", "read", "16", "relaxed", "MMIO"), 0, 0x10, 2, 0);
	expect('R', 4, 0x20, 1);
	expect('R', 4, 0x24, 1);
	run_once(fd, line("COPY", "fromio", "0", "ioread32_copy", "MMIO"), 0, 0x20, 1, 8);
#ifdef __x86_64__
	expect('R', 1, 0x41, 1);
	expect('R', 2, 0x42, 1);
	expect('R', 4, 0x44, 1);
	expect('R', 4, 0x48, 1);
	expect('R', 2, 0x4c, 1);
#else
	for (unsigned int off = 0x41; off < 0x4e; off++)
		expect('R', 1, off, 1);
#endif
	run_once(fd, line("COPY", "fromio", "0", "kernel", "MMIO"), 0, 0x41, 1, 13);
#ifdef __x86_64__
	q = sel(&testdev, 1, 0x80, 4);
	q.write_off = 0x80;
	q.write_len = 4;
	select_or_die(fd, q);
	in_region("pci-testdev-portio", &testdev, 1, true);
	expect('R', 4, 0x80, 8);
	run_once(fd, line("THRPT", "read", "32", "ordered", "PIO"), 0, 0, 1, 0);
	expect('R', 2, 0x80, 3);
	run_once(fd, line("REP", "read", "16", "string", "PIO"), 0, 0, 1, 3);
	expect('W', 1, 0x80, 2);
	run_once(fd, line("LAT", "write", "8", "ordered", "PIO"), 0, 0, 2, 0);
	expect('R', 4, 0x80, 8);
	run_once(fd, line("DISPATCH", "read", "32", "cookie-pio", "PIO"), 0, 0, 1, 0);
#endif
	/* the end: one read no call above makes, so that nothing they did after their accesses hides */
	q = sel(&testdev, 0, 0, 0x1000);
	select_or_die(fd, q);
	in_region("pci-testdev-mmio", &testdev, 0, true);
	expect('R', 1, 0xfff, 1);
	struct regbench_read r = { .size = sizeof(r), .abi = REGBENCH_ABI, .off = 0xfff, .bytes = 1 };

	must(fd, REGBENCH_IOC_READ, &r, "READ");
	close(fd);
	printf("ok: kmod: accesses made; the device's log is compared on the host\n");
	passed++;
}

/* Two files measure two devices at once; threads share a third. */
struct user {
	int fd;
	unsigned int benchmark;
	int errors;
};

static void *hammer(void *arg)
{
	struct user *u = arg;

	for (int i = 0; i < 200; i++) {
		struct regbench_run x = run_of(u->benchmark, 0, 4, 0);

		if (call(u->fd, REGBENCH_IOC_RUN, &x))
			u->errors++;
	}
	return NULL;
}

static void users(void)
{
	struct user u[4];
	pthread_t t[4];
	struct regbench_select a = sel(&edu, 0, 0, 8), b = sel(&testdev, 0, 0, 8);
	unsigned int thrpt = line("THRPT", "read", "32", "relaxed", "MMIO");
	int fd1 = open_dev(), fd2 = open_dev(), errors = 0;

	select_or_die(fd1, a);
	select_or_die(fd2, b);
	u[0] = (struct user){ fd1, thrpt, 0 };
	u[1] = (struct user){ fd2, thrpt, 0 };
	u[2] = (struct user){ fd2, thrpt, 0 };
	u[3] = (struct user){ fd2, line("CHAIN", "read", "32", "ordered", "MMIO"), 0 };
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, hammer, &u[i]);
	for (int i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		errors += u[i].errors;
	}
	CHECK(!errors, "two files and three threads ran 800 calls at once: %d failed", errors);
	close(fd1);
	hammer(&u[1]);
	CHECK(!u[1].errors, "the second file still runs after the first is closed");
	close(fd2);
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc != 2) {
		fprintf(stderr, "usage: kmod-guest hostile|accesses|users\n");
		return 2;
	}
	if (!strcmp(argv[1], "hostile"))
		hostile();
	else if (!strcmp(argv[1], "accesses"))
		accesses();
	else if (!strcmp(argv[1], "users"))
		users();
	else
		return 2;
	printf("kmod-guest %s: %d passed, %d failed\n", argv[1], passed, failed);
	return failed ? 1 : 0;
}
