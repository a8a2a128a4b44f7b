/* copy.c (x86_64): x86-64's copy bodies: the loops, string instructions, x86 Linux's memcpy_toio, vectors */
#include "copy.h"

/*
 * What each x86-64 copy strategy issues on the device side (the trap
 * target's access log proves it); where a strategy is the kernel's, x86
 * Linux v6.1's sequence:
 *   a loop of single accesses     naturally aligned accesses of 1, 2, 4 and 8
 *   (volatile, relaxed,           bytes, each the strategy's single access:
 *   barriered)                    the widest that the device address and the
 *                                 remaining length allow, so 8-byte accesses
 *                                 with a rising head and falling tail
 *   string                        rep movsb / rep stosb: byte elements
 *   string-wide                   byte head until the device address is 8-byte
 *                                 aligned, rep movsq / rep stosq, byte tail
 *   kernel                        x86 Linux (arch/x86/lib/iomem.c): a movsb if
 *                                 the device address is odd, a movsw if it is
 *                                 then 2 mod 4 and 2 bytes remain, rep movsl,
 *                                 a movsw if 2 or 3 bytes remain, a movsb if 1
 *                                 or 3; memset_io is the kernel's memset
 *                                 (arch/x86/lib/memset_64.S) on a CPU without
 *                                 FSRS: below 8 bytes single movb; else an
 *                                 8-byte store at a misaligned start (it
 *                                 overlaps what follows), aligned 8-byte
 *                                 stores, movb for the last n % 8
 *   kernel-unrolled               one readb/writeb per byte, in order (x86
 *                                 Linux in confidential-computing guests)
 *   iowrite32-copy                rep movsl of n / 4 words (__iowrite32_copy)
 *   iowrite64-copy                n / 8 movq stores, in order (__iowrite64_copy,
 *                                 lib/iomap_copy.c's: copy.c)
 *   ioread32-copy                 n / 4 movl loads, in order (__ioread32_copy)
 *   simd, simd-512, simd-nt       the relaxed head until the device address is
 *                                 aligned to the vector (32 or 64 bytes),
 *                                 aligned vector accesses, the relaxed tail;
 *                                 simd-nt uses non-temporal forms and ends
 *                                 with sfence
 * The normal-memory side may have any alignment.
 */

IOMAP_BUILD_COPY_LOOP(volatile)
IOMAP_BUILD_COPY_LOOP(relaxed)
IOMAP_BUILD_COPY_LOOP(barriered)

