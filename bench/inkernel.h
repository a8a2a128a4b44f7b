/* inkernel.h: a kernel: target's benchmarks, run in the kernel by the regbench module: each of regbench's kernels matched to the module's line, and one timed call of it */
#ifndef REGBENCH_INKERNEL_H
#define REGBENCH_INKERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "clock.h"
#include "kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The module's line (bench/kmod/include/uapi/regbench-benchmarks.h) that is
 * the kernel's own form of k, the one named as k is (lat/read32/ordered:
 * readl), or -1 where the kernel has no accessor that issues it (libiomap's
 * own strategies: volatile, barriered, simd ...).
 */
int rb_inkernel_line(const struct rb_kernel *k);

/* Which of a kernel's functions a call times: the plain one, the unrolled twin, chain's baseline (and its twin). */
enum rb_inkernel_form { RB_IN_PLAIN, RB_IN_TWIN, RB_IN_BASE, RB_IN_BASE_TWIN };

/*
 * One call of line through the module's /dev/regbench (fd), timed in the
 * kernel as rb_guarded_run times a call here: at offset off of the window,
 * iters iterations, a's n and value; a sampled line's samples land in a->mem
 * (iters of them).  0 with the ticks, or -1 with the reason in why.
 */
int rb_inkernel_run(int fd, int line, enum rb_inkernel_form form, enum rb_timer timer, size_t off,
		    const struct rb_kernel_arg *a, uint64_t iters, uint64_t *ticks, char *why, size_t whylen);

/* The timer alone, n times, timed in the kernel into out (rb_timer_empty's counterpart): 0, or -1 with why. */
int rb_inkernel_empty(int fd, enum rb_timer timer, uint64_t *out, size_t n, char *why, size_t whylen);

/* What the loaded module is: its regbench version and the kernel release it was built for; 0 or -1. */
int rb_inkernel_info(int fd, char *version, size_t vlen, char *kernel, size_t klen);

#ifdef __cplusplus
}
#endif

#endif
