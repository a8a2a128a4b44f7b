/* test-trap.c: the trap device's access log proves what each accessor issues; register models; fault handling */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include "check.h"
#include "iomap/io.h"
#include "iomap/iopoll.h"
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

static char __iomem *mmio(size_t off) { return (char __iomem *)t.base + off; }
static char __iomem *port(size_t off) { return (char __iomem *)t.port + off; }

static uint64_t mask(unsigned int bytes)
{
	return bytes >= 8 ? ~0ull : (1ull << (8 * bytes)) - 1;
}

/* The log holds exactly these n accesses: offset, width, direction, space, value. */
struct want { size_t off; unsigned int width; int dir; int space; uint64_t value; };

static void check_log(const struct want *w, size_t n)
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

static void set_bytes(enum iomap_space sp, size_t off, uint64_t v)
{
	CHECK_EQ(iomap_trap_poke(&t, sp, off, &v, 8), 0);
}

static uint64_t get_bytes(enum iomap_space sp, size_t off)
{
	uint64_t v = 0;

	CHECK_EQ(iomap_trap_peek(&t, sp, off, &v, 8), 0);
	return v;
}

/* ---- every single-access form: inline per strategy, kernel names, the table, generic cookies ---- */

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

static enum split split_of(const struct iomap_strategy *s)
{
	for (size_t i = 0; i < sizeof(split_claims) / sizeof(split_claims[0]); i++)
		if (!strcmp(split_claims[i].name, s->name))
			return split_claims[i].split;
	return WHOLE;
}

#define INLINE_STRATEGY(s, bits)						\
	static uint64_t rd_##s##bits(const volatile void __iomem *a) { return iomap_read##bits##_##s(a); } \
	static void wr_##s##bits(uint64_t v, volatile void __iomem *a) { iomap_write##bits##_##s((uint##bits##_t)v, a); }
#define EACH_SINGLE(id, access, order, X, bits)					\
	IOMAP_ORDER_MMIO_##order(IOMAP_AT_##access(bits, X(id, bits)))
#define WRAP(tag, rd, wr, type)							\
	static uint64_t rd_##tag(const volatile void __iomem *a) { return rd(a); } \
	static void wr_##tag(uint64_t v, volatile void __iomem *a) { wr((type)v, a); }
