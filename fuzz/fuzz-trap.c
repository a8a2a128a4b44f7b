/* fuzz-trap.c: fuzz target for the trap decoder: any instruction bytes at a fault the CPU could have raised on the trap device */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#include <Zydis/Zydis.h>

#include "iomap/trap.h"
#include "trap-dev.h"
#include "violated.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * An input is a machine state at a fault, read as far as it goes (missing
 * bytes are zero):
 *   [0, 15)   the instruction bytes at RIP
 *   15        flags: bit 0 EFLAGS.DF; bit 1 raise the fault as a general-
 *             protection fault (si_code SI_KERNEL) even when the access
 *             reaches the window; bit 2 a signal frame without vector state;
 *             bit 3 a legacy (FXSAVE-only) frame; bits 4-7 how far into the
 *             last 16 bytes of a page the instruction starts, so that it
 *             may run on into the next page
 *   16        XSAVE components to switch between in use and their initial
 *             state: bit n toggles component n + 1 in XSTATE_BV (1 SSE,
 *             2 YMM, 5-7 AVX-512), where the frame has room for it
 *   17...     five bytes per general register in Zydis's order (rax, rcx,
 *             rdx, rbx, rsp, rbp, rsi, rdi, r8-r15): a selector and a 32-bit
 *             value; selector % 3 is 0: the MMIO window plus value modulo its
 *             length, 1: this harness's memory plus value modulo its length,
 *             2: value, sign-extended
 *
 * The kernel's signal frame is the template (one real signal, taken at
 * start); the registers come from the input.  Only states the CPU can fault
 * in reach the decoder: every memory access the instruction would make
 * (Zydis's own decoding and address arithmetic, every element of a rep
 * string instruction) lies in the window, in this harness's memory, or is the
 * first access and crosses the window's edge, and the fault is at the first
 * access that reaches the window (or a general-protection fault).  Others are
 * faults the CPU raises elsewhere, which the device never sees.
 */
#define INSN_BYTES	15
#define STATE_FLAGS	15
#define STATE_XTOGGLE	16
#define STATE_REGS	17
#define NREGS		16
#define INPUT_BYTES	(STATE_REGS + 5 * NREGS)

#define FLAG_DF		0x01
#define FLAG_GP		0x02
#define FLAG_NO_FPREGS	0x04
#define FLAG_LEGACY	0x08

#define ARENA_LEN	0x10000u	/* plain memory the instruction may also touch */
#define MAX_COUNT	4096u		/* rep counts beyond are long runs, not new paths */

#define FX_SW_BYTES	464		/* the kernel's software bytes in the FXSAVE area */
#define FX_XSTATE_BV	512

static const int greg_of[NREGS] = {
	REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP, REG_RSI, REG_RDI,
	REG_R8, REG_R9, REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15,
};

static struct iomap_target target;
static struct trap_dev *dev;
static ZydisDecoder decoder;
static unsigned char *arena, *arena_before;	/* the memory, and what it holds before each input */
static unsigned char *code;			/* two readable pages: the instruction runs into the second */
static ucontext_t frame;			/* a real signal frame */
static unsigned char frame_fp[16384];	/* and its vector state */
static size_t frame_fp_len;
static jmp_buf refused;
static char refusal[600];

static void take_frame(int signo, siginfo_t *si, void *uc)
{
	const unsigned char *fp = (const unsigned char *)((ucontext_t *)uc)->uc_mcontext.fpregs;
	uint32_t magic, extended;

	(void)signo;
	(void)si;
	frame = *(ucontext_t *)uc;
	if (!fp)
		return;
	memcpy(&magic, fp + FX_SW_BYTES, sizeof(magic));
	memcpy(&extended, fp + FX_SW_BYTES + 4, sizeof(extended));
	frame_fp_len = magic == FP_XSTATE_MAGIC1 && extended <= sizeof(frame_fp) ? extended : 512;
	memcpy(frame_fp, fp, frame_fp_len);
}

/* The emulator met an instruction it cannot emulate: keep its report and go on with the next input. */
static void on_unsupported(const char *line, size_t len)
{
	snprintf(refusal, sizeof(refusal), "%.*s", (int)len, line);
	longjmp(refused, 1);
}

