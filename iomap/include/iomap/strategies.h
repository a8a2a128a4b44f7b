/* strategies.h: every accessor strategy, declared once with what it can do; everything else derives from this list */
#ifndef IOMAP_STRATEGIES_H
#define IOMAP_STRATEGIES_H

/*
 * A strategy is a way to issue the same access.  Each line is
 *
 *   X(id, name, access, order, port, rep, copy, element, feature, help, lacks, ...)
 *
 * with whatever followed X in the IOMAP_STRATEGIES call at the end.
 *
 *   id       the C identifier: iomap_read32_<id>, iomap_in32_<id>,
 *            iomap_read32_rep_<id>, iomap_copy_toio_<id>
 *   name     what users type (--strategy) and benchmark names carry
 *   access   how one access is issued: mov (an inline-asm mov of the exact
 *            width with a compiler barrier), deref (a C volatile
 *            dereference), or none (no single access)
 *   order    what surrounds a single access (IOMAP_ORDER_* in io.h):
 *            none, rmb_wmb (read then lfence, sfence then write),
 *            mb (mfence around), locked (a locked no-op around)
 *   port     1 when its single accesses and _rep have port forms (in/out
 *            under the same ordering)
 *   rep      _rep, one register count times: loop (its single access in a
 *            loop), string (rep insX/outsX: ports only), or none
 *   copy     memcpy_fromio/_toio/memset_io: loop (its single access, the
 *            widest aligned width at each step), own (functions of its own
 *            in copy.c), or none
 *   element  the widest access its copies issue, in bytes (0: no copies)
 *   feature  what the CPU must have for its instructions: none, avx2, avx512f
 *   help     which instructions it issues, one line
 *   lacks    what it does not do and why: the reason a benchmark that needs
 *            it is skipped ("" when it has every form)
 *
 * Adding a strategy: a line here, its implementation (an ordering in io.h,
 * or functions in copy.c), and what it issues in the trap-log tests.
 */
#define IOMAP_STRATEGIES(X, ...)							\
	X(volatile, "volatile", deref, none, 0, loop, loop, 8, none,		\
	  "C volatile dereference of the exact-width type",			\
	  "C cannot dereference a port: volatile has no port form", ##__VA_ARGS__)		\
	X(relaxed, "relaxed", mov, none, 1, loop, loop, 8, none,		\
	  "one inline-asm mov of the exact width with a compiler barrier (x86 readl)", "", ##__VA_ARGS__) \
	X(barriered, "barriered", mov, rmb_wmb, 1, loop, loop, 8, none,	\
	  "portable ordering: read then lfence, sfence then write", "", ##__VA_ARGS__)	\
	X(fenced, "fenced", mov, mb, 1, none, none, 0, none,			\
	  "mfence before and after the access",				\
	  "it orders single accesses; loops and copies with barriers are the barriered strategy", ##__VA_ARGS__) \
	X(locked, "locked", mov, locked, 1, none, none, 0, none,		\
	  "a locked no-op (lock or $0,(%rsp)) before and after the access",	\
	  "it orders single accesses; loops and copies with barriers are the barriered strategy", ##__VA_ARGS__) \
	X(string, "string", none, none, 1, string, own, 1, none,		\
	  "rep movsb / rep stosb (byte elements); rep insX/outsX for port _rep", \
	  "it moves ranges (a single access is one mov: the relaxed strategy); x86 has no string " \
	  "instruction that repeats one memory address, so its _rep is rep insX/outsX on port targets", ##__VA_ARGS__) \
	X(string_wide, "string-wide", none, none, 0, none, own, 8, none,	\
	  "byte head and tail, rep movsq / rep stosq between",		\
	  "it moves ranges of memory: a single access is one mov (the relaxed strategy), and x86 " \
	  "has no string instruction that repeats one memory address", ##__VA_ARGS__)	\
	X(simd, "simd", none, none, 0, none, own, 32, avx2,			\
	  "AVX2 32-byte aligned loads/stores, relaxed head and tail",		\
	  "vector accesses move ranges of memory, not one register once or count times", ##__VA_ARGS__) \
	X(simd_512, "simd-512", none, none, 0, none, own, 64, avx512f,		\
	  "AVX-512 64-byte aligned loads/stores, relaxed head and tail",	\
	  "vector accesses move ranges of memory, not one register once or count times", ##__VA_ARGS__) \
	X(simd_nt, "simd-nt", none, none, 0, none, own, 32, avx2,		\
	  "AVX2 non-temporal vmovntdqa/vmovntdq then sfence (meant for WC)",	\
	  "vector accesses move ranges of memory, not one register once or count times", ##__VA_ARGS__)

/*
 * The strategies the kernel's own names are on x86 Linux: readl/writel and
 * friends, and memcpy_fromio/memcpy_toio/memset_io.
 */
#define IOMAP_KERNEL_SINGLE relaxed
#define IOMAP_KERNEL_COPY string_wide

/*
 * Selecting by a column: IOMAP_HAS_<value>(...) keeps its arguments when the
 * value says the strategy has the form (anything but none or 0);
 * IOMAP_LOOP_<value>(...) when the form is a loop of single accesses.
 */
#define IOMAP_HAS_none(...)
#define IOMAP_HAS_0(...)
#define IOMAP_HAS_1(...) __VA_ARGS__
#define IOMAP_HAS_mov(...) __VA_ARGS__
#define IOMAP_HAS_deref(...) __VA_ARGS__
#define IOMAP_HAS_loop(...) __VA_ARGS__
#define IOMAP_HAS_string(...) __VA_ARGS__
#define IOMAP_HAS_own(...) __VA_ARGS__
#define IOMAP_LOOP_none(...)
#define IOMAP_LOOP_loop(...) __VA_ARGS__
#define IOMAP_LOOP_string(...)
#define IOMAP_LOOP_own(...)

/* Pastes after expanding its arguments (IOMAP_KERNEL_SINGLE into relaxed). */
#define IOMAP_CAT(a, b) IOMAP_CAT_(a, b)
#define IOMAP_CAT_(a, b) a##b

#endif
