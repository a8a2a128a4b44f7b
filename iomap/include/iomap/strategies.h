/* strategies.h: every strategy once, with the accessors it has, in the order users see them; the walks and table fields derived */
#ifndef IOMAP_STRATEGIES_H
#define IOMAP_STRATEGIES_H

/*
 * A strategy is a way to issue the same access.  Everything that says which
 * strategies and which accessors exist is this one list, for every
 * architecture; each line is one strategy, in the order users see them:
 *
 *   X(id, name, where, access, order, mmio, port, region, rep, copies, ...)
 *     id      the C identifier of its accessors (iomap_read32_lo_hi)
 *     name    as users type it and benchmark names carry it
 *     where   the architectures that have it: all, x86_64 or arm64
 *     access  how one access is issued (IOMAP_READ_<access>, io.h and
 *             asm/io.h): deref, readl (the access readl makes), raw
 *             (__raw_readl's), acq (arm64's ldar/stlr), lohi and hilo (two
 *             readl), or none
 *     order   what is put around it (IOMAP_ORDER_R_<order>): none, io
 *             (readl's own hooks), rmb_wmb, mb, locked, io_delay
 *     mmio    the widths of its single accesses on MMIO (iomap_read32_<id>),
 *     port    on ports where the architecture has port instructions
 *     region  (iomap_in32_<id>) and through a device file's region
 *             (iomap_pread32_<id>): all, not64, 64 or none
 *     rep     its _rep: loop (a loop of its single access, in each space and
 *             width it has them: iomap_read32_rep_<id>, iomap_in32_rep_<id>),
 *             insn (on ports, an instruction of the architecture's:
 *             iomap_in32_rep_string), or none
 *     copies  its range copies (iomap_copy_toio_<id>): all (both directions
 *             and memset_io), toio or fromio (a word copy of one direction),
 *             or none
 *
 * with whatever followed X in the call at the end.  What the strategy is on
 * an architecture that has it (its help, why it lacks a form, what its copies
 * issue) is that architecture's row, IOMAP_ROW_<id> in iomap/asm/strategies.h.
 * A strategy that an architecture has not got keeps its benchmarks' names
 * there, skipped with the reason `where` gives, so that names are the same
 * everywhere.  The kernel's names are the same strategies everywhere: readl()
 * is ordered, readl_relaxed() and __raw_readl() relaxed, memcpy_toio()
 * kernel.
 */