static void setup(void)
{
	char why[256];
	struct sigaction sa = { .sa_sigaction = take_frame, .sa_flags = SA_SIGINFO }, old;

	if (iomap_target_open(&target, "trap", why, sizeof(why))) {
		fprintf(stderr, "fuzz-trap: %s\n", why);
		exit(1);
	}
	dev = trap_dev_of(&target);
	ZydisDecoderInit(&decoder, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
	/* aligned to its length, so that an address in it has the same low 16 bits (a port number) every run */
	arena = aligned_alloc(ARENA_LEN, ARENA_LEN);
	arena_before = malloc(ARENA_LEN);
	code = aligned_alloc(4096, 2 * 4096);
	if (!arena || !arena_before || !code)
		abort();
	for (uint32_t i = 0; i < ARENA_LEN; i++)
		arena_before[i] = (unsigned char)(i * 7);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, &old);
	raise(SIGUSR1);
	sigaction(SIGUSR1, &old, NULL);
	trap_unsupported_hook = on_unsupported;
}

static uint64_t window_base(void)
{
	return (uint64_t)(uintptr_t)target.base;
}

static int in_range(uint64_t a, uint64_t n, uint64_t base, uint64_t len)
{
	return a >= base && a - base <= len && n <= len - (a - base);
}

static int overlaps(uint64_t a, uint64_t n, uint64_t base, uint64_t len)
{
	return a < base + len && a + n > base && a + n > a;
}

static int is_string(const ZydisDecodedInstruction *in)
{
	switch (in->mnemonic) {
	case ZYDIS_MNEMONIC_MOVSB: case ZYDIS_MNEMONIC_MOVSW: case ZYDIS_MNEMONIC_MOVSD: case ZYDIS_MNEMONIC_MOVSQ:
	case ZYDIS_MNEMONIC_STOSB: case ZYDIS_MNEMONIC_STOSW: case ZYDIS_MNEMONIC_STOSD: case ZYDIS_MNEMONIC_STOSQ:
	case ZYDIS_MNEMONIC_LODSB: case ZYDIS_MNEMONIC_LODSW: case ZYDIS_MNEMONIC_LODSD: case ZYDIS_MNEMONIC_LODSQ:
	case ZYDIS_MNEMONIC_CMPSB: case ZYDIS_MNEMONIC_CMPSW: case ZYDIS_MNEMONIC_CMPSD: case ZYDIS_MNEMONIC_CMPSQ:
	case ZYDIS_MNEMONIC_SCASB: case ZYDIS_MNEMONIC_SCASW: case ZYDIS_MNEMONIC_SCASD: case ZYDIS_MNEMONIC_SCASQ:
	case ZYDIS_MNEMONIC_INSB: case ZYDIS_MNEMONIC_INSW: case ZYDIS_MNEMONIC_INSD:
	case ZYDIS_MNEMONIC_OUTSB: case ZYDIS_MNEMONIC_OUTSW: case ZYDIS_MNEMONIC_OUTSD:
		return 1;
	default:
		return 0;
	}
}

/*
 * Whether the CPU could fault on the device in this state, and how: *code
 * and *addr for the siginfo.  Every memory operand (each element of a rep
 * string instruction) must lie in the window or the arena, or be the first
 * access and cross the window's edge.
 */
