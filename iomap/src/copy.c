/* copy.c: memcpy_fromio, memcpy_toio and memset_io in every copy strategy */
#include <string.h>

#include "iomap/io.h"

/*
 * What each strategy issues on the device side (the trap target's access log
 * proves it):
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
 *   iowrite64-copy                n / 8 movq stores, in order (__iowrite64_copy)
 *   ioread32-copy                 n / 4 movl loads, in order (__ioread32_copy)
 *   simd, simd-512, simd-nt       the relaxed head until the device address is
 *                                 aligned to the vector (32 or 64 bytes),
 *                                 aligned vector accesses, the relaxed tail;
 *                                 simd-nt uses non-temporal forms and ends
 *                                 with sfence
 * The normal-memory side may have any alignment.
 */

#define IO_ADDR(p) ((uintptr_t)(const volatile void __force *)(p))

/* The widest naturally aligned access (8, 4, 2 or 1 bytes) at io that fits in n. */
static inline size_t io_chunk(uintptr_t io, size_t n)
{
	size_t k = 8;

	while (k > 1 && ((io & (k - 1)) || k > n))
		k >>= 1;
	return k;
}

#define CHUNK_READ(s, bits)							\
	case bits / 8: {							\
		uint##bits##_t v = iomap_read##bits##_##s(src);		\
		memcpy(d, &v, sizeof(v));					\
		break;								\
	}
#define CHUNK_WRITE(s, bits)							\
	case bits / 8: {							\
		uint##bits##_t v;						\
		memcpy(&v, p, sizeof(v));					\
		iomap_write##bits##_##s(v, dst);				\
		break;								\
	}
#define CHUNK_SET(s, bits)							\
	case bits / 8:								\
		iomap_write##bits##_##s((uint##bits##_t)(0x0101010101010101ULL * (uint8_t)c), dst); \
		break;

#define IOMAP_BUILD_COPY_LOOP(s)						\
void iomap_copy_fromio_##s(void *dst, const volatile void __iomem *src, size_t n) \
{									\
	unsigned char *d = dst;						\
									\
	for (size_t k; n; n -= k, d += k, src += k) {			\
		k = io_chunk(IO_ADDR(src), n);				\
		switch (k) {						\
		CHUNK_READ(s, 8) CHUNK_READ(s, 16) CHUNK_READ(s, 32) CHUNK_READ(s, 64) \
		}							\
	}								\
}									\
void iomap_copy_toio_##s(volatile void __iomem *dst, const void *src, size_t n) \
{									\
	const unsigned char *p = src;					\
									\
	for (size_t k; n; n -= k, p += k, dst += k) {			\
		k = io_chunk(IO_ADDR(dst), n);				\
		switch (k) {						\
		CHUNK_WRITE(s, 8) CHUNK_WRITE(s, 16) CHUNK_WRITE(s, 32) CHUNK_WRITE(s, 64) \
		}							\
	}								\
}									\
void iomap_set_io_##s(volatile void __iomem *dst, int c, size_t n)	\
{									\
	for (size_t k; n; n -= k, dst += k) {				\
		k = io_chunk(IO_ADDR(dst), n);				\
		switch (k) {						\
		CHUNK_SET(s, 8) CHUNK_SET(s, 16) CHUNK_SET(s, 32) CHUNK_SET(s, 64) \
		}							\
	}								\
}
IOMAP_BUILD_COPY_LOOP(volatile)
IOMAP_BUILD_COPY_LOOP(relaxed)
IOMAP_BUILD_COPY_LOOP(barriered)
#undef IOMAP_BUILD_COPY_LOOP

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

