/* asm/strategies.h (arm64): which strategies arm64 has, what generates them, and their rows of the run-time table */
#ifndef IOMAP_ASM_STRATEGIES_H
#define IOMAP_ASM_STRATEGIES_H

/*
 * The lists iomap/strategies.h describes, for arm64 (Linux v6.1's
 * sequences where a strategy is the kernel's).  The accesses and orderings
 * are asm/io.h's:
 *   access  raw (ldrb, ldrh, ldr w, ldr x; strb, strh, str: __raw_readX),
 *           acq (ldar/stlr of the width), deref and the splits (generic)
 *   order   none, io (readl: dmb oshld and a dependency after the read;
 *           writel: dmb oshst before the write), rmb_wmb (dsb ld after a
 *           read, dsb st before a write), mb (dsb sy around)
 * arm64 has no port instructions: no strategy has port forms.
 */
#define IOMAP_STRATEGIES(X, ...)						\
	X(volatile, deref, none, ##__VA_ARGS__)					\
	X(ordered, raw, io, ##__VA_ARGS__)					\
	X(relaxed, raw, none, ##__VA_ARGS__)					\
	X(barriered, raw, rmb_wmb, ##__VA_ARGS__)				\
	X(fenced, raw, mb, ##__VA_ARGS__)					\
	X(acquire, acq, none, ##__VA_ARGS__)					\
	X(lo_hi, lohi, none, ##__VA_ARGS__)					\
	X(hi_lo, hilo, none, ##__VA_ARGS__)
#define IOMAP_REP_STRATEGIES(X, ...)						\
	X(volatile, ##__VA_ARGS__) X(ordered, ##__VA_ARGS__) X(relaxed, ##__VA_ARGS__) X(barriered, ##__VA_ARGS__)
#define IOMAP_PORT_REP_LOOPS(X, ...)
#define IOMAP_PORT_REP_STRATEGIES(X, ...)
#define IOMAP_COPY_STRATEGIES(X, ...)						\
	X(volatile, all, ##__VA_ARGS__)						\
	X(relaxed, all, ##__VA_ARGS__)						\
	X(barriered, all, ##__VA_ARGS__)					\
	X(kernel, all, ##__VA_ARGS__)						\
	X(iowrite32_copy, toio, ##__VA_ARGS__)					\
	X(iowrite64_copy, toio, ##__VA_ARGS__)					\
	X(ioread32_copy, fromio, ##__VA_ARGS__)					\
	X(pair, all, ##__VA_ARGS__)						\
	X(neon, all, ##__VA_ARGS__)
#define IOMAP_ABSENT_SINGLES(X, ...) X(locked, ##__VA_ARGS__) X(io_delay, ##__VA_ARGS__)
#define IOMAP_ABSENT_COPIES(X, ...)						\
	X(string, all, ##__VA_ARGS__) X(string_wide, all, ##__VA_ARGS__)	\
	X(kernel_unrolled, all, ##__VA_ARGS__) X(simd, all, ##__VA_ARGS__)	\
	X(simd_512, all, ##__VA_ARGS__) X(simd_nt, all, ##__VA_ARGS__)

#define IOMAP_ORDERS_SINGLES "it orders single accesses; loops and copies with barriers are the barriered strategy"
#define IOMAP_SPLITS_64 "it splits 64-bit accesses for 32-bit-only devices: other widths, _rep and copies are " \
	"the other strategies'"
#define IOMAP_NO_PORTS "arm64 has no port I/O instructions (its PCI I/O space is memory at PCI_IOBASE, " \
	"which only the kernel maps)"
#define IOMAP_X86_ONLY "x86-64 only (this is an arm64 build): "

/*
 * Every strategy, in the order reports show them (the same names as on
 * x86-64): what it can do and its accessors.  A form it lacks is false or
 * NULL here, and `lacks` is the reason a benchmark that needs it is skipped;
 * `absent` says why arm64 has none of it.  The tests hold this table to what
 * the strategies issue.
 */
#define IOMAP_STRATEGY_ROWS \
	{ \
		.name = "volatile", .id = "volatile", \
		.help = "C volatile dereference of the exact-width type (the compiler picks ldr forms)", \
		.lacks = IOMAP_NO_PORTS, \
		.single = true, .single_widths = IOMAP_WIDTHS_ALL, .single_issues64 = 8, \
		.mmio_rep = true, \
		.copy = true, .copy_widths = 1 | 2 | 4 | 8, .copy_element = 8, \
		IOMAP_SINGLES(volatile), IOMAP_REPS(volatile), IOMAP_COPIES(volatile, all) \
	}, { \
		.name = "ordered", .id = "ordered", \
		.help = "arm64 readl/writel (Linux v6.1): ldr then dmb oshld and a dependency on the value " \
			"(eor, cbnz); dmb oshst then str", \
		.lacks = "its copies would be the relaxed strategy's loop with a barrier per access: that is " \
			 "the barriered strategy's", \
		.single = true, .single_widths = IOMAP_WIDTHS_ALL, .single_issues64 = 8, \
		.mmio_rep = true, \
		IOMAP_SINGLES(ordered), IOMAP_REPS(ordered), \
	}, { \
		.name = "relaxed", .id = "relaxed", \
		.help = "arm64 readl_relaxed, __raw_readl: one ldr/str of the exact width, no barrier; " \
			"_rep: readsX/writesX", \
		.lacks = IOMAP_NO_PORTS, \
		.single = true, .single_widths = IOMAP_WIDTHS_ALL, .single_issues64 = 8, \
		.mmio_rep = true, \
		.copy = true, .copy_widths = 1 | 2 | 4 | 8, .copy_element = 8, \
		IOMAP_SINGLES(relaxed), IOMAP_REPS(relaxed), IOMAP_COPIES(relaxed, all) \
	}, { \
		.name = "barriered", .id = "barriered", \
		.help = "the mandatory barriers: read then rmb (dsb ld), wmb (dsb st) then write", \
		.lacks = IOMAP_NO_PORTS, \
		.single = true, .single_widths = IOMAP_WIDTHS_ALL, .single_issues64 = 8, \
		.mmio_rep = true, \
		.copy = true, .copy_widths = 1 | 2 | 4 | 8, .copy_element = 8, \
		IOMAP_SINGLES(barriered), IOMAP_REPS(barriered), IOMAP_COPIES(barriered, all) \
	}, { \
		.name = "fenced", .id = "fenced", \
		.help = "mb() (dsb sy) before and after the access", \
		.lacks = IOMAP_ORDERS_SINGLES, \
		.single = true, .single_widths = IOMAP_WIDTHS_ALL, .single_issues64 = 8, \
		IOMAP_SINGLES(fenced), \
	}, { \
		.name = "locked", .id = "locked", \
		.help = "x86 locked no-op (lock or $0,(%rsp)) around the access", \
		IOMAP_ABSENT(IOMAP_X86_ONLY "lock is an x86 instruction prefix") \
	}, { \
		.name = "acquire", .id = "acquire", \
		.help = "load-acquire/store-release of the exact width: ldarb/ldarh/ldar, stlrb/stlrh/stlr", \
		.lacks = IOMAP_ORDERS_SINGLES, \
		.single = true, .single_widths = IOMAP_WIDTHS_ALL, .single_issues64 = 8, \
		IOMAP_SINGLES(acquire), \
	}, { \
		.name = "lo-hi", .id = "lo_hi", \
		.help = "a 64-bit access as two 32-bit ones, low half first: lo_hi_readq/writeq (two readl)", \
		.lacks = IOMAP_SPLITS_64, \
		.single = true, .single_widths = IOMAP_WIDTH_64, .single_issues64 = 4, \
		.read64 = iomap_read64_lo_hi, .write64 = iomap_write64_lo_hi, \
	}, { \
		.name = "hi-lo", .id = "hi_lo", \
		.help = "a 64-bit access as two 32-bit ones, high half first: hi_lo_readq/writeq", \
		.lacks = IOMAP_SPLITS_64, \
		.single = true, .single_widths = IOMAP_WIDTH_64, .single_issues64 = 4, \
		.read64 = iomap_read64_hi_lo, .write64 = iomap_write64_hi_lo, \
	}, { \
		.name = "io-delay", .id = "io_delay", \
		.help = "x86 inb_p/outb_p: the port access, then the I/O delay (outb %al,$0x80)", \
		IOMAP_ABSENT(IOMAP_X86_ONLY "arm64 has no port I/O instructions and no I/O delay") \
	}, { \
		.name = "string", .id = "string", \
		.help = "x86 rep movsb / rep stosb", \
		IOMAP_ABSENT(IOMAP_X86_ONLY "rep movs and rep stos are x86 string instructions") \
	}, { \
		.name = "string-wide", .id = "string_wide", \
		.help = "x86 rep movsq / rep stosq with byte head and tail", \
		IOMAP_ABSENT(IOMAP_X86_ONLY "rep movs and rep stos are x86 string instructions") \
	}, { \
		.name = "kernel", .id = "kernel", \
		.help = "arm64 Linux v6.1 memcpy_fromio/_toio/memset_io (arch/arm64/kernel/io.c): bytes until the " \
			"device address is 8-byte aligned, 64-bit ldr/str, a byte tail", \
		.lacks = "it is arm64 Linux's memcpy_toio, memcpy_fromio and memset_io: ranges only", \
		.copy = true, .copy_widths = 1 | 8, .copy_element = 8, \
		IOMAP_COPIES(kernel, all) \
	}, { \
		.name = "kernel-unrolled", .id = "kernel_unrolled", \
		.help = "x86 Linux's copies in confidential-computing guests: one readb/writeb per byte", \
		IOMAP_ABSENT(IOMAP_X86_ONLY "arm64 Linux v6.1 has no unrolled copies for confidential guests") \
	}, { \
		.name = "iowrite32-copy", .id = "iowrite32_copy", \
		.help = "Linux __iowrite32_copy on arm64 (v6.1: lib/iomap_copy.c): a loop of __raw_writel, whole " \
			"32-bit words, to the device only", \
		.lacks = "it copies whole 32-bit words to the device only (__iowrite32_copy)", \
		.copy = true, .copy_widths = 4, .copy_element = 4, .copy_words = true, \
		IOMAP_COPIES(iowrite32_copy, toio) \
	}, { \
		.name = "iowrite64-copy", .id = "iowrite64_copy", \
		.help = "Linux __iowrite64_copy on arm64 (v6.1: lib/iomap_copy.c): a loop of __raw_writeq, whole " \
			"64-bit words, to the device only", \
		.lacks = "it copies whole 64-bit words to the device only (__iowrite64_copy)", \
		.copy = true, .copy_widths = 8, .copy_element = 8, .copy_words = true, \
		IOMAP_COPIES(iowrite64_copy, toio) \
	}, { \
		.name = "ioread32-copy", .id = "ioread32_copy", \
		.help = "Linux __ioread32_copy: a loop of __raw_readl, whole 32-bit words, from the device only", \
		.lacks = "it copies whole 32-bit words from the device only (__ioread32_copy)", \
		.copy = true, .copy_widths = 4, .copy_element = 4, .copy_words = true, \
		IOMAP_COPIES(ioread32_copy, fromio) \
	}, { \
		.name = "simd", .id = "simd", \
		.help = "x86 AVX2 32-byte loads/stores", \
		IOMAP_ABSENT(IOMAP_X86_ONLY "AVX2 is x86's; arm64's vectors are the neon strategy") \
	}, { \
		.name = "simd-512", .id = "simd_512", \
		.help = "x86 AVX-512 64-byte loads/stores", \
		IOMAP_ABSENT(IOMAP_X86_ONLY "AVX-512 is x86's; arm64's vectors are the neon strategy") \
	}, { \
		.name = "simd-nt", .id = "simd_nt", \
		.help = "x86 AVX2 non-temporal loads/stores", \
		IOMAP_ABSENT(IOMAP_X86_ONLY "vmovntdq is x86's; arm64's vectors are the neon strategy") \
	}, { \
		.name = "pair", .id = "pair", \
		.help = "bytes until the device address is 16-byte aligned, ldp/stp of two 64-bit registers " \
			"(16 bytes), a byte tail", \
		.lacks = "a pair moves 16 bytes of a range, not one register once or count times", \
		.copy = true, .copy_widths = 1 | 16, .copy_element = 16, \
		IOMAP_COPIES(pair, all) \
	}, { \
		.name = "neon", .id = "neon", \
		.help = "bytes until the device address is 16-byte aligned, NEON ldr/str of a q register " \
			"(16 bytes), a byte tail", \
		.lacks = "vector accesses move ranges of memory, not one register once or count times", \
		.copy = true, .copy_widths = 1 | 16, .copy_element = 16, \
		.feature = IOMAP_FEATURE_asimd, \
		IOMAP_COPIES(neon, all) \
	}

#endif
