/* trap-decode.c: decode a faulting access with Zydis and emulate it on the trap device and the saved state */
#define _GNU_SOURCE
#include <signal.h>
#include <string.h>
#include <ucontext.h>

#include <Zydis/Zydis.h>

#include "trap-dev.h"
#include "trap-xsave.h"

/*
 * Everything here runs in the SIGSEGV handler: no allocation, no stdio, no
 * locks.  Zydis's decoder and formatter work in caller-provided buffers only.
 */

static ZydisDecoder decoder;

const int trap_ports = 1;

void trap_decode_init(struct trap_xstate *xs)
{
	ZydisDecoderInit(&decoder, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
	trap_xsave_init(xs);
}

/* One fault being emulated. */
struct emu {
	struct trap_dev *d;
	ucontext_t *uc;
	ZydisDecodedInstruction in;
	ZydisDecodedOperand op[ZYDIS_MAX_OPERAND_COUNT];
	uint64_t rip;
	uint64_t fault_addr;	/* the device address, or the port */
	int pio;
};

/* ---- the report for what cannot be emulated ---- */

/* The process ends here (trap_line_exit), naming the instruction and why. */
static void __attribute__((noreturn)) unsupported(struct emu *e, const char *why)
{
	struct trap_line l = { .n = 0 };
	char text[96];
	ZydisFormatter f;

	trap_line_put(&l, "iomap: trap: cannot emulate ");
	if (e->in.length && ZydisFormatterInit(&f, ZYDIS_FORMATTER_STYLE_ATT) == ZYAN_STATUS_SUCCESS &&
	    ZYAN_SUCCESS(ZydisFormatterFormatInstruction(&f, &e->in, e->op, e->in.operand_count_visible,
							 text, sizeof(text), e->rip, NULL))) {
		trap_line_put(&l, "'");
		trap_line_put(&l, text);
		trap_line_put(&l, "' (");
		trap_line_put(&l, ZydisMnemonicGetString(e->in.mnemonic));
		trap_line_put(&l, ")");
	} else {
		trap_line_put(&l, "an instruction Zydis cannot decode");
	}
	trap_line_put(&l, " at ");
	trap_line_hex(&l, e->rip);
	trap_line_put(&l, e->pio ? ", port " : ", device address ");
	trap_line_hex(&l, e->fault_addr);
	trap_line_put(&l, ": ");
	trap_line_put(&l, why);
	trap_line_put(&l, " (the trap target emulates mov, movzx, movsx, movsxd, [rep] movs/stos/ins/outs, in, out "
		"and unmasked vector moves)");
	trap_line_exit(&l);
}

/* ---- general-purpose registers in the saved context ---- */

static const int greg_of[16] = {
	REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP, REG_RSI, REG_RDI,
	REG_R8, REG_R9, REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15,
};

static greg_t *gpr(struct emu *e, ZydisRegister r)
{
	ZydisRegister full = ZydisRegisterGetLargestEnclosing(ZYDIS_MACHINE_MODE_LONG_64, r);

	if (full < ZYDIS_REGISTER_RAX || full > ZYDIS_REGISTER_R15)
		unsupported(e, "an operand register that is not a general-purpose one");
	return &e->uc->uc_mcontext.gregs[greg_of[full - ZYDIS_REGISTER_RAX]];
}

static int high_byte(ZydisRegister r)
{
	return r >= ZYDIS_REGISTER_AH && r <= ZYDIS_REGISTER_BH;
}

static uint64_t width_mask(unsigned int bits)
{
	return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

static uint64_t reg_read(struct emu *e, ZydisRegister r)
{
	uint64_t v = (uint64_t)*gpr(e, r);

	if (high_byte(r))
		return (v >> 8) & 0xff;
	return v & width_mask(ZydisRegisterGetWidth(ZYDIS_MACHINE_MODE_LONG_64, r));
}

/* As the hardware writes: 8 and 16 bits merge, 32 bits zero-extend, 64 bits replace. */
static void reg_write(struct emu *e, ZydisRegister r, uint64_t v)
{
	greg_t *g = gpr(e, r);
	unsigned int bits = ZydisRegisterGetWidth(ZYDIS_MACHINE_MODE_LONG_64, r);

	if (high_byte(r))
		*g = (greg_t)(((uint64_t)*g & ~0xff00ull) | ((v & 0xff) << 8));
	else if (bits < 32)
		*g = (greg_t)(((uint64_t)*g & ~width_mask(bits)) | (v & width_mask(bits)));
	else
		*g = (greg_t)(v & width_mask(bits));
}

static uint64_t mem_operand_addr(struct emu *e, const ZydisDecodedOperand *op)
{
	uint64_t a = (uint64_t)op->mem.disp.value;

	if (op->mem.segment == ZYDIS_REGISTER_FS || op->mem.segment == ZYDIS_REGISTER_GS)
		unsupported(e, "an fs/gs segment override");
	if (op->mem.base == ZYDIS_REGISTER_RIP)
		a += e->rip + e->in.length;
	else if (op->mem.base != ZYDIS_REGISTER_NONE)
		a += reg_read(e, op->mem.base);
	if (op->mem.index != ZYDIS_REGISTER_NONE)
		a += reg_read(e, op->mem.index) * op->mem.scale;
	return e->in.address_width == 32 ? (uint32_t)a : a;
}

/* ---- memory: the device window through the model, anything else through the real address ---- */

static void mem_move(struct emu *e, uint64_t a, void *buf, size_t n, enum iomap_trap_dir dir)
{
	if (trap_mem_move(e->d, a, buf, n, dir))
		unsupported(e, "the access crosses the edge of the trap window");
}

static void port_move(struct emu *e, uint16_t port, void *buf, unsigned int n, enum iomap_trap_dir dir)
{
	trap_access(e->d, IOMAP_SPACE_PIO, port - e->d->win[IOMAP_SPACE_PIO].base, n, dir, buf);
}

static int port_ours(struct emu *e, uint64_t port, unsigned int n)
{
	const struct trap_window *w = &e->d->win[IOMAP_SPACE_PIO];

	return port >= w->base && port - w->base < w->len && n <= w->len - (port - w->base);
}

/* ---- the instructions ---- */

static void set_reg64(struct emu *e, int greg, uint64_t v)
{
	e->uc->uc_mcontext.gregs[greg] = (greg_t)v;
}

static uint64_t get_reg64(struct emu *e, int greg)
{
	return (uint64_t)e->uc->uc_mcontext.gregs[greg];
}

/*
 * A string instruction's element: its memory operand's size.  The operand
 * size is not it: REX.W makes movs and stos move 8 bytes, but leaves ins and
 * outs at 4 while Zydis reports their operand size as 64.
 */
static unsigned int element_bytes(const struct emu *e)
{
	for (unsigned int i = 0; i < e->in.operand_count; i++)
		if (e->op[i].type == ZYDIS_OPERAND_TYPE_MEMORY)
			return e->op[i].size / 8;
	return 1;
}

/*
 * movs, stos, ins, outs with or without rep: element by element, RSI, RDI
 * and RCX stepping as the hardware steps them (down when EFLAGS.DF is set).
 * The whole remaining count runs in this one fault.
 */
static void emulate_string(struct emu *e, uint8_t opcode)
{
	unsigned int size = element_bytes(e);
	int rep = (e->in.attributes & ZYDIS_ATTRIB_HAS_REP) != 0;
	int64_t step = (get_reg64(e, REG_EFL) & (1u << 10)) ? -(int64_t)size : (int64_t)size;
	uint64_t count = rep ? get_reg64(e, REG_RCX) : 1;
	uint16_t port = (uint16_t)get_reg64(e, REG_RDX);
	unsigned char buf[8];

	if (e->in.address_width != 64)
		unsupported(e, "a 32-bit address size");
	if (e->in.attributes & (ZYDIS_ATTRIB_HAS_SEGMENT_FS | ZYDIS_ATTRIB_HAS_SEGMENT_GS))
		unsupported(e, "an fs/gs segment override");
	for (; count; count--) {
		uint64_t si = get_reg64(e, REG_RSI), di = get_reg64(e, REG_RDI);

		switch (opcode & ~1) {
		case 0xa4:	/* movs */
			mem_move(e, si, buf, size, IOMAP_TRAP_READ);
			mem_move(e, di, buf, size, IOMAP_TRAP_WRITE);
			break;
		case 0xaa:	/* stos */
			memcpy(buf, &e->uc->uc_mcontext.gregs[REG_RAX], size);
			mem_move(e, di, buf, size, IOMAP_TRAP_WRITE);
			break;
		case 0x6c:	/* ins */
			port_move(e, port, buf, size, IOMAP_TRAP_READ);
			mem_move(e, di, buf, size, IOMAP_TRAP_WRITE);
			break;
		case 0x6e:	/* outs */
			mem_move(e, si, buf, size, IOMAP_TRAP_READ);
			port_move(e, port, buf, size, IOMAP_TRAP_WRITE);
			break;
		}
		if ((opcode & ~1) == 0xa4 || (opcode & ~1) == 0x6e)
			set_reg64(e, REG_RSI, si + (uint64_t)step);
		if ((opcode & ~1) != 0x6e)
			set_reg64(e, REG_RDI, di + (uint64_t)step);
		if (rep)
			set_reg64(e, REG_RCX, count - 1);
	}
}

/* in and out: the port from an immediate (e4-e7) or DX (ec-ef), the data in AL/AX/EAX. */
static void emulate_in_out(struct emu *e, uint8_t opcode)
{
	unsigned int size = opcode & 1 ? e->in.operand_width / 8 : 1;
	uint64_t v = 0;

	if ((opcode & ~1) == 0xe4 || (opcode & ~1) == 0xec) {
		port_move(e, (uint16_t)e->fault_addr, &v, size, IOMAP_TRAP_READ);
		reg_write(e, size == 1 ? ZYDIS_REGISTER_AL : size == 2 ? ZYDIS_REGISTER_AX : ZYDIS_REGISTER_EAX, v);
	} else {
		v = get_reg64(e, REG_RAX);
		port_move(e, (uint16_t)e->fault_addr, &v, size, IOMAP_TRAP_WRITE);
	}
}

/* mov, movzx, movsx, movsxd between a general-purpose register or an immediate and memory. */
static void emulate_mov(struct emu *e)
{
	const ZydisDecodedOperand *dst = &e->op[0], *src = &e->op[1];
	unsigned int bytes;
	uint64_t v = 0;

	if (dst->type == ZYDIS_OPERAND_TYPE_MEMORY) {
		if (e->in.mnemonic != ZYDIS_MNEMONIC_MOV)
			unsupported(e, "a store form that does not exist");
		bytes = dst->size / 8;
		v = src->type == ZYDIS_OPERAND_TYPE_IMMEDIATE ? src->imm.value.u : reg_read(e, src->reg.value);
		mem_move(e, mem_operand_addr(e, dst), &v, bytes, IOMAP_TRAP_WRITE);
		return;
	}
	if (dst->type != ZYDIS_OPERAND_TYPE_REGISTER || src->type != ZYDIS_OPERAND_TYPE_MEMORY)
		unsupported(e, "a mov that moves nothing to or from memory");
	bytes = src->size / 8;
	mem_move(e, mem_operand_addr(e, src), &v, bytes, IOMAP_TRAP_READ);
	if (e->in.mnemonic == ZYDIS_MNEMONIC_MOVSX || e->in.mnemonic == ZYDIS_MNEMONIC_MOVSXD)
		v = (uint64_t)((int64_t)(v << (64 - 8 * bytes)) >> (64 - 8 * bytes));
	reg_write(e, dst->reg.value, v);
}

/* Vector moves between a whole xmm/ymm/zmm register and memory; aligned forms check alignment. */
static int vector_move(ZydisMnemonic m, int *aligned)
{
	switch (m) {
	case ZYDIS_MNEMONIC_MOVDQA: case ZYDIS_MNEMONIC_MOVAPS: case ZYDIS_MNEMONIC_MOVAPD:
	case ZYDIS_MNEMONIC_MOVNTDQ: case ZYDIS_MNEMONIC_MOVNTDQA: case ZYDIS_MNEMONIC_MOVNTPS:
	case ZYDIS_MNEMONIC_MOVNTPD:
	case ZYDIS_MNEMONIC_VMOVDQA: case ZYDIS_MNEMONIC_VMOVDQA32: case ZYDIS_MNEMONIC_VMOVDQA64:
	case ZYDIS_MNEMONIC_VMOVAPS: case ZYDIS_MNEMONIC_VMOVAPD: case ZYDIS_MNEMONIC_VMOVNTDQ:
	case ZYDIS_MNEMONIC_VMOVNTDQA: case ZYDIS_MNEMONIC_VMOVNTPS: case ZYDIS_MNEMONIC_VMOVNTPD:
		*aligned = 1;
		return 1;
	case ZYDIS_MNEMONIC_MOVDQU: case ZYDIS_MNEMONIC_MOVUPS: case ZYDIS_MNEMONIC_MOVUPD:
	case ZYDIS_MNEMONIC_VMOVDQU: case ZYDIS_MNEMONIC_VMOVDQU8: case ZYDIS_MNEMONIC_VMOVDQU16:
	case ZYDIS_MNEMONIC_VMOVDQU32: case ZYDIS_MNEMONIC_VMOVDQU64: case ZYDIS_MNEMONIC_VMOVUPS:
	case ZYDIS_MNEMONIC_VMOVUPD:
		*aligned = 0;
		return 1;
	default:
		return 0;
	}
}

static void emulate_vector(struct emu *e, int aligned)
{
	const ZydisDecodedOperand *mem = NULL, *reg = NULL;
	enum iomap_trap_dir dir;
	unsigned char buf[64];
	unsigned int bytes, n;
	uint64_t a;
	const char *why;

	/* EVEX forms list the mask register between the two: take the vector register and the memory */
	for (unsigned int i = 0; i < e->in.operand_count_visible; i++) {
		ZydisRegisterClass c = ZydisRegisterGetClass(e->op[i].reg.value);

		if (e->op[i].type == ZYDIS_OPERAND_TYPE_MEMORY && !mem)
			mem = &e->op[i];
		else if (e->op[i].type == ZYDIS_OPERAND_TYPE_REGISTER && !reg &&
			 (c == ZYDIS_REGCLASS_XMM || c == ZYDIS_REGCLASS_YMM || c == ZYDIS_REGCLASS_ZMM))
			reg = &e->op[i];
	}
	if (!mem || !reg)
		unsupported(e, "a vector move without one register and one memory operand");
	dir = mem < reg ? IOMAP_TRAP_WRITE : IOMAP_TRAP_READ;
	if (e->in.avx.mask.reg != ZYDIS_REGISTER_NONE && e->in.avx.mask.reg != ZYDIS_REGISTER_K0)
		unsupported(e, "a masked vector access");
	bytes = mem->size / 8;
	why = trap_vector_why_not(&e->d->xs, bytes);
	if (why)
		unsupported(e, why);
	if (bytes > sizeof(buf) || ZydisRegisterGetWidth(ZYDIS_MACHINE_MODE_LONG_64, reg->reg.value) != mem->size)
		unsupported(e, "a vector access that is not one whole register");
	n = (unsigned int)ZydisRegisterGetId(reg->reg.value);
	a = mem_operand_addr(e, mem);
	if (aligned && (a & (bytes - 1)))
		unsupported(e, "a misaligned operand of an aligned vector move (the hardware raises #GP)");
	if (dir == IOMAP_TRAP_WRITE) {
		why = trap_xsave_read(&e->d->xs, e->uc, n, buf, bytes);
		if (why)
			unsupported(e, why);
		mem_move(e, a, buf, bytes, dir);
	} else {
		mem_move(e, a, buf, bytes, dir);
		why = trap_xsave_write(&e->d->xs, e->uc, n, buf, bytes,
				       e->in.encoding != ZYDIS_INSTRUCTION_ENCODING_LEGACY);
		if (why)
			unsupported(e, why);
	}
}

/* Decode at rip, reading no further than the CPU must have: stop at the page end unless Zydis needs more. */
static int decode(struct emu *e)
{
	size_t to_page = 4096 - (e->rip & 4095);
	size_t n = to_page < ZYDIS_MAX_INSTRUCTION_LENGTH ? to_page : ZYDIS_MAX_INSTRUCTION_LENGTH;
	ZyanStatus s = ZydisDecoderDecodeFull(&decoder, (const void *)(uintptr_t)e->rip, n, &e->in, e->op);

	if (s == ZYDIS_STATUS_NO_MORE_DATA && n < ZYDIS_MAX_INSTRUCTION_LENGTH)
		s = ZydisDecoderDecodeFull(&decoder, (const void *)(uintptr_t)e->rip,
					   ZYDIS_MAX_INSTRUCTION_LENGTH, &e->in, e->op);
	return ZYAN_SUCCESS(s) ? 0 : -1;
}

/* A memory operand made of general-purpose registers, rip and a displacement only. */
static int plain_mem(const ZydisDecodedOperand *op)
{
	ZydisRegister b = op->mem.base, i = op->mem.index;

	return op->type == ZYDIS_OPERAND_TYPE_MEMORY && op->mem.type == ZYDIS_MEMOP_TYPE_MEM &&
	       op->mem.segment != ZYDIS_REGISTER_FS && op->mem.segment != ZYDIS_REGISTER_GS &&
	       (b == ZYDIS_REGISTER_NONE || b == ZYDIS_REGISTER_RIP ||
		ZydisRegisterGetClass(b) == ZYDIS_REGCLASS_GPR64) &&
	       (i == ZYDIS_REGISTER_NONE || ZydisRegisterGetClass(i) == ZYDIS_REGCLASS_GPR64);
}

/* Whether a visible memory operand reaches the window (a #GP there: misalignment, say). */
static int touches_window(struct emu *e)
{
	const struct trap_window *w = &e->d->win[IOMAP_SPACE_MMIO];

	for (unsigned int i = 0; i < e->in.operand_count_visible; i++)
		if (plain_mem(&e->op[i])) {
			uint64_t a = mem_operand_addr(e, &e->op[i]);

			if (a >= w->base && a - w->base < w->len) {
				e->fault_addr = a;
				return 1;
			}
		}
	return 0;
}

int trap_emulate(struct trap_dev *d, int signo, siginfo_t *si, void *uc)
{
	const struct trap_window *w = &d->win[IOMAP_SPACE_MMIO];
	struct emu e = { .d = d, .uc = uc };
	uint64_t addr = (uint64_t)(uintptr_t)si->si_addr;
	int page_fault = si->si_code == SEGV_ACCERR || si->si_code == SEGV_MAPERR;
	int is_io, is_string;
	uint8_t opcode;

	if (signo != SIGSEGV)
		return 0;
	e.rip = (uint64_t)e.uc->uc_mcontext.gregs[REG_RIP];
	e.fault_addr = addr;
	/* Decode only faults that can be ours: a page fault elsewhere may come from a bad rip. */
	if (!((page_fault && addr >= w->base && addr - w->base < w->len) || si->si_code == SI_KERNEL) ||
	    (e.rip >= w->base && e.rip - w->base < w->len))
		return 0;
	if (decode(&e)) {
		if (page_fault)
			unsupported(&e, "Zydis cannot decode it");
		return 0;
	}
	opcode = e.in.opcode;
	is_io = e.in.encoding == ZYDIS_INSTRUCTION_ENCODING_LEGACY && e.in.opcode_map == ZYDIS_OPCODE_MAP_DEFAULT &&
		((opcode >= 0x6c && opcode <= 0x6f) || (opcode >= 0xe4 && opcode <= 0xe7) ||
		 (opcode >= 0xec && opcode <= 0xef));
	is_string = e.in.encoding == ZYDIS_INSTRUCTION_ENCODING_LEGACY &&
		    e.in.opcode_map == ZYDIS_OPCODE_MAP_DEFAULT &&
		    ((opcode >= 0x6c && opcode <= 0x6f) || opcode == 0xa4 || opcode == 0xa5 ||
		     opcode == 0xaa || opcode == 0xab);

	if (is_io) {
		/* port I/O without permission: ours only on the trap port window */
		e.pio = 1;
		e.fault_addr = (opcode & 0xf8) == 0xe0 ? e.op[opcode & 2 ? 0 : 1].imm.value.u
						       : get_reg64(&e, REG_RDX) & 0xffff;
		if (!port_ours(&e, e.fault_addr, opcode & 1 ? e.in.operand_width / 8 : 1))
			return 0;
	} else if (si->si_code == SI_KERNEL) {
		if (!touches_window(&e))
			return 0;
		unsupported(&e, "a general-protection fault on the trap window "
			    "(a misaligned aligned-vector access, or a non-canonical address)");
	}

	if (is_string && (e.in.attributes & ZYDIS_ATTRIB_HAS_REPNE))
		unsupported(&e, "a repne prefix on a string move");
	if (is_string)
		emulate_string(&e, opcode);
	else if (is_io)
		emulate_in_out(&e, opcode);
	else if (e.in.mnemonic == ZYDIS_MNEMONIC_MOV || e.in.mnemonic == ZYDIS_MNEMONIC_MOVZX ||
		 e.in.mnemonic == ZYDIS_MNEMONIC_MOVSX || e.in.mnemonic == ZYDIS_MNEMONIC_MOVSXD)
		emulate_mov(&e);
	else {
		int aligned;

		if (!vector_move(e.in.mnemonic, &aligned))
			unsupported(&e, "this instruction is not emulated");
		emulate_vector(&e, aligned);
	}
	e.uc->uc_mcontext.gregs[REG_RIP] = (greg_t)(e.rip + e.in.length);
	return 1;
}