/* Bytes before addr is aligned to `align`, capped at n. */
static inline size_t head_len(uintptr_t addr, size_t align, size_t n)
{
	size_t h = (align - (addr & (align - 1))) & (align - 1);

	return h < n ? h : n;
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
 * The kernel's word copies.  __iowrite32_copy is x86's own (rep movsl);
 * __iowrite64_copy and __ioread32_copy are the generic ones, which x86
 * keeps: one __raw_writeq or __raw_readl per word, in order.  The buffer
 * side may be unaligned here (memcpy of the word), the device side not.
 */
void __iowrite32_copy(volatile void __iomem *to, const void *from, size_t count)
{
	rep_movsl((void __force *)to, from, count);
}

void __iowrite64_copy(volatile void __iomem *to, const void *from, size_t count)
{
	volatile unsigned char __iomem *d = to;
	const unsigned char *s = from;

	for (; count; count--, d += 8, s += 8) {
		uint64_t v;

		memcpy(&v, s, 8);
		__raw_writeq(v, d);
	}
}

void __ioread32_copy(void *to, const volatile void __iomem *from, size_t count)
{
	const volatile unsigned char __iomem *s = from;
	unsigned char *d = to;

	for (; count; count--, s += 4, d += 4) {
		uint32_t v = __raw_readl(s);

		memcpy(d, &v, 4);
	}
}

/* The word strategies: n bytes as n / word whole words. */
void iomap_copy_toio_iowrite32_copy(volatile void __iomem *dst, const void *src, size_t n)
{
	__iowrite32_copy(dst, src, n / 4);
}

void iomap_copy_toio_iowrite64_copy(volatile void __iomem *dst, const void *src, size_t n)
{
	__iowrite64_copy(dst, src, n / 8);
}

void iomap_copy_fromio_ioread32_copy(void *dst, const volatile void __iomem *src, size_t n)
{
	__ioread32_copy(dst, src, n / 4);
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

/* Relaxed head, vector body, relaxed tail: one shape for every vector strategy. */
#define IOMAP_BUILD_COPY_SIMD(s, width, from, to, set)				\
void iomap_copy_fromio_##s(void *dst, const volatile void __iomem *src, size_t n) \
{									\
	size_t h = head_len(IO_ADDR(src), width, n), body = (n - h) / width * width; \
	unsigned char *d = dst;						\
									\
	iomap_copy_fromio_relaxed(d, src, h);				\
	from(d + h, (const unsigned char __force *)src + h, body / width); \
	iomap_copy_fromio_relaxed(d + h + body, src + h + body, n - h - body); \
}									\
void iomap_copy_toio_##s(volatile void __iomem *dst, const void *src, size_t n) \
{									\
	size_t h = head_len(IO_ADDR(dst), width, n), body = (n - h) / width * width; \
	const unsigned char *p = src;					\
									\
	iomap_copy_toio_relaxed(dst, p, h);				\
	to((unsigned char __force *)dst + h, p + h, body / width);	\
	iomap_copy_toio_relaxed(dst + h + body, p + h + body, n - h - body); \
}									\
void iomap_set_io_##s(volatile void __iomem *dst, int c, size_t n)	\
{									\
	size_t h = head_len(IO_ADDR(dst), width, n), body = (n - h) / width * width; \
									\
	iomap_set_io_relaxed(dst, c, h);				\
	set((unsigned char __force *)dst + h, 0x01010101U * (uint8_t)c, body / width); \
	iomap_set_io_relaxed(dst + h + body, c, n - h - body);		\
}
IOMAP_BUILD_COPY_SIMD(simd, 32, avx2_from, avx2_to, avx2_set)
IOMAP_BUILD_COPY_SIMD(simd_512, 64, avx512_from, avx512_to, avx512_set)
IOMAP_BUILD_COPY_SIMD(simd_nt, 32, nt_from, nt_to, nt_set)
#undef IOMAP_BUILD_COPY_SIMD

/* The kernel's names are the strategy that x86 Linux issues (IOMAP_KERNEL_COPY). */
void memcpy_fromio(void *dst, const volatile void __iomem *src, size_t n)
{
	IOMAP_CAT(iomap_copy_fromio_, IOMAP_KERNEL_COPY)(dst, src, n);
}

void memcpy_toio(volatile void __iomem *dst, const void *src, size_t n)
{
	IOMAP_CAT(iomap_copy_toio_, IOMAP_KERNEL_COPY)(dst, src, n);
}

void memset_io(volatile void __iomem *dst, int c, size_t n)
{
	IOMAP_CAT(iomap_set_io_, IOMAP_KERNEL_COPY)(dst, c, n);
}
