/* strategies.h: every strategy once, in the order users see them, and the lists derived from what the architecture has */
#ifndef IOMAP_STRATEGIES_H
#define IOMAP_STRATEGIES_H

/*
 * A strategy is a way to issue the same access.  Its name (the one users
 * type, its benchmarks') and its place in every list users see are the same
 * on every architecture, so they are said once, here:
 *
 *   X(id, name, forms, where, ...)
 *     id     the C identifier of its accessors (iomap_read32_lo_hi)
 *     name   as users type it and benchmark names carry it
 *     forms  what it has where it exists: single (one access), copies (range
 *            copies in both directions and memset_io), single_copies (both),
 *            toio or fromio (a word copy of one direction)
 *     where  the architectures that have it, in words: the reason an
 *            architecture without it gives
 *
 * What a strategy is on an architecture is that architecture's, in
 * iomap/asm/strategies.h: IOMAP_ROW_<id>, its row of the run-time table
 * (strategy.h) in parentheses, for each strategy it has, and
 *
 *   IOMAP_STRATEGIES(X, ...)       X(id, access, order, ...) for each strategy
 *                                  with a single access: io.h builds its
 *                                  accessors from the access (IOMAP_READ_<access>)
 *                                  under the ordering (IOMAP_ORDER_R_<order>)
 *   IOMAP_REP_STRATEGIES(X, ...)   X(id, ...): those whose MMIO _rep is a loop
 *                                  of their single access
 *   IOMAP_PORT_REP_LOOPS           the same on ports (where ports exist);
 *   IOMAP_PORT_REP_STRATEGIES      these and those whose port _rep is an
 *                                  instruction of the architecture's
 *
 * with whatever followed X in the call at the end.  A strategy without a
 * row is absent there: its table row and benchmarks say why (derived below
 * from `where`), so that benchmark names are the same everywhere.  The
 * kernel's names are the same strategies everywhere: readl() is ordered,
 * readl_relaxed() and __raw_readl() relaxed, memcpy_toio() kernel.
 */
