/* trap-decode.c (arm64): a faulting load or store, from the syndrome Linux puts in the signal frame or from the instruction itself, emulated on the trap device and the saved state */
#define _GNU_SOURCE
#include <asm/sigcontext.h>
#include <signal.h>
#include <string.h>
#include <ucontext.h>

#include "trap-dev.h"

#ifdef __AARCH64EB__
#error "the arm64 trap decoder moves register bytes as a little-endian CPU stores them"
#endif

/*
 * Everything here runs in the SIGSEGV handler: no allocation, no stdio, no
 * locks.  The instruction is decoded by hand: the loads and stores the
 * accessors, the copies and glibc's memcpy issue are a few encoding
 * classes, and a decoding library would allocate.
 */

/* arm64 has no I/O instructions: a device's I/O space is memory-mapped (PCI_IOBASE in the kernel). */
const int trap_ports = 0;

/* arm64 keeps its vector registers in one layout (fpsimd_context): nothing to learn at start-up. */
void trap_decode_init(struct trap_xstate *xs)
{
	memset(xs, 0, sizeof(*xs));
}

const char *trap_vector_why_not(const struct trap_xstate *xs, unsigned int bytes)
{
	(void)xs;
	return bytes > 16 ? "arm64's vector registers outside SVE are 16 bytes, and the trap target emulates no SVE access"
			  : NULL;
}

/* One access as the instruction makes it: `regs` registers of `bytes` each, from address on. */
struct access {
	unsigned int bytes, regs;
	unsigned int rt, rt2, rn;	/* rt2: a pair's second register; ld1/st1 use rt, rt + 1, ... */
	int pair, load, simd;
	int sign, to64;			/* a load that sign-extends, into an X (else a W) register */
	int64_t offset;			/* the address is base + offset (post-index: base) */
	int writeback, post;
	int64_t post_add;		/* post-index: what is added to the base after */
};

struct emu {
	struct trap_dev *d;
	ucontext_t *uc;
	uint64_t pc, fault;
	uint32_t insn;
	int have_insn;
	struct fpsimd_context *fp;
};

/* ---- the report for what cannot be emulated ---- */

static void __attribute__((noreturn)) unsupported(struct emu *e, const char *why)
{
	struct trap_line l = { .n = 0 };

	trap_line_put(&l, "iomap: trap: cannot emulate ");
	if (e->have_insn) {
		trap_line_put(&l, "the instruction ");
		trap_line_hex(&l, e->insn);
	} else {
		trap_line_put(&l, "an instruction");
	}
	trap_line_put(&l, " at ");
	trap_line_hex(&l, e->pc);
	trap_line_put(&l, ", device address ");
	trap_line_hex(&l, e->fault);
	trap_line_put(&l, ": ");
	trap_line_put(&l, why);
	trap_line_put(&l, " (the trap target emulates ldr/str of every width, ldp/stp, ldar/stlr/ldapr, "
		      "vector ldr/str/ldp/stp and ld1/st1 of whole registers)");
	trap_line_exit(&l);
}

/* ---- the saved registers ---- */

/* A general-purpose register as a data operand: 31 is the zero register. */
static uint64_t xreg(struct emu *e, unsigned int n)
{
	return n == 31 ? 0 : e->uc->uc_mcontext.regs[n];
}

/* A W write clears the upper half, as the hardware does; 31 discards. */
static void set_xreg(struct emu *e, unsigned int n, uint64_t v, int to64)
{
	if (n != 31)
		e->uc->uc_mcontext.regs[n] = to64 ? v : (uint32_t)v;
}

/* A base register: 31 is the stack pointer. */
static uint64_t *base_reg(struct emu *e, unsigned int n)
{
	return n == 31 ? (uint64_t *)&e->uc->uc_mcontext.sp : (uint64_t *)&e->uc->uc_mcontext.regs[n];
}

/* The records Linux puts after the general registers (fpsimd_context, esr_context, ...), by magic. */
static struct _aarch64_ctx *frame_record(ucontext_t *uc, uint32_t magic)
{
	unsigned char *p = uc->uc_mcontext.__reserved, *end = p + sizeof(uc->uc_mcontext.__reserved);

