/* test-cookie.c: cookie classification, bad-cookie warnings, and port cookies reaching the in/out instructions */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include "check.h"
#include "iomap/io.h"
#include "iomap/target.h"

static struct iomap_target ram;
static unsigned char *mem;

#define COOKIE(n) ((void __iomem __force *)(uintptr_t)(n))

static int warnings;
static char last_warning[256];

static void catch_warning(const char *msg)
{
	warnings++;
	snprintf(last_warning, sizeof(last_warning), "%s", msg);
}

#ifdef IOMAP_GENERIC_IOMAP
/* name appears in msg as a whole word: "ioread32" must not be satisfied by "ioread32be". */
static bool mentions(const char *msg, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = strstr(msg, name); p; p = strstr(p + 1, name)) {
		char after = p[n];
		bool starts = p == msg || !(p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z') ||
					    (p[-1] >= '0' && p[-1] <= '9'));

		if (starts && !(after == '_' || (after >= 'a' && after <= 'z') || (after >= '0' && after <= '9')))
			return true;
	}
	return false;
}

/* Exactly one warning since the last call, naming the function (and saying `why` when given). */
static void check_one_warning(const char *name, const char *why)
{
	check_context("%s: warning '%s'", name, warnings ? last_warning : "(none)");
	CHECK_EQ(warnings, 1);
	CHECK(mentions(last_warning, name));
	if (why)
		CHECK(strstr(last_warning, why) != NULL);
	warnings = 0;
	last_warning[0] = '\0';
}
#endif

static void test_classification(void)
{
	static const unsigned long ports[] = { 1, 0x80, 0xcf8, 0xffff };
	void *heap = malloc(16);

	check_context("classification");
#ifdef IOMAP_GENERIC_IOMAP
	for (size_t i = 0; i < sizeof(ports) / sizeof(ports[0]); i++) {
		void __iomem *c = ioport_map(ports[i], 4);

		CHECK_EQ(iomap_cookie_kind(c), IOMAP_COOKIE_PIO);
		/* the documented encoding: the port plus IOMAP_PIO_OFFSET */
		CHECK_EQ((uintptr_t)(void __force *)c, ports[i] + IOMAP_PIO_OFFSET);
		ioport_unmap(c);
	}
	CHECK(ioport_map(0x10000, 1) == NULL);
	/* port 0 has a cookie, but lib/iomap.c takes only cookies strictly above PIO_OFFSET for ports */
	CHECK_EQ((uintptr_t)(void __force *)ioport_map(0, 1), IOMAP_PIO_OFFSET);
	CHECK_EQ(iomap_cookie_kind(ioport_map(0, 1)), IOMAP_COOKIE_BAD);

#else
	(void)ports;
#endif
	CHECK_EQ(iomap_cookie_kind(ram.base), IOMAP_COOKIE_MMIO);
	CHECK_EQ(iomap_cookie_kind(ram.base + ram.len - 1), IOMAP_COOKIE_MMIO);
	CHECK_EQ(iomap_cookie_kind((void __iomem __force *)heap), IOMAP_COOKIE_MMIO);
	/* the edges of the ranges */
	CHECK_EQ(iomap_cookie_kind(COOKIE(0)), IOMAP_COOKIE_BAD);
	CHECK_EQ(iomap_cookie_kind(COOKIE(0x10)), IOMAP_COOKIE_BAD);
	CHECK_EQ(iomap_cookie_kind(COOKIE(IOMAP_PIO_OFFSET - 1)), IOMAP_COOKIE_BAD);
	CHECK_EQ(iomap_cookie_kind(COOKIE(IOMAP_PIO_OFFSET)), IOMAP_COOKIE_BAD);
	CHECK_EQ(iomap_cookie_kind(COOKIE(IOMAP_PIO_OFFSET + 1)), IOMAP_COOKIE_PIO);
	CHECK_EQ(iomap_cookie_port(COOKIE(IOMAP_PIO_OFFSET + 1)), 1);
	CHECK_EQ(iomap_cookie_kind(COOKIE(IOMAP_PIO_OFFSET + 0xffff)), IOMAP_COOKIE_PIO);
	/* as IO_COND: everything up to PIO_RESERVED is a port, masked to 16 bits */
	CHECK_EQ(iomap_cookie_kind(COOKIE(IOMAP_PIO_OFFSET + 0x10000)), IOMAP_COOKIE_PIO);
	CHECK_EQ(iomap_cookie_port(COOKIE(IOMAP_PIO_OFFSET + 0x10000)), 0);
	CHECK_EQ(iomap_cookie_kind(COOKIE(IOMAP_PIO_RESERVED - 1)), IOMAP_COOKIE_PIO);
	CHECK_EQ(iomap_cookie_port(COOKIE(IOMAP_PIO_RESERVED - 1)), 0xffff);
	CHECK_EQ(iomap_cookie_kind(COOKIE(IOMAP_PIO_RESERVED)), IOMAP_COOKIE_MMIO);
	free(heap);
}

