/* test-access.c: single accesses of every width and strategy, the kernel names, big-endian and _rep, on ram */
#include <stdlib.h>

#include "check.h"
#include "iomap/io.h"
#include "iomap/strategy.h"
#include "iomap/target.h"

static struct iomap_target ram;
static unsigned char *mem;	/* the target's bytes as normal memory: what an access really did */

static void __iomem *io(size_t off)
{
	return ram.base + off;
}

/*
 * Bytes around an access get a position-dependent pattern, so a write that
 * lands one byte off, or is wider than it should be, changes a byte that is
 * checked.  Guard bytes are all 0x80 or above; the _rep tests give their
 * register bytes below 0x80 so the two can never be confused.
 */
static unsigned char guard_byte(size_t off)
{
	return (unsigned char)(0x80 | (off * 29 + 0x25));
}

static void guard_fill(size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		mem[i] = guard_byte(i);
}

/* The first offset in [from, to) that lost its guard pattern, or -1. */
static long guard_changed(size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		if (mem[i] != guard_byte(i))
			return (long)i;
	return -1;
}

/* The little-endian bytes at off, as an integer of the width. */
static uint64_t mem_le(size_t off, unsigned int bits)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < bits / 8; i++)
		v |= (uint64_t)mem[off + i] << (8 * i);
	return v;
}

static uint64_t mask(unsigned int bits)
{
	return bits == 64 ? ~0ULL : (1ULL << bits) - 1;
}

/* One shape for every single accessor, so one loop tests them all. */
struct single {
	char name[64];
	unsigned int bits;
	uint64_t (*read)(void __iomem *addr);
	void (*write)(uint64_t v, void __iomem *addr);
	const struct iomap_strategy *table;	/* call through this strategy's pointers instead */
};

/*
 * X(tag, bits, read, write): every inline and kernel-named single accessor:
 * each strategy's MMIO single accesses at the widths its line in the list
 * gives, and at each width the kernel's names and the generic cookie
 * accessors, out of line and inline.
 */