	while (p + sizeof(struct _aarch64_ctx) <= end) {
		struct _aarch64_ctx *h = (struct _aarch64_ctx *)(void *)p;

		if (!h->magic || h->size < sizeof(*h))
			break;
		if (h->magic == magic)
			return h;
		p += h->size;
	}
	return NULL;
}

static struct fpsimd_context *fpsimd(struct emu *e)
{
	if (!e->fp)
		e->fp = (struct fpsimd_context *)frame_record(e->uc, FPSIMD_MAGIC);
	if (!e->fp)
		unsupported(e, "the signal frame holds no vector registers");
	return e->fp;
}

/* Vector register n's low bytes (Linux copies the SVE registers' low halves there too). */
static void vreg_read(struct emu *e, unsigned int n, unsigned char *buf, size_t bytes)
{
	memcpy(buf, &fpsimd(e)->vregs[n & 31], bytes);
}

/*
 * A load into vector register n: its 16 bytes, the rest cleared.  Where the
 * frame carries SVE registers (the thread used SVE; qemu-user always writes
 * them), sigreturn restores the vectors from those: the Z register gets the
 * same bytes and, as a write to a V register does, zeros above them.
 */
static void vreg_write(struct emu *e, unsigned int n, const unsigned char *buf)
{
	struct sve_context *sve = (struct sve_context *)frame_record(e->uc, SVE_MAGIC);

	memcpy(&fpsimd(e)->vregs[n & 31], buf, 16);
	if (sve && sve->head.size >= SVE_SIG_CONTEXT_SIZE(sve_vq_from_vl(sve->vl)) &&
	    sve->head.size > sizeof(*sve)) {
		unsigned int vq = sve_vq_from_vl(sve->vl);
		unsigned char *z = (unsigned char *)sve + SVE_SIG_ZREG_OFFSET(vq, n & 31);

		memcpy(z, buf, 16);
		memset(z + 16, 0, SVE_SIG_ZREG_SIZE(vq) - 16);
	}
}

/* ---- decoding ---- */

static int64_t sext(uint64_t v, unsigned int bits)
{
	return (int64_t)(v << (64 - bits)) >> (64 - bits);
}

/* Rm extended and shifted as a register-offset load or store says (option, S). */
static int64_t reg_offset(struct emu *e, uint32_t i, unsigned int scale)
{
	uint64_t m = xreg(e, (i >> 16) & 31);
	unsigned int option = (i >> 13) & 7;

	switch (option) {
	case 2: m = (uint32_t)m; break;			/* uxtw */
	case 6: m = (uint64_t)(int64_t)(int32_t)m; break;	/* sxtw */
	case 3: case 7: break;				/* lsl, sxtx */
	default: unsupported(e, "a register offset extended from 8 or 16 bits");
	}
	return (int64_t)(m << ((i >> 12) & 1 ? scale : 0));
}

/*
 * Single-register loads and stores, integer and vector: unsigned offset,
 * unscaled (ldur), pre- and post-index, register offset.  size and opc say
 * the width and the kind; a vector register with size 00 and opc 1x is a
 * 16-byte q register.
 */
static const char *decode_single(struct emu *e, uint32_t i, struct access *a)
{
	unsigned int size = i >> 30, opc = (i >> 22) & 3, scale = size;

	a->simd = (i >> 26) & 1;
	a->rt = i & 31;
	a->rn = (i >> 5) & 31;
	a->regs = 1;
	if (a->simd) {
		if (size == 0 && (opc & 2))
			scale = 4;
		else if (opc & 2)
			return "an unallocated vector load or store";
		a->load = opc & 1;
	} else if (opc == 0 || opc == 1) {
		a->load = opc;
		a->to64 = size == 3;
	} else if (size == 3 || (size == 2 && opc == 3)) {
		return "a prefetch (prfm), which moves nothing";
	} else {
		a->load = a->sign = 1;
		a->to64 = opc == 2;
	}
	a->bytes = 1u << scale;
	if ((i & 0x3b000000) == 0x39000000) {
		a->offset = (int64_t)(((i >> 10) & 0xfff) << scale);
	} else if ((i & 0x3b200c00) == 0x38200800) {
		a->offset = reg_offset(e, i, scale);
	} else {
		int64_t imm = sext((i >> 12) & 0x1ff, 9);

		switch ((i >> 10) & 3) {
		case 0: a->offset = imm; break;
		case 1: a->writeback = a->post = 1; a->post_add = imm; break;
		case 3: a->writeback = 1; a->offset = imm; break;
		default: return "an unprivileged load or store (ldtr/sttr)";
		}
	}
	return NULL;
}

