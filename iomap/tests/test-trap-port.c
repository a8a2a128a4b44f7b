/* test-trap-port.c: port I/O on the trap device: every in/out form, the I/O delay, string _rep, ports versus MMIO */
#define _GNU_SOURCE
#include <signal.h>
#include <ucontext.h>

#include "trap-check.h"

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

#define PORT_FORM(bits, type, k, reg, wreg, id, access, order)			\
	static uint64_t in_##id##bits(uint16_t p) { return iomap_in##bits##_##id(p); } \
	static void out_##id##bits(uint64_t v, uint16_t p) { iomap_out##bits##_##id((type)v, p); }
IOMAP_EACH_PORT(PORT_FORM)
#define KERNEL_PORT(bits, type, k, reg, wreg)					\
	static uint64_t in_in##k(uint16_t p) { return in##k(p); }		\
	static void out_in##k(uint64_t v, uint16_t p) { out##k((type)v, p); }	\
	static uint64_t in_in##k##_p(uint16_t p) { return in##k##_p(p); }	\
	static void out_in##k##_p(uint64_t v, uint16_t p) { out##k##_p((type)v, p); }
IOMAP_PORT_WIDTHS(KERNEL_PORT)

#define PORT_ENTRY(bits, type, k, reg, wreg, id, access, order)			\
	{ #id, bits / 8, in_##id##bits, out_##id##bits, WHOLE, 0 },
#define KERNEL_PORT_ENTRY(bits, type, k, reg, wreg)				\
	{ "in" #k "/out" #k, bits / 8, in_in##k, out_in##k, WHOLE, 0 },	\
	{ "in" #k "_p/out" #k "_p", bits / 8, in_in##k##_p, out_in##k##_p, WHOLE, 1 },
static struct port_single port_singles[] = {
	IOMAP_EACH_PORT(PORT_ENTRY)
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

/* ---- _rep on the port FIFO: the generic accessors on a port cookie, the string strategy's, the _p forms ---- */

static void test_port_rep(void)
{
	const size_t f = IOMAP_TRAP_OFF_FIFO;

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
}

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

int main(void)
{
	/* before the trap target: its handler passes what is not its own (port 0x80) on to this one */
	struct sigaction sa = { .sa_sigaction = on_delay, .sa_flags = SA_SIGINFO };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
	if (trap_open("test-trap-port"))
		return 1;
	test_port_singles();
	test_port_rep();
	test_spaces();
	iomap_target_close(&t);
	return check_report("test-trap-port");
}
