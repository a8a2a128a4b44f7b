/* trap-check.h: the trap tests' shared helpers: the target, its windows, and checks of the access log */
#ifndef IOMAP_TESTS_TRAP_CHECK_H
#define IOMAP_TESTS_TRAP_CHECK_H

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "iomap/io.h"
#include "iomap/strategy.h"
#include "iomap/target.h"
#include "iomap/trap.h"

static struct iomap_target t;

#define MMIO IOMAP_SPACE_MMIO
#define PIO IOMAP_SPACE_PIO
#define RD IOMAP_TRAP_READ
#define WR IOMAP_TRAP_WRITE

/* The second scratch register: aligned for every width, with scratch on both sides. */
#define REG (IOMAP_TRAP_OFF_SCRATCH + 8)

static inline char __iomem *mmio(size_t off) { return (char __iomem *)t.base + off; }
static inline char __iomem *port(size_t off) { return (char __iomem *)t.port + off; }

static inline uint64_t mask(unsigned int bytes)
{
	return bytes >= 8 ? ~0ull : (1ull << (8 * bytes)) - 1;
}

/* The log holds exactly these n accesses: offset, width, direction, space, value. */
struct want { size_t off; unsigned int width; int dir; int space; uint64_t value; };

static inline void check_log(const struct want *w, size_t n)
{
	size_t got;
	const struct iomap_trap_access *a = iomap_trap_log(&t, &got);

	CHECK_EQ(iomap_trap_log_dropped(&t), 0);
	if (!CHECK_EQ(got, n))
		return;
	for (size_t i = 0; i < n; i++) {
		CHECK_EQ(a[i].offset, w[i].off);
		CHECK_EQ(a[i].width, w[i].width);
		CHECK_EQ(a[i].dir, w[i].dir);
		CHECK_EQ(a[i].space, w[i].space);
		CHECK_EQ(a[i].value, w[i].value & mask(w[i].width));
	}
}

static inline void set_bytes(enum iomap_space sp, size_t off, uint64_t v)
{
	CHECK_EQ(iomap_trap_poke(&t, sp, off, &v, 8), 0);
}

static inline uint64_t get_bytes(enum iomap_space sp, size_t off)
{
	uint64_t v = 0;

	CHECK_EQ(iomap_trap_peek(&t, sp, off, &v, 8), 0);
	return v;
}

typedef uint64_t (*read_fn)(const volatile void __iomem *a);
typedef void (*write_fn)(uint64_t v, volatile void __iomem *a);

/*
 * How a 64-bit access reaches the bus: whole, or as two 32-bit halves, the
 * one at the register first (LO_FIRST) or the one 4 bytes on (HI_FIRST).
 * A big-endian lo-hi split takes its low half from 4 bytes on: HI_FIRST.
 */
enum split { WHOLE, LO_FIRST, HI_FIRST };

struct single {
	const char *name;
	unsigned int bytes;
	read_fn rd;
	write_fn wr;
	int swap;		/* big-endian: the bus sees the bytes reversed */
	enum split split;
	int space;		/* where it is pointed: the MMIO window or a port cookie */
};

/* What the split strategies claim (a new strategy whose 64-bit access is two must say how, here). */
static const struct { const char *name; enum split split; } split_claims[] = {
	{ "lo-hi", LO_FIRST }, { "hi-lo", HI_FIRST },
};

static inline enum split split_of(const struct iomap_strategy *s)
{
	for (size_t i = 0; i < sizeof(split_claims) / sizeof(split_claims[0]); i++)
		if (!strcmp(split_claims[i].name, s->name))
			return split_claims[i].split;
	return WHOLE;
}

static inline uint64_t swap_bytes(uint64_t v, unsigned int bytes)
{
	return __builtin_bswap64(v) >> (64 - 8 * bytes);
}

/*
 * The log holds exactly the bus accesses of one access of `bytes` at REG in
 * space sp that moved the bus bytes `bus`: one access, or two 4-byte halves
 * in the order of split.
 */
static inline void check_bus(int sp, unsigned int bytes, int dir, enum split split, uint64_t bus)
{
	struct want lo = { REG, 4, dir, sp, bus }, hi = { REG + 4, 4, dir, sp, bus >> 32 };

	if (split == WHOLE)
		check_log(&(struct want){ REG, bytes, dir, sp, bus }, 1);
	else
		check_log(split == LO_FIRST ? (struct want[]){ lo, hi } : (struct want[]){ hi, lo }, 2);
}

/* ---- _rep on the FIFO: count accesses, all at the one offset, FIFO order ---- */

#define REP_COUNT 7

typedef void (*rep_read_fn)(const volatile void __iomem *a, void *buf, unsigned long count);
typedef void (*rep_write_fn)(volatile void __iomem *a, const void *buf, unsigned long count);

static inline void check_rep(const char *name, enum iomap_space sp, char __iomem *fifo, size_t off, unsigned int bytes,
		      rep_read_fn rd, rep_write_fn wr)
{
	unsigned char in[REP_COUNT * 8 + 2], out[REP_COUNT * 8 + 2];
	struct want w[REP_COUNT];

	/* odd buffer addresses: _rep takes unaligned buffers */
	for (size_t i = 0; i < sizeof(in); i++)
		in[i] = (unsigned char)(0x31 * i + bytes);
	check_context("%s (%u bytes): write", name, bytes);
	iomap_trap_reset(&t);
	iomap_trap_log_reset(&t);
	wr(fifo, in + 1, REP_COUNT);
	for (size_t i = 0; i < REP_COUNT; i++) {
		uint64_t v = 0;

		memcpy(&v, in + 1 + i * bytes, bytes);
		w[i] = (struct want){ off, bytes, WR, sp, v };
	}
	check_log(w, REP_COUNT);

	check_context("%s (%u bytes): read", name, bytes);
	iomap_trap_log_reset(&t);
	memset(out, 0, sizeof(out));
	rd(fifo, out + 1, REP_COUNT);
	CHECK(!memcmp(out + 1, in + 1, REP_COUNT * bytes));
	CHECK_EQ(out[1 + REP_COUNT * bytes], 0);
	for (size_t i = 0; i < REP_COUNT; i++)
		w[i].dir = RD;
	check_log(w, REP_COUNT);

	check_context("%s (%u bytes): empty", name, bytes);
	rd(fifo, out, 1);
	CHECK(!memcmp(out, "\xff\xff\xff\xff\xff\xff\xff\xff", bytes));
}

#define GENERIC_REP(bits, type, k, reg, wreg)					\
	static inline void rd_ioread##bits##_rep(const volatile void __iomem *a, void *b, unsigned long n) \
	{ ioread##bits##_rep(a, b, n); }					\
	static inline void wr_iowrite##bits##_rep(volatile void __iomem *a, const void *b, unsigned long n) \
	{ iowrite##bits##_rep(a, b, n); }					\
	static inline void rd_reads##k(const volatile void __iomem *a, void *b, unsigned long n) \
	{ reads##k(a, b, (unsigned int)n); }					\
	static inline void wr_writes##k(volatile void __iomem *a, const void *b, unsigned long n) \
	{ writes##k(a, b, (unsigned int)n); }
IOMAP_WIDTHS(GENERIC_REP)
#undef GENERIC_REP

/* Opens the trap target for the test named prog; says why not and returns -1 when it cannot. */
static inline int trap_open(const char *prog)
{
	char why[256];

	if (iomap_target_open(&t, "trap", why, sizeof(why))) {
		fprintf(stderr, "%s: %s\n", prog, why);
		return -1;
	}
	return 0;
}

#endif