#define IOMAP_STRATEGY_LIST(X, ...)						\
	X(volatile, "volatile", single_copies, "x86-64 and arm64", ##__VA_ARGS__)	\
	X(ordered, "ordered", single, "x86-64 and arm64", ##__VA_ARGS__)		\
	X(relaxed, "relaxed", single_copies, "x86-64 and arm64", ##__VA_ARGS__)	\
	X(barriered, "barriered", single_copies, "x86-64 and arm64", ##__VA_ARGS__)	\
	X(fenced, "fenced", single, "x86-64 and arm64", ##__VA_ARGS__)		\
	X(locked, "locked", single, "x86-64", ##__VA_ARGS__)			\
	X(acquire, "acquire", single, "arm64", ##__VA_ARGS__)			\
	X(lo_hi, "lo-hi", single, "x86-64 and arm64", ##__VA_ARGS__)		\
	X(hi_lo, "hi-lo", single, "x86-64 and arm64", ##__VA_ARGS__)		\
	X(io_delay, "io-delay", single, "x86-64", ##__VA_ARGS__)			\
	X(string, "string", copies, "x86-64", ##__VA_ARGS__)			\
	X(string_wide, "string-wide", copies, "x86-64", ##__VA_ARGS__)		\
	X(kernel, "kernel", copies, "x86-64 and arm64", ##__VA_ARGS__)		\
	X(kernel_unrolled, "kernel-unrolled", copies, "x86-64", ##__VA_ARGS__)	\
	X(iowrite32_copy, "iowrite32-copy", toio, "x86-64 and arm64", ##__VA_ARGS__)	\
	X(iowrite64_copy, "iowrite64-copy", toio, "x86-64 and arm64", ##__VA_ARGS__)	\
	X(ioread32_copy, "ioread32-copy", fromio, "x86-64 and arm64", ##__VA_ARGS__)	\
	X(simd, "simd", copies, "x86-64", ##__VA_ARGS__)				\
	X(simd_512, "simd-512", copies, "x86-64", ##__VA_ARGS__)			\
	X(simd_nt, "simd-nt", copies, "x86-64", ##__VA_ARGS__)			\
	X(pair, "pair", copies, "arm64", ##__VA_ARGS__)				\
	X(neon, "neon", copies, "arm64", ##__VA_ARGS__)

/* Skip reasons more than one architecture's rows give. */
#define IOMAP_ORDERS_SINGLES "it orders single accesses; loops and copies with barriers are the barriered strategy"
#define IOMAP_SPLITS_64 "it splits 64-bit accesses for 32-bit-only devices: other widths, _rep and copies are " \
	"the other strategies'"

#include "iomap/asm/strategies.h"

/*
 * The rows of the strategies the generic layer builds, the splits (from
 * readl, io.h) and lib/iomap_copy.c's word copies (src/copy.c), for each
 * architecture that does not give its own, as asm-generic/io.h fills in what
 * an architecture's asm/io.h leaves undefined (x86-64's splits also have port
 * forms; its __iowrite32_copy is rep movsl).
 */
#ifndef IOMAP_ROW_lo_hi
#define IOMAP_ROW_lo_hi ( \
	.help = "a 64-bit access as two 32-bit ones, low half first: lo_hi_readq/writeq (two readl)", \
	.lacks = IOMAP_SPLITS_64, \
	.single = true, .single_widths = IOMAP_WIDTH_64, .single_issues64 = 4, \
	.read64 = iomap_read64_lo_hi, .write64 = iomap_write64_lo_hi \
)
#endif
#ifndef IOMAP_ROW_hi_lo
#define IOMAP_ROW_hi_lo ( \
	.help = "a 64-bit access as two 32-bit ones, high half first: hi_lo_readq/writeq", \
	.lacks = IOMAP_SPLITS_64, \
	.single = true, .single_widths = IOMAP_WIDTH_64, .single_issues64 = 4, \
	.read64 = iomap_read64_hi_lo, .write64 = iomap_write64_hi_lo \
)
#endif
#ifndef IOMAP_ROW_iowrite32_copy
#define IOMAP_ROW_iowrite32_copy ( \
	.help = "Linux __iowrite32_copy (v6.1: lib/iomap_copy.c): a loop of __raw_writel, whole 32-bit words, to " \
		"the device only", \
	.lacks = "it copies whole 32-bit words to the device only (__iowrite32_copy)", \
	.copy_widths = 4, .copy_element = 4, .copy_words = true \
)
#endif
#ifndef IOMAP_ROW_iowrite64_copy
#define IOMAP_ROW_iowrite64_copy ( \
	.help = "Linux __iowrite64_copy (v6.1: lib/iomap_copy.c): a loop of __raw_writeq, whole 64-bit words, to " \
		"the device only", \
	.lacks = "it copies whole 64-bit words to the device only (__iowrite64_copy)", \
	.copy_widths = 8, .copy_element = 8, .copy_words = true \
)
#endif
#ifndef IOMAP_ROW_ioread32_copy
#define IOMAP_ROW_ioread32_copy ( \
	.help = "Linux __ioread32_copy (v6.1: lib/iomap_copy.c): a loop of __raw_readl, whole 32-bit words, from " \
		"the device only", \
	.lacks = "it copies whole 32-bit words from the device only (__ioread32_copy)", \
	.copy_widths = 4, .copy_element = 4, .copy_words = true \
)
#endif

/*
 * IOMAP_IF_PRESENT(id, (yes), (no)): yes where the architecture gives the
 * strategy a row, else no.  A row is a parenthesized list, which the probe
 * tells from the bare name IOMAP_ROW_<id> left where none is defined (the
 * trick of the kernel's __is_defined in include/linux/kconfig.h).
 */
#define IOMAP_UNPAREN(...) __VA_ARGS__
#define IOMAP_PROBE_PAREN(...) ~, 1
#define IOMAP_SECOND_(a, b, ...) b
#define IOMAP_SECOND(...) IOMAP_SECOND_(__VA_ARGS__)
#define IOMAP_IS_PAREN(x) IOMAP_SECOND(IOMAP_PROBE_PAREN x, 0, ~)
#define IOMAP_IF_1(yes, no) IOMAP_UNPAREN yes
#define IOMAP_IF_0(yes, no) IOMAP_UNPAREN no
#define IOMAP_IF_(c) IOMAP_IF_##c
#define IOMAP_IF(c) IOMAP_IF_(c)
#define IOMAP_IF_PRESENT(id, yes, no) IOMAP_IF(IOMAP_IS_PAREN(IOMAP_ROW_##id))(yes, no)
/* the fields of the architecture's row of id */
#define IOMAP_ROW_FIELDS_(row) IOMAP_UNPAREN row
#define IOMAP_ROW_FIELDS(id) IOMAP_ROW_FIELDS_(IOMAP_ROW_##id)

/* Why a strategy of other architectures is absent here, naming them. */
#define IOMAP_ABSENT_WHY(where) where " only, not on " IOMAP_ARCH_NAME " CPUs"

/*
 * A strategy's forms, as callbacks: IOMAP_FORMS_<forms>(S, C, id) calls
 * S(id) if it has a single access and C(id, dirs) for its copies in dirs.
 */
#define IOMAP_FORMS_single(S, C, id) S(id)
#define IOMAP_FORMS_single_copies(S, C, id) S(id) C(id, all)
#define IOMAP_FORMS_copies(S, C, id) C(id, all)
#define IOMAP_FORMS_toio(S, C, id) C(id, toio)
#define IOMAP_FORMS_fromio(S, C, id) C(id, fromio)
#define IOMAP_NO_FORM(...)

/* The directions a copy strategy has: its functions' names in the table (strategy.h) */
#define IOMAP_COPY_DIRS_all(X, ...) X(copy_fromio, ##__VA_ARGS__) X(copy_toio, ##__VA_ARGS__) X(set_io, ##__VA_ARGS__)
#define IOMAP_COPY_DIRS_toio(X, ...) X(copy_toio, ##__VA_ARGS__)
#define IOMAP_COPY_DIRS_fromio(X, ...) X(copy_fromio, ##__VA_ARGS__)

/*
 * Derived from the list and the rows, in the list's order:
 *   IOMAP_COPY_STRATEGIES(X)  X(id, dirs) for each strategy here with copies
 *   IOMAP_ABSENT_SINGLES(X)   X(id) for each absent one with a single access
 *   IOMAP_ABSENT_COPIES(X)    X(id, dirs) for each absent one with copies
 */
#define IOMAP_PRESENT_COPIES_(id, name, forms, where, X)			\
	IOMAP_IF_PRESENT(id, (IOMAP_FORMS_##forms(IOMAP_NO_FORM, X, id)), ())
#define IOMAP_COPY_STRATEGIES(X) IOMAP_STRATEGY_LIST(IOMAP_PRESENT_COPIES_, X)
#define IOMAP_ABSENT_SINGLES_(id, name, forms, where, X)			\
	IOMAP_IF_PRESENT(id, (), (IOMAP_FORMS_##forms(X, IOMAP_NO_FORM, id)))
#define IOMAP_ABSENT_SINGLES(X) IOMAP_STRATEGY_LIST(IOMAP_ABSENT_SINGLES_, X)
#define IOMAP_ABSENT_COPIES_(id, name, forms, where, X)			\
	IOMAP_IF_PRESENT(id, (), (IOMAP_FORMS_##forms(IOMAP_NO_FORM, X, id)))
#define IOMAP_ABSENT_COPIES(X) IOMAP_STRATEGY_LIST(IOMAP_ABSENT_COPIES_, X)

#endif