#ifdef IOMAP_GENERIC_IOMAP
/* X(name, bits): the generic single accessors, out of line and inline, each wrapped to one shape. */
#define GENERIC_READS(X) X(ioread8, 8) X(ioread16, 16) X(ioread16be, 16) X(ioread32, 32) \
	X(ioread32be, 32) X(ioread64, 64) X(ioread64be, 64) X(ioread64_lo_hi, 64) X(ioread64_hi_lo, 64) \
	X(ioread64be_lo_hi, 64) X(ioread64be_hi_lo, 64)				\
	X(iomap_ioread8_inline, 8) X(iomap_ioread16_inline, 16) X(iomap_ioread32_inline, 32) \
	X(iomap_ioread64_inline, 64)
#define GENERIC_WRITES(X) X(iowrite8, 8) X(iowrite16, 16) X(iowrite16be, 16) X(iowrite32, 32) \
	X(iowrite32be, 32) X(iowrite64, 64) X(iowrite64be, 64) X(iowrite64_lo_hi, 64) X(iowrite64_hi_lo, 64) \
	X(iowrite64be_lo_hi, 64) X(iowrite64be_hi_lo, 64)			\
	X(iomap_iowrite8_inline, 8) X(iomap_iowrite16_inline, 16) X(iomap_iowrite32_inline, 32) \
	X(iomap_iowrite64_inline, 64)

#define WRAP_READ(name, bits) static uint64_t call_##name(void __iomem *a) { return name(a); }
#define WRAP_WRITE(name, bits)							\
static void call_##name(void __iomem *a) { name((uint##bits##_t)0x5a5a5a5a5a5a5a5aULL, a); }
GENERIC_READS(WRAP_READ)
GENERIC_WRITES(WRAP_WRITE)

struct generic {
	const char *name;
	unsigned int bits;
	uint64_t (*read)(void __iomem *addr);	/* one of read and write */
	void (*write)(void __iomem *addr);
};
#define READ_ENTRY(name, bits) { #name, bits, call_##name, NULL },
#define WRITE_ENTRY(name, bits) { #name, bits, NULL, call_##name },
static const struct generic generics[] = { GENERIC_READS(READ_ENTRY) GENERIC_WRITES(WRITE_ENTRY) };

struct generic_rep {
	const char *read_name, *write_name;
	unsigned int bits;
	void (*read_rep)(const volatile void __iomem *addr, void *dst, unsigned long count);
	void (*write_rep)(volatile void __iomem *addr, const void *src, unsigned long count);
};
#define REP_ENTRY(bits)								\
	{ "ioread" #bits "_rep", "iowrite" #bits "_rep", bits, ioread##bits##_rep, iowrite##bits##_rep },
static const struct generic_rep generic_reps[] = { REP_ENTRY(8) REP_ENTRY(16) REP_ENTRY(32) REP_ENTRY(64) };

static uint64_t ones(unsigned int bits)
{
	return bits == 64 ? ~0ULL : (1ULL << bits) - 1;
}

/* A read of what is not a cookie warns and returns all-ones of its width, as a missing device reads. */
static void test_bad_cookies(void)
{
	static const uintptr_t bad[] = { 0, 0x10, IOMAP_PIO_OFFSET - 1, IOMAP_PIO_OFFSET };
	unsigned char buf[8 * 5 + 8];

	for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) {
		void __iomem *c = COOKIE(bad[b]);

		for (size_t i = 0; i < sizeof(generics) / sizeof(generics[0]); i++) {
			const struct generic *g = &generics[i];

			if (g->read) {
				uint64_t v = g->read(c);

				check_one_warning(g->name, "bad I/O cookie");
				CHECK_EQ(v, ones(g->bits));
			} else {
				g->write(c);
				check_one_warning(g->name, "bad I/O cookie");
			}
		}
		for (size_t i = 0; i < sizeof(generic_reps) / sizeof(generic_reps[0]); i++) {
			const struct generic_rep *r = &generic_reps[i];
			size_t n = 5 * (r->bits / 8);

			memset(buf, 0x3c, sizeof(buf));
			r->read_rep(c, buf, 5);
			check_one_warning(r->read_name, "bad I/O cookie");
			for (size_t k = 0; k < sizeof(buf); k++)
				if (!CHECK_EQ(buf[k], k < n ? 0xff : 0x3c))
					break;
			r->write_rep(c, buf, 5);
			check_one_warning(r->write_name, "bad I/O cookie");
		}
	}
}

