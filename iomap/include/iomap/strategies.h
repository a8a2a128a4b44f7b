/* strategies.h: every accessor strategy, declared once with what it can do; everything else derives from this list */
#ifndef IOMAP_STRATEGIES_H
#define IOMAP_STRATEGIES_H

/*
 * A strategy is a way to issue the same access.  Each line is
 *
 *   X(id, name, access, order, port, rep, copy, widths, feature, help, lacks, ...)
 *
 * with whatever followed X in the IOMAP_STRATEGIES call at the end.
 *
 *   id       the C identifier: iomap_read32_<id>, iomap_in32_<id>,
 *            iomap_read32_rep_<id>, iomap_copy_toio_<id>
 *   name     what users type (--strategy) and benchmark names carry
 *   access   how one access is issued (IOMAP_READ_<access> in io.h):
 *            mov    an inline-asm mov of the exact width with a "memory"
 *                   clobber, a compiler barrier (x86 readl)
 *            raw    the same mov without the clobber (x86 readl_relaxed,
 *                   __raw_readl; x86 inb has none either)
 *            deref  a C volatile dereference
 *            lohi   a 64-bit access as two 32-bit movs, the low half first
 *            hilo   the same, the high half first
 *            none   no single access
 *   order    what surrounds a single access (IOMAP_ORDER_* in io.h):
 *            none, rmb_wmb (read then lfence, sfence then write),
 *            mb (mfence around), locked (a locked no-op around),
 *            io_delay (a port access, then x86's I/O delay: a write to
 *            port 0x80; no MMIO form)
 *   port     1 when its single accesses and _rep have port forms (in/out
 *            under the same ordering)
 *   rep      _rep, one register count times: loop (its single access in a
 *            loop), string (rep insX/outsX: ports only), or none
 *   copy     memcpy_fromio/_toio/memset_io: loop (its single access, the
 *            widest aligned width at each step), own (functions of its own
 *            in copy.c, all three), toio or fromio (one direction only, in
 *            whole words of its widest width, as the kernel's
 *            __iowrite32_copy and __ioread32_copy take a count of words),
 *            or none
 *   widths   the widths its copies issue, as the sum of their byte counts
 *            (1|2|4|8: any scalar width; 1|2|4|8|32: and 32-byte vectors;
 *            0: no copies); the largest is its copy element
 *   feature  what the CPU must have for its instructions: none, avx2, avx512f
 *   help     which instructions it issues, one line
 *   lacks    what it does not do and why: the reason a benchmark that needs
 *            it is skipped ("" when it has every form)
 *
 * Adding a strategy: a line here, its implementation (an ordering in io.h,
 * or functions in copy.c), and what it issues in the trap-log tests.
 */
