/* test-trap-copy.c: each copy strategy issues the elements copy.c claims, and moves the right bytes */
#include <string.h>

#include "check.h"
#include "iomap/io.h"
#include "iomap/strategy.h"
#include "iomap/target.h"
#include "iomap/trap.h"

#define MAX_SIZE 300
#define MAX_SKEW 8
#define GUARD 16	/* bytes checked untouched on each side */

static struct iomap_target t;

typedef void (*fromio_fn)(void *dst, const volatile void __iomem *src, size_t n);
typedef void (*toio_fn)(volatile void __iomem *dst, const void *src, size_t n);
typedef void (*set_fn)(volatile void __iomem *dst, int c, size_t n);

enum op { FROMIO, TOIO, SET };

struct elem { size_t off; unsigned int width; };

/*
 * The elements a strategy claims (copy.c's header), as (offset, width)
 * pairs for a copy of n bytes at device offset off: `elems` writes them.
 * The edged shape: `head` bytes until the device address is aligned to
 * `body`, then `body`-byte elements, then the tail as the head; the head
 * and tail in bytes (byte_edges) or in loop elements (the widest naturally
 * aligned 1/2/4/8).  body 0: the whole range as the edges are.
 */
struct shape {
	const char *name;
	size_t (*elems)(const struct shape *s, enum op op, size_t off, size_t n, struct elem *e);
	unsigned int body;
	int byte_edges;
	unsigned int word;	/* copies only whole words of this many bytes, at aligned offsets (0: any) */
};

static size_t loop_elems(size_t off, size_t n, struct elem *e)
{
	size_t k, count = 0;

	for (; n; n -= k, off += k) {
		for (k = 8; k > 1 && ((off & (k - 1)) || k > n); k >>= 1)
			;
		e[count++] = (struct elem){ off, (unsigned int)k };
	}
	return count;
}

static size_t byte_elems(size_t off, size_t n, struct elem *e)
{
	for (size_t i = 0; i < n; i++)
		e[i] = (struct elem){ off + i, 1 };
	return n;
}

static size_t edged(const struct shape *s, enum op op, size_t off, size_t n, struct elem *e)
{
	size_t (*edge)(size_t, size_t, struct elem *) = s->byte_edges ? byte_elems : loop_elems;
	size_t head, body, count;

	(void)op;
	if (!s->body)
		return edge(off, n, e);
	head = (s->body - off % s->body) % s->body;
	head = head < n ? head : n;
	body = (n - head) / s->body * s->body;
	count = edge(off, head, e);
	for (size_t b = 0; b < body; b += s->body)
		e[count++] = (struct elem){ off + head + b, s->body };
	return count + edge(off + head + body, n - head - body, e + count);
}

#ifdef __x86_64__
/*
 * x86 Linux, read from arch/x86/lib/iomem.c and memset_64.S: copies take one
 * byte if the device offset is odd, then two if it is 2 mod 4 and more than
 * one byte is left, then 4-byte words, then 2 if n & 2 and 1 if n & 1 of what
 * is left; memset (no FSRS) stores 8 bytes at a misaligned start when n >= 8
 * and continues from the next multiple of 8, then 8-byte words, then bytes.
 */
static size_t kernel_elems(const struct shape *s, enum op op, size_t off, size_t n, struct elem *e)
{
	size_t count = 0;

	(void)s;
	if (op == SET) {
		if (off % 8 && n >= 8) {
			e[count++] = (struct elem){ off, 8 };
			n -= 8 - off % 8;
			off += 8 - off % 8;
		}
		for (; n >= 8; n -= 8, off += 8)
			e[count++] = (struct elem){ off, 8 };
		return count + byte_elems(off, n, e + count);
	}
	if (n && off % 2) {
		e[count++] = (struct elem){ off++, 1 };
		n--;
	}
	if (n > 1 && off % 4 == 2) {
		e[count++] = (struct elem){ off, 2 };
		off += 2;
		n -= 2;
	}
	for (; n >= 4; n -= 4, off += 4)
		e[count++] = (struct elem){ off, 4 };
	if (n & 2) {
		e[count++] = (struct elem){ off, 2 };
		off += 2;
	}
	if (n & 1)
		e[count++] = (struct elem){ off, 1 };
	return count;
}

