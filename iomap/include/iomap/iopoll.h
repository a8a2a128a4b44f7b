/* iopoll.h: polling a register until a condition holds or a timeout passes, as the kernel's <linux/iopoll.h> */
#ifndef IOMAP_IOPOLL_H
#define IOMAP_IOPOLL_H

#include <errno.h>
#include <stdint.h>
#include <time.h>

#include "iomap/io.h"

/* Microseconds on the monotonic clock (the kernel's ktime_get in microseconds). */
static inline uint64_t iomap_poll_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/*
 * The kernel sleeps with usleep_range(sleep_us / 4 + 1, sleep_us): at least
 * the lower bound, at most the upper one if the timer allows.  nanosleep
 * sleeps at least what it is asked, so ask for the lower bound.
 */
static inline void iomap_poll_sleep_us(unsigned long sleep_us)
{
	unsigned long us = (sleep_us >> 2) + 1;
	struct timespec ts = { (time_t)(us / 1000000u), (long)(us % 1000000u) * 1000 };

	nanosleep(&ts, NULL);
}

/* udelay: a busy wait, for the _atomic forms that may not sleep. */
static inline void iomap_poll_delay_us(unsigned long us)
{
	uint64_t end = iomap_poll_now_us() + us;

	while (iomap_poll_now_us() < end)
		iomap_cpu_relax();
}

/*
 * read_poll_timeout(op, val, cond, sleep_us, timeout_us, sleep_before_read,
 * args...): val = op(args) until cond (which may use val) holds; between
 * reads sleep (sleep_us 0: spin with cpu_relax), and give up after
 * timeout_us (0: never), reading once more after the deadline as the kernel
 * does.  0 when cond held, else -ETIMEDOUT; val is the last value read.
 * The _atomic form busy-waits instead of sleeping.  GNU C (statement
 * expressions), like the rest of io.h.
 */
#define IOMAP_POLL(wait, op, val, cond, sleep_us, timeout_us, sleep_before_read, ...) ({	\
	uint64_t __iomap_timeout_us = (timeout_us);					\
	unsigned long __iomap_sleep_us = (sleep_us);					\
	uint64_t __iomap_deadline = iomap_poll_now_us() + __iomap_timeout_us;		\
	if ((sleep_before_read) && __iomap_sleep_us)					\
		wait(__iomap_sleep_us);							\
	for (;;) {									\
		(val) = op(__VA_ARGS__);						\
		if (cond)								\
			break;								\
		if (__iomap_timeout_us && iomap_poll_now_us() > __iomap_deadline) {	\
			(val) = op(__VA_ARGS__);					\
			break;								\
		}									\
		if (__iomap_sleep_us)							\
			wait(__iomap_sleep_us);						\
		iomap_cpu_relax();							\
	}										\
	(cond) ? 0 : -ETIMEDOUT; })

#define read_poll_timeout(op, val, cond, sleep_us, timeout_us, sleep_before_read, ...)	\
	IOMAP_POLL(iomap_poll_sleep_us, op, val, cond, sleep_us, timeout_us, sleep_before_read, __VA_ARGS__)
#define read_poll_timeout_atomic(op, val, cond, delay_us, timeout_us, delay_before_read, ...) \
	IOMAP_POLL(iomap_poll_delay_us, op, val, cond, delay_us, timeout_us, delay_before_read, __VA_ARGS__)

/* readx_poll_timeout(op, addr, val, cond, sleep_us, timeout_us): op is an accessor of addr. */
#define readx_poll_timeout(op, addr, val, cond, sleep_us, timeout_us)			\
	read_poll_timeout(op, val, cond, sleep_us, timeout_us, 0, addr)
#define readx_poll_timeout_atomic(op, addr, val, cond, delay_us, timeout_us)		\
	read_poll_timeout_atomic(op, val, cond, delay_us, timeout_us, 0, addr)

/* The sized names: readl_poll_timeout(addr, val, cond, sleep_us, timeout_us) and friends. */
#define readb_poll_timeout(addr, val, cond, s, t) readx_poll_timeout(readb, addr, val, cond, s, t)
#define readw_poll_timeout(addr, val, cond, s, t) readx_poll_timeout(readw, addr, val, cond, s, t)
#define readl_poll_timeout(addr, val, cond, s, t) readx_poll_timeout(readl, addr, val, cond, s, t)
#define readq_poll_timeout(addr, val, cond, s, t) readx_poll_timeout(readq, addr, val, cond, s, t)
#define readb_relaxed_poll_timeout(addr, val, cond, s, t) readx_poll_timeout(readb_relaxed, addr, val, cond, s, t)
#define readw_relaxed_poll_timeout(addr, val, cond, s, t) readx_poll_timeout(readw_relaxed, addr, val, cond, s, t)
#define readl_relaxed_poll_timeout(addr, val, cond, s, t) readx_poll_timeout(readl_relaxed, addr, val, cond, s, t)
#define readq_relaxed_poll_timeout(addr, val, cond, s, t) readx_poll_timeout(readq_relaxed, addr, val, cond, s, t)
#define readb_poll_timeout_atomic(addr, val, cond, d, t) readx_poll_timeout_atomic(readb, addr, val, cond, d, t)
#define readw_poll_timeout_atomic(addr, val, cond, d, t) readx_poll_timeout_atomic(readw, addr, val, cond, d, t)
#define readl_poll_timeout_atomic(addr, val, cond, d, t) readx_poll_timeout_atomic(readl, addr, val, cond, d, t)
#define readq_poll_timeout_atomic(addr, val, cond, d, t) readx_poll_timeout_atomic(readq, addr, val, cond, d, t)

#endif