static int plausible(const ZydisDecodedInstruction *in, const ZydisDecodedOperand *op, const uint64_t *gpr,
		     uint64_t rip, int flags, int *fault_code, uint64_t *fault_addr)
{
	static ZydisRegisterContext ctx;
	uint64_t wbase = window_base(), wlen = target.len, abase = (uint64_t)(uintptr_t)arena;
	int found = 0;

	for (int r = 0; r <= ZYDIS_REGISTER_MAX_VALUE; r++) {
		ZydisRegisterClass c = ZydisRegisterGetClass((ZydisRegister)r);
		ZydisRegister full = ZydisRegisterGetLargestEnclosing(ZYDIS_MACHINE_MODE_LONG_64, (ZydisRegister)r);
		uint64_t v;

		ctx.values[r] = 0;
		if (c != ZYDIS_REGCLASS_GPR8 && c != ZYDIS_REGCLASS_GPR16 && c != ZYDIS_REGCLASS_GPR32 &&
		    c != ZYDIS_REGCLASS_GPR64)
			continue;
		v = gpr[full - ZYDIS_REGISTER_RAX];
		if (r >= ZYDIS_REGISTER_AH && r <= ZYDIS_REGISTER_BH)
			v >>= 8;
		ctx.values[r] = v & (c == ZYDIS_REGCLASS_GPR64 ? ~0ull : (1ull << ZydisRegisterGetWidth(
			ZYDIS_MACHINE_MODE_LONG_64, (ZydisRegister)r)) - 1);
	}
	for (unsigned int i = 0; i < in->operand_count; i++) {
		uint64_t a, size, count = 1, lo, span;

		if (op[i].type != ZYDIS_OPERAND_TYPE_MEMORY || op[i].mem.type != ZYDIS_MEMOP_TYPE_MEM)
			continue;
		if (!ZYAN_SUCCESS(ZydisCalcAbsoluteAddressEx(in, &op[i], rip, &ctx, &a)))
			return 0;
		size = op[i].size / 8 ? op[i].size / 8 : 1;
		if (is_string(in) && (in->attributes & (ZYDIS_ATTRIB_HAS_REP | ZYDIS_ATTRIB_HAS_REPE | ZYDIS_ATTRIB_HAS_REPNE)))
			count = gpr[1];
		if (count > MAX_COUNT)
			return 0;
		if (!count)
			continue;
		span = size * count;
		lo = flags & FLAG_DF ? a - (count - 1) * size : a;
		if (in_range(lo, span, wbase, wlen) || in_range(lo, span, abase, ARENA_LEN)) {
			if (!found && overlaps(a, size, wbase, wlen)) {
				found = 1;
				*fault_addr = a;
			}
		} else if (overlaps(a, size, wbase, wlen) && !in_range(a, size, wbase, wlen)) {
			/* the first access crosses the edge: the emulator must refuse it, touching nothing */
			if (!found) {
				found = 1;
				*fault_addr = a < wbase ? wbase : a;
			}
		} else {
			return 0;
		}
	}
	*fault_code = found && !(flags & FLAG_GP) ? SEGV_ACCERR : SI_KERNEL;
	if (*fault_code == SI_KERNEL)
		*fault_addr = 0;
	return 1;
}

/*
 * The general registers, and whether vector registers and memory, Zydis says
 * the instruction may write; and a string instruction steps the registers
 * it addresses memory with (Zydis 4.0 leaves RSI out of outs's writes).
 */
static void written(const ZydisDecodedInstruction *in, const ZydisDecodedOperand *op, int gprs[NREGS], int *vector,
		    int *memory)
{
	memset(gprs, 0, NREGS * sizeof(gprs[0]));
	*vector = *memory = 0;
	for (unsigned int i = 0; i < in->operand_count; i++) {
		if (is_string(in) && op[i].type == ZYDIS_OPERAND_TYPE_MEMORY &&
		    op[i].mem.base >= ZYDIS_REGISTER_RAX && op[i].mem.base <= ZYDIS_REGISTER_R15)
			gprs[op[i].mem.base - ZYDIS_REGISTER_RAX] = 1;
		if (!(op[i].actions & ZYDIS_OPERAND_ACTION_MASK_WRITE))
			continue;
		if (op[i].type == ZYDIS_OPERAND_TYPE_MEMORY) {
			*memory = 1;
		} else if (op[i].type == ZYDIS_OPERAND_TYPE_REGISTER) {
			ZydisRegisterClass c = ZydisRegisterGetClass(op[i].reg.value);
			ZydisRegister full = ZydisRegisterGetLargestEnclosing(ZYDIS_MACHINE_MODE_LONG_64, op[i].reg.value);

			if (full >= ZYDIS_REGISTER_RAX && full <= ZYDIS_REGISTER_R15)
				gprs[full - ZYDIS_REGISTER_RAX] = 1;
			if (c == ZYDIS_REGCLASS_XMM || c == ZYDIS_REGCLASS_YMM || c == ZYDIS_REGCLASS_ZMM)
				*vector = 1;
		}
	}
}