#define IOMAP_STRATEGIES(X, ...)							\
	X(volatile, "volatile", deref, none, 0, loop, loop, 1|2|4|8, none,	\
	  "C volatile dereference of the exact-width type",			\
	  "C cannot dereference a port: volatile has no port form", ##__VA_ARGS__)		\
	X(ordered, "ordered", mov, none, 1, loop, none, 0, none,		\
	  "one inline-asm mov of the exact width with a compiler barrier: x86 readl/writel", \
	  "its copies would be the relaxed strategy's loop: a compiler barrier between the movs of one copy " \
	  "changes nothing the device sees", ##__VA_ARGS__)				\
	X(relaxed, "relaxed", raw, none, 1, loop, loop, 1|2|4|8, none,		\
	  "one inline-asm mov of the exact width, no compiler barrier: x86 readl_relaxed, __raw_readl; " \
	  "_rep: readsX/writesX", "", ##__VA_ARGS__)				\
	X(barriered, "barriered", mov, rmb_wmb, 1, loop, loop, 1|2|4|8, none,	\
	  "portable ordering: read then lfence, sfence then write", "", ##__VA_ARGS__)	\
	X(fenced, "fenced", mov, mb, 1, none, none, 0, none,			\
	  "mfence before and after the access",				\
	  "it orders single accesses; loops and copies with barriers are the barriered strategy", ##__VA_ARGS__) \
	X(locked, "locked", mov, locked, 1, none, none, 0, none,		\
	  "a locked no-op (lock or $0,(%rsp)) before and after the access",	\
	  "it orders single accesses; loops and copies with barriers are the barriered strategy", ##__VA_ARGS__) \
	X(lo_hi, "lo-hi", lohi, none, 1, none, none, 0, none,			\
	  "a 64-bit access as two 32-bit ones, low half first: lo_hi_readq/writeq (two readl), " \
	  "ioread64_lo_hi on a port (two inl)",				\
	  "it splits 64-bit accesses for 32-bit-only devices: other widths, _rep and copies are " \
	  "the other strategies'", ##__VA_ARGS__)				\
	X(hi_lo, "hi-lo", hilo, none, 1, none, none, 0, none,			\
	  "a 64-bit access as two 32-bit ones, high half first: hi_lo_readq/writeq, " \
	  "ioread64_hi_lo on a port",						\
	  "it splits 64-bit accesses for 32-bit-only devices: other widths, _rep and copies are " \
	  "the other strategies'", ##__VA_ARGS__)				\
	X(io_delay, "io-delay", raw, io_delay, 1, none, none, 0, none,		\
	  "x86 inb_p/outb_p: the port access, then the I/O delay (outb %al,$0x80)", \
	  "it is port I/O with x86's I/O delay, which writes port 0x80: it has no MMIO form, " \
	  "and its string forms (insb_p) are insb", ##__VA_ARGS__)		\
	X(string, "string", none, none, 1, string, own, 1, none,		\
	  "rep movsb / rep stosb (byte elements); rep insX/outsX for port _rep", \
	  "it moves ranges (a single access is one mov: the relaxed strategy); x86 has no string " \
	  "instruction that repeats one memory address, so its _rep is rep insX/outsX on port targets", ##__VA_ARGS__) \
	X(string_wide, "string-wide", none, none, 0, none, own, 1|8, none,	\
	  "byte head and tail, rep movsq / rep stosq between",		\
	  "it moves ranges of memory: a single access is one mov (the relaxed strategy), and x86 " \
	  "has no string instruction that repeats one memory address", ##__VA_ARGS__)	\
	X(kernel, "kernel", none, none, 0, none, own, 1|2|4|8, none,		\
	  "x86 Linux memcpy_toio/_fromio: movsb and movsw to align the device side, rep movsl, " \
	  "movsw/movsb tail; memset_io: the kernel's memset without FSRS (an unaligned movq head, " \
	  "movq body, movb tail)",						\
	  "it is x86 Linux's memcpy_toio, memcpy_fromio and memset_io: ranges only", ##__VA_ARGS__) \
	X(kernel_unrolled, "kernel-unrolled", none, none, 0, none, own, 1, none,	\
	  "x86 Linux's copies in confidential-computing guests (CC_ATTR_GUEST_UNROLL_STRING_IO): " \
	  "one readb/writeb per byte",						\
	  "it is x86 Linux's memcpy_toio, memcpy_fromio and memset_io in a confidential guest: " \
	  "ranges only", ##__VA_ARGS__)						\
	X(iowrite32_copy, "iowrite32-copy", none, none, 0, none, toio, 4, none,	\
	  "x86 Linux __iowrite32_copy: rep movsl of whole 32-bit words, to the device only", \
	  "it copies whole 32-bit words to the device only (__iowrite32_copy)", ##__VA_ARGS__) \
	X(iowrite64_copy, "iowrite64-copy", none, none, 0, none, toio, 8, none,	\
	  "Linux __iowrite64_copy on x86-64: a loop of __raw_writeq, whole 64-bit words, to the device only", \
	  "it copies whole 64-bit words to the device only (__iowrite64_copy)", ##__VA_ARGS__) \
	X(ioread32_copy, "ioread32-copy", none, none, 0, none, fromio, 4, none,	\
	  "Linux __ioread32_copy: a loop of __raw_readl, whole 32-bit words, from the device only", \
	  "it copies whole 32-bit words from the device only (__ioread32_copy)", ##__VA_ARGS__) \
	X(simd, "simd", none, none, 0, none, own, 1|2|4|8|32, avx2,		\
	  "AVX2 32-byte aligned loads/stores, relaxed head and tail",		\
	  "vector accesses move ranges of memory, not one register once or count times", ##__VA_ARGS__) \
	X(simd_512, "simd-512", none, none, 0, none, own, 1|2|4|8|64, avx512f,	\
	  "AVX-512 64-byte aligned loads/stores, relaxed head and tail",	\
	  "vector accesses move ranges of memory, not one register once or count times", ##__VA_ARGS__) \
	X(simd_nt, "simd-nt", none, none, 0, none, own, 1|2|4|8|32, avx2,	\
	  "AVX2 non-temporal vmovntdqa/vmovntdq then sfence (meant for WC)",	\
	  "vector accesses move ranges of memory, not one register once or count times", ##__VA_ARGS__)

/*
 * The strategies the kernel's own names are on x86 Linux: readl/writel
 * (ordered), readl_relaxed/writel_relaxed, __raw_readl and readsl (relaxed),
 * memcpy_fromio/memcpy_toio/memset_io (kernel).
 */
#define IOMAP_KERNEL_SINGLE ordered
#define IOMAP_KERNEL_RELAXED relaxed
#define IOMAP_KERNEL_COPY kernel

/*
 * Selecting by a column: IOMAP_HAS_<value>(...) keeps its arguments when the
 * value says the strategy has the form (anything but none or 0);
 * IOMAP_LOOP_<value>(...) when the form is a loop of single accesses;
 * IOMAP_FROMIO_/TOIO_/SET_<copy>(...) when its copies go that way.
 */
#define IOMAP_HAS_none(...)
#define IOMAP_HAS_0(...)
#define IOMAP_HAS_1(...) __VA_ARGS__
#define IOMAP_HAS_mov(...) __VA_ARGS__
#define IOMAP_HAS_raw(...) __VA_ARGS__
#define IOMAP_HAS_deref(...) __VA_ARGS__
#define IOMAP_HAS_lohi(...) __VA_ARGS__
#define IOMAP_HAS_hilo(...) __VA_ARGS__
#define IOMAP_HAS_loop(...) __VA_ARGS__
#define IOMAP_HAS_string(...) __VA_ARGS__
#define IOMAP_HAS_own(...) __VA_ARGS__
#define IOMAP_HAS_toio(...) __VA_ARGS__
#define IOMAP_HAS_fromio(...) __VA_ARGS__
#define IOMAP_LOOP_none(...)
#define IOMAP_LOOP_loop(...) __VA_ARGS__
#define IOMAP_LOOP_string(...)
#define IOMAP_LOOP_own(...)
#define IOMAP_LOOP_toio(...)
#define IOMAP_LOOP_fromio(...)
#define IOMAP_FROMIO_none(...)
#define IOMAP_FROMIO_loop(...) __VA_ARGS__
#define IOMAP_FROMIO_own(...) __VA_ARGS__
#define IOMAP_FROMIO_toio(...)
#define IOMAP_FROMIO_fromio(...) __VA_ARGS__
#define IOMAP_TOIO_none(...)
#define IOMAP_TOIO_loop(...) __VA_ARGS__
#define IOMAP_TOIO_own(...) __VA_ARGS__
#define IOMAP_TOIO_toio(...) __VA_ARGS__
#define IOMAP_TOIO_fromio(...)
#define IOMAP_SET_none(...)
#define IOMAP_SET_loop(...) __VA_ARGS__
#define IOMAP_SET_own(...) __VA_ARGS__
#define IOMAP_SET_toio(...)
#define IOMAP_SET_fromio(...)
/* 1 when a copy strategy moves whole words only (toio, fromio), else 0. */
#define IOMAP_WORDS_none 0
#define IOMAP_WORDS_loop 0
#define IOMAP_WORDS_own 0
#define IOMAP_WORDS_toio 1
#define IOMAP_WORDS_fromio 1

/*
 * The widths an access kind has: IOMAP_AT_<access>(bits, ...) keeps its
 * arguments when a single access of `bits` exists (a split has only 64),
 * IOMAP_PORT_AT_<access>(bits, ...) when its port form does (x86 has no
 * 64-bit port instruction, so only a split has 64 there),
 * IOMAP_REGION_AT_<access>(bits, ...) when it has a form through a region, and
 * IOMAP_ISSUES_<access>(bits) is the width in bytes of each device access
 * that one access of `bits` issues.
 */
#define IOMAP_AT_none(bits, ...)
#define IOMAP_AT_mov(bits, ...) __VA_ARGS__
#define IOMAP_AT_raw(bits, ...) __VA_ARGS__
#define IOMAP_AT_deref(bits, ...) __VA_ARGS__
#define IOMAP_AT_lohi(bits, ...) IOMAP_ONLY64_##bits(__VA_ARGS__)
#define IOMAP_AT_hilo(bits, ...) IOMAP_ONLY64_##bits(__VA_ARGS__)
#define IOMAP_PORT_AT_none(bits, ...)
#define IOMAP_PORT_AT_mov(bits, ...) IOMAP_NOT64_##bits(__VA_ARGS__)
#define IOMAP_PORT_AT_raw(bits, ...) IOMAP_NOT64_##bits(__VA_ARGS__)
#define IOMAP_PORT_AT_deref(bits, ...)
#define IOMAP_PORT_AT_lohi(bits, ...) IOMAP_ONLY64_##bits(__VA_ARGS__)
#define IOMAP_PORT_AT_hilo(bits, ...) IOMAP_ONLY64_##bits(__VA_ARGS__)
/* A region (a device file's range) reads and writes with one pread/pwrite of the width: one access each. */
#define IOMAP_REGION_AT_none(bits, ...)
#define IOMAP_REGION_AT_mov(bits, ...) __VA_ARGS__
#define IOMAP_REGION_AT_raw(bits, ...) __VA_ARGS__
#define IOMAP_REGION_AT_deref(bits, ...)
#define IOMAP_REGION_AT_lohi(bits, ...)
#define IOMAP_REGION_AT_hilo(bits, ...)
#define IOMAP_ONLY64_8(...)
#define IOMAP_ONLY64_16(...)
#define IOMAP_ONLY64_32(...)
#define IOMAP_ONLY64_64(...) __VA_ARGS__
#define IOMAP_NOT64_8(...) __VA_ARGS__
#define IOMAP_NOT64_16(...) __VA_ARGS__
#define IOMAP_NOT64_32(...) __VA_ARGS__
#define IOMAP_NOT64_64(...)
#define IOMAP_ISSUES_none(bits) 0
#define IOMAP_ISSUES_mov(bits) ((bits) / 8)
#define IOMAP_ISSUES_raw(bits) ((bits) / 8)
#define IOMAP_ISSUES_deref(bits) ((bits) / 8)
#define IOMAP_ISSUES_lohi(bits) 4
#define IOMAP_ISSUES_hilo(bits) 4

/*
 * What an order has: IOMAP_ORDER_MMIO_<order>(...) keeps its arguments when
 * the order has an MMIO form; IOMAP_DELAY_PORT_<order> is the port the
 * ordering itself writes (0: none), which a target must own.
 */
#define IOMAP_ORDER_MMIO_none(...) __VA_ARGS__
#define IOMAP_ORDER_MMIO_rmb_wmb(...) __VA_ARGS__
#define IOMAP_ORDER_MMIO_mb(...) __VA_ARGS__
#define IOMAP_ORDER_MMIO_locked(...) __VA_ARGS__
#define IOMAP_ORDER_MMIO_io_delay(...)
#define IOMAP_DELAY_PORT_none 0
#define IOMAP_DELAY_PORT_rmb_wmb 0
#define IOMAP_DELAY_PORT_mb 0
#define IOMAP_DELAY_PORT_locked 0
#define IOMAP_DELAY_PORT_io_delay 0x80

/* The widest width in a widths column (a sum of distinct powers of two): 32 for 1|2|4|8|32. */
#define IOMAP_WIDEST(w) ((w) >= 64 ? 64u : (w) >= 32 ? 32u : (w) >= 16 ? 16u : (w) >= 8 ? 8u : \
			 (w) >= 4 ? 4u : (w) >= 2 ? 2u : (unsigned int)(w))

/* Pastes after expanding its arguments (IOMAP_KERNEL_SINGLE into ordered). */
#define IOMAP_CAT(a, b) IOMAP_CAT_(a, b)
#define IOMAP_CAT_(a, b) a##b

#endif