#define INLINE_WIDTH(bits, type, k, reg, wreg)					\
	IOMAP_STRATEGIES(EACH_SINGLE, INLINE_STRATEGY, bits)			\
	WRAP(read##k, read##k, write##k, type)					\
	WRAP(read##k##_relaxed, read##k##_relaxed, write##k##_relaxed, type)	\
	WRAP(__raw_read##k, __raw_read##k, __raw_write##k, type)		\
	WRAP(ioread##bits, ioread##bits, iowrite##bits, type)			\
	WRAP(ioread##bits##_inline, iomap_ioread##bits##_inline, iomap_iowrite##bits##_inline, type)
IOMAP_WIDTHS(INLINE_WIDTH)
#undef INLINE_WIDTH
WRAP(ioread16be, ioread16be, iowrite16be, uint16_t)
WRAP(ioread32be, ioread32be, iowrite32be, uint32_t)
WRAP(ioread64be, ioread64be, iowrite64be, uint64_t)
WRAP(ioread64_lo_hi, ioread64_lo_hi, iowrite64_lo_hi, uint64_t)
WRAP(ioread64_hi_lo, ioread64_hi_lo, iowrite64_hi_lo, uint64_t)
WRAP(ioread64be_lo_hi, ioread64be_lo_hi, iowrite64be_lo_hi, uint64_t)
WRAP(ioread64be_hi_lo, ioread64be_hi_lo, iowrite64be_hi_lo, uint64_t)
WRAP(lo_hi_readq, lo_hi_readq, lo_hi_writeq, uint64_t)
WRAP(lo_hi_readq_relaxed, lo_hi_readq_relaxed, lo_hi_writeq_relaxed, uint64_t)
WRAP(hi_lo_readq, hi_lo_readq, hi_lo_writeq, uint64_t)
WRAP(hi_lo_readq_relaxed, hi_lo_readq_relaxed, hi_lo_writeq_relaxed, uint64_t)

/* a strategy's entry carries its id: test_singles gives it the split the strategy claims */
#define S(s, bits) { #s, bits / 8, rd_##s##bits, wr_##s##bits, 0, WHOLE, MMIO },
#define E(fn, bytes, swap, split, sp) { #fn, bytes, rd_##fn, wr_##fn, swap, split, sp },
#define K(k, bits) E(read##k, bits / 8, 0, WHOLE, MMIO) E(read##k##_relaxed, bits / 8, 0, WHOLE, MMIO) \
	E(__raw_read##k, bits / 8, 0, WHOLE, MMIO)				\
	E(ioread##bits, bits / 8, 0, WHOLE, MMIO) E(ioread##bits##_inline, bits / 8, 0, WHOLE, MMIO)
#define WIDTH(bits, k)								\
	IOMAP_STRATEGIES(EACH_SINGLE, S, bits) K(k, bits)
static struct single singles[] = {
	WIDTH(8, b) WIDTH(16, w) WIDTH(32, l) WIDTH(64, q)
	E(ioread16be, 2, 1, WHOLE, MMIO) E(ioread32be, 4, 1, WHOLE, MMIO) E(ioread64be, 8, 1, WHOLE, MMIO)
	/* the kernel's splits on a mapping */
	E(lo_hi_readq, 8, 0, LO_FIRST, MMIO) E(lo_hi_readq_relaxed, 8, 0, LO_FIRST, MMIO)
	E(hi_lo_readq, 8, 0, HI_FIRST, MMIO) E(hi_lo_readq_relaxed, 8, 0, HI_FIRST, MMIO)
#ifdef IOMAP_GENERIC_IOMAP
	/* lib/iomap.c's _lo_hi ones are one readq on a mapping */
	E(ioread64_lo_hi, 8, 0, WHOLE, MMIO) E(ioread64_hi_lo, 8, 0, WHOLE, MMIO)
	E(ioread64be_lo_hi, 8, 1, WHOLE, MMIO) E(ioread64be_hi_lo, 8, 1, WHOLE, MMIO)
#else
	/* io-64-nonatomic-*.h's are two ioread32 (be: the word at +4 first for lo_hi) */
	E(ioread64_lo_hi, 8, 0, LO_FIRST, MMIO) E(ioread64_hi_lo, 8, 0, HI_FIRST, MMIO)
	E(ioread64be_lo_hi, 8, 1, HI_FIRST, MMIO) E(ioread64be_hi_lo, 8, 1, LO_FIRST, MMIO)
#endif
#ifdef IOMAP_HAVE_PORT_IO
	/* the generic accessors on a port cookie: 64-bit ones as two inl/outl */
	E(ioread8, 1, 0, WHOLE, PIO) E(ioread16, 2, 0, WHOLE, PIO) E(ioread32, 4, 0, WHOLE, PIO)
	E(ioread8_inline, 1, 0, WHOLE, PIO) E(ioread16_inline, 2, 0, WHOLE, PIO)
	E(ioread32_inline, 4, 0, WHOLE, PIO) E(ioread64_inline, 8, 0, LO_FIRST, PIO)
	E(ioread16be, 2, 1, WHOLE, PIO) E(ioread32be, 4, 1, WHOLE, PIO)
	E(ioread64, 8, 0, LO_FIRST, PIO) E(ioread64_lo_hi, 8, 0, LO_FIRST, PIO) E(ioread64_hi_lo, 8, 0, HI_FIRST, PIO)
	E(ioread64be, 8, 1, HI_FIRST, PIO) E(ioread64be_lo_hi, 8, 1, HI_FIRST, PIO)
	E(ioread64be_hi_lo, 8, 1, LO_FIRST, PIO)
#endif
};
#undef S
#undef E
#undef K
#undef WIDTH

static uint64_t swap_bytes(uint64_t v, unsigned int bytes)
{
	return __builtin_bswap64(v) >> (64 - 8 * bytes);
}

/*
 * The log holds exactly the bus accesses of one access of `bytes` at REG in
 * space sp that moved the bus bytes `bus`: one access, or two 4-byte halves
 * in the order of split.
 */
static void check_bus(int sp, unsigned int bytes, int dir, enum split split, uint64_t bus)
{
	struct want lo = { REG, 4, dir, sp, bus }, hi = { REG + 4, 4, dir, sp, bus >> 32 };

	if (split == WHOLE)
		check_log(&(struct want){ REG, bytes, dir, sp, bus }, 1);
	else
		check_log(split == LO_FIRST ? (struct want[]){ lo, hi } : (struct want[]){ hi, lo }, 2);
}

/* Exactly the accesses the form claims, of the width at the offset, with the value, and nothing else moves. */
static void check_single(const struct single *s)
{
	const uint64_t pattern = 0x8877665544332211ull, around = 0xa5a5a5a5a5a5a5a5ull;
	char __iomem *at = s->space == MMIO ? mmio(REG) : port(REG);
	unsigned int bytes = s->bytes;
	uint64_t v, bus;

	check_context("%s (%u bytes, %s): read", s->name, bytes, s->space == MMIO ? "mmio" : "port");
	set_bytes(s->space, REG - 8, around);
	set_bytes(s->space, REG, pattern);
	set_bytes(s->space, REG + 8, around);
	iomap_trap_log_reset(&t);
	v = s->rd(at);
	CHECK_EQ(v, s->swap ? swap_bytes(pattern & mask(bytes), bytes) : pattern & mask(bytes));
	check_bus(s->space, bytes, RD, s->split, pattern);

	check_context("%s (%u bytes, %s): write", s->name, bytes, s->space == MMIO ? "mmio" : "port");
	v = 0xf0e1d2c3b4a59687ull & mask(bytes);
	bus = s->swap ? swap_bytes(v, bytes) : v;
	iomap_trap_log_reset(&t);
	s->wr(v, at);
	check_bus(s->space, bytes, WR, s->split, bus);
	CHECK_EQ(get_bytes(s->space, REG), (pattern & ~mask(bytes)) | bus);
	CHECK_EQ(get_bytes(s->space, REG - 8), around);
	CHECK_EQ(get_bytes(s->space, REG + 8), around);
}

static void test_singles(void)
{
	for (size_t i = 0; i < sizeof(singles) / sizeof(singles[0]); i++) {
		const struct iomap_strategy *st = iomap_strategy_find_id(singles[i].name);

		if (st && singles[i].bytes == 8)
			singles[i].split = split_of(st);
		check_single(&singles[i]);
	}
}

/* The strategy table's pointers, which the dispatch family calls. */
#define TABLE_WIDTH(bits)							\
	static const struct iomap_strategy *table_s##bits;			\
	static uint64_t rd_table##bits(const volatile void __iomem *a) { return table_s##bits->read##bits(a); } \
	static void wr_table##bits(uint64_t v, volatile void __iomem *a) { table_s##bits->write##bits((uint##bits##_t)v, a); }
TABLE_WIDTH(8) TABLE_WIDTH(16) TABLE_WIDTH(32) TABLE_WIDTH(64)
#undef TABLE_WIDTH

static void test_table(void)
{
	static const read_fn rds[] = { rd_table8, rd_table16, rd_table32, rd_table64 };
	static const write_fn wrs[] = { wr_table8, wr_table16, wr_table32, wr_table64 };

	for (size_t i = 0; i < iomap_nr_strategies; i++) {
		const struct iomap_strategy *s = &iomap_strategies[i];
		char name[64];

		check_context("%s: its 64-bit access issues %u-byte ones", s->name, s->single_issues64);
		if (s->single || s->port_single)
			CHECK(s->single_issues64 == (split_of(s) == WHOLE ? 8u : 4u));
		table_s8 = table_s16 = table_s32 = table_s64 = s;
		snprintf(name, sizeof(name), "table %s", s->name);
		for (unsigned int w = 0; w < 4; w++)
			if (s->single_widths & (1u << w))
				check_single(&(struct single){ name, 1u << w, rds[w], wrs[w], 0,
							       w == 3 ? split_of(s) : WHOLE, MMIO });
	}
}

#ifdef IOMAP_HAVE_PORT_IO
/* ---- port forms: every strategy's in/out, the kernel's _p forms and the I/O delay ---- */

/*
 * Port 0x80, where x86's I/O delay writes, is not the trap's: its
 * `outb %al,$0x80` (e6 80) faults to the handler installed before the trap
 * target, this one, which counts it, notes how long the trap's log was then
 * (so the order is known) and steps over it.  Anything else is a real fault.
 */
static volatile size_t delays, delay_after;

static void on_delay(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	const unsigned char *rip = (const unsigned char *)uc->uc_mcontext.gregs[REG_RIP];
	size_t n;

	(void)si;
	if (rip[0] == 0xe6 && rip[1] == 0x80) {
		iomap_trap_log(&t, &n);
		delay_after = n;
		delays++;
		uc->uc_mcontext.gregs[REG_RIP] += 2;
		return;
	}
	signal(sig, SIG_DFL);
}

typedef uint64_t (*in_fn)(uint16_t port);
typedef void (*out_fn)(uint64_t v, uint16_t port);

struct port_single {
	const char *name;
	unsigned int bytes;
	in_fn in;
	out_fn out;
	enum split split;
	int delay;		/* followed by the I/O delay */
};

#define PORT_FORM(bits, type, k, reg, wreg, id, access)			\
	IOMAP_PORT_AT_##access(bits,						\
	static uint64_t in_##id##bits(uint16_t p) { return iomap_in##bits##_##id(p); } \
	static void out_##id##bits(uint64_t v, uint16_t p) { iomap_out##bits##_##id((type)v, p); })
#define PORT_FORMS(id, access, order) IOMAP_WIDTHS(PORT_FORM, id, access)
IOMAP_STRATEGIES(PORT_FORMS)
#define KERNEL_PORT(bits, type, k)						\
	static uint64_t in_in##k(uint16_t p) { return in##k(p); }		\
	static void out_in##k(uint64_t v, uint16_t p) { out##k((type)v, p); }	\
	static uint64_t in_in##k##_p(uint16_t p) { return in##k##_p(p); }	\
	static void out_in##k##_p(uint64_t v, uint16_t p) { out##k##_p((type)v, p); }
IOMAP_PORT_WIDTHS(KERNEL_PORT)

#define PORT_ENTRY(bits, type, k, reg, wreg, id, access)			\
	IOMAP_PORT_AT_##access(bits, { #id, bits / 8, in_##id##bits, out_##id##bits, WHOLE, 0 },)
#define PORT_ENTRIES(id, access, order) IOMAP_WIDTHS(PORT_ENTRY, id, access)
#define KERNEL_PORT_ENTRY(bits, type, k)					\
	{ "in" #k "/out" #k, bits / 8, in_in##k, out_in##k, WHOLE, 0 },	\
	{ "in" #k "_p/out" #k "_p", bits / 8, in_in##k##_p, out_in##k##_p, WHOLE, 1 },
static struct port_single port_singles[] = {
	IOMAP_STRATEGIES(PORT_ENTRIES)
	IOMAP_PORT_WIDTHS(KERNEL_PORT_ENTRY)
};

static void check_port_single(const struct port_single *s)
{
	const uint64_t pattern = 0x8877665544332211ull, around = 0xa5a5a5a5a5a5a5a5ull;
	unsigned int bytes = s->bytes, accesses = s->split == WHOLE ? 1 : 2;
	uint16_t p = (uint16_t)(IOMAP_TRAP_PORT_BASE + REG);
	uint64_t v;

	check_context("%s (%u bytes): in", s->name, bytes);
	set_bytes(PIO, REG - 8, around);
	set_bytes(PIO, REG, pattern);
	set_bytes(PIO, REG + 8, around);
	iomap_trap_log_reset(&t);
	delays = 0;
	v = s->in(p);
	CHECK_EQ(v, pattern & mask(bytes));
	check_bus(PIO, bytes, RD, s->split, pattern);
	CHECK_EQ(delays, s->delay);
	if (s->delay)
		CHECK_EQ(delay_after, accesses);	/* the delay comes after the access */

	check_context("%s (%u bytes): out", s->name, bytes);
	v = 0xf0e1d2c3b4a59687ull & mask(bytes);
	iomap_trap_log_reset(&t);
	delays = 0;
	s->out(v, p);
	check_bus(PIO, bytes, WR, s->split, v);
	CHECK_EQ(delays, s->delay);
	if (s->delay)
		CHECK_EQ(delay_after, accesses);
	CHECK_EQ(get_bytes(PIO, REG), (pattern & ~mask(bytes)) | v);
	CHECK_EQ(get_bytes(PIO, REG - 8), around);
	CHECK_EQ(get_bytes(PIO, REG + 8), around);
}

static void test_port_singles(void)
{
	iomap_trap_reset(&t);
	for (size_t i = 0; i < sizeof(port_singles) / sizeof(port_singles[0]); i++) {
		struct port_single *s = &port_singles[i];
		const struct iomap_strategy *st = iomap_strategy_find_id(s->name);

		/* the strategies' forms claim what their row says: a split, the I/O delay */
		if (st) {
			s->split = s->bytes == 8 ? split_of(st) : WHOLE;
			s->delay = st->delay_port == 0x80;
			check_context("%s: its ordering writes port %#x", st->name, st->delay_port);
			CHECK(st->delay_port == 0 || st->delay_port == 0x80);
		}
		check_port_single(s);
	}
}

#endif
/* ---- _rep on the FIFO: count accesses, all at the one offset, FIFO order ---- */

#define REP_COUNT 7

typedef void (*rep_read_fn)(const volatile void __iomem *a, void *buf, unsigned long count);
typedef void (*rep_write_fn)(volatile void __iomem *a, const void *buf, unsigned long count);

static void check_rep(const char *name, enum iomap_space sp, char __iomem *fifo, size_t off, unsigned int bytes,
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
	static void rd_ioread##bits##_rep(const volatile void __iomem *a, void *b, unsigned long n) \
	{ ioread##bits##_rep(a, b, n); }					\
	static void wr_iowrite##bits##_rep(volatile void __iomem *a, const void *b, unsigned long n) \
	{ iowrite##bits##_rep(a, b, n); }					\
	static void rd_reads##k(const volatile void __iomem *a, void *b, unsigned long n) \
	{ reads##k(a, b, (unsigned int)n); }					\
	static void wr_writes##k(volatile void __iomem *a, const void *b, unsigned long n) \
	{ writes##k(a, b, (unsigned int)n); }
IOMAP_WIDTHS(GENERIC_REP)
#undef GENERIC_REP

#ifdef IOMAP_HAVE_PORT_IO
/* The string strategy's _rep: rep insX/outsX on the port, as regbench's rep/…/string kernels issue it. */
#define PORT_REP(k, bits)							\
	static void rd_ins##k(const volatile void __iomem *a, void *b, unsigned long n) \
	{ ins##k(iomap_cookie_port(a), b, n); }					\
	static void wr_outs##k(volatile void __iomem *a, const void *b, unsigned long n) \
	{ outs##k(iomap_cookie_port(a), b, n); }					\
	static void rd_ins##k##_p(const volatile void __iomem *a, void *b, unsigned long n) \
	{ delays = 0; ins##k##_p(iomap_cookie_port(a), b, n); CHECK_EQ(delays, 0); } \
	static void wr_outs##k##_p(volatile void __iomem *a, const void *b, unsigned long n) \
	{ delays = 0; outs##k##_p(iomap_cookie_port(a), b, n); CHECK_EQ(delays, 0); }
PORT_REP(b, 8) PORT_REP(w, 16) PORT_REP(l, 32)
#undef PORT_REP

#endif
static void test_rep(void)
{
	const size_t f = IOMAP_TRAP_OFF_FIFO;

	for (size_t i = 0; i < iomap_nr_strategies; i++) {
		const struct iomap_strategy *s = &iomap_strategies[i];
		char name[64];

		if (!s->read_rep[0])
			continue;
		snprintf(name, sizeof(name), "%s _rep", s->name);
		for (unsigned int w = 0; w < 4; w++)
			check_rep(name, MMIO, mmio(f), f, 1u << w, s->read_rep[w], s->write_rep[w]);
	}
	check_rep("ioread_rep (mmio)", MMIO, mmio(f), f, 1, rd_ioread8_rep, wr_iowrite8_rep);
	check_rep("ioread_rep (mmio)", MMIO, mmio(f), f, 2, rd_ioread16_rep, wr_iowrite16_rep);
	check_rep("ioread_rep (mmio)", MMIO, mmio(f), f, 4, rd_ioread32_rep, wr_iowrite32_rep);
	check_rep("ioread_rep (mmio)", MMIO, mmio(f), f, 8, rd_ioread64_rep, wr_iowrite64_rep);
	check_rep("readsb/writesb", MMIO, mmio(f), f, 1, rd_readsb, wr_writesb);
	check_rep("readsw/writesw", MMIO, mmio(f), f, 2, rd_readsw, wr_writesw);
	check_rep("readsl/writesl", MMIO, mmio(f), f, 4, rd_readsl, wr_writesl);
	check_rep("readsq/writesq", MMIO, mmio(f), f, 8, rd_readsq, wr_writesq);
#ifdef IOMAP_HAVE_PORT_IO
	check_rep("ioread_rep (port)", PIO, port(f), f, 1, rd_ioread8_rep, wr_iowrite8_rep);
	check_rep("ioread_rep (port)", PIO, port(f), f, 2, rd_ioread16_rep, wr_iowrite16_rep);
	check_rep("ioread_rep (port)", PIO, port(f), f, 4, rd_ioread32_rep, wr_iowrite32_rep);
	check_rep("string: rep insb/outsb", PIO, port(f), f, 1, rd_insb, wr_outsb);
	check_rep("string: rep insw/outsw", PIO, port(f), f, 2, rd_insw, wr_outsw);
	check_rep("string: rep insl/outsl", PIO, port(f), f, 4, rd_insl, wr_outsl);
	/* x86 Linux's string _p forms are the plain ones: no I/O delay */
	check_rep("insb_p/outsb_p", PIO, port(f), f, 1, rd_insb_p, wr_outsb_p);
	check_rep("insw_p/outsw_p", PIO, port(f), f, 2, rd_insw_p, wr_outsw_p);
	check_rep("insl_p/outsl_p", PIO, port(f), f, 4, rd_insl_p, wr_outsl_p);
#endif
}

#ifdef IOMAP_HAVE_PORT_IO
/* ---- ports versus MMIO, in/out, the direction flag ---- */

static void test_spaces(void)
{
	iomap_trap_reset(&t);
	check_context("ioread32 on the port cookie");
	set_bytes(PIO, REG, 0x11111111);
	set_bytes(MMIO, REG, 0x22222222);
	iomap_trap_log_reset(&t);
	CHECK_EQ(ioread32(port(REG)), 0x11111111);
	check_log(&(struct want){ REG, 4, RD, PIO, 0x11111111 }, 1);
	check_context("ioread32 on the MMIO cookie");
	iomap_trap_log_reset(&t);
	CHECK_EQ(ioread32(mmio(REG)), 0x22222222);
	check_log(&(struct want){ REG, 4, RD, MMIO, 0x22222222 }, 1);
	check_context("iowrite16 on the port cookie leaves MMIO alone");
	iomap_trap_log_reset(&t);
	iowrite16(0xbeef, port(REG));
	check_log(&(struct want){ REG, 2, WR, PIO, 0xbeef }, 1);
	CHECK_EQ(get_bytes(PIO, REG), 0x1111beef);
	CHECK_EQ(get_bytes(MMIO, REG), 0x22222222);

	check_context("inb/outb with the port in an immediate and in dx");
	iomap_trap_log_reset(&t);
	{
		uint32_t v;

		__asm__ __volatile__("inl %%dx, %0" : "=a" (v) : "d" (IOMAP_TRAP_PORT_BASE + IOMAP_TRAP_OFF_ID));
		CHECK_EQ(v, (uint32_t)IOMAP_TRAP_ID_VALUE);
		outb(0x5a, IOMAP_TRAP_PORT_BASE + REG + 3);
		CHECK_EQ(inb(IOMAP_TRAP_PORT_BASE + REG + 3), 0x5a);
	}
	check_log((const struct want[]){ { 0, 4, RD, PIO, IOMAP_TRAP_ID_VALUE }, { REG + 3, 1, WR, PIO, 0x5a },
					 { REG + 3, 1, RD, PIO, 0x5a } }, 3);

	/* rep stos downwards: std as the hardware would step, rdi and rcx after it */
	check_context("rep stosw with the direction flag set");
	iomap_trap_log_reset(&t);
	{
		char __iomem *di = mmio(REG + 6);
		unsigned long cx = 3;

		__asm__ __volatile__("std\n\trep stosw\n\tcld" : "+D" (di), "+c" (cx) : "a" (0x4242) : "memory");
		CHECK(di == mmio(REG));
		CHECK_EQ(cx, 0);
	}
	check_log((const struct want[]){ { REG + 6, 2, WR, MMIO, 0x4242 }, { REG + 4, 2, WR, MMIO, 0x4242 },
					 { REG + 2, 2, WR, MMIO, 0x4242 } }, 3);
}

#endif
/* ---- polling: readx_poll_timeout reads until the condition holds, or once more after the deadline ---- */

/* Every access in the log is a read of `width` at off in sp; their number. */
static size_t reads_at(int sp, size_t off, unsigned int width)
{
	size_t n;
	const struct iomap_trap_access *a = iomap_trap_log(&t, &n);

	for (size_t i = 0; i < n; i++)
		if (!CHECK_EQ(a[i].offset, off) || !CHECK_EQ(a[i].width, width) || !CHECK_EQ(a[i].dir, RD) ||
		    !CHECK_EQ(a[i].space, sp))
			break;
	return n;
}

static void test_poll(void)
{
	const size_t ctr = IOMAP_TRAP_OFF_COUNTER, id = IOMAP_TRAP_OFF_ID;
	uint64_t q;
	uint32_t v;
	uint8_t b;

	iomap_trap_reset(&t);
	check_context("readl_poll_timeout until the counter reaches 5");
	iomap_trap_log_reset(&t);
	CHECK_EQ(readl_poll_timeout(mmio(ctr), v, v >= 5, 0, 10000000), 0);
	CHECK_EQ(v, 5);
	CHECK_EQ(reads_at(MMIO, ctr, 4), 6);

#ifdef IOMAP_HAVE_PORT_IO
	check_context("readx_poll_timeout(ioread32) on the port counter, sleeping between reads");
	iomap_trap_log_reset(&t);
	CHECK_EQ(readx_poll_timeout(ioread32, port(ctr), v, v == 3, 10, 10000000), 0);
	CHECK_EQ(v, 3);
	CHECK_EQ(reads_at(PIO, ctr, 4), 4);

#endif
	check_context("readq_poll_timeout_atomic, true at once");
	iomap_trap_log_reset(&t);
	CHECK_EQ(readq_poll_timeout_atomic(mmio(id), q, q == IOMAP_TRAP_ID_VALUE, 1, 1000), 0);
	CHECK_EQ(reads_at(MMIO, id, 8), 1);

	check_context("readb_relaxed_poll_timeout that times out: -ETIMEDOUT, one more read after the deadline");
	iomap_trap_log_reset(&t);
	CHECK_EQ(readb_relaxed_poll_timeout(mmio(id), b, b == 0, 100, 2000), -ETIMEDOUT);
	CHECK_EQ(b, (uint8_t)IOMAP_TRAP_ID_VALUE);
	CHECK(reads_at(MMIO, id, 1) >= 2);
}

/* ---- io_stop_wc: nothing on the bus between the writes it separates ---- */

static void test_stop_wc(void)
{
	check_context("writel, io_stop_wc, writel");
	iomap_trap_log_reset(&t);
	writel(1, mmio(REG));
	io_stop_wc();
	writel(2, mmio(REG + 4));
	check_log((const struct want[]){ { REG, 4, WR, MMIO, 1 }, { REG + 4, 4, WR, MMIO, 2 } }, 2);
}

/* ---- register models ---- */

static void test_models(void)
{
	iomap_trap_reset(&t);
	check_context("ID register");
	CHECK_EQ(readq(mmio(IOMAP_TRAP_OFF_ID)), IOMAP_TRAP_ID_VALUE);
	writel(0, mmio(IOMAP_TRAP_OFF_ID));
	CHECK_EQ(readl(mmio(IOMAP_TRAP_OFF_ID)), (uint32_t)IOMAP_TRAP_ID_VALUE);
	check_context("counter");
	CHECK_EQ(readl(mmio(IOMAP_TRAP_OFF_COUNTER)), 0);
	CHECK_EQ(readl(mmio(IOMAP_TRAP_OFF_COUNTER)), 1);
	writeq(41, mmio(IOMAP_TRAP_OFF_COUNTER));
	CHECK_EQ(readq(mmio(IOMAP_TRAP_OFF_COUNTER)), 41);
	CHECK_EQ(readb(mmio(IOMAP_TRAP_OFF_COUNTER)), 42);
	check_context("reserved");
	CHECK_EQ(readl(mmio(0x100)), 0xffffffff);
	writel(0, mmio(0x100));
	CHECK_EQ(readl(mmio(0x100)), 0xffffffff);
	check_context("a FIFO set up at a scratch offset");
	CHECK_EQ(iomap_trap_set_reg(&t, MMIO, REG, 8, IOMAP_TRAP_MODEL_FIFO, 0), 0);
	writew(7, mmio(REG));
	writew(9, mmio(REG));
	CHECK_EQ(readw(mmio(REG)), 7);
	CHECK_EQ(readw(mmio(REG)), 9);
	CHECK_EQ(readw(mmio(REG)), 0xffff);
	CHECK_EQ(iomap_trap_set_reg(&t, MMIO, IOMAP_TRAP_MMIO_LEN - 4, 8, IOMAP_TRAP_MODEL_FIFO, 0), -1);
	CHECK_EQ(errno, EINVAL);
	iomap_trap_reset(&t);
	check_context("reset brings the layout back");
	writew(7, mmio(REG));
	CHECK_EQ(readw(mmio(REG)), 7);
	CHECK_EQ(readw(mmio(REG)), 7);
}

/* Read-to-clear and write-1-to-clear through every single-access strategy and width. */
static void test_status(void)
{
	const size_t rc = IOMAP_TRAP_OFF_STATUS_RC, w1c = IOMAP_TRAP_OFF_STATUS_W1C;

	iomap_trap_reset(&t);
	for (size_t i = 0; i < sizeof(singles) / sizeof(singles[0]); i++) {
		const struct single *s = &singles[i];
		uint64_t m = mask(s->bytes);

		if (s->space != MMIO)
			continue;
		check_context("%s (%u bytes): read-to-clear", s->name, s->bytes);
		set_bytes(MMIO, rc, 0x8040201008040201ull);
		CHECK_EQ(s->rd(mmio(rc)) & m, s->swap ? swap_bytes(0x8040201008040201ull & m, s->bytes)
						     : 0x8040201008040201ull & m);
		CHECK_EQ(s->rd(mmio(rc)), 0);
		CHECK_EQ(get_bytes(MMIO, rc), 0x8040201008040201ull & ~m);
		s->wr(m, mmio(rc));
		CHECK_EQ(get_bytes(MMIO, rc), 0x8040201008040201ull & ~m);

		check_context("%s (%u bytes): write-1-to-clear", s->name, s->bytes);
		set_bytes(MMIO, w1c, ~0ull);
		s->wr(s->swap ? swap_bytes(0x0f0f0f0f0f0f0f0full & m, s->bytes) : 0x0f0f0f0f0f0f0f0full & m,
		      mmio(w1c));
		CHECK_EQ(get_bytes(MMIO, w1c), ~(0x0f0f0f0f0f0f0f0full & m));
		CHECK_EQ(s->rd(mmio(w1c)), s->swap ? swap_bytes(0xf0f0f0f0f0f0f0f0ull & m, s->bytes)
						   : 0xf0f0f0f0f0f0f0f0ull & m);
		CHECK_EQ(get_bytes(MMIO, w1c), ~(0x0f0f0f0f0f0f0f0full & m));
	}
	for (size_t i = 0; i < iomap_nr_strategies; i++) {
		const struct iomap_strategy *s = &iomap_strategies[i];
		unsigned char buf[8];

		if (!s->copy || iomap_strategy_cpu_missing(s) ||
		    iomap_target_why_not(&t, s->copy_element > 8 ? IOMAP_INSN_VECTOR : IOMAP_INSN_MOV, s->copy_element))
			continue;
		if (s->copy_fromio) {
			check_context("copy %s: read-to-clear", s->name);
			set_bytes(MMIO, rc, 0x0102030405060708ull);
			s->copy_fromio(buf, mmio(rc), 8);
			CHECK(!memcmp(buf, "\x08\x07\x06\x05\x04\x03\x02\x01", 8));
			CHECK_EQ(get_bytes(MMIO, rc), 0);
		}
		if (s->set_io) {
			check_context("set %s: write-1-to-clear", s->name);
			set_bytes(MMIO, w1c, ~0ull);
			s->set_io(mmio(w1c), 0x81, 8);
			CHECK_EQ(get_bytes(MMIO, w1c), 0x7e7e7e7e7e7e7e7eull);
		}
	}
}

#ifdef __x86_64__
/* ---- vector registers: the saved XSAVE state is what the program sees after the fault ---- */

/* avx512f: so the asm may name zmm16-31 (the function runs only where the CPU has them) */
__attribute__((target("avx512f"))) static void test_vectors(void)
{
	static const struct iomap_strategy *avx512;
	unsigned char win[64], out[64], ones[64];

	avx512 = iomap_strategy_find("simd-512");
	if (iomap_strategy_cpu_missing(avx512) || iomap_target_why_not(&t, IOMAP_INSN_VECTOR, 64)) {
		check_skip("vector registers: no AVX-512 here");
		return;
	}
	for (int i = 0; i < 64; i++)
		win[i] = (unsigned char)(i * 7 + 1);
	memset(ones, 0xff, sizeof(ones));
	CHECK_EQ(iomap_trap_poke(&t, MMIO, IOMAP_TRAP_OFF_COPY, win, 64), 0);

	check_context("vmovdqa to ymm1 writes the upper half");
	__asm__ __volatile__("vmovdqu (%1), %%ymm1\n\tvmovdqa (%2), %%ymm1\n\tvmovdqu %%ymm1, (%0)\n\tvzeroupper"
			     : : "r" (out), "r" (ones), "r" (mmio(IOMAP_TRAP_OFF_COPY)) : "xmm1", "memory");
	CHECK(!memcmp(out, win, 32));

	check_context("a VEX xmm load zeroes the rest of zmm2");
	__asm__ __volatile__("vmovdqu64 (%1), %%zmm2\n\tvmovdqa (%2), %%xmm2\n\tvmovdqu64 %%zmm2, (%0)\n\tvzeroupper"
			     : : "r" (out), "r" (ones), "r" (mmio(IOMAP_TRAP_OFF_COPY)) : "xmm2", "memory");
	CHECK(!memcmp(out, win, 16));
	CHECK(!memcmp(out + 16, (unsigned char[48]){ 0 }, 48));

	check_context("a legacy SSE load keeps the rest of ymm3");
	__asm__ __volatile__("vmovdqu (%1), %%ymm3\n\tmovdqa (%2), %%xmm3\n\tvmovdqu %%ymm3, (%0)\n\tvzeroupper"
			     : : "r" (out), "r" (ones), "r" (mmio(IOMAP_TRAP_OFF_COPY)) : "xmm3", "memory");
	CHECK(!memcmp(out, win, 16));
	CHECK(!memcmp(out + 16, ones, 16));

	check_context("zmm17 (the Hi16_ZMM component) both ways");
	__asm__ __volatile__("vmovdqu64 (%1), %%zmm17\n\tvmovdqa64 %%zmm17, (%2)\n\t"
			     "vpxorq %%zmm17, %%zmm17, %%zmm17\n\tvmovdqa64 (%2), %%zmm17\n\tvmovdqu64 %%zmm17, (%0)"
			     : : "r" (out), "r" (ones), "r" (mmio(IOMAP_TRAP_OFF_COPY)) : "xmm17", "memory");
	CHECK(!memcmp(out, ones, 64));
}

#endif
/* ---- what cannot be emulated ends the process clearly; a stray fault still crashes ---- */

/* Runs fn in a child with stderr captured; returns the wait status. */
static int in_child(void (*fn)(void), char *err, size_t errlen)
{
	int fd[2], status;
	ssize_t n, got = 0;
	pid_t pid;

	if (pipe(fd))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		dup2(fd[1], STDERR_FILENO);
		close(fd[0]);
		fn();
		_exit(0);
	}
	close(fd[1]);
	while ((n = read(fd[0], err + got, errlen - 1 - got)) > 0)
		got += n;
	err[got] = '\0';
	close(fd[0]);
	waitpid(pid, &status, 0);
	return status;
}

/* An instruction on the device the decoder does not emulate, and what its line must say. */
#ifdef __x86_64__
static void unsupported_on_device(void)
{
	__asm__ __volatile__("incl (%0)" : : "a" (mmio(REG)) : "memory", "cc");
}
static const char *const unsupported_says[] = {
	"iomap: trap: cannot emulate 'inc (%rax)' (inc) at 0x", ", device address 0x",
	"this instruction is not emulated",
};
#else
static void unsupported_on_device(void)
{
	uint32_t v;

	__asm__ __volatile__("ldtr %w0, [%1]" : "=r" (v) : "r" (mmio(REG)) : "memory");
}
static const char *const unsupported_says[] = {
	"iomap: trap: cannot emulate the instruction 0xb84", " at 0x", ", device address 0x",
	"an unprivileged load or store (ldtr/sttr)",
};
#endif

static void stray_fault(void)
{
	/* the default action, not a sanitizer's report, is what the child should meet */
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	struct iomap_target t2;
	char why[256];

	void *elsewhere = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	iomap_target_close(&t);
	sigaction(SIGSEGV, &dfl, NULL);
	if (elsewhere == MAP_FAILED || iomap_target_open(&t2, "trap", why, sizeof(why)))
		_exit(3);
	*(volatile int *)elsewhere = 1;
}

/*
 * qemu-user runs an arm64 program on another machine: /proc/cpuinfo is then
 * the host's, without the "CPU implementer" every arm64 kernel writes.
 */
static int under_qemu_user(void)
{
#ifdef __aarch64__
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];
	int arm = 0;

	while (f && !arm && fgets(line, sizeof(line), f))
		arm = !strncmp(line, "CPU implementer", 15);
	if (f)
		fclose(f);
	return !arm;
#else
	return 0;
#endif
}

static void test_faults(void)
{
	char err[1024];
	int status;

	if (under_qemu_user()) {
		check_skip("the faults in a child process: under qemu-user (7.2) a child forked here hangs before "
			   "it runs anything (the arm64 guest runs them)");
		return;
	}

	check_context("an unsupported instruction on the device");
	status = in_child(unsupported_on_device, err, sizeof(err));
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == IOMAP_TRAP_EXIT_UNSUPPORTED);
	for (size_t i = 0; i < sizeof(unsupported_says) / sizeof(unsupported_says[0]); i++)
		CHECK(strstr(err, unsupported_says[i]) != NULL);
	if (!CHECK(strchr(err, '\n') == err + strlen(err) - 1) || check_failed)
		fprintf(stderr, "    stderr: %s", err);

	check_context("a stray SIGSEGV elsewhere");
	status = in_child(stray_fault, err, sizeof(err));
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV);
}

int main(void)
{
	char why[256];

#ifdef IOMAP_HAVE_PORT_IO
	/* before the trap target: its handler passes what is not its own (port 0x80) on to this one */
	struct sigaction sa = { .sa_sigaction = on_delay, .sa_flags = SA_SIGINFO };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
#endif
	if (iomap_target_open(&t, "trap", why, sizeof(why))) {
		fprintf(stderr, "test-trap: %s\n", why);
		return 1;
	}
	check_context("open");
	CHECK_EQ(t.mapping, IOMAP_MAP_TRAP);
#ifdef IOMAP_HAVE_PORT_IO
	CHECK(t.port != NULL && t.port_len == IOMAP_TRAP_PORT_LEN);
	CHECK(iomap_target_why_not(&t, IOMAP_INSN_STRING, 8) == NULL);
#else
	CHECK(t.port == NULL && t.port_len == 0);
#endif
	CHECK_EQ(iomap_target_open(&(struct iomap_target){ 0 }, "trap", why, sizeof(why)), -1);
	CHECK(iomap_target_why_not(&t, IOMAP_INSN_ANY, 0) != NULL);
	CHECK(iomap_target_why_not(&t, IOMAP_INSN_MOV, 8) == NULL);

	test_singles();
	test_table();
#ifdef IOMAP_HAVE_PORT_IO
	test_port_singles();
#endif
	test_poll();
	test_stop_wc();
	test_rep();
#ifdef IOMAP_HAVE_PORT_IO
	test_spaces();
#endif
	test_models();
	test_status();
#ifdef __x86_64__
	test_vectors();
#endif
	test_faults();
	iomap_target_close(&t);
	return check_report("test-trap");
}