#else
/*
 * Without GENERIC_IOMAP (arm64) ports are memory at the kernel's PCI_IOBASE,
 * which user space has not got: ioport_map says so, and ioread32 is readl,
 * which has no cookie to find bad.
 */
static void test_bad_cookies(void)
{
	check_context("ioport_map without a PCI_IOBASE window");
	errno = 0;
	CHECK(ioport_map(0x80, 4) == NULL);
	CHECK_EQ(errno, ENODEV);
	/* the kernel's mask: a port beyond the I/O space wraps into it */
	check_context("ioport_map of a port beyond IO_SPACE_LIMIT");
	errno = 0;
	CHECK(ioport_map(IOMAP_IO_SPACE_LIMIT + 1 + 0x80, 4) == NULL);
	CHECK_EQ(errno, ENODEV);
	/* and its limit: above MMIO_UPPER_LIMIT the kernel returns NULL too, for a reason of its own */
	check_context("ioport_map above MMIO_UPPER_LIMIT");
	errno = 0;
	CHECK(ioport_map(IOMAP_MMIO_UPPER_LIMIT, 4) == NULL);
	CHECK_EQ(errno, ENODEV);
	errno = 0;
	CHECK(ioport_map(IOMAP_MMIO_UPPER_LIMIT + 1, 4) == NULL);
	CHECK_EQ(errno, EINVAL);
	errno = 0;
	CHECK(ioport_map(IOMAP_IO_SPACE_LIMIT, 4) == NULL);
	CHECK_EQ(errno, EINVAL);
}
#endif

/* An MMIO cookie goes to memory, little-endian, without a word of warning. */
static void test_mmio_cookie(void)
{
	check_context("generic accessors on the ram target");
	memcpy(mem + 64, "\x11\x22\x33\x44\x55\x66\x77\x88", 8);
	CHECK_EQ(ioread8(ram.base + 64), 0x11);
	CHECK_EQ(ioread16(ram.base + 64), 0x2211);
	CHECK_EQ(ioread32(ram.base + 64), 0x44332211);
	CHECK_EQ(ioread64(ram.base + 64), 0x8877665544332211ULL);
	iowrite32(0xdeadbeef, ram.base + 128);
	CHECK(!memcmp(mem + 128, "\xef\xbe\xad\xde\0", 5));
	CHECK_EQ(warnings, 0);
}

static void test_warn_handler(void)
{
	iomap_warn_fn dflt = iomap_set_warn_handler(catch_warning);

	check_context("iomap_set_warn_handler");
	CHECK(dflt != NULL && dflt != catch_warning);
	CHECK(iomap_set_warn_handler(NULL) == catch_warning);
	/* NULL put the default back */
	CHECK(iomap_set_warn_handler(catch_warning) == dflt);
}

#ifdef IOMAP_GENERIC_IOMAP
/*
 * Port cookies: the proof that ioread32(ioport_map(...)) issues `in`.  This
 * machine gives no I/O permission, so the instruction faults (#GP, SIGSEGV
 * with si_code SI_KERNEL) in a child; the child's handler decodes the
 * instruction at the faulting RIP and the port in DX, and exits with a code
 * the parent reads.  Port 0x80 (the POST-code port) is harmless to read.  If
 * a read does not fault, the process has I/O permission: nothing is written,
 * the case is skipped.
 */
#define PORT 0x80
#define REP_COUNT 4

enum child_exit {
	EXIT_MATCH = 0x42, EXIT_WRONG_INSN, EXIT_WRONG_SIGNAL, EXIT_WRONG_PORT, EXIT_WRONG_COUNT,
	EXIT_NO_FAULT, EXIT_HAS_PERMISSION,
};

