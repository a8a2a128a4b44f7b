/* strategies.h: the strategies that issue a single access, with what generates their code: the access and what surrounds it */
#ifndef IOMAP_STRATEGIES_H
#define IOMAP_STRATEGIES_H

/*
 * A strategy is a way to issue the same access.  What each one can do (the
 * name users type, its port, _rep and copy forms, widths, CPU feature, help,
 * and why a form is missing) is its row of the table in strategy.c.  This
 * list holds only what generates code, for the strategies that have a single
 * access:
 *
 *   X(id, access, order, ...)
 *
 * with whatever followed X in the IOMAP_STRATEGIES call at the end.
 *
 *   id       the C identifier: iomap_read32_<id>, iomap_in32_<id>,
 *            iomap_pread32_<id>
 *   access   how one access is issued (IOMAP_READ_<access> in io.h):
 *            mov    an inline-asm mov of the exact width with a "memory"
 *                   clobber, a compiler barrier (x86 readl)
 *            raw    the same mov without the clobber (x86 readl_relaxed,
 *                   __raw_readl; x86 inb has none either)
 *            deref  a C volatile dereference (no port form: C cannot
 *                   dereference a port)
 *            lohi   a 64-bit access as two 32-bit movs, the low half first
 *            hilo   the same, the high half first
 *   order    what surrounds it (IOMAP_ORDER_* in io.h): none, rmb_wmb (read
 *            then lfence, sfence then write), mb (mfence around), locked (a
 *            locked no-op around), io_delay (a port access, then x86's I/O
 *            delay: a write to port 0x80; no MMIO form)
 *
 * The strategies without a single access (string, the copies) are not
 * here: their forms are built by name where they are (io.h, copy.c).
 */
#define IOMAP_STRATEGIES(X, ...)						\
	X(volatile, deref, none, ##__VA_ARGS__)					\
	X(ordered, mov, none, ##__VA_ARGS__)					\
	X(relaxed, raw, none, ##__VA_ARGS__)					\
	X(barriered, mov, rmb_wmb, ##__VA_ARGS__)				\
	X(fenced, mov, mb, ##__VA_ARGS__)					\
	X(locked, mov, locked, ##__VA_ARGS__)					\
	X(lo_hi, lohi, none, ##__VA_ARGS__)					\
	X(hi_lo, hilo, none, ##__VA_ARGS__)					\
	X(io_delay, raw, io_delay, ##__VA_ARGS__)

/*
 * The strategies the kernel's own names are on x86 Linux: readl/writel
 * (ordered), readl_relaxed/writel_relaxed, __raw_readl and readsl (relaxed),
 * memcpy_fromio/memcpy_toio/memset_io (kernel).
 */
#define IOMAP_KERNEL_SINGLE ordered
#define IOMAP_KERNEL_RELAXED relaxed
#define IOMAP_KERNEL_COPY kernel

/* Pastes after expanding its arguments (IOMAP_KERNEL_SINGLE into ordered). */
#define IOMAP_CAT(a, b) IOMAP_CAT_(a, b)
#define IOMAP_CAT_(a, b) a##b

#endif