/* ldp/stp (and ldnp/stnp, ldpsw), integer and vector, offset, pre- and post-index. */
static const char *decode_pair(uint32_t i, struct access *a)
{
	unsigned int opc = i >> 30, scale;
	int64_t imm = sext((i >> 15) & 0x7f, 7);

	a->simd = (i >> 26) & 1;
	a->load = (i >> 22) & 1;
	a->rt = i & 31;
	a->rt2 = (i >> 10) & 31;
	a->rn = (i >> 5) & 31;
	a->regs = 2;
	a->pair = 1;
	if (a->simd) {
		if (opc == 3)
			return "an unallocated vector pair";
		scale = 2 + opc;
	} else if (opc == 0 || opc == 2) {
		scale = opc ? 3 : 2;
		a->to64 = opc == 2;
	} else if (opc == 1 && a->load) {
		scale = 2;
		a->sign = a->to64 = 1;	/* ldpsw */
	} else {
		return "a pair form that is not ldp/stp/ldpsw (stgp, or unallocated)";
	}
	a->bytes = 1u << scale;
	imm *= a->bytes;
	switch ((i >> 23) & 3) {
	case 1: a->writeback = a->post = 1; a->post_add = imm; break;
	case 3: a->writeback = 1; a->offset = imm; break;
	default: a->offset = imm; break;
	}
	return NULL;
}

/* ld1/st1 of one to four whole registers (multiple structures), without or with post-index. */
static const char *decode_ld1(struct emu *e, uint32_t i, struct access *a)
{
	static const unsigned int regs_of[16] = { [7] = 1, [10] = 2, [6] = 3, [2] = 4 };
	unsigned int rm = (i >> 16) & 31;

	a->simd = 1;
	a->load = (i >> 22) & 1;
	a->rt = i & 31;
	a->rn = (i >> 5) & 31;
	a->bytes = (i >> 30) & 1 ? 16 : 8;
	a->regs = regs_of[(i >> 12) & 15];
	if (!a->regs)
		return "an interleaving structure load or store (ld2-ld4, st2-st4)";
	if ((i >> 23) & 1) {
		a->writeback = a->post = 1;
		a->post_add = rm == 31 ? (int64_t)(a->bytes * a->regs) : (int64_t)xreg(e, rm);
	}
	return NULL;
}

/* ldar/stlr (and ldlar/stllr), ldapr: a plain access at the base register; exclusives are not emulated. */
static const char *decode_ordered(uint32_t i, struct access *a)
{
	a->rt = i & 31;
	a->rn = (i >> 5) & 31;
	a->regs = 1;
	a->bytes = 1u << (i >> 30);
	a->to64 = (i >> 30) == 3;
	if ((i & 0x3fe0fc00) == 0x38a0c000) {	/* ldapr */
		a->load = 1;
		return NULL;
	}
	if (!((i >> 23) & 1) || ((i >> 21) & 1))
		return "an exclusive or compare-and-swap access (ldxr/stxr/cas)";
	a->load = (i >> 22) & 1;
	return NULL;
}

static const char *decode(struct emu *e, uint32_t i, struct access *a)
{
	memset(a, 0, sizeof(*a));
	if ((i & 0x3b000000) == 0x39000000 || (i & 0x3b200000) == 0x38000000 || (i & 0x3b200c00) == 0x38200800)
		return decode_single(e, i, a);
	if ((i & 0x3a000000) == 0x28000000)
		return decode_pair(i, a);
	if ((i & 0xbfbf0000) == 0x0c000000 || (i & 0xbfa00000) == 0x0c800000)
		return decode_ld1(e, i, a);
	if ((i & 0x3f000000) == 0x08000000 || (i & 0x3fe0fc00) == 0x38a0c000)
		return decode_ordered(i, a);
	return "not a load or store the trap target knows";
}

/* ---- emulating ---- */