struct port_insn {
	const char *name;
	void (*access)(void);
	bool opsize, rep;		/* opsize: the 0x66 prefix; rep: 0xf3 */
	unsigned char opcode;
};

static volatile uint64_t sink;
static unsigned char rep_buf[REP_COUNT * 4];

#define PORT_ACCESS(name, stmt) static void do_##name(void) { void __iomem *c = ioport_map(PORT, 4); stmt; }
PORT_ACCESS(ioread8, sink = ioread8(c))
PORT_ACCESS(ioread16, sink = ioread16(c))
PORT_ACCESS(ioread16be, sink = ioread16be(c))
PORT_ACCESS(ioread32, sink = ioread32(c))
PORT_ACCESS(ioread32be, sink = ioread32be(c))
PORT_ACCESS(iowrite8, iowrite8(0x5a, c))
PORT_ACCESS(iowrite16, iowrite16(0x5a5a, c))
PORT_ACCESS(iowrite32, iowrite32(0x5a5a5a5a, c))
PORT_ACCESS(ioread8_rep, ioread8_rep(c, rep_buf, REP_COUNT))
PORT_ACCESS(ioread16_rep, ioread16_rep(c, rep_buf, REP_COUNT))
PORT_ACCESS(ioread32_rep, ioread32_rep(c, rep_buf, REP_COUNT))
PORT_ACCESS(iowrite8_rep, iowrite8_rep(c, rep_buf, REP_COUNT))
PORT_ACCESS(iowrite16_rep, iowrite16_rep(c, rep_buf, REP_COUNT))
PORT_ACCESS(iowrite32_rep, iowrite32_rep(c, rep_buf, REP_COUNT))
PORT_ACCESS(ioread64, sink = ioread64(c))
PORT_ACCESS(iowrite64, iowrite64(0x5a5a5a5a5a5a5a5aull, c))
PORT_ACCESS(ioread32_inline, sink = iomap_ioread32_inline(c))
PORT_ACCESS(inb_p, sink = inb_p(iomap_cookie_port(c)))
#undef PORT_ACCESS

/* in al,dx EC; in eax,dx ED; out dx,al EE; out dx,eax EF; ins 6C/6D; outs 6E/6F; 0x66 makes the 32-bit forms 16-bit */
static const struct port_insn port_insns[] = {
	{ "ioread8", do_ioread8, false, false, 0xec },
	{ "ioread16", do_ioread16, true, false, 0xed },
	{ "ioread16be", do_ioread16be, true, false, 0xed },
	{ "ioread32", do_ioread32, false, false, 0xed },
	{ "ioread32be", do_ioread32be, false, false, 0xed },
	{ "iowrite8", do_iowrite8, false, false, 0xee },
	{ "iowrite16", do_iowrite16, true, false, 0xef },
	{ "iowrite32", do_iowrite32, false, false, 0xef },
	{ "ioread8_rep", do_ioread8_rep, false, true, 0x6c },
	{ "ioread16_rep", do_ioread16_rep, true, true, 0x6d },
	{ "ioread32_rep", do_ioread32_rep, false, true, 0x6d },
	{ "iowrite8_rep", do_iowrite8_rep, false, true, 0x6e },
	{ "iowrite16_rep", do_iowrite16_rep, true, true, 0x6f },
	{ "iowrite32_rep", do_iowrite32_rep, false, true, 0x6f },
	/* 64 bits on a port: the first of two inl/outl faults (test-trap proves both) */
	{ "ioread64", do_ioread64, false, false, 0xed },
	{ "iowrite64", do_iowrite64, false, false, 0xef },
	{ "ioread32_inline", do_ioread32_inline, false, false, 0xed },
	{ "inb_p", do_inb_p, false, false, 0xec },
};

static const struct port_insn *expected;
static volatile sig_atomic_t probing;
static sigjmp_buf probe_env;

/* Async-signal-safe: what the fault hit, in hex, for the test log. */
static void say_bytes(const unsigned char *p)
{
	static const char hex[] = "0123456789abcdef";
	char line[] = "  faulting instruction bytes: xx xx xx xx\n";

	for (int i = 0; i < 4; i++) {
		line[30 + 3 * i] = hex[p[i] >> 4];
		line[31 + 3 * i] = hex[p[i] & 15];
	}
	if (write(STDERR_FILENO, line, sizeof(line) - 1) < 0)
		_exit(EXIT_WRONG_INSN);
}

