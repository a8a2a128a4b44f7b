/* test-trap-decode.c: the arm64 trap decoder emulates each load and store form on the trap window, from the instruction and from the syndrome */
#define _GNU_SOURCE
#include <asm/sigcontext.h>
#include <signal.h>
#include <string.h>
#include <ucontext.h>

#include "check.h"
#include "iomap/target.h"
#include "iomap/trap.h"
#include "trap-dev.h"

static struct iomap_target t;

#define MMIO IOMAP_SPACE_MMIO
/* scratch registers 2 and 3, and a 64-byte run of the copy window */
#define REG (IOMAP_TRAP_OFF_SCRATCH + 8)
#define COPY IOMAP_TRAP_OFF_COPY

static volatile char *at(size_t off) { return (volatile char *)(uintptr_t)t.base + off; }

static void poke(size_t off, const void *v, size_t n) { CHECK_EQ(iomap_trap_poke(&t, MMIO, off, v, n), 0); }
static void peek(size_t off, void *v, size_t n) { CHECK_EQ(iomap_trap_peek(&t, MMIO, off, v, n), 0); }

/* The log's last n entries are accesses of `width` bytes at off, off + width, ..., in direction dir. */
static void check_accesses(size_t n, size_t off, unsigned int width, int dir)
{
	size_t got;
	const struct iomap_trap_access *a = iomap_trap_log(&t, &got);

	if (!CHECK_EQ(got, n))
		return;
	for (size_t i = 0; i < n; i++) {
		CHECK_EQ(a[i].offset, off + i * width);
		CHECK_EQ(a[i].width, width);
		CHECK_EQ(a[i].dir, dir);
	}
}

static void test_integer(void)
{
	uint64_t v = 0x8899aabbccddeeffull, x = 0, x2 = 0;
	uint32_t w = 0;
	volatile char *p = at(REG);

	poke(REG, &v, 8);
	check_context("ldr x, ldr w, ldrb, ldrh (unsigned offset)");
	iomap_trap_log_reset(&t);
	__asm__ __volatile__("ldr %0, [%1]" : "=r" (x) : "r" (p) : "memory");
	CHECK_EQ(x, v);
	__asm__ __volatile__("ldr %w0, [%1, #4]" : "=r" (w) : "r" (p) : "memory");
	CHECK_EQ(w, 0x8899aabbu);
	__asm__ __volatile__("ldrb %w0, [%1, #1]" : "=r" (w) : "r" (p) : "memory");
	CHECK_EQ(w, 0xeeu);
	__asm__ __volatile__("ldrh %w0, [%1, #2]" : "=r" (w) : "r" (p) : "memory");
	CHECK_EQ(w, 0xccddu);
	check_context("ldrsb to x, ldrsh to w, ldrsw (sign extension to the register's width)");
	__asm__ __volatile__("ldrsb %0, [%1]" : "=r" (x) : "r" (p) : "memory");
	CHECK_EQ(x, 0xffffffffffffffffull);
	__asm__ __volatile__("ldrsh %w0, [%1, #6]" : "=r" (x) : "r" (p) : "memory");
	CHECK_EQ(x, 0xffff8899ull);
	__asm__ __volatile__("ldrsw %0, [%1, #4]" : "=r" (x) : "r" (p) : "memory");
	CHECK_EQ(x, 0xffffffff8899aabbull);

	check_context("str x, strh, strb and the zero register; ldur with a negative offset");
	x = 0x0102030405060708ull;
	__asm__ __volatile__("str %0, [%1]" : : "r" (x), "r" (p) : "memory");
	__asm__ __volatile__("strh %w0, [%1, #8]" : : "r" (0xbeefu), "r" (p) : "memory");
	__asm__ __volatile__("strb wzr, [%0, #10]" : : "r" (p) : "memory");
	peek(REG, &v, 8);
	CHECK_EQ(v, x);
	peek(REG + 8, &w, 4);
	CHECK_EQ(w & 0xffffff, 0x00beefu);
	__asm__ __volatile__("ldur %0, [%1, #-8]" : "=r" (x) : "r" (p + 8) : "memory");
	CHECK_EQ(x, 0x0102030405060708ull);

	check_context("pre- and post-index write the base back; a register offset scales");
	{
		volatile char *b = p;
		uint64_t idx = 1;

		__asm__ __volatile__("ldr %0, [%1], #8" : "=r" (x), "+r" (b) : : "memory");
		CHECK_EQ(x, 0x0102030405060708ull);
		CHECK(b == p + 8);
		__asm__ __volatile__("ldr %0, [%1, #-8]!" : "=r" (x), "+r" (b) : : "memory");
		CHECK(b == p);
		__asm__ __volatile__("ldrh %w0, [%1, %2, lsl #1]" : "=r" (w) : "r" (p + 6), "r" (idx) : "memory");
		CHECK_EQ(w, 0xbeefu);
	}

	check_context("ldp/stp x: one 16-byte access, rt's bytes first");
	iomap_trap_log_reset(&t);
	__asm__ __volatile__("stp %0, %1, [%2]" : : "r" (0x1111ull), "r" (0x2222ull), "r" (p) : "memory");
	check_accesses(1, REG, 16, IOMAP_TRAP_WRITE);
	__asm__ __volatile__("ldp %0, %1, [%2]" : "=r" (x), "=r" (x2) : "r" (p) : "memory");
	CHECK_EQ(x, 0x1111);
	CHECK_EQ(x2, 0x2222);

	check_context("ldar/stlr: one access each, as a plain load and store");
	iomap_trap_log_reset(&t);
	__asm__ __volatile__("stlr %w0, [%1]" : : "r" (0xa5a5a5a5u), "r" (p) : "memory");
	check_accesses(1, REG, 4, IOMAP_TRAP_WRITE);
	__asm__ __volatile__("ldar %0, [%1]" : "=r" (x) : "r" (p) : "memory");
	CHECK_EQ(x, 0xa5a5a5a5ull);
}

