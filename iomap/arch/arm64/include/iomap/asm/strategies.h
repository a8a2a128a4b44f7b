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

#define IOMAP_NO_PORTS "arm64 has no port I/O instructions (its PCI I/O space is memory at PCI_IOBASE, " \
	"which only the kernel maps)"

/*
 * The row of each strategy arm64 has (IOMAP_ROW_<id>, in parentheses):
 * what it can do here and its accessors (IOMAP_SINGLES and IOMAP_REPS fill
 * in the function pointers, strategy.c; its copies' follow from its forms in
 * iomap/strategies.h).  A form it lacks is false or NULL, and `lacks` is
 * the reason a benchmark that needs it is skipped.  The tests hold these
 * rows to what the strategies issue.
 */
#define IOMAP_ARCH_NAME "arm64"

#define IOMAP_ROW_volatile ( \
	.help = "C volatile dereference of the exact-width type (the compiler picks ldr forms)", \
	.lacks = IOMAP_NO_PORTS, \
	.single = true, .single_widths = IOMAP_WIDTHS_ALL, .single_issues64 = 8, \
	.mmio_rep = true, \
	.copy_widths = 1 | 2 | 4 | 8, .copy_element = 8, \
	IOMAP_SINGLES(volatile), IOMAP_REPS(volatile) \
)

#define IOMAP_ROW_ordered ( \
	.help = "arm64 readl/writel (Linux v6.1): ldr then dmb oshld and a dependency on the value " \
		"(eor, cbnz); dmb oshst then str", \
	.lacks = "its copies would be the relaxed strategy's loop with a barrier per access: that is " \
		 "the barriered strategy's", \
	.single = true, .single_widths = IOMAP_WIDTHS_ALL, .single_issues64 = 8, \
	.mmio_rep = true, \
	IOMAP_SINGLES(ordered), IOMAP_REPS(ordered) \
)

#define IOMAP_ROW_relaxed ( \
	.help = "arm64 readl_relaxed, __raw_readl: one ldr/str of the exact width, no barrier; " \
		"_rep: readsX/writesX", \
	.lacks = IOMAP_NO_PORTS, \
	.single = true, .single_widths = IOMAP_WIDTHS_ALL, .single_issues64 = 8, \
	.mmio_rep = true, \
	.copy_widths = 1 | 2 | 4 | 8, .copy_element = 8, \
	IOMAP_SINGLES(relaxed), IOMAP_REPS(relaxed) \
)

#define IOMAP_ROW_barriered ( \
	.help = "the mandatory barriers: read then rmb (dsb ld), wmb (dsb st) then write", \
	.lacks = IOMAP_NO_PORTS, \
	.single = true, .single_widths = IOMAP_WIDTHS_ALL, .single_issues64 = 8, \
	.mmio_rep = true, \
	.copy_widths = 1 | 2 | 4 | 8, .copy_element = 8, \
	IOMAP_SINGLES(barriered), IOMAP_REPS(barriered) \
)

#define IOMAP_ROW_fenced ( \
	.help = "mb() (dsb sy) before and after the access", \
	.lacks = IOMAP_ORDERS_SINGLES, \
	.single = true, .single_widths = IOMAP_WIDTHS_ALL, .single_issues64 = 8, \
	IOMAP_SINGLES(fenced) \
)

#define IOMAP_ROW_acquire ( \
	.help = "load-acquire/store-release of the exact width: ldarb/ldarh/ldar, stlrb/stlrh/stlr", \
	.lacks = IOMAP_ORDERS_SINGLES, \
	.single = true, .single_widths = IOMAP_WIDTHS_ALL, .single_issues64 = 8, \
	IOMAP_SINGLES(acquire) \
)

#define IOMAP_ROW_kernel ( \
	.help = "arm64 Linux v6.1 memcpy_fromio/_toio/memset_io (arch/arm64/kernel/io.c): bytes until the " \
		"device address is 8-byte aligned, 64-bit ldr/str, a byte tail", \
	.lacks = "it is arm64 Linux's memcpy_toio, memcpy_fromio and memset_io: ranges only", \
	.copy_widths = 1 | 8, .copy_element = 8 \
)

#define IOMAP_ROW_pair ( \
	.help = "bytes until the device address is 16-byte aligned, ldp/stp of two 64-bit registers " \
		"(16 bytes), a byte tail", \
	.lacks = "a pair moves 16 bytes of a range, not one register once or count times", \
	.copy_widths = 1 | 16, .copy_element = 16 \
)

#define IOMAP_ROW_neon ( \
	.help = "bytes until the device address is 16-byte aligned, NEON ldr/str of a q register " \
		"(16 bytes), a byte tail", \
	.lacks = "vector accesses move ranges of memory, not one register once or count times", \
	.copy_widths = 1 | 16, .copy_element = 16, \
	.feature = IOMAP_FEATURE_asimd \
)

#endif

