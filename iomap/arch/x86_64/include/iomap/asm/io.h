/* asm/io.h (x86_64): x86-64's raw accesses, orderings, barriers and port I/O, under the generic iomap/io.h */
#ifndef IOMAP_ASM_IO_H
#define IOMAP_ASM_IO_H

#ifndef IOMAP_IO_H
# error "include iomap/io.h, which builds the accessors from this architecture's hooks"
#endif

/*
 * What this file fills in for the generic io.h, as x86 Linux (v6.1)
 * arch/x86/include/asm/io.h and barrier.h do:
 *   barriers          barrier() is generic; mb, rmb, wmb, dma_rmb, dma_wmb,
 *                     io_stop_wc, and iomap_cpu_relax (cpu_relax);
 *                     IOMAP_BARRIERS, those regbench times alone
 *   for regbench      IOMAP_READL_INSNS and IOMAP_ASM_READ_NOTE: what readl
 *                     issues and what an asm read leaves, in words
 *   IOMAP_REG_<k>     the register constraint of a value of width k (b, w, l,
 *   IOMAP_WREG_<k>    q) and that of a stored value (a register or immediate)
 *   access kinds      IOMAP_READ_<access>/IOMAP_WRITE_<access> and
 *                     IOMAP_ISSUES_<access> for readl and raw (io.h says what
 *                     they mean)
 *   orderings         IOMAP_ORDER_R_/W_ of io, rmb_wmb, mb, locked, io_delay
 *   port I/O          IOMAP_HAVE_PORT_IO, IOMAP_IN_/IOMAP_OUT_ of each access,
 *                     inb/outb and the string forms, IOMAP_PORT_WIDTHS
 *   IOMAP_GENERIC_IOMAP  x86 selects GENERIC_IOMAP: ioread32() is out of line
 *                     and decodes the cookie (src/iomap.c, lib/iomap.c's)
 */
#define IOMAP_GENERIC_IOMAP 1
#define IOMAP_HAVE_PORT_IO 1

/* dma_rmb/dma_wmb only order normal memory, which x86 already does, so they are compiler barriers. */
static __always_inline void mb(void)  { __asm__ __volatile__(IOMAP_INSN("mfence") ::: "memory"); }
static __always_inline void rmb(void) { __asm__ __volatile__(IOMAP_INSN("lfence") ::: "memory"); }
static __always_inline void wmb(void) { __asm__ __volatile__(IOMAP_INSN("sfence") ::: "memory"); }
static __always_inline void dma_rmb(void) { barrier(); }
static __always_inline void dma_wmb(void) { barrier(); }

/*
 * A locked no-op on the top of the stack: a full barrier for normal and UC
 * memory (the kernel's smp_mb() on x86) that is often cheaper than mfence.
 * It does not order non-temporal stores, which is why wmb() stays sfence.
 */
static __always_inline void iomap_locked_mb(void)
{
	__asm__ __volatile__(IOMAP_INSN("lock orq $0, (%%rsp)") ::: "memory", "cc");
}

/*
 * io_stop_wc(): keeps write-combining stores before it from merging with
 * those after it.  x86 Linux leaves it the generic empty statement (not even
 * a compiler barrier): x86 has no instruction for it.
 */
#define io_stop_wc() do { } while (0)

/* cpu_relax() on x86: pause, the spin-loop hint (iopoll.h's busy waits). */
static __always_inline void iomap_cpu_relax(void)
{
	__asm__ __volatile__(IOMAP_INSN("pause") ::: "memory");
}

/* The barriers regbench's barrier family times, each alone: X(name, statement). */
#define IOMAP_BARRIERS(X)							\
	X(compiler, barrier()) X(lfence, rmb()) X(sfence, wmb())		\
	X(mfence, mb()) X(locked, iomap_locked_mb())

/*
 * 8-bit values need a byte-addressable register ("q"); a 64-bit store
 * immediate must fit a sign-extended 32-bit field ("e").
 */
#define IOMAP_REG_b "q"
#define IOMAP_REG_w "r"
#define IOMAP_REG_l "r"
#define IOMAP_REG_q "r"
#define IOMAP_WREG_b "qi"
#define IOMAP_WREG_w "ri"
#define IOMAP_WREG_l "ri"
#define IOMAP_WREG_q "re"

/* The access instruction itself: exactly one mov of the width, optionally a compiler barrier. */
#define IOMAP_MOV_READ(type, k, reg, addr, ...) ({				\
	type __v;								\
	__asm__ __volatile__(IOMAP_INSN("mov" #k " %1, %0") : "=" reg (__v)		\
			     : "m" (*(const volatile type __force *)(addr)) __VA_ARGS__); \
	__v; })