static void test_vector(void)
{
	unsigned char in[64], out[64];
	volatile char *p = at(COPY);

	for (int i = 0; i < 64; i++)
		in[i] = (unsigned char)(i * 7 + 1);
	poke(COPY, in, 64);
	check_context("ldr q / str q: one 16-byte access each, whole registers");
	iomap_trap_log_reset(&t);
	__asm__ __volatile__("ldr q16, [%0]\n\tstr q16, [%0, #16]" : : "r" (p) : "v16", "memory");
	peek(COPY + 16, out, 16);
	CHECK(!memcmp(out, in, 16));
	check_context("ldp/stp q: one 32-byte access each");
	poke(COPY, in, 64);
	iomap_trap_log_reset(&t);
	__asm__ __volatile__("ldp q16, q17, [%0]" : : "r" (p) : "v16", "v17", "memory");
	check_accesses(1, COPY, 32, IOMAP_TRAP_READ);
	iomap_trap_log_reset(&t);
	__asm__ __volatile__("stp q17, q16, [%0, #32]" : : "r" (p) : "v16", "v17", "memory");
	check_accesses(1, COPY + 32, 32, IOMAP_TRAP_WRITE);
	peek(COPY + 32, out, 32);
	CHECK(!memcmp(out, in + 16, 16) && !memcmp(out + 16, in, 16));
	check_context("ld1/st1 of two registers with post-index");
	poke(COPY, in, 64);
	{
		volatile char *b = p;

		__asm__ __volatile__("ld1 {v16.16b, v17.16b}, [%0], #32\n\tst1 {v16.16b, v17.16b}, [%0]"
				     : "+r" (b) : : "v16", "v17", "memory");
		CHECK(b == p + 32);
	}
	peek(COPY + 32, out, 32);
	CHECK(!memcmp(out, in, 32));
	check_context("ldr d clears the upper half of the vector register");
	{
		uint64_t hi = 1;

		__asm__ __volatile__("movi v18.16b, #0xff\n\tldr d18, [%1]\n\tmov %0, v18.d[1]" : "=r" (hi) : "r" (p)
				     : "v18", "memory");
		CHECK_EQ(hi, 0);
	}
}

/*
 * The syndrome path, which qemu-user cannot exercise (it writes no
 * esr_context): a frame whose ESR describes a 32-bit load into w5 of the
 * register, while the instruction at pc is a nop.  Only a decoder that
 * took the access from the syndrome can emulate it.
 */
static void test_syndrome(void)
{
	static const uint32_t nop = 0xd503201f;
	uint32_t v = 0xfeedc0de;
	ucontext_t uc;
	siginfo_t si;
	struct esr_context *esr = (struct esr_context *)(void *)uc.uc_mcontext.__reserved;
	uint64_t syndrome = (0x24ull << 26) | (1ull << 24) | (2ull << 22) | (5ull << 16);

	check_context("a data abort's syndrome (ISV: 4 bytes into w5) is emulated without the instruction");
	poke(REG, &v, 4);
	memset(&uc, 0, sizeof(uc));
	memset(&si, 0, sizeof(si));
	esr->head.magic = ESR_MAGIC;
	esr->head.size = sizeof(*esr);
	esr->esr = syndrome;
	uc.uc_mcontext.regs[5] = ~0ull;
	uc.uc_mcontext.pc = (uint64_t)(uintptr_t)&nop;
	si.si_signo = SIGSEGV;
	si.si_code = SEGV_ACCERR;
	si.si_addr = (void *)at(REG);
	CHECK_EQ(trap_emulate(trap_dev_of(&t), SIGSEGV, &si, &uc), 1);
	CHECK_EQ(uc.uc_mcontext.regs[5], 0xfeedc0deull);
	CHECK_EQ(uc.uc_mcontext.pc, (uint64_t)(uintptr_t)&nop + 4);
}

int main(void)
{
	char why[256];

	if (iomap_target_open(&t, "trap:scratch", why, sizeof(why))) {
		fprintf(stderr, "test-trap-decode: %s\n", why);
		return 1;
	}
	test_integer();
	test_vector();
	test_syndrome();
	iomap_target_close(&t);
	return check_report("test-trap-decode");
}