#endif

/* The log is exactly the claimed elements, in order, in one direction, each carrying its bytes. */
static void check_elements(const struct shape *s, enum op op, size_t off, size_t n, int dir,
			   const unsigned char *bytes)
{
	static struct elem e[MAX_SIZE + 1];
	size_t want = s->elems(s, op, off, n, e), got;
	const struct iomap_trap_access *a = iomap_trap_log(&t, &got);

	if (!CHECK_EQ(got, want))
		return;
	for (size_t i = 0; i < got; i++) {
		uint64_t v = 0;

		memcpy(&v, bytes + (e[i].off - off), e[i].width < 8 ? e[i].width : 8);
		if (!CHECK_EQ(a[i].offset, e[i].off) || !CHECK_EQ(a[i].width, e[i].width) ||
		    !CHECK_EQ(a[i].dir, dir) || !CHECK_EQ(a[i].value, v))
			return;
	}
}

static unsigned char fill_byte(size_t i, size_t seed)
{
	return (unsigned char)(i * 131 + seed * 17 + 1);
}

static void run(const struct shape *s, fromio_fn from, toio_fn to, set_fn set)
{
	static unsigned char win[GUARD + MAX_SIZE + MAX_SKEW + GUARD], mem[GUARD + MAX_SIZE + MAX_SKEW + GUARD];
	static unsigned char want[sizeof(win)], got[sizeof(win)];
	const size_t base = IOMAP_TRAP_OFF_COPY + 64 - GUARD;	/* 64-aligned plus GUARD: every skew */

	for (size_t n = 0; n <= MAX_SIZE; n++)
		for (size_t skew = 0; skew < MAX_SKEW; skew++) {
			size_t io = GUARD + skew, m = GUARD + (skew * 3) % MAX_SKEW;
			int c = (int)(0x5a ^ n);

			if (s->word && (n % s->word || skew % s->word))
				continue;

			/* toio: the window gets mem's bytes and nothing outside them */
			check_context("%s toio, %zu bytes, device offset +%zu", s->name, n, skew);
			if (to) {
			for (size_t i = 0; i < sizeof(win); i++) {
				win[i] = fill_byte(i, n + 1);
				mem[i] = fill_byte(i, n + 2);
			}
			iomap_trap_poke(&t, IOMAP_SPACE_MMIO, base, win, sizeof(win));
			iomap_trap_log_reset(&t);
			to((char __iomem *)t.base + base + io, mem + m, n);
			memcpy(want, win, sizeof(win));
			memcpy(want + io, mem + m, n);
			iomap_trap_peek(&t, IOMAP_SPACE_MMIO, base, got, sizeof(got));
			CHECK(!memcmp(got, want, sizeof(got)));
			check_elements(s, TOIO, base + io, n, IOMAP_TRAP_WRITE, mem + m);
			}

			/* fromio: mem gets the window's bytes and nothing outside them */
			check_context("%s fromio, %zu bytes, device offset +%zu", s->name, n, skew);
			if (from) {
			memcpy(got, mem, sizeof(mem));
			iomap_trap_poke(&t, IOMAP_SPACE_MMIO, base, win, sizeof(win));
			iomap_trap_log_reset(&t);
			from(got + m, (char __iomem *)t.base + base + io, n);
			memcpy(want, mem, sizeof(mem));
			memcpy(want + m, win + io, n);
			CHECK(!memcmp(got, want, sizeof(got)));
			check_elements(s, FROMIO, base + io, n, IOMAP_TRAP_READ, win + io);
			}

			/* set */
			check_context("%s set, %zu bytes, device offset +%zu", s->name, n, skew);
			if (set) {
			iomap_trap_poke(&t, IOMAP_SPACE_MMIO, base, win, sizeof(win));
			iomap_trap_log_reset(&t);
			set((char __iomem *)t.base + base + io, c, n);
			memcpy(want, win, sizeof(win));
			memset(want + io, c, n);
			iomap_trap_peek(&t, IOMAP_SPACE_MMIO, base, got, sizeof(got));
			CHECK(!memcmp(got, want, sizeof(got)));
			check_elements(s, SET, base + io, n, IOMAP_TRAP_WRITE, want + io);
			}
		}
}