#define IOMAP_STRATEGY_LIST(X, ...)											\
/*	  id               name               where   access order     mmio   port   region rep   copies */		\
	X(volatile,        "volatile",        all,    deref, none,     all,   none,  none,  loop, all,    ##__VA_ARGS__)	\
	X(ordered,         "ordered",         all,    readl, io,       all,   not64, all,   loop, none,   ##__VA_ARGS__)	\
	X(relaxed,         "relaxed",         all,    raw,   none,     all,   not64, all,   loop, all,    ##__VA_ARGS__)	\
	X(barriered,       "barriered",       all,    readl, rmb_wmb,  all,   not64, all,   loop, all,    ##__VA_ARGS__)	\
	X(fenced,          "fenced",          all,    readl, mb,       all,   not64, all,   none, none,   ##__VA_ARGS__)	\
	X(locked,          "locked",          x86_64, readl, locked,   all,   not64, all,   none, none,   ##__VA_ARGS__)	\
	X(acquire,         "acquire",         arm64,  acq,   none,     all,   none,  none,  none, none,   ##__VA_ARGS__)	\
	X(lo_hi,           "lo-hi",           all,    lohi,  none,     64,    64,    none,  none, none,   ##__VA_ARGS__)	\
	X(hi_lo,           "hi-lo",           all,    hilo,  none,     64,    64,    none,  none, none,   ##__VA_ARGS__)	\
	X(io_delay,        "io-delay",        x86_64, raw,   io_delay, none,  not64, none,  none, none,   ##__VA_ARGS__)	\
	X(string,          "string",          x86_64, none,  none,     none,  none,  none,  insn, all,    ##__VA_ARGS__)	\
	X(string_wide,     "string-wide",     x86_64, none,  none,     none,  none,  none,  none, all,    ##__VA_ARGS__)	\
	X(kernel,          "kernel",          all,    none,  none,     none,  none,  none,  none, all,    ##__VA_ARGS__)	\
	X(kernel_unrolled, "kernel-unrolled", x86_64, none,  none,     none,  none,  none,  none, all,    ##__VA_ARGS__)	\
	X(iowrite32_copy,  "iowrite32-copy",  all,    none,  none,     none,  none,  none,  none, toio,   ##__VA_ARGS__)	\
	X(iowrite64_copy,  "iowrite64-copy",  all,    none,  none,     none,  none,  none,  none, toio,   ##__VA_ARGS__)	\
	X(ioread32_copy,   "ioread32-copy",   all,    none,  none,     none,  none,  none,  none, fromio, ##__VA_ARGS__)	\
	X(simd,            "simd",            x86_64, none,  none,     none,  none,  none,  none, all,    ##__VA_ARGS__)	\
	X(simd_512,        "simd-512",        x86_64, none,  none,     none,  none,  none,  none, all,    ##__VA_ARGS__)	\
	X(simd_nt,         "simd-nt",         x86_64, none,  none,     none,  none,  none,  none, all,    ##__VA_ARGS__)	\
	X(pair,            "pair",            arm64,  none,  none,     none,  none,  none,  none, all,    ##__VA_ARGS__)	\
	X(neon,            "neon",            arm64,  none,  none,     none,  none,  none,  none, all,    ##__VA_ARGS__)

/* The architectures a `where` names, in words (an absent strategy's reason). */
#define IOMAP_WHERE_all "x86-64 and arm64"
#define IOMAP_WHERE_x86_64 "x86-64"
#define IOMAP_WHERE_arm64 "arm64"

/* A _rep: its loops (IOMAP_LOOPS_<rep>) and its port instruction (IOMAP_INSN_<rep>) keep their arguments. */
#define IOMAP_LOOPS_loop(...) __VA_ARGS__
#define IOMAP_LOOPS_insn(...)
#define IOMAP_LOOPS_none(...)
#define IOMAP_INSN_loop(...)
#define IOMAP_INSN_insn(...) __VA_ARGS__
#define IOMAP_INSN_none(...)

/* The directions of a strategy's copies, as callbacks: their functions' names in the table (strategy.h). */
#define IOMAP_COPY_DIRS_all(X, ...) X(copy_fromio, ##__VA_ARGS__) X(copy_toio, ##__VA_ARGS__) X(set_io, ##__VA_ARGS__)
#define IOMAP_COPY_DIRS_toio(X, ...) X(copy_toio, ##__VA_ARGS__)
#define IOMAP_COPY_DIRS_fromio(X, ...) X(copy_fromio, ##__VA_ARGS__)
#define IOMAP_COPY_DIRS_none(X, ...)

/* Skip reasons more than one architecture's rows give. */
#define IOMAP_ORDERS_SINGLES "it orders single accesses; loops and copies with barriers are the barriered strategy"
#define IOMAP_SPLITS_64 "it splits 64-bit accesses for 32-bit-only devices: other widths, _rep and copies are " \
	"the other strategies'"

/* The architecture's rows, and IOMAP_ON_<where>/IOMAP_OFF_<where>: their arguments where it has them, or not. */
#include "iomap/asm/strategies.h"
#define IOMAP_ON_all(...) __VA_ARGS__
#define IOMAP_OFF_all(...)

/* IOMAP_PORTS keeps its arguments where the architecture has port instructions (IOMAP_HAVE_PORT_IO). */
#ifdef IOMAP_HAVE_PORT_IO
#define IOMAP_PORTS(...) __VA_ARGS__
#else
#define IOMAP_PORTS(...)
#endif

/*
 * The walks everything else is built from, in the list's order, over the
 * strategies this architecture has: IOMAP_EACH_STRATEGY(X, ...) calls X with
 * a strategy's whole line, and the others X(bits, type, k, reg, wreg, id,
 * access, order, ...) for each width that a column gives:
 *   IOMAP_EACH_MMIO        its single accesses on MMIO
 *   IOMAP_EACH_PORT        on ports (nothing without port instructions)
 *   IOMAP_EACH_REGION      through a region
 * and X(bits, type, k, reg, wreg, id, ...) for its _rep:
 *   IOMAP_EACH_MMIO_LOOP   the MMIO _rep loops
 *   IOMAP_EACH_PORT_LOOP   the port _rep loops
 *   IOMAP_EACH_PORT_REP    every port _rep: the loops and the instructions
 */
#define IOMAP_STRATEGY_(id, name, where, access, order, mmio, port, region, rep, copies, X, ...) \
	IOMAP_ON_##where(X(id, name, where, access, order, mmio, port, region, rep, copies, ##__VA_ARGS__))
#define IOMAP_MMIO_(id, name, where, access, order, mmio, port, region, rep, copies, X, ...)	\
	IOMAP_ON_##where(IOMAP_WIDTHS_##mmio(X, id, access, order, ##__VA_ARGS__))
#define IOMAP_PORT_(id, name, where, access, order, mmio, port, region, rep, copies, X, ...)	\
	IOMAP_ON_##where(IOMAP_PORTS(IOMAP_WIDTHS_##port(X, id, access, order, ##__VA_ARGS__)))
#define IOMAP_REGION_(id, name, where, access, order, mmio, port, region, rep, copies, X, ...)	\
	IOMAP_ON_##where(IOMAP_WIDTHS_##region(X, id, access, order, ##__VA_ARGS__))
#define IOMAP_MMIO_LOOP_(id, name, where, access, order, mmio, port, region, rep, copies, X, ...) \
	IOMAP_ON_##where(IOMAP_LOOPS_##rep(IOMAP_WIDTHS_##mmio(X, id, ##__VA_ARGS__)))
#define IOMAP_PORT_LOOP_(id, name, where, access, order, mmio, port, region, rep, copies, X, ...) \
	IOMAP_ON_##where(IOMAP_PORTS(IOMAP_LOOPS_##rep(IOMAP_WIDTHS_##port(X, id, ##__VA_ARGS__))))
#define IOMAP_PORT_REP_(id, name, where, access, order, mmio, port, region, rep, copies, X, ...) \
	IOMAP_PORT_LOOP_(id, name, where, access, order, mmio, port, region, rep, copies, X, ##__VA_ARGS__) \
	IOMAP_ON_##where(IOMAP_PORTS(IOMAP_INSN_##rep(IOMAP_PORT_WIDTHS(X, id, ##__VA_ARGS__))))
#define IOMAP_EACH_STRATEGY(X, ...) IOMAP_STRATEGY_LIST(IOMAP_STRATEGY_, X, ##__VA_ARGS__)
#define IOMAP_EACH_MMIO(X, ...) IOMAP_STRATEGY_LIST(IOMAP_MMIO_, X, ##__VA_ARGS__)
#define IOMAP_EACH_PORT(X, ...) IOMAP_STRATEGY_LIST(IOMAP_PORT_, X, ##__VA_ARGS__)
#define IOMAP_EACH_REGION(X, ...) IOMAP_STRATEGY_LIST(IOMAP_REGION_, X, ##__VA_ARGS__)
#define IOMAP_EACH_MMIO_LOOP(X, ...) IOMAP_STRATEGY_LIST(IOMAP_MMIO_LOOP_, X, ##__VA_ARGS__)
#define IOMAP_EACH_PORT_LOOP(X, ...) IOMAP_STRATEGY_LIST(IOMAP_PORT_LOOP_, X, ##__VA_ARGS__)
#define IOMAP_EACH_PORT_REP(X, ...) IOMAP_STRATEGY_LIST(IOMAP_PORT_REP_, X, ##__VA_ARGS__)

/*
 * The copies: X(id, copies) for each strategy here with copies, and, of the
 * strategies this architecture has not got, X(id) for each with a single
 * access (regbench lists its benchmarks at every width, skipped) and X(id,
 * copies) for each with copies.
 */
#define IOMAP_COPIES_(id, name, where, access, order, mmio, port, region, rep, copies, X)	\
	IOMAP_ON_##where(IOMAP_IF_##copies(X(id, copies), ))
#define IOMAP_ABSENT_SINGLES_(id, name, where, access, order, mmio, port, region, rep, copies, X) \
	IOMAP_OFF_##where(IOMAP_IF_##mmio(X, IOMAP_IF_##port(X, IOMAP_NO_FORM))(id))
#define IOMAP_ABSENT_COPIES_(id, name, where, access, order, mmio, port, region, rep, copies, X) \
	IOMAP_OFF_##where(IOMAP_IF_##copies(X(id, copies), ))
#define IOMAP_COPY_STRATEGIES(X) IOMAP_STRATEGY_LIST(IOMAP_COPIES_, X)
#define IOMAP_ABSENT_SINGLES(X) IOMAP_STRATEGY_LIST(IOMAP_ABSENT_SINGLES_, X)
#define IOMAP_ABSENT_COPIES(X) IOMAP_STRATEGY_LIST(IOMAP_ABSENT_COPIES_, X)
#define IOMAP_NO_FORM(...)

/*
 * The rows of the strategies the generic layer builds, the splits (from
 * readl, io.h) and lib/iomap_copy.c's word copies (src/copy.c), for each
 * architecture that does not give its own, as asm-generic/io.h fills in what
 * an architecture's asm/io.h leaves undefined (x86-64's splits say what
 * their port forms are; its __iowrite32_copy is rep movsl).
 */
#ifndef IOMAP_ROW_lo_hi
#define IOMAP_ROW_lo_hi ( \
	.help = "a 64-bit access as two 32-bit ones, low half first: lo_hi_readq/writeq (two readl)", \
	.lacks = IOMAP_SPLITS_64 \
)
#endif
#ifndef IOMAP_ROW_hi_lo
#define IOMAP_ROW_hi_lo ( \
	.help = "a 64-bit access as two 32-bit ones, high half first: hi_lo_readq/writeq", \
	.lacks = IOMAP_SPLITS_64 \
)
#endif
#ifndef IOMAP_ROW_iowrite32_copy
#define IOMAP_ROW_iowrite32_copy ( \
	.help = "Linux __iowrite32_copy (v6.1: lib/iomap_copy.c): a loop of __raw_writel, whole 32-bit words, to " \
		"the device only", \
	.lacks = "it copies whole 32-bit words to the device only (__iowrite32_copy)", \
	.copy_widths = 4, .copy_element = 4, .copy_words = true \
)
#endif
#ifndef IOMAP_ROW_iowrite64_copy
#define IOMAP_ROW_iowrite64_copy ( \
	.help = "Linux __iowrite64_copy (v6.1: lib/iomap_copy.c): a loop of __raw_writeq, whole 64-bit words, to " \
		"the device only", \
	.lacks = "it copies whole 64-bit words to the device only (__iowrite64_copy)", \
	.copy_widths = 8, .copy_element = 8, .copy_words = true \
)
#endif
#ifndef IOMAP_ROW_ioread32_copy
#define IOMAP_ROW_ioread32_copy ( \
	.help = "Linux __ioread32_copy (v6.1: lib/iomap_copy.c): a loop of __raw_readl, whole 32-bit words, from " \
		"the device only", \
	.lacks = "it copies whole 32-bit words from the device only (__ioread32_copy)", \
	.copy_widths = 4, .copy_element = 4, .copy_words = true \
)
#endif

/*
 * A strategy's row of the run-time table (strategy.h), from its line:
 * IOMAP_TABLE_ROW(its line) is, where the architecture has it, its name, its
 * architecture's row (IOMAP_ROW_<id>: help, lacks, what its copies issue, a
 * CPU feature) and the forms that follow from the line (IOMAP_SINGLES: its
 * single accesses and their widths, its _rep, its copies: flags and
 * function pointers); where not, its name and why it is absent.
 */
#define IOMAP_UNPAREN(...) __VA_ARGS__
#define IOMAP_ROW_FIELDS_(row) IOMAP_UNPAREN row
#define IOMAP_WIDTH_BIT(bits, type, k, reg, wreg) (bits) / 8 |
#define IOMAP_SINGLE_PTRS(bits, type, k, reg, wreg, id)			\
	.read##bits = iomap_read##bits##_##id, .write##bits = iomap_write##bits##_##id,
#define IOMAP_READ_REP_PTR(bits, type, k, reg, wreg, id) iomap_read##bits##_rep_##id,
#define IOMAP_WRITE_REP_PTR(bits, type, k, reg, wreg, id) iomap_write##bits##_rep_##id,
#define IOMAP_COPY_PTR(dir, id) .dir = iomap_##dir##_##id,
#define IOMAP_PORT_FIELDS(port, rep)						\
	.port_single = IOMAP_IF_##port(true, false), .port_widths = IOMAP_WIDTHS_##port(IOMAP_WIDTH_BIT) 0,	\
	.port_rep = IOMAP_LOOPS_##rep(IOMAP_IF_##port(true, false) ||) IOMAP_INSN_##rep(true ||) false,
#define IOMAP_SINGLES(id, access, mmio, port, rep, copies)			\
	.single = IOMAP_IF_##mmio(true, false), .single_widths = IOMAP_WIDTHS_##mmio(IOMAP_WIDTH_BIT) 0,	\
	.single_issues64 = IOMAP_ISSUES_##access(64), IOMAP_PORTS(IOMAP_PORT_FIELDS(port, rep))	\
	IOMAP_WIDTHS_##mmio(IOMAP_SINGLE_PTRS, id)					\
	.mmio_rep = IOMAP_LOOPS_##rep(true ||) false,					\
	IOMAP_LOOPS_##rep(.read_rep = { IOMAP_WIDTHS_##mmio(IOMAP_READ_REP_PTR, id) },	\
			  .write_rep = { IOMAP_WIDTHS_##mmio(IOMAP_WRITE_REP_PTR, id) },)	\
	.copy = IOMAP_IF_##copies(true, false), IOMAP_COPY_DIRS_##copies(IOMAP_COPY_PTR, id)
#define IOMAP_ABSENT_WHY(where) IOMAP_WHERE_##where " only, not on " IOMAP_ARCH_NAME " CPUs"
#define IOMAP_TABLE_ROW(id_, name_, where, access, order, mmio, port, region, rep, copies)	\
	IOMAP_ON_##where({ .name = name_, .id = #id_, IOMAP_ROW_FIELDS_(IOMAP_ROW_##id_),		\
			   IOMAP_SINGLES(id_, access, mmio, port, rep, copies) },)			\
	IOMAP_OFF_##where({ .name = name_, .id = #id_, .help = IOMAP_ABSENT_WHY(where),		\
			    .lacks = IOMAP_ABSENT_WHY(where), .absent = IOMAP_ABSENT_WHY(where) },)

#endif
