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

/*
 * The elements a strategy claims (copy.c's header), as (offset, width)
 * pairs: `loop` the widest naturally aligned 1/2/4/8, `head` bytes until
 * the device address is aligned to `body`, then `body`-byte elements, then
 * the tail as the head.
 */
struct shape {
	const char *name;
	unsigned int body;	/* 0: the whole range in loop elements */
	int byte_edges;		/* head and tail in bytes (string forms), else loop elements */
};

struct elem { size_t off; unsigned int width; };

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

static size_t expected(const struct shape *s, size_t off, size_t n, struct elem *e)
{
	size_t (*edge)(size_t, size_t, struct elem *) = s->byte_edges ? byte_elems : loop_elems;
	size_t head, body, count;

	if (!s->body)
		return s->byte_edges ? byte_elems(off, n, e) : loop_elems(off, n, e);
	head = (s->body - off % s->body) % s->body;
	head = head < n ? head : n;
	body = (n - head) / s->body * s->body;
	count = edge(off, head, e);
	for (size_t b = 0; b < body; b += s->body)
		e[count++] = (struct elem){ off + head + b, s->body };
	return count + edge(off + head + body, n - head - body, e + count);
}

/* The log is exactly the claimed elements, in order, in one direction, each carrying its bytes. */
static void check_elements(const struct shape *s, size_t off, size_t n, int dir, const unsigned char *bytes)
{
	static struct elem e[MAX_SIZE + 1];
	size_t want = expected(s, off, n, e), got;
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

			/* toio: the window gets mem's bytes and nothing outside them */
			check_context("%s toio, %zu bytes, device offset +%zu", s->name, n, skew);
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
			check_elements(s, base + io, n, IOMAP_TRAP_WRITE, mem + m);

			/* fromio: mem gets the window's bytes and nothing outside them */
			check_context("%s fromio, %zu bytes, device offset +%zu", s->name, n, skew);
			memcpy(got, mem, sizeof(mem));
			iomap_trap_poke(&t, IOMAP_SPACE_MMIO, base, win, sizeof(win));
			iomap_trap_log_reset(&t);
			from(got + m, (char __iomem *)t.base + base + io, n);
			memcpy(want, mem, sizeof(mem));
			memcpy(want + m, win + io, n);
			CHECK(!memcmp(got, want, sizeof(got)));
			check_elements(s, base + io, n, IOMAP_TRAP_READ, win + io);

			/* set */
			check_context("%s set, %zu bytes, device offset +%zu", s->name, n, skew);
			iomap_trap_poke(&t, IOMAP_SPACE_MMIO, base, win, sizeof(win));
			iomap_trap_log_reset(&t);
			set((char __iomem *)t.base + base + io, c, n);
			memcpy(want, win, sizeof(win));
			memset(want + io, c, n);
			iomap_trap_peek(&t, IOMAP_SPACE_MMIO, base, got, sizeof(got));
			CHECK(!memcmp(got, want, sizeof(got)));
			check_elements(s, base + io, n, IOMAP_TRAP_WRITE, want + io);
		}
}

/* What copy.c says each strategy issues; the vector bodies are the table's copy_element. */
static const struct shape claims[] = {
	{ "volatile", 0, 0 }, { "relaxed", 0, 0 }, { "barriered", 0, 0 },
	{ "string", 0, 1 }, { "string-wide", 8, 1 },
	{ "simd", 32, 0 }, { "simd-512", 64, 0 }, { "simd-nt", 32, 0 },
};

static const struct shape *claim(const char *name)
{
	for (size_t i = 0; i < sizeof(claims) / sizeof(claims[0]); i++)
		if (!strcmp(claims[i].name, name))
			return &claims[i];
	return NULL;
}

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
		CHECK_EQ(s->copy_element, sh->body ? sh->body : sh->byte_edges ? 1 : 8);
		run(sh, s->copy_fromio, s->copy_toio, s->set_io);
	}
	/* the kernel's names issue what their strategy does */
	check_context("memcpy_fromio/memcpy_toio/memset_io");
	if (CHECK(kernel != NULL))
		run(&(struct shape){ "memcpy_fromio/memcpy_toio/memset_io", kernel->body, kernel->byte_edges },
		    memcpy_fromio, memcpy_toio, memset_io);
	iomap_target_close(&t);
	return check_report("test-trap-copy");
}