/*
 * What each architecture's copy bodies say each strategy issues.  arm64
 * (arch/arm64/kernel/io.c in v6.1, and the pair and NEON bodies): bytes
 * until the device address is aligned to the body, then whole bodies (one
 * ldp/stp or one q register: 16 bytes), then bytes.
 */
static const struct shape claims[] = {
	{ "volatile", edged, 0, 0, 0 }, { "relaxed", edged, 0, 0, 0 }, { "barriered", edged, 0, 0, 0 },
	{ "iowrite32-copy", edged, 4, 0, 4 }, { "iowrite64-copy", edged, 8, 0, 8 },
	{ "ioread32-copy", edged, 4, 0, 4 },
#ifdef __x86_64__
	{ "string", edged, 0, 1, 0 }, { "string-wide", edged, 8, 1, 0 },
	{ "kernel", kernel_elems, 0, 0, 0 }, { "kernel-unrolled", edged, 0, 1, 0 },
	{ "simd", edged, 32, 0, 0 }, { "simd-512", edged, 64, 0, 0 }, { "simd-nt", edged, 32, 0, 0 },
#else
	{ "kernel", edged, 8, 1, 0 }, { "pair", edged, 16, 1, 0 }, { "neon", edged, 16, 1, 0 },
#endif
};

static const struct shape *claim(const char *name)
{
	for (size_t i = 0; i < sizeof(claims) / sizeof(claims[0]); i++)
		if (!strcmp(claims[i].name, name))
			return &claims[i];
	return NULL;
}

/*
 * The widths a claim issues over every size and offset run, as the
 * copy_widths of its row in the table (strategy.c) sums them: the row must say exactly these.
 */
static unsigned int claimed_widths(const struct shape *s, int ops)
{
	static struct elem e[MAX_SIZE + 1];
	unsigned int widths = 0;

	for (int op = FROMIO; op <= SET; op++)
		for (size_t n = 0; (ops & (1 << op)) && n <= MAX_SIZE; n++)
			for (size_t off = 0; off < MAX_SKEW; off++) {
				if (s->word && (n % s->word || off % s->word))
					continue;
				for (size_t i = 0, k = s->elems(s, op, off, n, e); i < k; i++)
					widths |= e[i].width;
			}
	return widths;
}

#ifdef __x86_64__
/*
 * Sequences read straight from x86 Linux's source (arch/x86/lib/iomem.c,
 * memset_64.S without FSRS), written out by hand: what kernel_elems above
 * models, checked against the model's own arithmetic, so that both cannot be
 * wrong the same way.  Offsets from a 64-byte boundary.
 */
static const struct golden {
	const char *what;
	enum op op;
	size_t off, n;
	struct elem e[20];
} goldens[] = {
	{ "memcpy_toio 13 bytes at +1", TOIO, 1, 13, { { 1, 1 }, { 2, 2 }, { 4, 4 }, { 8, 4 }, { 12, 2 } } },
	{ "memcpy_fromio 7 bytes at +3", FROMIO, 3, 7, { { 3, 1 }, { 4, 4 }, { 8, 2 } } },
	{ "memcpy_toio 2 bytes at +1", TOIO, 1, 2, { { 1, 1 }, { 2, 1 } } },
	{ "memcpy_toio 3 bytes at +2", TOIO, 2, 3, { { 2, 2 }, { 4, 1 } } },
	{ "memcpy_fromio 11 bytes at +0", FROMIO, 0, 11, { { 0, 4 }, { 4, 4 }, { 8, 2 }, { 10, 1 } } },
	{ "memset_io 20 bytes at +1", SET, 1, 20,
	  { { 1, 8 }, { 8, 8 }, { 16, 1 }, { 17, 1 }, { 18, 1 }, { 19, 1 }, { 20, 1 } } },
	{ "memset_io 5 bytes at +3", SET, 3, 5, { { 3, 1 }, { 4, 1 }, { 5, 1 }, { 6, 1 }, { 7, 1 } } },
	{ "memset_io 19 bytes at +0", SET, 0, 19, { { 0, 8 }, { 8, 8 }, { 16, 1 }, { 17, 1 }, { 18, 1 } } },
};

