/* test-copy.c: memcpy_fromio, memcpy_toio, memset_io and every copy strategy, every size and alignment, on ram */
#include <stdlib.h>

#include "check.h"
#include "iomap/io.h"
#include "iomap/strategy.h"
#include "iomap/target.h"

#define MAX_SIZE 300
#define GUARD 64		/* one AVX-512 vector: a vector that overruns still lands in a guard */
#define IO_BASE 4096		/* 4 KiB into the target: 64-byte aligned, with room for the front guard */
#define WINDOW (GUARD + MAX_SIZE + GUARD)

/*
 * The device-side offsets from a 64-byte boundary: every misalignment in a
 * word, plus a few that give the vector strategies short and odd heads.
 */
static const size_t io_offsets[] = { 0, 1, 2, 3, 4, 5, 6, 7, 31, 33, 57, 63 };

struct copier {
	char name[48];
	void (*fromio)(void *dst, const volatile void __iomem *src, size_t n);
	void (*toio)(volatile void __iomem *dst, const void *src, size_t n);
	void (*set)(volatile void __iomem *dst, int c, size_t n);
	size_t word;		/* copies only whole words of this many bytes to an aligned device address (0: any) */
};

static struct iomap_target ram;
static unsigned char *mem;		/* the target's bytes as normal memory */
static _Alignas(64) unsigned char normal[64 + 8 + WINDOW];

/*
 * Every case takes its data and its guard bytes from a different place in two
 * random pools, so a copy that does nothing cannot pass on what the previous
 * case left behind, and a byte copied from the wrong position shows.
 */
#define POOL 8192
static unsigned char data_pool[POOL + WINDOW], guard_pool[POOL + WINDOW], set_bytes[MAX_SIZE];

static void fill_pools(void)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL;

	for (size_t i = 0; i < sizeof(data_pool); i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		data_pool[i] = (unsigned char)x;
		guard_pool[i] = (unsigned char)(x >> 32);
	}
}

/* The first index where a and b differ, or -1: memcmp first, since the common case is equal. */
static long first_diff(const unsigned char *a, const unsigned char *b, size_t n)
{
	if (!memcmp(a, b, n))
		return -1;
	for (size_t i = 0;; i++)
		if (a[i] != b[i])
			return (long)i;
}

/* A window is [front guard | n bytes | back guard]; check all three parts against what they should hold. */
static void check_window(const unsigned char *win, const unsigned char *guard, const unsigned char *inside,
			 size_t n)
{
	CHECK_EQ(first_diff(win, guard, GUARD), -1);
	CHECK_EQ(first_diff(win + GUARD, inside, n), -1);
	CHECK_EQ(first_diff(win + GUARD + n, guard + GUARD + n, GUARD), -1);
}

static void run_case(const struct copier *c, size_t n, size_t io_off, size_t n_off, unsigned long seed)
{
	const unsigned char *data = data_pool + seed % POOL, *guard = guard_pool + (seed * 7) % POOL;
	unsigned char *io_win = mem + IO_BASE + io_off - GUARD, *n_win = normal + 64 + n_off;
	volatile void __iomem *io_at = ram.base + IO_BASE + io_off;
	int byte = (int)(seed % 767) - 256;	/* memset_io takes an int and must use only its low byte */

	check_context("%s, %zu bytes, io offset %zu, normal offset %zu", c->name, n, io_off, n_off);

	/* from the device: the source window must also stay as it was */
	if (c->fromio) {
		memcpy(io_win, data, WINDOW);
		memcpy(n_win, guard, WINDOW);
		c->fromio(n_win + GUARD, io_at, n);
		check_window(n_win, guard, data + GUARD, n);
		CHECK_EQ(first_diff(io_win, data, WINDOW), -1);
	}
	if (c->toio) {
		memcpy(n_win, data, WINDOW);
		memcpy(io_win, guard, WINDOW);
		c->toio(io_at, n_win + GUARD, n);
		check_window(io_win, guard, data + GUARD, n);
		CHECK_EQ(first_diff(n_win, data, WINDOW), -1);
	}
	if (c->set) {
		memset(set_bytes, (unsigned char)byte, n);
		memcpy(io_win, guard, WINDOW);
		c->set(io_at, byte, n);
		check_window(io_win, guard, set_bytes, n);
	}
}

static void run_copier(const struct copier *c)
{
	unsigned long seed = 0;
	unsigned long failed_before = check_failed;

	for (size_t n = 0; n <= MAX_SIZE; n++)
		for (size_t i = 0; i < sizeof(io_offsets) / sizeof(io_offsets[0]); i++)
			for (size_t n_off = 0; n_off < 8; n_off++)
				if (!c->word || (n % c->word == 0 && io_offsets[i] % c->word == 0))
					run_case(c, n, io_offsets[i], n_off, seed++);
	printf("%-22s %s\n", c->name, check_failed == failed_before ? "ok" : "FAILED");
}

/*
 * Copy support in the table is all three operations, or one direction for a
 * word strategy, or none, as its flags say; anything less than all three
 * only with a reason.
 */
static void check_table_entry(const struct iomap_strategy *s)
{
	int n = !!s->copy_fromio + !!s->copy_toio + !!s->set_io;

	check_context("strategy %s", s->name);
	CHECK(n == (!s->copy ? 0 : s->copy_words ? 1 : 3));
	CHECK(n == 3 || *s->lacks);
	if (s->copy_words)
		CHECK(!s->set_io && (s->copy_element == 4 || s->copy_element == 8));
	/* 16: arm64's ldp/stp pairs and NEON q registers; 32 and 64: x86's AVX2 and AVX-512 */
	if (n)
		CHECK(s->copy_element == 1 || s->copy_element == 4 || s->copy_element == 8 ||
		      s->copy_element == 16 || s->copy_element == 32 || s->copy_element == 64);
	/* a strategy that needs a CPU feature is a vector copy of that width */
	if (s->feature != IOMAP_FEATURE_none)
		CHECK(s->copy_element >= 16);
}

int main(void)
{
	static const struct copier kernel = { "memcpy_fromio/toio/set", memcpy_fromio, memcpy_toio, memset_io, 0 };
	char why[256];
	size_t ran = 0, anywhere = 0;

	if (iomap_target_open(&ram, "ram:64k", why, sizeof(why))) {
		fprintf(stderr, "test-copy: %s\n", why);
		return 1;
	}
	mem = (unsigned char __force *)ram.base;
	fill_pools();

	run_copier(&kernel);
	for (size_t i = 0; i < iomap_nr_strategies; i++) {
		const struct iomap_strategy *s = &iomap_strategies[i];
		const char *missing = iomap_strategy_cpu_missing(s);
		struct copier c = { .fromio = s->copy_fromio, .toio = s->copy_toio, .set = s->set_io,
				    .word = s->copy_words ? s->copy_element : 0 };

		check_table_entry(s);
		if (!s->copy)
			continue;
		anywhere += !s->absent && s->feature == IOMAP_FEATURE_none;
		if (missing) {
			check_skip("strategy %s: %s", s->name, missing);
			continue;
		}
		snprintf(c.name, sizeof(c.name), "%s", s->name);
		run_copier(&c);
		ran++;
	}
	/*
	 * every copy strategy of this architecture that needs no CPU feature ran
	 * (x86-64: the loops, string, string-wide, kernel, kernel-unrolled and the
	 * word copies; arm64: the loops, kernel, the word copies and pair)
	 */
	check_context("table");
	CHECK(anywhere >= 8);
	CHECK(ran >= anywhere);

	iomap_target_close(&ram);
	return check_report("test-copy");
}