static void move(struct emu *e, uint64_t at, void *buf, size_t n, int load)
{
	if (trap_mem_move(e->d, at, buf, n, load ? IOMAP_TRAP_READ : IOMAP_TRAP_WRITE))
		unsupported(e, "the access crosses the edge of the trap window");
}

/*
 * The access: one instruction's bytes moved at once, as the trap logs any
 * instruction (x86's vector moves too), then spread over its registers, one
 * after another from address at: a pair's are rt and rt2, a list's rt,
 * rt + 1, ...
 */
static void emulate_at(struct emu *e, const struct access *a, uint64_t at)
{
	unsigned char buf[64] = { 0 };

	for (unsigned int k = 0; !a->load && k < a->regs; k++) {
		unsigned int r = a->pair ? (k ? a->rt2 : a->rt) : (a->rt + k) & 31;
		uint64_t v = xreg(e, r);

		if (a->simd)
			vreg_read(e, r, buf + k * a->bytes, a->bytes);
		else
			memcpy(buf + k * a->bytes, &v, a->bytes);
	}
	move(e, at, buf, a->bytes * a->regs, a->load);
	for (unsigned int k = 0; a->load && k < a->regs; k++) {
		unsigned int r = a->pair ? (k ? a->rt2 : a->rt) : (a->rt + k) & 31;
		unsigned char one[16] = { 0 };
		uint64_t v;

		memcpy(one, buf + k * a->bytes, a->bytes);
		memcpy(&v, one, 8);
		if (a->simd)
			vreg_write(e, r, one);	/* a narrower load clears the rest */
		else
			set_xreg(e, r, a->sign ? (uint64_t)sext(v, 8 * a->bytes) : v, a->to64);
	}
}

/*
 * The syndrome: Linux v6.1 adds an esr_context record to the frame of a
 * fault on a user address, with the ESR as the CPU wrote it.  A data abort
 * from EL0 (EC 0x24) with ISV set describes a single-register access
 * itself: SAS its size, SSE sign extension, SRT the register, SF a 64-bit
 * one, WnR a write.  ISV is clear for pairs, vector registers and
 * writeback forms (and qemu-user writes no esr_context at all): those are
 * decoded from the instruction.
 */
static int from_syndrome(struct emu *e, struct access *a)
{
	struct esr_context *esr = (struct esr_context *)frame_record(e->uc, ESR_MAGIC);
	uint64_t s = esr ? esr->esr : 0;

	if (!esr || (s >> 26) != 0x24 || !((s >> 24) & 1))
		return 0;
	memset(a, 0, sizeof(*a));
	a->bytes = 1u << ((s >> 22) & 3);
	a->regs = 1;
	a->sign = (s >> 21) & 1;
	a->rt = (s >> 16) & 31;
	a->to64 = (s >> 15) & 1;
	a->load = !((s >> 6) & 1);
	return 1;
}

int trap_emulate(struct trap_dev *d, int signo, siginfo_t *si, void *uc)
{
	const struct trap_window *w = &d->win[IOMAP_SPACE_MMIO];
	struct emu e = { .d = d, .uc = uc };
	struct access a;
	const char *why;

	if (signo != SIGSEGV || (si->si_code != SEGV_ACCERR && si->si_code != SEGV_MAPERR))
		return 0;
	e.pc = e.uc->uc_mcontext.pc;
	e.fault = (uint64_t)(uintptr_t)si->si_addr;
	/* only a fault in the window, and not one of fetching code from it */
	if (e.fault < w->base || e.fault - w->base >= w->len || (e.pc >= w->base && e.pc - w->base < w->len))
		return 0;
	if (e.pc & 3)
		unsupported(&e, "a misaligned program counter");
	e.insn = *(const uint32_t *)(uintptr_t)e.pc;
	e.have_insn = 1;
	if (from_syndrome(&e, &a)) {
		emulate_at(&e, &a, e.fault);
	} else {
		why = decode(&e, e.insn, &a);
		if (why)
			unsupported(&e, why);
		emulate_at(&e, &a, *base_reg(&e, a.rn) + (uint64_t)a.offset);
		if (a.writeback)
			*base_reg(&e, a.rn) += a.post ? (uint64_t)a.post_add : (uint64_t)a.offset;
	}
	e.uc->uc_mcontext.pc = e.pc + 4;
	return 1;
}