/*
 * The widths the instruction accesses the device with, as a set of byte
 * counts: its memory operands' sizes (each element of a string instruction,
 * a whole vector register), or for in and out the size of AL, AX or EAX.
 */
static unsigned int access_widths(const ZydisDecodedInstruction *in, const ZydisDecodedOperand *op)
{
	unsigned int mem = 0, acc = 0;

	for (unsigned int i = 0; i < in->operand_count; i++)
		if (op[i].type == ZYDIS_OPERAND_TYPE_MEMORY)
			mem |= op[i].size / 8;
		else if (op[i].type == ZYDIS_OPERAND_TYPE_REGISTER &&
			 ZydisRegisterGetLargestEnclosing(ZYDIS_MACHINE_MODE_LONG_64, op[i].reg.value) == ZYDIS_REGISTER_RAX)
			acc |= op[i].size / 8;
	return mem ? mem : acc;
}

/* Every access logged since from is of a width the instruction has and lies inside its window. */
static void check_log(size_t from, unsigned int widths)
{
	size_t n;
	const struct iomap_trap_access *log = iomap_trap_log(&target, &n);

	for (size_t i = from; i < n; i++) {
		size_t len = log[i].space == IOMAP_SPACE_MMIO ? target.len : target.port_len;
		unsigned int w = log[i].width;

		if ((w & (w - 1)) || !(w & widths))
			violated("logged an access %u bytes wide, which the instruction does not make (its widths: %#x)",
				 w, widths);
		if (log[i].offset > len || w > len - log[i].offset)
			violated("logged an access of %u bytes at %#x, outside the %zu-byte window", w, log[i].offset, len);
	}
}

/* trap_emulate's answer, or -1 when the emulator refused the instruction (its report in refusal). */
static int emulate(siginfo_t *si, ucontext_t *uc)
{
	if (setjmp(refused))
		return -1;
	return trap_emulate(dev, SIGSEGV, si, uc);
}

