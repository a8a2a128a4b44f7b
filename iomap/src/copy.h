/* copy.h: what the copy files share: device addresses as numbers, the loop of single accesses, head/body/tail */
#ifndef IOMAP_SRC_COPY_H
#define IOMAP_SRC_COPY_H

#include <stdint.h>
#include <string.h>

#include "iomap/io.h"

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

/*
 * A loop of strategy s's single accesses: naturally aligned accesses of 1,
 * 2, 4 and 8 bytes, the widest that the device address and the remaining
 * length allow, so 8-byte accesses with a rising head and falling tail.
 */
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

/* Bytes before addr is aligned to `align`, capped at n. */
static inline size_t head_len(uintptr_t addr, size_t align, size_t n)
{
	size_t h = (align - (addr & (align - 1))) & (align - 1);

	return h < n ? h : n;
}

/*
 * Head, body, tail: one shape for the copies that move an aligned body in
 * wide pieces.  The head (hs: a copy strategy's id) runs until the device
 * address is aligned to width, the body moves whole width-byte blocks with
 * from, to and set (which take a block count), the tail (hs again) moves
 * what is left.  x86's vector copies take the relaxed loop for head and
 * tail, arm64's pairs and NEON bytes, as arm64 Linux's copies have them.
 */
#define IOMAP_BUILD_COPY_ALIGNED(s, width, hs, from, to, set)				\
void iomap_copy_fromio_##s(void *dst, const volatile void __iomem *src, size_t n) \
{									\
	size_t h = head_len(IO_ADDR(src), width, n), body = (n - h) / width * width; \
	unsigned char *d = dst;						\
									\
	iomap_copy_fromio_##hs(d, src, h);				\
	from(d + h, (const unsigned char __force *)src + h, body / width); \
	iomap_copy_fromio_##hs(d + h + body, src + h + body, n - h - body); \
}									\
void iomap_copy_toio_##s(volatile void __iomem *dst, const void *src, size_t n) \
{									\
	size_t h = head_len(IO_ADDR(dst), width, n), body = (n - h) / width * width; \
	const unsigned char *p = src;					\
									\
	iomap_copy_toio_##hs(dst, p, h);				\
	to((unsigned char __force *)dst + h, p + h, body / width);	\
	iomap_copy_toio_##hs(dst + h + body, p + h + body, n - h - body); \
}									\
void iomap_set_io_##s(volatile void __iomem *dst, int c, size_t n)	\
{									\
	size_t h = head_len(IO_ADDR(dst), width, n), body = (n - h) / width * width; \
									\
	iomap_set_io_##hs(dst, c, h);				\
	set((unsigned char __force *)dst + h, 0x01010101U * (uint8_t)c, body / width); \
	iomap_set_io_##hs(dst + h + body, c, n - h - body);		\
}

#endif
