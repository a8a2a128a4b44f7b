/* strategies.h: the shape of the strategy lists each architecture fills in (iomap/asm/strategies.h), and what they generate */
#ifndef IOMAP_STRATEGIES_H
#define IOMAP_STRATEGIES_H

/*
 * A strategy is a way to issue the same access.  Its names (the one users
 * type, its benchmarks') are the same on every architecture; which
 * strategies exist, what their instructions are and what each one can do is
 * the architecture's, in iomap/asm/strategies.h:
 *
 *   IOMAP_STRATEGIES(X, ...)       X(id, access, order, ...) for each strategy
 *                                  with a single access: io.h builds
 *                                  iomap_read32_<id> (and iomap_in32_<id>
 *                                  where ports have instructions) from the
 *                                  access (IOMAP_READ_<access>) under the
 *                                  ordering (IOMAP_ORDER_R_<order>)
 *   IOMAP_REP_STRATEGIES(X, ...)   X(id, ...): those whose MMIO _rep is a loop
 *                                  of their single access
 *   IOMAP_PORT_REP_LOOPS           the same on ports (where ports exist);
 *   IOMAP_PORT_REP_STRATEGIES      these and those whose port _rep is an
 *                                  instruction of the architecture's
 *   IOMAP_COPY_STRATEGIES(X, ...)  X(id, dirs, ...): those with range copies,
 *                                  in the directions dirs names (below)
 *   IOMAP_ABSENT_SINGLES(X, ...)   X(id, ...): strategies of another
 *   IOMAP_ABSENT_COPIES(X, ...)    architecture, single and copy, kept by name so
 *                                  that their benchmarks are skipped with the
 *                                  reason their row gives, not missing
 *   IOMAP_STRATEGY_ROWS            the run-time table's rows (strategy.h):
 *                                  name, help, what each form can do, in the
 *                                  order reports show them
 *
 * with whatever followed X in the call at the end.  Adding a strategy is its
 * lines there and its implementation: everything else (declarations, the
 * table's function pointers, regbench's kernels) is generated from them.
 * The kernel's names are the same strategies everywhere: readl() is
 * ordered, readl_relaxed() and __raw_readl() relaxed, memcpy_toio() kernel.
 */
#include "iomap/asm/strategies.h"

/* The directions a copy strategy has: its functions' names in the table (strategy.h) */
#define IOMAP_COPY_DIRS_all(X, ...) X(copy_fromio, ##__VA_ARGS__) X(copy_toio, ##__VA_ARGS__) X(set_io, ##__VA_ARGS__)
#define IOMAP_COPY_DIRS_toio(X, ...) X(copy_toio, ##__VA_ARGS__)
#define IOMAP_COPY_DIRS_fromio(X, ...) X(copy_fromio, ##__VA_ARGS__)

#endif
