/* trap-xsave.h (private): the vector registers in the signal frame's XSAVE area, for the x86-64 trap decoder */
#ifndef IOMAP_ARCH_TRAP_XSAVE_H
#define IOMAP_ARCH_TRAP_XSAVE_H

#include <stddef.h>
#include <ucontext.h>

#include "trap-dev.h"

/* Where this CPU's XSAVE area keeps each component (CPUID 0xD) and which XCR0 enables. */
void trap_xsave_init(struct trap_xstate *xs);

/*
 * The low `bytes` of zmm n into buf, or from buf into it (zero_upper: as VEX
 * and EVEX loads do, zeroing the rest of the register); NULL, or why the
 * frame cannot give or take them.  Async-signal-safe.
 */
const char *trap_xsave_read(const struct trap_xstate *xs, ucontext_t *uc, unsigned int n, unsigned char *buf,
			    size_t bytes);
const char *trap_xsave_write(const struct trap_xstate *xs, ucontext_t *uc, unsigned int n, const unsigned char *buf,
			     size_t bytes, int zero_upper);

#endif
