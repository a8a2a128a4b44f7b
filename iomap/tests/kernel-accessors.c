/* kernel-accessors.c: the kernel's own arm64 accessors (Linux v6.1, Debian's build), compiled from its headers at test time for asm-check-arm64.sh */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * kernel-extract.h is not in this project: asm-check-arm64.sh makes it at
 * test time from Debian's linux-source-6.1 (scripts/debian-kernel source),
 * with only the kernel's own definitions of the accessors, the barriers
 * and the splits, in the order the kernel's headers have them.  What they
 * use of the rest of the kernel is below, as Debian's arm64 configuration
 * has it: no CONFIG_TRACE_MMIO_ACCESS (no tracing around readl), no KCSAN,
 * little-endian, and the Cortex-A erratum alternative that turns ldr into
 * ldar not patched in (ALTERNATIVE's first choice, as on every core
 * without the erratum).
 */
typedef uint8_t u8, __u8;
typedef uint16_t u16, __u16, __le16, __be16;
typedef uint32_t u32, __u32, __le32, __be32;
typedef uint64_t u64, __u64, __le64, __be64;
#define __iomem
#define __force
#undef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#define ALTERNATIVE(oldinstr, newinstr, feature) oldinstr
#define barrier() __asm__ __volatile__("" : : : "memory")
#define kcsan_mb() do { } while (0)
#define kcsan_rmb() do { } while (0)
#define kcsan_wmb() do { } while (0)
#define rwmmio_tracepoint_enabled(tracepoint) false
#define log_read_mmio(...) do { } while (0)
#define log_post_read_mmio(...) do { } while (0)
#define log_write_mmio(...) do { } while (0)
#define log_post_write_mmio(...) do { } while (0)
#define _THIS_IP_ 0
#define _RET_IP_ 0
#define __le16_to_cpu(x) ((u16)(x))
#define __le32_to_cpu(x) ((u32)(x))
#define __le64_to_cpu(x) ((u64)(x))
#define __cpu_to_le16(x) ((__le16)(x))
#define __cpu_to_le32(x) ((__le32)(x))
#define __cpu_to_le64(x) ((__le64)(x))
#define cpu_to_le16(x) ((__le16)(x))
#define cpu_to_le32(x) ((__le32)(x))
#define cpu_to_le64(x) ((__le64)(x))
#define be16_to_cpu(x) __builtin_bswap16(x)
#define be32_to_cpu(x) __builtin_bswap32(x)
#define be64_to_cpu(x) __builtin_bswap64(x)
#define cpu_to_be16(x) __builtin_bswap16(x)
#define cpu_to_be32(x) __builtin_bswap32(x)
#define cpu_to_be64(x) __builtin_bswap64(x)
#define swab16(x) __builtin_bswap16(x)
#define swab32(x) __builtin_bswap32(x)
#define swab64(x) __builtin_bswap64(x)

#include "kernel-extract.h"
#include "kernel-names.h"

KERNEL_NAMES(KERNEL_NAME_READ, KERNEL_NAME_WRITE, KERNEL_NAME_REP)

/*
 * The strategies as the kernel's own pieces make them, under the names
 * asm-accessors.c gives ours (seq_{read,write}BITS_ID): ordered is readX,
 * relaxed readX_relaxed, volatile asm-generic's C __raw_readX (gen_raw_, the
 * definition arm64 overrides), barriered __raw_readX then rmb() (wmb()
 * before a write), fenced mb() around it, the splits lo_hi_readq and
 * hi_lo_readq.  acquire has no kernel MMIO accessor: asm-check-arm64.sh
 * reads its sequence itself.  asm-accessors.c has the first three again as
 * asm_{read,write}BITS_ID, and ordered's and relaxed's write of a constant
 * (_imm), which the store may take from the zero register.
 */
#define SEQ(bits, id, type, read_body, write_body)				\
	type seq_read##bits##_##id(void *addr);				\
	void seq_write##bits##_##id(type v, void *addr);			\
	__attribute__((noinline)) type seq_read##bits##_##id(void *addr) { read_body; } \
	__attribute__((noinline)) void seq_write##bits##_##id(type v, void *addr) { write_body; }
#define SEQ_ASM(bits, id, type, read_body, write_body)				\
	SEQ(bits, id, type, read_body, write_body)				\
	type asm_read##bits##_##id(void *addr);					\
	void asm_write##bits##_##id(type v, void *addr);			\
	__attribute__((noinline)) type asm_read##bits##_##id(void *addr) { read_body; } \
	__attribute__((noinline)) void asm_write##bits##_##id(type v, void *addr) { write_body; }
#define IMM(bits, id, type, write)						\
	void asm_write##bits##_##id##_imm(void *addr);				\
	__attribute__((noinline)) void asm_write##bits##_##id##_imm(void *addr) \
	{ write((type)(0x123456789abcdef0ULL >> (64 - bits)), addr); }
#define SEQ_WIDTH(bits, k, type)						\
	SEQ_ASM(bits, ordered, type, return read##k(addr), write##k(v, addr))	\
	SEQ_ASM(bits, relaxed, type, return read##k##_relaxed(addr), write##k##_relaxed(v, addr)) \
	SEQ_ASM(bits, volatile, type, return gen_raw_read##k(addr), gen_raw_write##k(v, addr)) \
	IMM(bits, ordered, type, write##k) IMM(bits, relaxed, type, write##k##_relaxed) \
	SEQ(bits, barriered, type, type r = __raw_read##k(addr); rmb(); return r, \
	    wmb(); __raw_write##k(v, addr))					\
	SEQ(bits, fenced, type, type r; mb(); r = __raw_read##k(addr); mb(); return r, \
	    mb(); __raw_write##k(v, addr); mb())
SEQ_WIDTH(8, b, u8)
SEQ_WIDTH(16, w, u16)
SEQ_WIDTH(32, l, u32)
SEQ_WIDTH(64, q, u64)
SEQ(64, lo_hi, u64, return lo_hi_readq(addr), lo_hi_writeq(v, addr))
SEQ(64, hi_lo, u64, return hi_lo_readq(addr), hi_lo_writeq(v, addr))
