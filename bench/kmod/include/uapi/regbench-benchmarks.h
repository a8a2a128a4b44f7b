/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * The benchmarks the regbench module runs, one line each, in the order of
 * their numbers (RUN's benchmark is a line's place here).  There is no
 * include guard: whoever includes this defines REGBENCH_BENCHMARK first, as
 * includers of asm-generic/unistd.h define __SYSCALL, and gets one
 * expansion per line.  A line is
 *
 *   REGBENCH_BENCHMARK(FAMILY, op, bits, "strategy", SPACE, tok, SHAPE, code...)
 *
 * FAMILY, op, bits, the strategy and SPACE say which of regbench's
 * benchmarks it is: the one user space names lat/read32/ordered (the
 * strategy as regbench's kernel table spells it: an accessor's by its C
 * name, lo_hi; the others' by their names, cookie-mmio).  The rest is the
 * module's: tok names its code, SHAPE says how it is timed (kernels.c) and
 * code is the kernel's own accessor it times, with the type of the value a
 * write stores.  The strategies are libiomap's names for what the kernel's
 * accessors issue: readl is ordered, readl_relaxed relaxed, readsl the
 * relaxed _rep, insl the string _rep, memcpy_toio kernel, __iowrite32_copy
 * iowrite32-copy (iomap/README.md has what each issues).
 *
 * A single accessor gives six lines, as in user space: its read and its
 * write timed alone (lat), dependent reads (chain), back-to-back reads and
 * writes (thrpt), and a write with the read-back of the same register
 * (flush).
 */

/* readX/writeX: the ordered accessors drivers use */
REGBENCH_BENCHMARK(LAT, read, 8, "ordered", MMIO, ordered, SAMPLED_READ, readb)
REGBENCH_BENCHMARK(LAT, write, 8, "ordered", MMIO, ordered, SAMPLED_WRITE, writeb, u8)
REGBENCH_BENCHMARK(CHAIN, read, 8, "ordered", MMIO, ordered, CHAIN, readb, u8)
REGBENCH_BENCHMARK(THRPT, read, 8, "ordered", MMIO, ordered, UNROLLED_READ, readb)
REGBENCH_BENCHMARK(THRPT, write, 8, "ordered", MMIO, ordered, UNROLLED_WRITE, writeb, u8)
REGBENCH_BENCHMARK(FLUSH, write, 8, "ordered", MMIO, ordered, SAMPLED_FLUSH, writeb, readb, u8)
REGBENCH_BENCHMARK(LAT, read, 16, "ordered", MMIO, ordered, SAMPLED_READ, readw)
REGBENCH_BENCHMARK(LAT, write, 16, "ordered", MMIO, ordered, SAMPLED_WRITE, writew, u16)
REGBENCH_BENCHMARK(CHAIN, read, 16, "ordered", MMIO, ordered, CHAIN, readw, u16)
REGBENCH_BENCHMARK(THRPT, read, 16, "ordered", MMIO, ordered, UNROLLED_READ, readw)
REGBENCH_BENCHMARK(THRPT, write, 16, "ordered", MMIO, ordered, UNROLLED_WRITE, writew, u16)
REGBENCH_BENCHMARK(FLUSH, write, 16, "ordered", MMIO, ordered, SAMPLED_FLUSH, writew, readw, u16)
REGBENCH_BENCHMARK(LAT, read, 32, "ordered", MMIO, ordered, SAMPLED_READ, readl)
REGBENCH_BENCHMARK(LAT, write, 32, "ordered", MMIO, ordered, SAMPLED_WRITE, writel, u32)
REGBENCH_BENCHMARK(CHAIN, read, 32, "ordered", MMIO, ordered, CHAIN, readl, u32)
REGBENCH_BENCHMARK(THRPT, read, 32, "ordered", MMIO, ordered, UNROLLED_READ, readl)
REGBENCH_BENCHMARK(THRPT, write, 32, "ordered", MMIO, ordered, UNROLLED_WRITE, writel, u32)
REGBENCH_BENCHMARK(FLUSH, write, 32, "ordered", MMIO, ordered, SAMPLED_FLUSH, writel, readl, u32)
REGBENCH_BENCHMARK(LAT, read, 64, "ordered", MMIO, ordered, SAMPLED_READ, readq)
REGBENCH_BENCHMARK(LAT, write, 64, "ordered", MMIO, ordered, SAMPLED_WRITE, writeq, u64)
REGBENCH_BENCHMARK(CHAIN, read, 64, "ordered", MMIO, ordered, CHAIN, readq, u64)
REGBENCH_BENCHMARK(THRPT, read, 64, "ordered", MMIO, ordered, UNROLLED_READ, readq)
REGBENCH_BENCHMARK(THRPT, write, 64, "ordered", MMIO, ordered, UNROLLED_WRITE, writeq, u64)
REGBENCH_BENCHMARK(FLUSH, write, 64, "ordered", MMIO, ordered, SAMPLED_FLUSH, writeq, readq, u64)
/* readX_relaxed/writeX_relaxed: without the ordering against normal memory */
REGBENCH_BENCHMARK(LAT, read, 8, "relaxed", MMIO, relaxed, SAMPLED_READ, readb_relaxed)
REGBENCH_BENCHMARK(LAT, write, 8, "relaxed", MMIO, relaxed, SAMPLED_WRITE, writeb_relaxed, u8)
REGBENCH_BENCHMARK(CHAIN, read, 8, "relaxed", MMIO, relaxed, CHAIN, readb_relaxed, u8)
REGBENCH_BENCHMARK(THRPT, read, 8, "relaxed", MMIO, relaxed, UNROLLED_READ, readb_relaxed)
REGBENCH_BENCHMARK(THRPT, write, 8, "relaxed", MMIO, relaxed, UNROLLED_WRITE, writeb_relaxed, u8)
REGBENCH_BENCHMARK(FLUSH, write, 8, "relaxed", MMIO, relaxed, SAMPLED_FLUSH,
		   writeb_relaxed, readb_relaxed, u8)
REGBENCH_BENCHMARK(LAT, read, 16, "relaxed", MMIO, relaxed, SAMPLED_READ, readw_relaxed)
REGBENCH_BENCHMARK(LAT, write, 16, "relaxed", MMIO, relaxed, SAMPLED_WRITE, writew_relaxed, u16)
REGBENCH_BENCHMARK(CHAIN, read, 16, "relaxed", MMIO, relaxed, CHAIN, readw_relaxed, u16)
REGBENCH_BENCHMARK(THRPT, read, 16, "relaxed", MMIO, relaxed, UNROLLED_READ, readw_relaxed)
REGBENCH_BENCHMARK(THRPT, write, 16, "relaxed", MMIO, relaxed, UNROLLED_WRITE, writew_relaxed, u16)
REGBENCH_BENCHMARK(FLUSH, write, 16, "relaxed", MMIO, relaxed, SAMPLED_FLUSH,
		   writew_relaxed, readw_relaxed, u16)
REGBENCH_BENCHMARK(LAT, read, 32, "relaxed", MMIO, relaxed, SAMPLED_READ, readl_relaxed)
REGBENCH_BENCHMARK(LAT, write, 32, "relaxed", MMIO, relaxed, SAMPLED_WRITE, writel_relaxed, u32)
REGBENCH_BENCHMARK(CHAIN, read, 32, "relaxed", MMIO, relaxed, CHAIN, readl_relaxed, u32)
REGBENCH_BENCHMARK(THRPT, read, 32, "relaxed", MMIO, relaxed, UNROLLED_READ, readl_relaxed)
REGBENCH_BENCHMARK(THRPT, write, 32, "relaxed", MMIO, relaxed, UNROLLED_WRITE, writel_relaxed, u32)
REGBENCH_BENCHMARK(FLUSH, write, 32, "relaxed", MMIO, relaxed, SAMPLED_FLUSH,
		   writel_relaxed, readl_relaxed, u32)
REGBENCH_BENCHMARK(LAT, read, 64, "relaxed", MMIO, relaxed, SAMPLED_READ, readq_relaxed)
REGBENCH_BENCHMARK(LAT, write, 64, "relaxed", MMIO, relaxed, SAMPLED_WRITE, writeq_relaxed, u64)
REGBENCH_BENCHMARK(CHAIN, read, 64, "relaxed", MMIO, relaxed, CHAIN, readq_relaxed, u64)
REGBENCH_BENCHMARK(THRPT, read, 64, "relaxed", MMIO, relaxed, UNROLLED_READ, readq_relaxed)
REGBENCH_BENCHMARK(THRPT, write, 64, "relaxed", MMIO, relaxed, UNROLLED_WRITE, writeq_relaxed, u64)
REGBENCH_BENCHMARK(FLUSH, write, 64, "relaxed", MMIO, relaxed, SAMPLED_FLUSH,
		   writeq_relaxed, readq_relaxed, u64)
/* a 64-bit register as two 32-bit halves: io-64-nonatomic-lo-hi.h and -hi-lo.h */
REGBENCH_BENCHMARK(LAT, read, 64, "lo_hi", MMIO, lo_hi, SAMPLED_READ, lo_hi_readq)
REGBENCH_BENCHMARK(LAT, write, 64, "lo_hi", MMIO, lo_hi, SAMPLED_WRITE, lo_hi_writeq, u64)
REGBENCH_BENCHMARK(CHAIN, read, 64, "lo_hi", MMIO, lo_hi, CHAIN, lo_hi_readq, u64)
REGBENCH_BENCHMARK(THRPT, read, 64, "lo_hi", MMIO, lo_hi, UNROLLED_READ, lo_hi_readq)
REGBENCH_BENCHMARK(THRPT, write, 64, "lo_hi", MMIO, lo_hi, UNROLLED_WRITE, lo_hi_writeq, u64)
REGBENCH_BENCHMARK(FLUSH, write, 64, "lo_hi", MMIO, lo_hi, SAMPLED_FLUSH,
		   lo_hi_writeq, lo_hi_readq, u64)
REGBENCH_BENCHMARK(LAT, read, 64, "hi_lo", MMIO, hi_lo, SAMPLED_READ, hi_lo_readq)
REGBENCH_BENCHMARK(LAT, write, 64, "hi_lo", MMIO, hi_lo, SAMPLED_WRITE, hi_lo_writeq, u64)
REGBENCH_BENCHMARK(CHAIN, read, 64, "hi_lo", MMIO, hi_lo, CHAIN, hi_lo_readq, u64)
REGBENCH_BENCHMARK(THRPT, read, 64, "hi_lo", MMIO, hi_lo, UNROLLED_READ, hi_lo_readq)
REGBENCH_BENCHMARK(THRPT, write, 64, "hi_lo", MMIO, hi_lo, UNROLLED_WRITE, hi_lo_writeq, u64)
REGBENCH_BENCHMARK(FLUSH, write, 64, "hi_lo", MMIO, hi_lo, SAMPLED_FLUSH,
		   hi_lo_writeq, hi_lo_readq, u64)
/* readsX/writesX: one register, count times (a FIFO) */
REGBENCH_BENCHMARK(REP, read, 8, "relaxed", MMIO, relaxed, BATCH_REP_READ, readsb)
REGBENCH_BENCHMARK(REP, write, 8, "relaxed", MMIO, relaxed, BATCH_REP_WRITE, writesb)
REGBENCH_BENCHMARK(REP, read, 16, "relaxed", MMIO, relaxed, BATCH_REP_READ, readsw)
REGBENCH_BENCHMARK(REP, write, 16, "relaxed", MMIO, relaxed, BATCH_REP_WRITE, writesw)
REGBENCH_BENCHMARK(REP, read, 32, "relaxed", MMIO, relaxed, BATCH_REP_READ, readsl)
REGBENCH_BENCHMARK(REP, write, 32, "relaxed", MMIO, relaxed, BATCH_REP_WRITE, writesl)
REGBENCH_BENCHMARK(REP, read, 64, "relaxed", MMIO, relaxed, BATCH_REP_READ, readsq)
REGBENCH_BENCHMARK(REP, write, 64, "relaxed", MMIO, relaxed, BATCH_REP_WRITE, writesq)
/* ranges: memcpy_fromio/toio, memset_io, and lib/iomap_copy.c's word copies (n / 4 or 8 words) */
REGBENCH_BENCHMARK(COPY, fromio, 0, "kernel", MMIO, kernel, BATCH_FROMIO, memcpy_fromio)
REGBENCH_BENCHMARK(COPY, toio, 0, "kernel", MMIO, kernel, BATCH_TOIO, memcpy_toio)
REGBENCH_BENCHMARK(COPY, set, 0, "kernel", MMIO, kernel, BATCH_SET, memset_io)
REGBENCH_BENCHMARK(COPY, toio, 0, "iowrite32_copy", MMIO, w32, BATCH_WORDS_TOIO,
		   __iowrite32_copy, 4)
REGBENCH_BENCHMARK(COPY, toio, 0, "iowrite64_copy", MMIO, w64, BATCH_WORDS_TOIO,
		   __iowrite64_copy, 8)
REGBENCH_BENCHMARK(COPY, fromio, 0, "ioread32_copy", MMIO, r32, BATCH_WORDS_FROMIO,
		   __ioread32_copy, 4)
/* ioread32: readl inline, through a pointer (an indirect call), and on pci_iomap's cookie */
REGBENCH_BENCHMARK(DISPATCH, read, 32, "direct", MMIO, direct, UNROLLED_READ, readl)
REGBENCH_BENCHMARK(DISPATCH, read, 32, "table", MMIO, table, UNROLLED_TABLE, readl)
REGBENCH_BENCHMARK(DISPATCH, read, 32, "cookie-mmio", MMIO, cookie, UNROLLED_COOKIE, ioread32)

#if defined(__x86_64__)
/* x86's ports: inX/outX, insX/outsX (rep ins/outs), and ioread32 on a port cookie */
REGBENCH_BENCHMARK(LAT, read, 8, "ordered", PIO, ordered, SAMPLED_READ, inb)
REGBENCH_BENCHMARK(LAT, write, 8, "ordered", PIO, ordered, SAMPLED_WRITE, outb, u8)
REGBENCH_BENCHMARK(CHAIN, read, 8, "ordered", PIO, ordered, CHAIN, inb, u8)
REGBENCH_BENCHMARK(THRPT, read, 8, "ordered", PIO, ordered, UNROLLED_READ, inb)
REGBENCH_BENCHMARK(THRPT, write, 8, "ordered", PIO, ordered, UNROLLED_WRITE, outb, u8)
REGBENCH_BENCHMARK(FLUSH, write, 8, "ordered", PIO, ordered, SAMPLED_FLUSH, outb, inb, u8)
REGBENCH_BENCHMARK(LAT, read, 16, "ordered", PIO, ordered, SAMPLED_READ, inw)
REGBENCH_BENCHMARK(LAT, write, 16, "ordered", PIO, ordered, SAMPLED_WRITE, outw, u16)
REGBENCH_BENCHMARK(CHAIN, read, 16, "ordered", PIO, ordered, CHAIN, inw, u16)
REGBENCH_BENCHMARK(THRPT, read, 16, "ordered", PIO, ordered, UNROLLED_READ, inw)
REGBENCH_BENCHMARK(THRPT, write, 16, "ordered", PIO, ordered, UNROLLED_WRITE, outw, u16)
REGBENCH_BENCHMARK(FLUSH, write, 16, "ordered", PIO, ordered, SAMPLED_FLUSH, outw, inw, u16)
REGBENCH_BENCHMARK(LAT, read, 32, "ordered", PIO, ordered, SAMPLED_READ, inl)
REGBENCH_BENCHMARK(LAT, write, 32, "ordered", PIO, ordered, SAMPLED_WRITE, outl, u32)
REGBENCH_BENCHMARK(CHAIN, read, 32, "ordered", PIO, ordered, CHAIN, inl, u32)
REGBENCH_BENCHMARK(THRPT, read, 32, "ordered", PIO, ordered, UNROLLED_READ, inl)
REGBENCH_BENCHMARK(THRPT, write, 32, "ordered", PIO, ordered, UNROLLED_WRITE, outl, u32)
REGBENCH_BENCHMARK(FLUSH, write, 32, "ordered", PIO, ordered, SAMPLED_FLUSH, outl, inl, u32)
REGBENCH_BENCHMARK(REP, read, 8, "string", PIO, string, BATCH_REP_READ, insb)
REGBENCH_BENCHMARK(REP, write, 8, "string", PIO, string, BATCH_REP_WRITE, outsb)
REGBENCH_BENCHMARK(REP, read, 16, "string", PIO, string, BATCH_REP_READ, insw)
REGBENCH_BENCHMARK(REP, write, 16, "string", PIO, string, BATCH_REP_WRITE, outsw)
REGBENCH_BENCHMARK(REP, read, 32, "string", PIO, string, BATCH_REP_READ, insl)
REGBENCH_BENCHMARK(REP, write, 32, "string", PIO, string, BATCH_REP_WRITE, outsl)
REGBENCH_BENCHMARK(DISPATCH, read, 32, "direct", PIO, direct, UNROLLED_READ, inl)
REGBENCH_BENCHMARK(DISPATCH, read, 32, "cookie-pio", PIO, cookie, UNROLLED_COOKIE, ioread32)
/*
 * The barrier family's names are what x86-64's macros issue (bench/arch/x86_64/insns.h):
 * rmb() is lfence, wmb() sfence, mb() mfence, smp_mb() a locked add to the stack.
 */
REGBENCH_BENCHMARK(BARRIER, compiler, 0, "", MMIO, none, UNROLLED_BARRIER, barrier()) /* alone */
REGBENCH_BENCHMARK(BARRIER, lfence, 0, "", MMIO, none, UNROLLED_BARRIER, rmb()) /* alone */
REGBENCH_BENCHMARK(BARRIER, sfence, 0, "", MMIO, none, UNROLLED_BARRIER, wmb()) /* alone */
REGBENCH_BENCHMARK(BARRIER, mfence, 0, "", MMIO, none, UNROLLED_BARRIER, mb()) /* alone */
REGBENCH_BENCHMARK(BARRIER, locked, 0, "", MMIO, none, UNROLLED_BARRIER, smp_mb()) /* alone */
#elif defined(__aarch64__)
/*
 * arm64 has no port instructions: the module measures memory BARs there.  The barrier
 * family's names are what arm64's macros issue (bench/arch/arm64/insns.h).
 */
REGBENCH_BENCHMARK(BARRIER, compiler, 0, "", MMIO, none, UNROLLED_BARRIER, barrier()) /* alone */
REGBENCH_BENCHMARK(BARRIER, dmb_ish, 0, "", MMIO, none, UNROLLED_BARRIER, smp_mb()) /* alone */
REGBENCH_BENCHMARK(BARRIER, dmb_ishld, 0, "", MMIO, none, UNROLLED_BARRIER, smp_rmb()) /* alone */
REGBENCH_BENCHMARK(BARRIER, dmb_osh, 0, "", MMIO, none, UNROLLED_BARRIER, dma_mb()) /* alone */
REGBENCH_BENCHMARK(BARRIER, dmb_oshld, 0, "", MMIO, none, UNROLLED_BARRIER, dma_rmb()) /* alone */
REGBENCH_BENCHMARK(BARRIER, dmb_oshst, 0, "", MMIO, none, UNROLLED_BARRIER, dma_wmb()) /* alone */
REGBENCH_BENCHMARK(BARRIER, dmb_sy, 0, "", MMIO, none, UNROLLED_BARRIER, dmb(sy)) /* alone */
REGBENCH_BENCHMARK(BARRIER, dsb_sy, 0, "", MMIO, none, UNROLLED_BARRIER, mb()) /* alone */
REGBENCH_BENCHMARK(BARRIER, isb, 0, "", MMIO, none, UNROLLED_BARRIER, isb()) /* alone */
#else
#error "the regbench module is built for x86-64 and arm64"
#endif