#define STRATEGY_SINGLE(bits, type, k, reg, wreg, id, access, order, X)	\
	X(id, bits, iomap_read##bits##_##id, iomap_write##bits##_##id)
#define KERNEL_SINGLES(X, bits, k)						\
	X(kernel, bits, read##k, write##k)					\
	X(kernel_relaxed, bits, read##k##_relaxed, write##k##_relaxed)		\
	X(kernel_raw, bits, __raw_read##k, __raw_write##k)			\
	X(cookie, bits, ioread##bits, iowrite##bits)				\
	X(cookie_inline, bits, iomap_ioread##bits##_inline, iomap_iowrite##bits##_inline)

/* The kernel's splits of 64-bit registers into two 32-bit accesses, and the generic ones on a mapping. */
#define SPLITS(X, bits)								\
	X(kernel_lo_hi, bits, lo_hi_readq, lo_hi_writeq)			\
	X(kernel_lo_hi_relaxed, bits, lo_hi_readq_relaxed, lo_hi_writeq_relaxed) \
	X(kernel_hi_lo, bits, hi_lo_readq, hi_lo_writeq)			\
	X(kernel_hi_lo_relaxed, bits, hi_lo_readq_relaxed, hi_lo_writeq_relaxed) \
	X(cookie_lo_hi, bits, ioread64_lo_hi, iowrite64_lo_hi)			\
	X(cookie_hi_lo, bits, ioread64_hi_lo, iowrite64_hi_lo)

#define WRAP(tag, bits, rd, wr)							\
static uint64_t rd_##tag##bits(void __iomem *a) { return rd(a); }		\
static void wr_##tag##bits(uint64_t v, void __iomem *a) { wr((uint##bits##_t)v, a); }
#define WRAP_WIDTH(bits, type, k, reg, wreg) KERNEL_SINGLES(WRAP, bits, k)
IOMAP_EACH_MMIO(STRATEGY_SINGLE, WRAP)
IOMAP_WIDTHS(WRAP_WIDTH)
SPLITS(WRAP, 64)

#define ENTRY(tag, bits, rd, wr) { #rd "/" #wr, bits, rd_##tag##bits, wr_##tag##bits, NULL },
#define ENTRY_WIDTH(bits, type, k, reg, wreg) KERNEL_SINGLES(ENTRY, bits, k)
static const struct single inline_singles[] = {
	IOMAP_EACH_MMIO(STRATEGY_SINGLE, ENTRY)
	IOMAP_WIDTHS(ENTRY_WIDTH)
	SPLITS(ENTRY, 64)
};

static uint64_t single_read(const struct single *a, void __iomem *p)
{
	const struct iomap_strategy *s = a->table;

	if (!s)
		return a->read(p);
	switch (a->bits) {
	case 8:  return s->read8(p);
	case 16: return s->read16(p);
	case 32: return s->read32(p);
	default: return s->read64(p);
	}
}

static void single_write(const struct single *a, uint64_t v, void __iomem *p)
{
	const struct iomap_strategy *s = a->table;

	if (!s) {
		a->write(v, p);
		return;
	}
	switch (a->bits) {
	case 8:  s->write8((uint8_t)v, p); break;
	case 16: s->write16((uint16_t)v, p); break;
	case 32: s->write32((uint32_t)v, p); break;
	default: s->write64(v, p); break;
	}
}

/*
 * Zero, all-ones, the top bit of every byte set (a sign-extending read
 * would show it), alternating bits, two patterns whose bytes all differ
 * (a byte-order or lane mix-up would show), and one.
 */
static const uint64_t values[] = {
	0, ~0ULL, 0x8080808080808080ULL, 0x5555555555555555ULL, 0xaaaaaaaaaaaaaaaaULL,
	0x0123456789abcdefULL, 0xfedcba9876543210ULL, 1,
};

static void test_single(const struct single *a)
{
	unsigned int w = a->bits / 8;
	/* Only aligned offsets: a misaligned volatile access is undefined, and devices refuse it. */
	const size_t offsets[] = { 0, w, 64, 4096 - w, 4096, ram.len - w };

	for (size_t o = 0; o < sizeof(offsets) / sizeof(offsets[0]); o++) {
		size_t off = offsets[o];
		size_t lo = off >= 16 ? off - 16 : 0, hi = off + w + 16 <= ram.len ? off + w + 16 : ram.len;

		for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
			uint64_t v = values[i] & mask(a->bits), other = ~v & mask(a->bits);

			check_context("%s at 0x%zx, value 0x%llx", a->name, off, (unsigned long long)v);
			guard_fill(lo, hi);
			single_write(a, v, io(off));
			CHECK_EQ(mem_le(off, a->bits), v);
			CHECK_EQ(guard_changed(lo, off), -1);
			CHECK_EQ(guard_changed(off + w, hi), -1);
			CHECK_EQ(single_read(a, io(off)), v);

			/* A value put there behind the accessor's back: the read must fetch it. */
			for (unsigned int b = 0; b < w; b++)
				mem[off + b] = (unsigned char)(other >> (8 * b));
			CHECK_EQ(single_read(a, io(off)), other);
			CHECK_EQ(guard_changed(lo, off), -1);
			CHECK_EQ(guard_changed(off + w, hi), -1);
		}
	}
}

/*
 * The table is the list of strategies.h in its order; a strategy is absent
 * exactly where its `where` does not name this architecture, and then the
 * reason names the architectures that have it.
 */
#define LISTED(id, name, where, ...) { name, #id, IOMAP_WHERE_##where },
static void test_table_list(void)
{
	static const struct { const char *name, *id, *where; } listed[] = { IOMAP_STRATEGY_LIST(LISTED) };

	CHECK_EQ(iomap_nr_strategies, sizeof(listed) / sizeof(listed[0]));
	for (size_t i = 0; i < iomap_nr_strategies && i < sizeof(listed) / sizeof(listed[0]); i++) {
		const struct iomap_strategy *s = &iomap_strategies[i];
		bool here = strstr(listed[i].where, IOMAP_ARCH_NAME) != NULL;

		check_context("strategy %s", listed[i].name);
		CHECK(!strcmp(s->name, listed[i].name) && !strcmp(s->id, listed[i].id));
		CHECK(here == !s->absent);
		if (s->absent)
			CHECK(!strncmp(s->absent, listed[i].where, strlen(listed[i].where)) &&
			      !strcmp(s->absent, s->lacks) && !s->single && !s->copy && !s->mmio_rep);
	}
}

/*
 * The table has exactly the strategies whose line in strategies.h gives MMIO
 * single accesses here, each with a function for each width it names.
 */
#define EXPECTED_SINGLE(id, name, where, access, order, mmio, ...) IOMAP_IF_##mmio(#id, NULL),
static void test_table_singles(void)
{
	static const char *const listed[] = { IOMAP_EACH_STRATEGY(EXPECTED_SINGLE) };
	const char *expected[sizeof(listed) / sizeof(listed[0])];
	size_t found = 0, nexpected = 0;

	for (size_t e = 0; e < sizeof(listed) / sizeof(listed[0]); e++)
		if (listed[e])
			expected[nexpected++] = listed[e];

	for (size_t i = 0; i < iomap_nr_strategies; i++) {
		const struct iomap_strategy *s = &iomap_strategies[i];
		int n = !!s->read8 + !!s->read16 + !!s->read32 + !!s->read64 +
			!!s->write8 + !!s->write16 + !!s->write32 + !!s->write64;

		check_context("strategy %s", s->name);
		CHECK(iomap_strategy_find(s->name) == s);
		CHECK(n == (s->single ? 2 * __builtin_popcount(s->single_widths) : 0));
		CHECK(!!s->read8 + !!s->read16 * 2 + !!s->read32 * 4 + !!s->read64 * 8 == (int)s->single_widths);
		CHECK(s->single_widths == IOMAP_WIDTHS_ALL || *s->lacks);
		if (n) {
			int known = 0;

			for (size_t e = 0; e < nexpected; e++)
				known |= !strcmp(s->id, expected[e]);
			CHECK(known);
			found++;
		}
	}
	check_context("table");
	CHECK_EQ(found, nexpected);
	CHECK(iomap_strategy_find("nonesuch") == NULL);
}

static void test_singles(void)
{
	const size_t n_inline = sizeof(inline_singles) / sizeof(inline_singles[0]);
	struct single a;

	for (size_t i = 0; i < n_inline; i++)
		test_single(&inline_singles[i]);
	for (size_t i = 0; i < iomap_nr_strategies; i++) {
		for (unsigned int bits = 8; bits <= 64; bits *= 2) {
			if (!(iomap_strategies[i].single_widths & (bits / 8)))
				continue;
			a = (struct single){ .bits = bits, .table = &iomap_strategies[i] };
			snprintf(a.name, sizeof(a.name), "iomap_strategies[%s].read%u/write%u",
				 iomap_strategies[i].name, bits, bits);
			test_single(&a);
		}
	}
}

/* Big-endian cookie accessors: the device sees the most significant byte first. */
struct be {
	const char *name;
	unsigned int bits;
	uint64_t (*read)(void __iomem *addr);
	void (*write)(uint64_t v, void __iomem *addr);
	uint64_t (*read_le)(void __iomem *addr);	/* the little-endian cookie read of the width */
};

#define BE(tag, rd, wr)								\
static uint64_t rd_be##tag(void __iomem *a) { return rd(a); }			\
static void wr_be##tag(uint64_t v, void __iomem *a) { wr(v, a); }
BE(16, ioread16be, iowrite16be) BE(32, ioread32be, iowrite32be) BE(64, ioread64be, iowrite64be)
BE(64_lo_hi, ioread64be_lo_hi, iowrite64be_lo_hi) BE(64_hi_lo, ioread64be_hi_lo, iowrite64be_hi_lo)
#undef BE

static void test_big_endian(void)
{
	static const struct be bes[] = {
		{ "ioread16be/iowrite16be", 16, rd_be16, wr_be16, rd_cookie16 },
		{ "ioread32be/iowrite32be", 32, rd_be32, wr_be32, rd_cookie32 },
		{ "ioread64be/iowrite64be", 64, rd_be64, wr_be64, rd_cookie64 },
		{ "ioread64be_lo_hi/iowrite64be_lo_hi", 64, rd_be64_lo_hi, wr_be64_lo_hi, rd_cookie64 },
		{ "ioread64be_hi_lo/iowrite64be_hi_lo", 64, rd_be64_hi_lo, wr_be64_hi_lo, rd_cookie64 },
	};
	const size_t off = 512;

	for (size_t i = 0; i < sizeof(bes) / sizeof(bes[0]); i++) {
		const struct be *b = &bes[i];
		unsigned int w = b->bits / 8;
		uint64_t v = 0x0102030405060708ULL & mask(b->bits), be_bytes = 0;

		check_context("%s", b->name);
		for (unsigned int k = 0; k < w; k++)
			be_bytes |= ((v >> (8 * (w - 1 - k))) & 0xff) << (8 * k);
		guard_fill(off - 16, off + w + 16);
		b->write(v, io(off));
		for (unsigned int k = 0; k < w; k++)
			CHECK_EQ(mem[off + k], (v >> (8 * (w - 1 - k))) & 0xff);
		CHECK_EQ(guard_changed(off - 16, off), -1);
		CHECK_EQ(guard_changed(off + w, off + w + 16), -1);
		CHECK_EQ(b->read(io(off)), v);
		/* The little-endian reader of the same width sees the bytes swapped. */
		CHECK_EQ(b->read_le(io(off)), be_bytes);
	}
}

/* _rep: one register, count times.  Same uniform shape for every implementation. */
struct rep {
	char name[64];
	unsigned int bits;
	void (*read_rep)(const volatile void __iomem *addr, void *buf, unsigned long count);
	void (*write_rep)(volatile void __iomem *addr, const void *buf, unsigned long count);
};

#define GENERIC_REP(bits, type, k, reg, wreg)					\
static void generic_read##bits##_rep(const volatile void __iomem *a, void *buf, unsigned long n) \
{ ioread##bits##_rep(a, buf, n); }						\
static void generic_write##bits##_rep(volatile void __iomem *a, const void *buf, unsigned long n) \
{ iowrite##bits##_rep(a, buf, n); }						\
static void kernel_reads##k(const volatile void __iomem *a, void *buf, unsigned long n) \
{ reads##k(a, buf, (unsigned int)n); }						\
static void kernel_writes##k(volatile void __iomem *a, const void *buf, unsigned long n) \
{ writes##k(a, buf, (unsigned int)n); }
IOMAP_WIDTHS(GENERIC_REP)
#undef GENERIC_REP

/* The inline _rep loop of every strategy with one (io.h builds them by name), and the generic cookie's. */
#define STRATEGY_REP(id, bits)							\
	{ "iomap_read" #bits "_rep_" #id, bits, iomap_read##bits##_rep_##id, iomap_write##bits##_rep_##id },
#define REP_ENTRIES(bits, type, k, reg, wreg)					\
	STRATEGY_REP(volatile, bits) STRATEGY_REP(ordered, bits)		\
	STRATEGY_REP(relaxed, bits) STRATEGY_REP(barriered, bits)		\
	{ "ioread" #bits "_rep (MMIO cookie)", bits, generic_read##bits##_rep,	\
	  generic_write##bits##_rep },						\
	{ "reads" #k "/writes" #k, bits, kernel_reads##k, kernel_writes##k },
static const struct rep fixed_reps[] = { IOMAP_WIDTHS(REP_ENTRIES) };
#undef REP_ENTRIES

#define REP_REG 256		/* the FIFO register's offset; 8-aligned, with room on both sides */
#define REP_MAX 64		/* the largest count */
static unsigned char buf[8 + REP_MAX * 8 + 16];

/* The first index in p[0, n) that is not c, or -1. */
static long first_not(const unsigned char *p, size_t n, unsigned char c)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != c)
			return (long)i;
	return -1;
}

static void set_register(unsigned int w, uint64_t v)
{
	for (unsigned int b = 0; b < w; b++)
		mem[REP_REG + b] = (unsigned char)(v >> (8 * b));
}

static void test_read_rep(const struct rep *r, unsigned long count, size_t bo)
{
	static const uint64_t regs[] = { 0x7f1e2d3c4b5a6978ULL, 0x0102030405060708ULL };
	unsigned int w = r->bits / 8;

	/* The register's bytes are below 0x80, the guards around it are not: no element can come from them. */
	guard_fill(REP_REG - 64, REP_REG + w + count * w + 64);
	for (size_t i = 0; i < sizeof(regs) / sizeof(regs[0]); i++) {
		uint64_t v = regs[i] & mask(r->bits);
		unsigned char *dst = buf + 8 + bo;
		size_t bad = SIZE_MAX;

		set_register(w, v);
		memset(buf, 0xee, sizeof(buf));
		r->read_rep(io(REP_REG), dst, count);
		for (unsigned long e = 0; e < count && bad == SIZE_MAX; e++) {
			uint64_t got = 0;

			memcpy(&got, dst + e * w, w);
			if (got != v)
				bad = e;
		}
		CHECK_EQ(bad, SIZE_MAX);
		CHECK_EQ(first_not(buf, dst - buf, 0xee), -1);
		CHECK_EQ(first_not(dst + count * w, buf + sizeof(buf) - (dst + count * w), 0xee), -1);
		/* reading a FIFO must not write to the device */
		CHECK_EQ(mem_le(REP_REG, r->bits), v);
		CHECK_EQ(guard_changed(REP_REG - 64, REP_REG), -1);
		CHECK_EQ(guard_changed(REP_REG + w, REP_REG + w + count * w + 64), -1);
	}
}

static void test_write_rep(const struct rep *r, unsigned long count, size_t bo)
{
	unsigned int w = r->bits / 8;
	unsigned char *src = buf + 8 + bo;
	uint64_t last = 0;

	for (unsigned long e = 0; e < count; e++) {
		uint64_t v = (0x1111111111111111ULL * (e + 1) ^ 0x0f0f0f0f0f0f0f0fULL) & mask(r->bits);

		memcpy(src + e * w, &v, w);
		last = v;
	}
	guard_fill(REP_REG - 64, REP_REG + w + count * w + 64);
	r->write_rep(io(REP_REG), src, count);
	if (count)
		CHECK_EQ(mem_le(REP_REG, r->bits), last);
	else
		CHECK_EQ(guard_changed(REP_REG, REP_REG + w), -1);
	CHECK_EQ(guard_changed(REP_REG - 64, REP_REG), -1);
	/* a range write would have spread the values over these */
	CHECK_EQ(guard_changed(REP_REG + w, REP_REG + w + count * w + 64), -1);
}

static void test_rep_one(const struct rep *r)
{
	static const unsigned long counts[] = { 0, 1, 2, 3, 5, 16, REP_MAX };

	for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++)
		for (size_t bo = 0; bo < 8; bo++) {
			check_context("%s, count %lu, buffer offset %zu", r->name, counts[c], bo);
			test_read_rep(r, counts[c], bo);
			test_write_rep(r, counts[c], bo);
		}
}

static void test_reps(void)
{
	struct rep r;

	for (size_t i = 0; i < sizeof(fixed_reps) / sizeof(fixed_reps[0]); i++)
		test_rep_one(&fixed_reps[i]);
	for (size_t i = 0; i < iomap_nr_strategies; i++) {
		const struct iomap_strategy *s = &iomap_strategies[i];
		int n = 0;

		for (int k = 0; k < 4; k++)
			n += !!s->read_rep[k] + !!s->write_rep[k];
		check_context("strategy %s", s->name);
		CHECK(n == (s->mmio_rep ? 8 : 0));
		CHECK(n || *s->lacks);
		for (int k = 0; n && k < 4; k++) {
			r = (struct rep){ .bits = 8u << k, .read_rep = s->read_rep[k],
					  .write_rep = s->write_rep[k] };
			CHECK_EQ(iomap_width_index(r.bits), k);
			snprintf(r.name, sizeof(r.name), "iomap_strategies[%s].read_rep/write_rep[%u]",
				 s->name, r.bits);
			test_rep_one(&r);
		}
	}
}

int main(void)
{
	char why[256];

	if (iomap_target_open(&ram, "ram:64k", why, sizeof(why))) {
		fprintf(stderr, "test-access: %s\n", why);
		return 1;
	}
	mem = (unsigned char __force *)ram.base;

	test_table_list();
	test_table_singles();
	test_singles();
	test_big_endian();
	test_reps();

	iomap_target_close(&ram);
	return check_report("test-access");
}
