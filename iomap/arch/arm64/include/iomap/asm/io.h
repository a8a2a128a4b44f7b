/* asm/io.h (arm64): arm64's raw accesses, the kernel's ordering hooks and barriers, under the generic iomap/io.h */
#ifndef IOMAP_ASM_IO_H
#define IOMAP_ASM_IO_H

#ifndef IOMAP_IO_H
# error "include iomap/io.h, which builds the accessors from this architecture's hooks"
#endif

/*
 * What this file fills in for the generic io.h, as arm64 Linux v6.1 has it
 * (arch/arm64/include/asm/io.h and barrier.h; Debian 12's kernel):
 *   barriers          mb, rmb, wmb (dsb sy, dsb ld, dsb st), dma_rmb and
 *                     dma_wmb (dmb oshld, dmb oshst), io_stop_wc (dgh),
 *                     iomap_cpu_relax (yield); IOMAP_BARRIERS, those
 *                     regbench times alone
 *   IOMAP_REG_<k>     the register constraints of values and stored values
 *   IOMAP_WREG_<k>    ("rZ": a zero is stored from wzr/xzr, as the kernel's)
 *   access kinds      raw (__raw_readX: ldrb, ldrh, ldr w, ldr x; strb, strh,
 *                     str), readl (the access readl makes: raw) and acq
 *                     (ldar/stlr of the width)
 *   orderings         io (readl/writel's hooks), rmb_wmb, mb
 *   for regbench      IOMAP_READL_INSNS, IOMAP_ASM_READ_NOTE
 * arm64 has no port I/O instructions (no IOMAP_HAVE_PORT_IO) and does not
 * select GENERIC_IOMAP: ioread32() is readl() (iomap/cookie.h).
 */

#define IOMAP_DMB(opt) __asm__ __volatile__(IOMAP_INSN("dmb " #opt) ::: "memory")
#define IOMAP_DSB(opt) __asm__ __volatile__(IOMAP_INSN("dsb " #opt) ::: "memory")
static __always_inline void isb(void) { __asm__ __volatile__(IOMAP_INSN("isb") ::: "memory"); }

/*
 * The mandatory barriers are dsb: they wait for every access of the kind
 * before them to complete, device accesses included.  The DMA barriers order
 * accesses to memory shared with devices (outer shareable) without waiting.
 */
static __always_inline void mb(void)  { IOMAP_DSB(sy); }
static __always_inline void rmb(void) { IOMAP_DSB(ld); }
static __always_inline void wmb(void) { IOMAP_DSB(st); }
static __always_inline void dma_rmb(void) { IOMAP_DMB(oshld); }
static __always_inline void dma_wmb(void) { IOMAP_DMB(oshst); }

/* io_stop_wc(): dgh (hint #6), which keeps Device-GRE stores before it from gathering with those after it. */
#define io_stop_wc() __asm__ __volatile__(IOMAP_INSN("hint #6") ::: "memory")

/* cpu_relax() on arm64: yield, the spin-loop hint (iopoll.h's busy waits). */
static __always_inline void iomap_cpu_relax(void)
{
	__asm__ __volatile__(IOMAP_INSN("yield") ::: "memory");
}

/* The barriers regbench's barrier family times, each alone: X(name, statement). */
#define IOMAP_BARRIERS(X)							\
	X(compiler, barrier()) X(dmb_ish, IOMAP_DMB(ish)) X(dmb_ishld, IOMAP_DMB(ishld))	\
	X(dmb_osh, IOMAP_DMB(osh)) X(dmb_oshld, IOMAP_DMB(oshld)) X(dmb_oshst, IOMAP_DMB(oshst))	\
	X(dmb_sy, IOMAP_DMB(sy)) X(dsb_sy, IOMAP_DSB(sy)) X(isb, isb())

#define IOMAP_REG_b "r"
#define IOMAP_REG_w "r"
#define IOMAP_REG_l "r"
#define IOMAP_REG_q "r"
#define IOMAP_WREG_b "rZ"
#define IOMAP_WREG_w "rZ"
#define IOMAP_WREG_l "rZ"
#define IOMAP_WREG_q "rZ"

/*
 * The instruction of each width and its register: a w register up to 32
 * bits (ldrb and ldrh zero-extend), an x register at 64.
 */
#define IOMAP_LDR_b "ldrb %w0"
#define IOMAP_LDR_w "ldrh %w0"
#define IOMAP_LDR_l "ldr %w0"
#define IOMAP_LDR_q "ldr %x0"
#define IOMAP_STR_b "strb %w0"
#define IOMAP_STR_w "strh %w0"
#define IOMAP_STR_l "str %w0"
#define IOMAP_STR_q "str %x0"
#define IOMAP_LDAR_b "ldarb %w0"
#define IOMAP_LDAR_w "ldarh %w0"
#define IOMAP_LDAR_l "ldar %w0"
#define IOMAP_LDAR_q "ldar %x0"
#define IOMAP_STLR_b "stlrb %w0"
#define IOMAP_STLR_w "stlrh %w0"
#define IOMAP_STLR_l "stlr %w0"
#define IOMAP_STLR_q "stlr %x0"

