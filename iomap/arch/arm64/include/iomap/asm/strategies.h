/* asm/strategies.h (arm64): which of the listed strategies arm64 has, and their rows of the run-time table */
#ifndef IOMAP_ASM_STRATEGIES_H
#define IOMAP_ASM_STRATEGIES_H

/*
 * Which strategies arm64 has is the strategy list's `where` (arm64 and all:
 * IOMAP_ON_arm64 keeps its arguments, IOMAP_OFF_arm64 drops them); what
 * their accesses and orderings are, asm/io.h's (Linux v6.1's sequences where
 * a strategy is the kernel's).  arm64 has no port instructions: no strategy
 * has port forms here.
 */
#define IOMAP_ON_arm64(...) __VA_ARGS__
#define IOMAP_OFF_arm64(...)
#define IOMAP_ON_x86_64(...)
#define IOMAP_OFF_x86_64(...) __VA_ARGS__

#define IOMAP_NO_PORTS "arm64 has no port I/O instructions (its PCI I/O space is memory at PCI_IOBASE, " \
	"which only the kernel maps)"

/*
 * The row of each strategy arm64 has (IOMAP_ROW_<id>, in parentheses): what
 * it issues here (help), why it lacks a form (`lacks`: the reason a benchmark
 * that needs it is skipped), what its copies issue and the CPU feature they
 * need.  Its forms and their function pointers follow from its line in the
 * strategy list (IOMAP_SINGLES, iomap/strategies.h).  The tests hold these
 * rows to what the strategies issue.
 */
#define IOMAP_ARCH_NAME "arm64"

#define IOMAP_ROW_volatile ( \
	.help = "C volatile dereference of the exact-width type (the compiler picks ldr forms)", \
	.lacks = IOMAP_NO_PORTS, \
	.copy_widths = 1 | 2 | 4 | 8, .copy_element = 8 \
)

#define IOMAP_ROW_ordered ( \
	.help = "arm64 readl/writel (Linux v6.1): ldr then dmb oshld and a dependency on the value " \
		"(eor, cbnz); dmb oshst then str", \
	.lacks = "its copies would be the relaxed strategy's loop with a barrier per access: that is " \
		 "the barriered strategy's" \
)

#define IOMAP_ROW_relaxed ( \
	.help = "arm64 readl_relaxed, __raw_readl: one ldr/str of the exact width, no barrier; " \
		"_rep: readsX/writesX", \
	.lacks = IOMAP_NO_PORTS, \
	.copy_widths = 1 | 2 | 4 | 8, .copy_element = 8 \
)

#define IOMAP_ROW_barriered ( \
	.help = "the mandatory barriers: read then rmb (dsb ld), wmb (dsb st) then write", \
	.lacks = IOMAP_NO_PORTS, \
	.copy_widths = 1 | 2 | 4 | 8, .copy_element = 8 \
)

#define IOMAP_ROW_fenced ( \
	.help = "mb() (dsb sy) before and after the access", \
	.lacks = IOMAP_ORDERS_SINGLES \
)

#define IOMAP_ROW_acquire ( \
	.help = "load-acquire/store-release of the exact width: ldarb/ldarh/ldar, stlrb/stlrh/stlr", \
	.lacks = IOMAP_ORDERS_SINGLES \
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