/* String instructions; the ABI guarantees the direction flag is clear on entry. */
#define IOMAP_BUILD_REP_MOVS(k)							\
static __always_inline void rep_movs##k(void *d, const void *s, size_t count) \
{ __asm__ __volatile__("rep movs" #k : "+D" (d), "+S" (s), "+c" (count) : : "memory"); } \
static __always_inline void rep_stos##k(void *d, uint64_t v, size_t count) \
{ __asm__ __volatile__("rep stos" #k : "+D" (d), "+c" (count) : "a" (v) : "memory"); }
IOMAP_BUILD_REP_MOVS(b)
IOMAP_BUILD_REP_MOVS(l)
IOMAP_BUILD_REP_MOVS(q)
#undef IOMAP_BUILD_REP_MOVS

void iomap_copy_fromio_string(void *dst, const volatile void __iomem *src, size_t n)
{
	rep_movsb(dst, (const void __force *)src, n);
}

void iomap_copy_toio_string(volatile void __iomem *dst, const void *src, size_t n)
{
	rep_movsb((void __force *)dst, src, n);
}

void iomap_set_io_string(volatile void __iomem *dst, int c, size_t n)
{
	rep_stosb((void __force *)dst, (uint8_t)c, n);
}

void iomap_copy_fromio_string_wide(void *dst, const volatile void __iomem *src, size_t n)
{
	size_t h = head_len(IO_ADDR(src), 8, n);
	unsigned char *d = dst;
	const unsigned char *s = (const unsigned char __force *)src;

	rep_movsb(d, s, h);
	rep_movsq(d + h, s + h, (n - h) / 8);
	rep_movsb(d + n - (n - h) % 8, s + n - (n - h) % 8, (n - h) % 8);
}

void iomap_copy_toio_string_wide(volatile void __iomem *dst, const void *src, size_t n)
{
	size_t h = head_len(IO_ADDR(dst), 8, n);
	unsigned char *d = (unsigned char __force *)dst;
	const unsigned char *s = src;

	rep_movsb(d, s, h);
	rep_movsq(d + h, s + h, (n - h) / 8);
	rep_movsb(d + n - (n - h) % 8, s + n - (n - h) % 8, (n - h) % 8);
}

void iomap_set_io_string_wide(volatile void __iomem *dst, int c, size_t n)
{
	size_t h = head_len(IO_ADDR(dst), 8, n);
	unsigned char *d = (unsigned char __force *)dst;
	uint64_t v = 0x0101010101010101ULL * (uint8_t)c;

	rep_stosb(d, v, h);
	rep_stosq(d + h, v, (n - h) / 8);
	rep_stosb(d + n - (n - h) % 8, v, (n - h) % 8);
}

/*
 * x86 Linux's memcpy_toio/memcpy_fromio: `io` is the device-side address,
 * which decides the head; d and s are the two sides in copy order.  One movs
 * of each size at most aligns the device side to 4 bytes, rep movsl moves
 * the words (32-bit accesses: many devices take nothing wider), a movsw and
 * a movsb finish what is left.
 */
#define MOVS_ONE(k, d, s) __asm__ __volatile__("movs" #k : "+D" (d), "+S" (s) : : "memory")

static void kernel_movs(unsigned char *d, const unsigned char *s, uintptr_t io, size_t n)
{
	if (n && (io & 1)) {
		MOVS_ONE(b, d, s);
		io++;
		n--;
	}
	if (n > 1 && (io & 2)) {
		MOVS_ONE(w, d, s);
		n -= 2;
	}
	rep_movsl(d, s, n / 4);
	d += n / 4 * 4;
	s += n / 4 * 4;
	if (n & 2)
		MOVS_ONE(w, d, s);
	if (n & 1)
		MOVS_ONE(b, d, s);
}

void iomap_copy_fromio_kernel(void *dst, const volatile void __iomem *src, size_t n)
{
	kernel_movs(dst, (const unsigned char __force *)src, IO_ADDR(src), n);
}

void iomap_copy_toio_kernel(volatile void __iomem *dst, const void *src, size_t n)
{
	kernel_movs((unsigned char __force *)dst, src, IO_ADDR(dst), n);
}

/*
 * The kernel's memset where the CPU lacks FSRS (fast short rep stosb), as
 * this project's development machine does: the byte replicated into 8; a
 * misaligned start of 8 bytes or more gets one 8-byte store there, then
 * carries on from the next aligned address (the stores overlap); aligned
 * 8-byte stores, eight to a 64-byte block then one at a time; the last n % 8
 * bytes one movb each.  With FSRS the kernel issues rep stosb: the string
 * strategy's memset_io.
 */
void iomap_set_io_kernel(volatile void __iomem *dst, int c, size_t n)
{
	uint64_t v = 0x0101010101010101ULL * (uint8_t)c;
	volatile unsigned char __iomem *p = dst;
	size_t misaligned = IO_ADDR(p) & 7;

	if (misaligned && n > 7) {
		__raw_writeq(v, p);
		p += 8 - misaligned;
		n -= 8 - misaligned;
	}
	for (size_t blocks = n / 64; blocks; blocks--, p += 64) {
		__raw_writeq(v, p);
		__raw_writeq(v, p + 8);
		__raw_writeq(v, p + 16);
		__raw_writeq(v, p + 24);
		__raw_writeq(v, p + 32);
		__raw_writeq(v, p + 40);
		__raw_writeq(v, p + 48);
		__raw_writeq(v, p + 56);
	}
	for (size_t words = n % 64 / 8; words; words--, p += 8)
		__raw_writeq(v, p);
	for (n %= 8; n; n--, p++)
		__raw_writeb((uint8_t)v, p);
}

/* x86 Linux in confidential-computing guests: readb/writeb, one byte at a time. */
void iomap_copy_fromio_kernel_unrolled(void *dst, const volatile void __iomem *src, size_t n)
{
	const volatile unsigned char __iomem *in = src;
	unsigned char *out = dst;

	for (size_t i = 0; i < n; i++)
		out[i] = readb(in + i);
}

void iomap_copy_toio_kernel_unrolled(volatile void __iomem *dst, const void *src, size_t n)
{
	volatile unsigned char __iomem *out = dst;
	const unsigned char *in = src;

	for (size_t i = 0; i < n; i++)
		writeb(in[i], out + i);
}

void iomap_set_io_kernel_unrolled(volatile void __iomem *dst, int c, size_t n)
{
	volatile unsigned char __iomem *out = dst;

	for (size_t i = 0; i < n; i++)
		writeb((uint8_t)c, out + i);
}

/*
 * x86's own __iowrite32_copy (arch/x86/lib/iomap_copy_64.S): rep movsl of
 * count words.  It replaces lib/iomap_copy.c's weak one (copy.c).
 */
void __iowrite32_copy(volatile void __iomem *to, const void *from, size_t count)
{
	rep_movsl((void __force *)to, from, count);
}

/*
 * Vector bodies, each one asm loop so the vector register stays ours between
 * iterations.  The device side is aligned (movdqa forms, which also fault on
 * a misaligned address rather than split silently); the memory side is not.
 * vzeroupper avoids the SSE/AVX transition penalty in the caller.
 */
#define SIMD_COPY_BODY(name, ld, st, reg, width, tail_insn)			\
static void name(unsigned char *d, const unsigned char *s, size_t blocks)	\
{									\
	if (!blocks)							\
		return;							\
	__asm__ __volatile__("1:\n\t"					\
			     ld " (%[s]), %%" reg "0\n\t"		\
			     st " %%" reg "0, (%[d])\n\t"		\
			     "add $" #width ", %[s]\n\t"		\
			     "add $" #width ", %[d]\n\t"		\
			     "dec %[n]\n\t"				\
			     "jnz 1b\n\t"				\
			     tail_insn "vzeroupper"			\
			     : [s] "+r" (s), [d] "+r" (d), [n] "+r" (blocks)	\
			     : : "xmm0", "memory", "cc");		\
}
#define SIMD_SET_BODY(name, bcast, st, reg, width, tail_insn)			\
static void name(unsigned char *d, uint32_t v, size_t blocks)		\
{									\
	if (!blocks)							\
		return;							\
	__asm__ __volatile__("vmovd %[v], %%xmm0\n\t"			\
			     bcast " %%xmm0, %%" reg "0\n\t"		\
			     "1:\n\t"					\
			     st " %%" reg "0, (%[d])\n\t"		\
			     "add $" #width ", %[d]\n\t"		\
			     "dec %[n]\n\t"				\
			     "jnz 1b\n\t"				\
			     tail_insn "vzeroupper"			\
			     : [d] "+r" (d), [n] "+r" (blocks)		\
			     : [v] "r" (v) : "xmm0", "memory", "cc");	\
}

SIMD_COPY_BODY(avx2_from, "vmovdqa", "vmovdqu", "ymm", 32, "")
SIMD_COPY_BODY(avx2_to, "vmovdqu", "vmovdqa", "ymm", 32, "")
SIMD_SET_BODY(avx2_set, "vpbroadcastd", "vmovdqa", "ymm", 32, "")
SIMD_COPY_BODY(avx512_from, "vmovdqa64", "vmovdqu64", "zmm", 64, "")
SIMD_COPY_BODY(avx512_to, "vmovdqu64", "vmovdqa64", "zmm", 64, "")
SIMD_SET_BODY(avx512_set, "vpbroadcastd", "vmovdqa64", "zmm", 64, "")
SIMD_COPY_BODY(nt_from, "vmovntdqa", "vmovdqu", "ymm", 32, "")
SIMD_COPY_BODY(nt_to, "vmovdqu", "vmovntdq", "ymm", 32, "sfence\n\t")
SIMD_SET_BODY(nt_set, "vpbroadcastd", "vmovntdq", "ymm", 32, "sfence\n\t")

IOMAP_BUILD_COPY_ALIGNED(simd, 32, relaxed, avx2_from, avx2_to, avx2_set)
IOMAP_BUILD_COPY_ALIGNED(simd_512, 64, relaxed, avx512_from, avx512_to, avx512_set)
IOMAP_BUILD_COPY_ALIGNED(simd_nt, 32, relaxed, nt_from, nt_to, nt_set)