static unsigned int byte_at(const uint8_t *data, size_t size, size_t i)
{
	return i < size ? data[i] : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static ucontext_t uc, before;
	static unsigned char *fp, *fp_before;
	ZydisDecodedInstruction in;
	ZydisDecodedOperand op[ZYDIS_MAX_OPERAND_COUNT];
	uint64_t gpr[NREGS], rip, fault_addr = 0;
	int flags = (int)byte_at(data, size, STATE_FLAGS), fault_code, decoded, handled, gprs[NREGS], vector, memory;
	unsigned int widths;
	siginfo_t si;
	size_t log_from;

	if (!dev)
		setup();
	if (!fp) {
		fp = malloc(frame_fp_len);
		fp_before = malloc(frame_fp_len);
		if (!fp || !fp_before)
			abort();
	}
	rip = (uint64_t)(uintptr_t)code + 4096 - 16 + (uint64_t)(flags >> 4);
	memset(code, 0, 2 * 4096);
	for (size_t i = 0; i < INSN_BYTES; i++)
		((unsigned char *)(uintptr_t)rip)[i] = (unsigned char)byte_at(data, size, i);
	for (int r = 0; r < NREGS; r++) {
		size_t at = STATE_REGS + 5 * (size_t)r;
		uint32_t v = byte_at(data, size, at + 1) | byte_at(data, size, at + 2) << 8 |
			     byte_at(data, size, at + 3) << 16 | (uint32_t)byte_at(data, size, at + 4) << 24;

		switch (byte_at(data, size, at) % 3) {
		case 0: gpr[r] = window_base() + v % target.len; break;
		case 1: gpr[r] = (uint64_t)(uintptr_t)arena + v % ARENA_LEN; break;
		default: gpr[r] = (uint64_t)(int64_t)(int32_t)v; break;
		}
	}

	decoded = ZYAN_SUCCESS(ZydisDecoderDecodeFull(&decoder, (const void *)(uintptr_t)rip, INSN_BYTES, &in, op));
	widths = decoded ? access_widths(&in, op) : 0;
	if (decoded) {
		if (!plausible(&in, op, gpr, rip, flags, &fault_code, &fault_addr))
			return 0;
	} else {
		/* an undecodable instruction: a page fault on the window, or a general-protection fault */
		fault_code = flags & FLAG_GP ? SI_KERNEL : SEGV_ACCERR;
		fault_addr = fault_code == SI_KERNEL ? 0 : window_base();
	}

	iomap_trap_reset(&target);
	iomap_trap_log_reset(&target);
	iomap_trap_log(&target, &log_from);
	memcpy(arena, arena_before, ARENA_LEN);
	uc = frame;
	for (int r = 0; r < NREGS; r++)
		uc.uc_mcontext.gregs[greg_of[r]] = (greg_t)gpr[r];
	uc.uc_mcontext.gregs[REG_RIP] = (greg_t)rip;
	uc.uc_mcontext.gregs[REG_EFL] = (uc.uc_mcontext.gregs[REG_EFL] & ~(greg_t)0x400) | (flags & FLAG_DF ? 0x400 : 0);
	memcpy(fp, frame_fp, frame_fp_len);
	if (frame_fp_len > 512) {
		uint64_t bv, features, toggle = (uint64_t)byte_at(data, size, STATE_XTOGGLE) << 1;

		memcpy(&bv, fp + FX_XSTATE_BV, sizeof(bv));
		memcpy(&features, fp + FX_SW_BYTES + 8, sizeof(features));
		bv ^= toggle & features;
		memcpy(fp + FX_XSTATE_BV, &bv, sizeof(bv));
		if (flags & FLAG_LEGACY)
			memset(fp + FX_SW_BYTES, 0, 4);
	}
	uc.uc_mcontext.fpregs = flags & FLAG_NO_FPREGS ? NULL : (struct _libc_fpstate *)(void *)fp;
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGSEGV;
	si.si_code = fault_code;
	si.si_addr = (void *)(uintptr_t)fault_addr;
	before = uc;
	memcpy(fp_before, fp, frame_fp_len);

	handled = emulate(&si, &uc);
	check_log(log_from, widths);
	if (handled < 0) {
		size_t n = strlen(refusal);

		if (strncmp(refusal, "iomap: trap: cannot emulate ", 28) || n < 2 || refusal[n - 1] != '\n' ||
		    strchr(refusal, '\n') != refusal + n - 1)
			violated("the report of an instruction it cannot emulate is not one line: '%s'", refusal);
		return 0;
	}
	if (!handled) {
		/* not the device's: the state is the CPU's again, untouched */
		if (memcmp(&uc.uc_mcontext.gregs, &before.uc_mcontext.gregs, sizeof(uc.uc_mcontext.gregs)) ||
		    memcmp(fp, fp_before, frame_fp_len) || memcmp(arena, arena_before, ARENA_LEN))
			violated("a fault it declined changed the saved state or memory");
		iomap_trap_log(&target, &log_from);
		return 0;
	}
	if (!decoded)
		violated("emulated an instruction Zydis cannot decode");
	if ((uint64_t)uc.uc_mcontext.gregs[REG_RIP] != rip + in.length)
		violated("resumed at rip+%lld, after a %u-byte instruction",
			 (long long)((uint64_t)uc.uc_mcontext.gregs[REG_RIP] - rip), in.length);
	written(&in, op, gprs, &vector, &memory);
	for (int r = 0; r < NREGS; r++)
		if (!gprs[r] && uc.uc_mcontext.gregs[greg_of[r]] != before.uc_mcontext.gregs[greg_of[r]])
			violated("changed general register %d, which the instruction does not write", r);
	for (int g = 0; g < NGREG; g++)
		if (g != REG_RIP && g != REG_RAX && g != REG_RCX && g != REG_RDX && g != REG_RBX && g != REG_RSP &&
		    g != REG_RBP && g != REG_RSI && g != REG_RDI && (g < REG_R8 || g > REG_R15) &&
		    uc.uc_mcontext.gregs[g] != before.uc_mcontext.gregs[g])
			violated("changed saved context slot %d (flags or segments)", g);
	if (!vector && memcmp(fp, fp_before, frame_fp_len))
		violated("changed the vector state, which the instruction does not write");
	if (!memory && memcmp(arena, arena_before, ARENA_LEN))
		violated("changed memory, which the instruction does not write");
	return 0;
}
