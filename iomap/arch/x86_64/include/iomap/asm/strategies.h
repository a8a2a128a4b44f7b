/* asm/strategies.h (x86_64): which of the listed strategies x86-64 has, and their rows of the run-time table */
#ifndef IOMAP_ASM_STRATEGIES_H
#define IOMAP_ASM_STRATEGIES_H

/*
 * Which strategies x86-64 has is the strategy list's `where` (x86_64 and
 * all: IOMAP_ON_x86_64 keeps its arguments, IOMAP_OFF_x86_64 drops them);
 * what their accesses and orderings are, asm/io.h's.
 */
#define IOMAP_ON_x86_64(...) __VA_ARGS__
#define IOMAP_OFF_x86_64(...)
#define IOMAP_ON_arm64(...)
#define IOMAP_OFF_arm64(...) __VA_ARGS__

/* Where a single access needs its own kind of device (ports) or CPU, the skip reason says so. */
#define IOMAP_MOVES_RANGES "vector accesses move ranges of memory, not one register once or count times"

/*
 * The row of each strategy x86-64 has (IOMAP_ROW_<id>, in parentheses): what
 * it issues here (help), why it lacks a form (`lacks`: the reason a benchmark
 * that needs it is skipped), what its copies issue and the CPU feature they
 * need.  Its forms and their function pointers follow from its line in the
 * strategy list (IOMAP_SINGLES, iomap/strategies.h).  The tests hold these
 * rows to what the strategies issue.
 */
#define IOMAP_ARCH_NAME "x86-64"

#define IOMAP_ROW_volatile ( \
	.help = "C volatile dereference of the exact-width type", \
	.lacks = "C cannot dereference a port: volatile has no port form", \
	.copy_widths = 1 | 2 | 4 | 8, .copy_element = 8 \
)

#define IOMAP_ROW_ordered ( \
	.help = "one inline-asm mov of the exact width with a compiler barrier: x86 readl/writel", \
	.lacks = "its copies would be the relaxed strategy's loop: a compiler barrier between the movs of one copy " \
		 "changes nothing the device sees" \
)

#define IOMAP_ROW_relaxed ( \
	.help = "one inline-asm mov of the exact width, no compiler barrier: x86 readl_relaxed, __raw_readl; " \
		"_rep: readsX/writesX", \
	.lacks = "", \
	.copy_widths = 1 | 2 | 4 | 8, .copy_element = 8 \
)

#define IOMAP_ROW_barriered ( \
	.help = "portable ordering: read then lfence, sfence then write", \
	.lacks = "", \
	.copy_widths = 1 | 2 | 4 | 8, .copy_element = 8 \
)

#define IOMAP_ROW_fenced ( \
	.help = "mfence before and after the access", \
	.lacks = IOMAP_ORDERS_SINGLES \
)

#define IOMAP_ROW_locked ( \
	.help = "a locked no-op (lock or $0,(%rsp)) before and after the access", \
	.lacks = IOMAP_ORDERS_SINGLES \
)

#define IOMAP_ROW_lo_hi ( \
	.help = "a 64-bit access as two 32-bit ones, low half first: lo_hi_readq/writeq (two readl), " \
		"ioread64_lo_hi on a port (two inl)", \
	.lacks = IOMAP_SPLITS_64 \
)

#define IOMAP_ROW_hi_lo ( \
	.help = "a 64-bit access as two 32-bit ones, high half first: hi_lo_readq/writeq, " \
		"ioread64_hi_lo on a port", \
	.lacks = IOMAP_SPLITS_64 \
)

#define IOMAP_ROW_io_delay ( \
	.help = "x86 inb_p/outb_p: the port access, then the I/O delay (outb %al,$0x80)", \
	.lacks = "it is port I/O with x86's I/O delay, which writes port 0x80: it has no MMIO form, " \
		 "and its string forms (insb_p) are insb", \
	.delay_port = 0x80 \
)

#define IOMAP_ROW_string ( \
	.help = "rep movsb / rep stosb (byte elements); rep insX/outsX for port _rep", \
	.lacks = "it moves ranges (a single access is one mov: the relaxed strategy); x86 has no string " \
		 "instruction that repeats one memory address, so its _rep is rep insX/outsX on port targets", \
	.copy_widths = 1, .copy_element = 1 \
)

#define IOMAP_ROW_string_wide ( \
	.help = "byte head and tail, rep movsq / rep stosq between", \
	.lacks = "it moves ranges of memory: a single access is one mov (the relaxed strategy), and x86 " \
		 "has no string instruction that repeats one memory address", \
	.copy_widths = 1 | 8, .copy_element = 8 \
)

#define IOMAP_ROW_kernel ( \
	.help = "x86 Linux memcpy_toio/_fromio: movsb and movsw to align the device side, rep movsl, " \
		"movsw/movsb tail; memset_io: the kernel's memset without FSRS (an unaligned movq head, " \
		"movq body, movb tail)", \
	.lacks = "it is x86 Linux's memcpy_toio, memcpy_fromio and memset_io: ranges only", \
	.copy_widths = 1 | 2 | 4 | 8, .copy_element = 8 \
)

#define IOMAP_ROW_kernel_unrolled ( \
	.help = "x86 Linux's copies in confidential-computing guests (CC_ATTR_GUEST_UNROLL_STRING_IO): " \
		"one readb/writeb per byte", \
	.lacks = "it is x86 Linux's memcpy_toio, memcpy_fromio and memset_io in a confidential guest: " \
		 "ranges only", \
	.copy_widths = 1, .copy_element = 1 \
)

#define IOMAP_ROW_iowrite32_copy ( \
	.help = "x86 Linux __iowrite32_copy: rep movsl of whole 32-bit words, to the device only", \
	.lacks = "it copies whole 32-bit words to the device only (__iowrite32_copy)", \
	.copy_widths = 4, .copy_element = 4, .copy_words = true \
)

#define IOMAP_ROW_simd ( \
	.help = "AVX2 32-byte aligned loads/stores, relaxed head and tail", \
	.lacks = IOMAP_MOVES_RANGES, \
	.copy_widths = 1 | 2 | 4 | 8 | 32, .copy_element = 32, \
	.feature = IOMAP_FEATURE_avx2 \
)

#define IOMAP_ROW_simd_512 ( \
	.help = "AVX-512 64-byte aligned loads/stores, relaxed head and tail", \
	.lacks = IOMAP_MOVES_RANGES, \
	.copy_widths = 1 | 2 | 4 | 8 | 64, .copy_element = 64, \
	.feature = IOMAP_FEATURE_avx512f \
)

#define IOMAP_ROW_simd_nt ( \
	.help = "AVX2 non-temporal vmovntdqa/vmovntdq then sfence (meant for WC)", \
	.lacks = IOMAP_MOVES_RANGES, \
	.copy_widths = 1 | 2 | 4 | 8 | 32, .copy_element = 32, \
	.feature = IOMAP_FEATURE_avx2 \
)

#endif

