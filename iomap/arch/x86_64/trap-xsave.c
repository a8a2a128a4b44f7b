/* trap-xsave.c: the vector registers of a trapped access in the signal frame's XSAVE area, read and written as the CPU would */
#include <cpuid.h>
#include <signal.h>
#include <string.h>
#include <ucontext.h>

#include "trap-xsave.h"

/*
 * Everything here but trap_xsave_init runs in the SIGSEGV handler: no
 * allocation, no stdio, no locks.
 */

#define XFEATURE_SSE		1
#define XFEATURE_YMM		2	/* upper halves of ymm0-15 */
#define XFEATURE_OPMASK		5
#define XFEATURE_ZMM_HI256	6	/* upper halves of zmm0-15 */
#define XFEATURE_HI16_ZMM	7	/* zmm16-31 */
#define XMASK(c)		(1ull << (c))

/* The signal frame's FXSAVE area: xmm0-15 at 160; the kernel's software bytes (FP_XSTATE_MAGIC1 first) at 464. */
#define FX_XMM			160
#define FX_SW_BYTES		464
#define FX_XSTATE_BV		512

void trap_xsave_init(struct trap_xstate *xs)
{
	unsigned int a, b, c, d;
	uint32_t lo, hi;

	memset(xs, 0, sizeof(*xs));
	__cpuid(1, a, b, c, d);
	if (!(c & bit_OSXSAVE))
		return;
	__asm__ __volatile__("xgetbv" : "=a" (lo), "=d" (hi) : "c" (0));
	xs->xcr0 = ((uint64_t)hi << 32) | lo;
	for (unsigned int i = XFEATURE_YMM; i <= XFEATURE_HI16_ZMM; i++)
		if (xs->xcr0 & XMASK(i)) {
			__cpuid_count(0xd, i, a, b, c, d);
			xs->size[i] = a;
			xs->off[i] = b;
		}
}

const char *trap_vector_why_not(const struct trap_xstate *xs, unsigned int bytes)
{
	uint64_t avx = XMASK(XFEATURE_SSE) | XMASK(XFEATURE_YMM);
	uint64_t avx512 = avx | XMASK(XFEATURE_OPMASK) | XMASK(XFEATURE_ZMM_HI256) | XMASK(XFEATURE_HI16_ZMM);

	if (bytes > 16 && (xs->xcr0 & avx) != avx)
		return "the OS saves no AVX state in signal frames, so ymm registers cannot be emulated";
	if (bytes > 32 && (xs->xcr0 & avx512) != avx512)
		return "the OS saves no AVX-512 state in signal frames, so zmm registers cannot be emulated";
	return NULL;
}


/* A piece of zmm n: `len` bytes from byte `at` of the register, kept by component `comp` at `off`. */
struct piece {
	unsigned int comp;
	size_t off, len, at;
};

static size_t vector_pieces(const struct trap_xstate *xs, unsigned int n, struct piece p[3])
{
	if (n >= 16) {
		p[0] = (struct piece){ XFEATURE_HI16_ZMM, xs->off[XFEATURE_HI16_ZMM] + 64 * (n - 16), 64, 0 };
		return 1;
	}
	p[0] = (struct piece){ XFEATURE_SSE, FX_XMM + 16 * n, 16, 0 };
	p[1] = (struct piece){ XFEATURE_YMM, xs->off[XFEATURE_YMM] + 16 * n, 16, 16 };
	p[2] = (struct piece){ XFEATURE_ZMM_HI256, xs->off[XFEATURE_ZMM_HI256] + 32 * n, 32, 32 };
	return 3;
}

/* The XSAVE area, its component bitmap (XSTATE_BV) and what the frame holds at all. */
struct xarea {
	unsigned char *fx;
	uint64_t *xstate_bv;
	uint64_t features;
};

static const char *xarea_of(ucontext_t *uc, struct xarea *x)
{
	uint32_t magic;

	x->fx = (unsigned char *)uc->uc_mcontext.fpregs;
	if (!x->fx)
		return "the signal frame holds no vector state";
	memcpy(&magic, x->fx + FX_SW_BYTES, sizeof(magic));
	x->xstate_bv = magic == FP_XSTATE_MAGIC1 ? (uint64_t *)(void *)(x->fx + FX_XSTATE_BV) : NULL;
	x->features = XMASK(XFEATURE_SSE);
	if (x->xstate_bv)
		memcpy(&x->features, x->fx + FX_SW_BYTES + 8, sizeof(x->features));
	return NULL;
}

/* A component not in XSTATE_BV is in its initial state (zero) and its area holds garbage. */
static int piece_live(const struct xarea *x, const struct piece *p)
{
	return !x->xstate_bv ? p->comp == XFEATURE_SSE : (*x->xstate_bv & XMASK(p->comp)) != 0;
}

static const char *need_piece(const struct trap_xstate *xs, const struct xarea *x, const struct piece *p)
{
	if (!(x->features & XMASK(p->comp)) || (p->comp != XFEATURE_SSE && !xs->size[p->comp]))
		return "the signal frame lacks the XSAVE component for this register width";
	return NULL;
}

const char *trap_xsave_read(const struct trap_xstate *xs, ucontext_t *uc, unsigned int n, unsigned char *buf,
			    size_t bytes)
{
	struct piece p[3];
	struct xarea x;
	size_t np = vector_pieces(xs, n, p);
	const char *why = xarea_of(uc, &x);

	for (size_t i = 0; !why && i < np && p[i].at < bytes; i++) {
		size_t len = bytes - p[i].at < p[i].len ? bytes - p[i].at : p[i].len;

		why = need_piece(xs, &x, &p[i]);
		if (why)
			break;
		if (piece_live(&x, &p[i]))
			memcpy(buf + p[i].at, x.fx + p[i].off, len);
		else
			memset(buf + p[i].at, 0, len);
	}
	return why;
}

/*
 * A load into the low `bytes` of zmm n.  VEX and EVEX loads zero the rest of
 * the register up to its full width; legacy SSE loads leave it.  Making a
 * component live means giving all its registers their initial value first.
 */
const char *trap_xsave_write(const struct trap_xstate *xs, ucontext_t *uc, unsigned int n, const unsigned char *buf,
			     size_t bytes, int zero_upper)
{
	struct piece p[3];
	struct xarea x;
	size_t np = vector_pieces(xs, n, p);
	const char *why = xarea_of(uc, &x);

	if (why)
		return why;
	for (size_t i = 0; i < np; i++) {
		size_t len = p[i].at >= bytes ? 0 : bytes - p[i].at < p[i].len ? bytes - p[i].at : p[i].len;

		if (!len && (!zero_upper || !piece_live(&x, &p[i])))
			continue;
		why = need_piece(xs, &x, &p[i]);
		if (why)
			return why;
		if (!piece_live(&x, &p[i])) {
			if (!x.xstate_bv)
				return "the signal frame holds no XSAVE header";
			if (p[i].comp == XFEATURE_SSE)
				memset(x.fx + FX_XMM, 0, 16 * 16);
			else
				memset(x.fx + xs->off[p[i].comp], 0, xs->size[p[i].comp]);
			*x.xstate_bv |= XMASK(p[i].comp);
		}
		memcpy(x.fx + p[i].off, buf + (len ? p[i].at : 0), len);
		if (zero_upper)
			memset(x.fx + p[i].off + len, 0, p[i].len - len);
	}
	return NULL;
}
