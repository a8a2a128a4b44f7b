/* timer.h (arm64): the generic counter (cntvct_el0) as regbench reads it, start and stop, kept as the instructions themselves */
#ifndef REGBENCH_ARCH_TIMER_H
#define REGBENCH_ARCH_TIMER_H

#include <stdint.h>

/*
 * arm64 has one timer every core can read from user space: the virtual
 * count of the generic timer, cntvct_el0, at the fixed rate cntfrq_el0
 * states (the Arm ARM requires the system counter's frequency to be
 * constant; boards tick at 19.2 to 62.5 MHz, QEMU at 62.5 MHz, Armv8.6 and
 * later at 1 GHz).  It is not a TSC: regbench calls one count of
 * cntvct_el0 a timer tick (RB_TICKS), and x86's a TSC tick.
 *
 * Start: isb; mrs, as Linux v6.1 reads it (__arch_counter_get_cntvct in
 * arch/arm64/include/asm/arch_timer.h).  The Arm ARM says reads of the
 * counter can occur speculatively and out of order with other instructions,
 * and that an isb before the read keeps it after the instructions before.
 *
 * Stop: the earlier loads must have completed before the counter is read.
 * An isb alone does not promise that: it makes later instructions be fetched
 * again, but a load it follows may still be waiting for its data.  dsb ld
 * does: the Arm ARM's Data Synchronization Barrier completes only when every
 * explicit memory read before it has completed, and no instruction after a
 * DSB executes until it completes.  The isb after it then keeps the counter
 * read from being taken early, as at the start.  Stores are not waited for,
 * as on x86: a timed store has issued, not landed (the flush family
 * measures landing).  timer-test times a cache-missing load to prove the
 * stop waits for it.
 *
 * One timer: RB_TIMED calls the one copy, and no reading branches.
 */
enum rb_timer { RB_TIMER_CNTVCT, RB_NR_TIMERS };

#define RB_COUNTER_NAME "generic counter"
#define RB_TICKS "timer ticks"
#define RB_TIMER_START_ASM "isb\n\tmrs %[cnt], cntvct_el0"
#define RB_TIMER_STOP_CNTVCT_ASM "dsb ld\n\tisb\n\tmrs %[cnt], cntvct_el0"
#define RB_TIMER_STOPS { [RB_TIMER_CNTVCT] = RB_TIMER_STOP_CNTVCT_ASM }

#define RB_TIMED(t, f, ...) ((void)(t), f(RB_TIMER_CNTVCT, ##__VA_ARGS__))

static inline __attribute__((always_inline)) uint64_t rb_timer_start(void)
{
	uint64_t cnt;

	__asm__ __volatile__(RB_TIMER_START_ASM : [cnt] "=r" (cnt) : : "memory");
	return cnt;
}

static inline __attribute__((always_inline)) uint64_t rb_timer_stop(enum rb_timer t)
{
	uint64_t cnt;

	(void)t;
	__asm__ __volatile__(RB_TIMER_STOP_CNTVCT_ASM : [cnt] "=r" (cnt) : : "memory");
	return cnt;
}

/*
 * The dither before a sampled reading (bench/sampled.h): n turns (n >= 1)
 * of a decrement and a branch back, about one core cycle a turn; what a
 * turn costs does not matter, only that the spin's length varies.
 */
#define RB_DITHER_SPIN_ASM "1:\n\tsubs %[n], %[n], #1\n\tb.ne 1b"

static inline __attribute__((always_inline)) void rb_dither_spin(uint64_t n)
{
	__asm__ __volatile__(RB_DITHER_SPIN_ASM : [n] "+r" (n) : : "cc");
}

/*
 * Clean and invalidate the line holding p to the point of coherency and wait
 * for it (timer-test's cache-missing load); Linux lets user space issue
 * dc civac (SCTLR_EL1.UCI).
 */
static inline __attribute__((always_inline)) void rb_flush_line(volatile void *p)
{
	__asm__ __volatile__("dc civac, %0\n\tdsb sy" : : "r" (p) : "memory");
}

#endif