static void on_segv(int sig, siginfo_t *si, void *ctx)
{
	const ucontext_t *uc = ctx;
	const unsigned char *rip = (const unsigned char *)uc->uc_mcontext.gregs[REG_RIP];
	bool opsize = false, rep = false;
	int i;

	(void)sig;
	if (si->si_code != SI_KERNEL)
		_exit(EXIT_WRONG_SIGNAL);
	if (probing)
		siglongjmp(probe_env, 1);
	for (i = 0; i < 2 && (rip[i] == 0x66 || rip[i] == 0xf3); i++) {
		opsize |= rip[i] == 0x66;
		rep |= rip[i] == 0xf3;
	}
	if (opsize != expected->opsize || rep != expected->rep || rip[i] != expected->opcode) {
		say_bytes(rip);
		_exit(EXIT_WRONG_INSN);
	}
	if ((uc->uc_mcontext.gregs[REG_RDX] & 0xffff) != PORT)
		_exit(EXIT_WRONG_PORT);
	/* a string instruction faults before its first element, with the whole count still in RCX */
	if (rep && uc->uc_mcontext.gregs[REG_RCX] != REP_COUNT)
		_exit(EXIT_WRONG_COUNT);
	_exit(EXIT_MATCH);
}

static void __attribute__((noreturn)) port_child(const struct port_insn *p)
{
	struct sigaction sa = { .sa_sigaction = on_segv, .sa_flags = SA_SIGINFO };

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, NULL))
		_exit(EXIT_WRONG_SIGNAL);
	alarm(10);
	expected = p;
	/*
	 * A harmless direct inb of the same port first, not through the code
	 * under test: writes happen only where they will fault, and once the
	 * probe faulted, an access that does not fault never reached a port
	 * instruction.
	 */
	probing = 1;
	if (!sigsetjmp(probe_env, 1)) {
		sink = inb(PORT);
		_exit(EXIT_HAS_PERMISSION);
	}
	probing = 0;
	p->access();
	_exit(EXIT_NO_FAULT);
}

static void test_port_cookies(void)
{
	static const char *const meaning[] = {
		[EXIT_WRONG_INSN - EXIT_MATCH] = "faulted on another instruction",
		[EXIT_WRONG_SIGNAL - EXIT_MATCH] = "SIGSEGV without si_code SI_KERNEL (not an I/O permission fault)",
		[EXIT_WRONG_PORT - EXIT_MATCH] = "DX does not hold the mapped port",
		[EXIT_WRONG_COUNT - EXIT_MATCH] = "RCX does not hold the count",
		[EXIT_NO_FAULT - EXIT_MATCH] = "no port instruction ran (the port faults, this access did not)",
	};

	for (size_t i = 0; i < sizeof(port_insns) / sizeof(port_insns[0]); i++) {
		const struct port_insn *p = &port_insns[i];
		int status;
		pid_t pid;

		check_context("%s on a port cookie", p->name);
		fflush(NULL);
		pid = fork();
		if (pid == 0)
			port_child(p);
		if (!CHECK(pid > 0) || !CHECK(waitpid(pid, &status, 0) == pid))
			continue;
		if (WIFEXITED(status) && WEXITSTATUS(status) == EXIT_HAS_PERMISSION) {
			check_skip("%s: this process has I/O permission for port 0x%x, so nothing faults to prove it",
				   p->name, PORT);
			continue;
		}
		if (WIFEXITED(status) && WEXITSTATUS(status) > EXIT_MATCH && WEXITSTATUS(status) <= EXIT_NO_FAULT)
			fprintf(stderr, "%s: %s\n", p->name, meaning[WEXITSTATUS(status) - EXIT_MATCH]);
		else if (WIFSIGNALED(status))
			fprintf(stderr, "%s: child killed by signal %d\n", p->name, WTERMSIG(status));
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == EXIT_MATCH);
	}
}
#else
static void test_port_cookies(void)
{
	check_skip("port cookies: this architecture has no port I/O instructions");
}
#endif

int main(void)
{
	char why[256];

	if (iomap_target_open(&ram, "ram:4k", why, sizeof(why))) {
		fprintf(stderr, "test-cookie: %s\n", why);
		return 1;
	}
	mem = (unsigned char __force *)ram.base;

	test_warn_handler();
	test_classification();
	test_mmio_cookie();
	test_bad_cookies();
	test_port_cookies();

	iomap_target_close(&ram);
	return check_report("test-cookie");
}