static void run_goldens(void)
{
	const size_t base = IOMAP_TRAP_OFF_COPY + 64;
	unsigned char buf[64];

	memset(buf, 0x3c, sizeof(buf));
	for (size_t g = 0; g < sizeof(goldens) / sizeof(goldens[0]); g++) {
		const struct golden *gd = &goldens[g];
		volatile char __iomem *at = (char __iomem *)t.base + base + gd->off;
		const struct iomap_trap_access *a;
		size_t want = 0, got;

		while (want < 20 && gd->e[want].width)
			want++;
		check_context("%s", gd->what);
		iomap_trap_log_reset(&t);
		if (gd->op == TOIO)
			memcpy_toio(at, buf, gd->n);
		else if (gd->op == FROMIO)
			memcpy_fromio(buf, at, gd->n);
		else
			memset_io(at, 0x3c, gd->n);
		a = iomap_trap_log(&t, &got);
		if (!CHECK_EQ(got, want))
			continue;
		for (size_t i = 0; i < want; i++) {
			CHECK_EQ(a[i].offset, base + gd->e[i].off);
			CHECK_EQ(a[i].width, gd->e[i].width);
		}
	}
}

#endif

int main(void)
{
	const struct shape *kernel = claim(iomap_strategy_kernel_copy()->name);
	char why[256];

	if (iomap_target_open(&t, "trap", why, sizeof(why))) {
		fprintf(stderr, "test-trap-copy: %s\n", why);
		return 1;
	}
	for (size_t i = 0; i < iomap_nr_strategies; i++) {
		const struct iomap_strategy *s = &iomap_strategies[i];
		const struct shape *sh = claim(s->name);
		const char *why_not;

		check_context("%s: what its copies issue", s->name);
		if (!s->copy || !CHECK(sh != NULL))	/* a new copy strategy says what it issues, above */
			continue;
		why_not = iomap_strategy_cpu_missing(s) ? iomap_strategy_cpu_missing(s)
			: iomap_target_why_not(&t, s->copy_element > 8 ? IOMAP_INSN_VECTOR : IOMAP_INSN_MOV,
					       s->copy_element);
		if (why_not) {
			check_skip("%s: %s", s->name, why_not);
			continue;
		}
		check_context("%s", s->name);
		CHECK_EQ(s->copy_widths, claimed_widths(sh, (s->copy_fromio ? 1 << FROMIO : 0) |
							(s->copy_toio ? 1 << TOIO : 0) | (s->set_io ? 1 << SET : 0)));
		CHECK_EQ(s->copy_words ? s->copy_element : 0, sh->word);
		run(sh, s->copy_fromio, s->copy_toio, s->set_io);
	}
	/* the kernel's names issue what their strategy does, and what the kernel's source says */
	check_context("memcpy_fromio/memcpy_toio/memset_io");
	if (CHECK(kernel != NULL))
		run(&(struct shape){ "memcpy_fromio/memcpy_toio/memset_io", kernel->elems, kernel->body,
				     kernel->byte_edges, kernel->word },
		    memcpy_fromio, memcpy_toio, memset_io);
#ifdef __x86_64__
	run_goldens();
#endif
	iomap_target_close(&t);
	return check_report("test-trap-copy");
}