/*
 * raw: __raw_readX/__raw_writeX exactly as v6.1 writes them: the address in
 * a register ([%1]), no memory operand and no "memory" clobber, so the
 * compiler may move normal accesses across them (the erratum alternative
 * that turns ldr into ldar on a few cores is not taken here).  acq: the
 * load-acquire/store-release of the width (ldar, stlr), whose ordering is
 * the instruction's own: a compiler barrier goes with it, as with
 * smp_load_acquire.
 */
#define IOMAP_A64_READ(insn, type, k, reg, addr, ...) ({			\
	type __v;								\
	__asm__ __volatile__(IOMAP_INSN(insn##_##k ", [%1]") : "=" reg (__v)		\
			     : "r" ((const volatile void __force *)(addr)) __VA_ARGS__); \
	__v; })
#define IOMAP_A64_WRITE(insn, type, k, wreg, v, addr, ...)			\
	__asm__ __volatile__(IOMAP_INSN(insn##_##k ", [%1]")			\
			     : : wreg ((type)(v)), "r" ((volatile void __force *)(addr)) __VA_ARGS__)
#define IOMAP_READ_raw(type, k, reg, addr) IOMAP_A64_READ(IOMAP_LDR, type, k, reg, addr)
#define IOMAP_WRITE_raw(type, k, wreg, v, addr) IOMAP_A64_WRITE(IOMAP_STR, type, k, wreg, v, addr)
#define IOMAP_READ_acq(type, k, reg, addr) IOMAP_A64_READ(IOMAP_LDAR, type, k, reg, addr, : "memory")
#define IOMAP_WRITE_acq(type, k, wreg, v, addr) IOMAP_A64_WRITE(IOMAP_STLR, type, k, wreg, v, addr, : "memory")
/* readl's access is __raw_readl's: its ordering is all in its hooks (the order io). */
#define IOMAP_READ_readl(type, k, reg, addr) IOMAP_READ_raw(type, k, reg, addr)
#define IOMAP_WRITE_readl(type, k, wreg, v, addr) IOMAP_WRITE_raw(type, k, wreg, v, addr)
#define IOMAP_ISSUES_raw(bits) ((bits) / 8)
#define IOMAP_ISSUES_readl(bits) ((bits) / 8)
#define IOMAP_ISSUES_acq(bits) ((bits) / 8)

/*
 * readl's and writel's ordering hooks (asm-generic's __io_ar and __io_bw;
 * v6.1's arm64 io.h calls them __iormb and __iowmb).  After a read: dmb
 * oshld, so that later normal-memory reads (a DMA buffer the device just
 * wrote) wait for it, then a control dependency on the value read (eor of
 * the value with itself is zero, cbnz never branches), so that nothing
 * later, the isb of a delay loop's counter read included, issues before the
 * read has returned.  Before a write: dmb oshst, so that earlier
 * normal-memory writes are visible to the device first.
 */
#define IOMAP_IO_AR(v) do {							\
	unsigned long __iomap_tmp;						\
	dma_rmb();								\
	__asm__ __volatile__(IOMAP_INSN("eor %0, %1, %1\n\tcbnz %0, .")		\
			     : "=r" (__iomap_tmp) : "r" ((unsigned long)(v)) : "memory"); \
} while (0)
#define IOMAP_IO_BW() dma_wmb()

/*
 * The orderings around an access, each an order of the strategy list:
 *   io       readl/writel: the read then IOMAP_IO_AR, IOMAP_IO_BW then the
 *            write (the ordered strategy)
 *   rmb_wmb  the mandatory barriers as a portable driver writes them: the
 *            read then rmb (dsb ld), wmb (dsb st) then the write
 *   mb       mb() (dsb sy) before and after
 */
#define IOMAP_ORDER_R_io(type, acc) ({ type __iomap_v = (acc); IOMAP_IO_AR(__iomap_v); __iomap_v; })
#define IOMAP_ORDER_W_io(acc) do { IOMAP_IO_BW(); acc; } while (0)
#define IOMAP_ORDER_R_rmb_wmb(type, acc) ({ type __iomap_v = (acc); rmb(); __iomap_v; })
#define IOMAP_ORDER_W_rmb_wmb(acc) do { wmb(); acc; } while (0)
#define IOMAP_ORDER_R_mb(type, acc) ({ type __iomap_v; mb(); __iomap_v = (acc); mb(); __iomap_v; })
#define IOMAP_ORDER_W_mb(acc) do { mb(); acc; mb(); } while (0)

/*
 * The PCI I/O space ioport_map() takes ports from (asm-generic/io.h, v6.1):
 * IO_SPACE_LIMIT is PCI_IO_SIZE - 1 (16 MiB, asm/memory.h), and
 * MMIO_UPPER_LIMIT the top of the part it maps, PIO_INDIRECT_SIZE (16 KiB)
 * below, since Debian builds CONFIG_INDIRECT_PIO (HiSilicon's LPC bus,
 * linux/logic_pio.h).
 */
#define IOMAP_IO_SPACE_LIMIT 0xffffffUL
#define IOMAP_MMIO_UPPER_LIMIT (IOMAP_IO_SPACE_LIMIT - 0x4000UL)

/* What readl issues, in words (the help of regbench's dispatch family). */
#define IOMAP_READL_INSNS "ldr, then dmb oshld and a dependency on the value (eor, cbnz)"

/* ldrb, ldrh and ldr w zero-extend into the whole register: an asm read holds nothing a C load does not. */
#define IOMAP_ASM_READ_NOTE(bits) NULL

#endif