#define IOMAP_MOV_WRITE(type, k, wreg, val, addr, ...)				\
	__asm__ __volatile__(IOMAP_INSN("mov" #k " %1, %0")			\
			     : "=m" (*(volatile type __force *)(addr))		\
			     : wreg ((type)(val)) __VA_ARGS__)

/*
 * The two kinds of access x86 Linux issues: readl's, a mov with a "memory"
 * clobber (a compiler barrier), and raw, the same mov without it
 * (readl_relaxed, __raw_readl; inb has none either).  On x86 an uncached
 * access is already strongly ordered, so that barrier is all readl adds.
 */
#define IOMAP_READ_readl(type, k, reg, addr) IOMAP_MOV_READ(type, k, reg, addr, : "memory")
#define IOMAP_WRITE_readl(type, k, wreg, v, addr) IOMAP_MOV_WRITE(type, k, wreg, v, addr, : "memory")
#define IOMAP_READ_raw(type, k, reg, addr) IOMAP_MOV_READ(type, k, reg, addr)
#define IOMAP_WRITE_raw(type, k, wreg, v, addr) IOMAP_MOV_WRITE(type, k, wreg, v, addr)
#define IOMAP_ISSUES_readl(bits) ((bits) / 8)
#define IOMAP_ISSUES_raw(bits) ((bits) / 8)

/* What readl issues, in words (the help of regbench's dispatch family). */
#define IOMAP_READL_INSNS "one mov"

/*
 * What an asm read of `bits` leaves in its register beyond the value, or
 * NULL (a chain's note in regbench): x86 keeps the rest of a register written
 * at 8 or 16 bits, so such a read merges with the register's old value; a
 * 32-bit write zero-extends, as a C volatile load does.
 */
#define IOMAP_ASM_READ_NOTE(bits)						\
	((bits) < 32 ? "each " #bits "-bit asm read writes only part of its register, so it merges "	\
		       "with the register's old value, which a load that zero-extends by itself (a C "	\
		       "volatile read) does not; a zero-extension after it is in the baseline too" : NULL)

/*
 * Port I/O: IOMAP_IN_<access>(type, k, port) and IOMAP_OUT_<access>(type,
 * k, v, port).  x86 Linux's inb/outb have no "memory" clobber (raw); readl's
 * kind adds one.  A split is two 32-bit accesses to port and port + 4, as
 * lib/iomap.c does 64-bit port I/O.
 */
#define IOMAP_IN(type, k, port, ...) ({						\
	type __v;								\
	__asm__ __volatile__(IOMAP_INSN("in" #k " %w1, %0") : "=a" (__v) : "Nd" ((uint16_t)(port)) __VA_ARGS__); \
	__v; })
#define IOMAP_OUT(type, k, v, port, ...)					\
	__asm__ __volatile__(IOMAP_INSN("out" #k " %0, %w1") : : "a" ((type)(v)), "Nd" ((uint16_t)(port)) __VA_ARGS__)
#define IOMAP_IN_readl(type, k, port) IOMAP_IN(type, k, port, : "memory")
#define IOMAP_OUT_readl(type, k, v, port) IOMAP_OUT(type, k, v, port, : "memory")
#define IOMAP_IN_raw(type, k, port) IOMAP_IN(type, k, port)
#define IOMAP_OUT_raw(type, k, v, port) IOMAP_OUT(type, k, v, port)
#define IOMAP_IN_SPLIT(first, second, port) ({				\
	uint16_t __iomap_port = (uint16_t)(port);				\
	uint32_t __iomap_lo, __iomap_hi;					\
	__iomap_##first = IOMAP_IN(uint32_t, l, IOMAP_HALF_##first(__iomap_port)); \
	__iomap_##second = IOMAP_IN(uint32_t, l, IOMAP_HALF_##second(__iomap_port)); \
	((uint64_t)__iomap_hi << 32) | __iomap_lo; })
#define IOMAP_OUT_SPLIT(first, second, v, port) do {				\
	uint16_t __iomap_port = (uint16_t)(port);				\
	uint32_t __iomap_lo = (uint32_t)(v);					\
	uint32_t __iomap_hi = (uint32_t)((uint64_t)(v) >> 32);		\
	IOMAP_OUT(uint32_t, l, __iomap_##first, IOMAP_HALF_##first(__iomap_port)); \
	IOMAP_OUT(uint32_t, l, __iomap_##second, IOMAP_HALF_##second(__iomap_port)); \
} while (0)
#define IOMAP_IN_lohi(type, k, port) IOMAP_IN_SPLIT(lo, hi, port)
#define IOMAP_OUT_lohi(type, k, v, port) IOMAP_OUT_SPLIT(lo, hi, v, port)
#define IOMAP_IN_hilo(type, k, port) IOMAP_IN_SPLIT(hi, lo, port)
#define IOMAP_OUT_hilo(type, k, v, port) IOMAP_OUT_SPLIT(hi, lo, v, port)

/* x86 has no 64-bit port instruction: the widths of in, out, ins and outs. */
#define IOMAP_PORT_WIDTHS(X, ...) IOMAP_WIDTHS_not64(X, ##__VA_ARGS__)

/*
 * x86 Linux's I/O delay (native_io_delay, the default io_delay=0x80): a
 * write of whatever AL holds to port 0x80, the POST-code port, which takes
 * about a microsecond on old ISA buses.  It is the statement the kernel has.
 */
static __always_inline void iomap_io_delay(void)
{
	__asm__ __volatile__(IOMAP_INSN("outb %al, $0x80"));
}

/*
 * The orderings x86 adds to the generic none:
 *   io       readl's hooks (__io_br, __io_ar): none on x86, whose readl is
 *            the access with its compiler barrier alone
 *   rmb_wmb  the portable driver's ordering: read then lfence (rmb), sfence
 *            (wmb) then write
 *   mb       mfence before and after (a full mb() around the access)
 *   locked   a locked no-op before and after
 *   io_delay the access, then the I/O delay (x86 inb_p/outb_p; ports only)
 */
#define IOMAP_ORDER_R_io(type, acc) IOMAP_ORDER_R_none(type, acc)
#define IOMAP_ORDER_W_io(acc) IOMAP_ORDER_W_none(acc)
#define IOMAP_ORDER_R_rmb_wmb(type, acc) ({ type __iomap_v = (acc); rmb(); __iomap_v; })
#define IOMAP_ORDER_W_rmb_wmb(acc) do { wmb(); acc; } while (0)
#define IOMAP_ORDER_R_mb(type, acc) ({ type __iomap_v; mb(); __iomap_v = (acc); mb(); __iomap_v; })
#define IOMAP_ORDER_W_mb(acc) do { mb(); acc; mb(); } while (0)
#define IOMAP_ORDER_R_locked(type, acc)						\
	({ type __iomap_v; iomap_locked_mb(); __iomap_v = (acc); iomap_locked_mb(); __iomap_v; })
#define IOMAP_ORDER_W_locked(acc) do { iomap_locked_mb(); acc; iomap_locked_mb(); } while (0)
#define IOMAP_ORDER_R_io_delay(type, acc) ({ type __iomap_v = (acc); iomap_io_delay(); __iomap_v; })
#define IOMAP_ORDER_W_io_delay(acc) do { acc; iomap_io_delay(); } while (0)

/*
 * Port I/O by the kernel's names.  The kernel's argument order: out*(value,
 * port).  These fault (#GP, SIGSEGV) unless the process holds I/O permission
 * for the port; the port target obtains it, the trap target emulates the
 * fault.  glibc's <sys/io.h> defines the same names: do not include both.
 * As x86 Linux: inb/outb without a "memory" clobber, the string forms with
 * one (they touch the buffer), inb_p/outb_p followed by the I/O delay, and
 * insb_p/outsb_p the plain string forms (asm-generic's, which x86 does not
 * override).
 */
#define IOMAP_BUILD_PORT(type, k, in, out, in_p, out_p, ins, outs, ins_p, outs_p) \
static __always_inline type in(uint16_t port) { return IOMAP_IN_raw(type, k, port); } \
static __always_inline void out(type v, uint16_t port) { IOMAP_OUT_raw(type, k, v, port); } \
static __always_inline type in_p(uint16_t port)				\
{ return IOMAP_ORDER_R_io_delay(type, in(port)); }			\
static __always_inline void out_p(type v, uint16_t port)			\
{ IOMAP_ORDER_W_io_delay(out(v, port)); }				\
static __always_inline void ins(uint16_t port, void *buf, unsigned long count) \
{ __asm__ __volatile__(IOMAP_INSN("rep ins" #k) : "+D" (buf), "+c" (count) : "d" (port) : "memory"); } \
static __always_inline void outs(uint16_t port, const void *buf, unsigned long count) \
{ __asm__ __volatile__(IOMAP_INSN("rep outs" #k) : "+S" (buf), "+c" (count) : "d" (port) : "memory"); } \
static __always_inline void ins_p(uint16_t port, void *buf, unsigned long count) \
{ ins(port, buf, count); }						\
static __always_inline void outs_p(uint16_t port, const void *buf, unsigned long count) \
{ outs(port, buf, count); }
IOMAP_BUILD_PORT(uint8_t, b, inb, outb, inb_p, outb_p, insb, outsb, insb_p, outsb_p)
IOMAP_BUILD_PORT(uint16_t, w, inw, outw, inw_p, outw_p, insw, outsw, insw_p, outsw_p)
IOMAP_BUILD_PORT(uint32_t, l, inl, outl, inl_p, outl_p, insl, outsl, insl_p, outsl_p)
#undef IOMAP_BUILD_PORT

/* The string strategy's port _rep: rep insX/outsX. */
#define IOMAP_BUILD_PORT_REP_STRING(bits, type, k, reg, wreg)			\
static __always_inline void iomap_in##bits##_rep_string(uint16_t port, void *buf, unsigned long count) \
{ ins##k(port, buf, count); }						\
static __always_inline void iomap_out##bits##_rep_string(uint16_t port, const void *buf, unsigned long count) \
{ outs##k(port, buf, count); }
IOMAP_PORT_WIDTHS(IOMAP_BUILD_PORT_REP_STRING)
#undef IOMAP_BUILD_PORT_REP_STRING

#endif
