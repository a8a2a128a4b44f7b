/* trap-dev.h (private): the trap device's state, shared by the backend, the models and the emulator */
#ifndef IOMAP_SRC_TRAP_DEV_H
#define IOMAP_SRC_TRAP_DEV_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "iomap/trap.h"

#define TRAP_MAX_REGS 32	/* registers per window, layout and set_reg together */

struct trap_reg {
	size_t off, len;
	enum iomap_trap_model model;
	uint64_t value;		/* counter: the next read; ID and storage: initial bytes */
	uint64_t init;		/* value at reset */
	uint32_t head, level;	/* FIFO: next entry to pop, entries held */
	uint64_t fifo[IOMAP_TRAP_FIFO_DEPTH];
};

/* One window (MMIO or ports), indexed by enum iomap_space. */
struct trap_window {
	uintptr_t base;		/* MMIO: the mapping's address; ports: the first port */
	size_t len;		/* bytes or ports */
	unsigned char *store;	/* len bytes behind the byte-wise registers */
	size_t nregs;
	struct trap_reg regs[TRAP_MAX_REGS];
};

/*
 * Where the signal frame's XSAVE area keeps each vector piece (standard
 * format, offsets from CPUID leaf 0xD), and which components XCR0 enables:
 * x86-64's (arm64's frame keeps its vector registers in one fixed layout).
 */
struct trap_xstate {
	uint64_t xcr0;
	uint32_t off[8], size[8];	/* by component: 2 YMM_Hi128, 6 ZMM_Hi256, 7 Hi16_ZMM */
};

struct trap_dev {
	struct trap_window win[2];
	const char *layout;
	struct trap_xstate xs;
	struct iomap_trap_access log[IOMAP_TRAP_LOG_CAPACITY];
	size_t log_count;
	uint64_t log_dropped;
};

/* trap-model.c: layouts, the register models, the log; trap_access is async-signal-safe. */
int trap_layout_apply(struct trap_dev *d, const char *name, char *why, size_t whylen);
/* A register of model at [off, off+len) of w, starting at value: 0, or -1 with errno (EINVAL, ENOSPC). */
int trap_reg_add(struct trap_window *w, size_t off, size_t len, enum iomap_trap_model model, uint64_t value);
void trap_access(struct trap_dev *d, enum iomap_space space, size_t off, unsigned int width,
		 enum iomap_trap_dir dir, void *data);

/*
 * iomap/arch/ARCH/trap-decode.c: decoding and emulating a faulting instruction
 * (async-signal-safe); trap_vector_why_not says why vectors of `bytes` cannot
 * be emulated here, or NULL.
 */
void trap_decode_init(struct trap_xstate *xs);
const char *trap_vector_why_not(const struct trap_xstate *xs, unsigned int bytes);
int trap_emulate(struct trap_dev *d, int signo, siginfo_t *si, void *uc);

/* Whether the architecture has I/O instructions, so that the trap device has a port window to trap. */
extern const int trap_ports;

/*
 * trap-emulate.c, for the decoders.  trap_mem_move moves n bytes at address a
 * between buf and the MMIO window's model, or plain memory outside the
 * window; -1 (nothing moved) when the access crosses the window's edge.  A
 * trap_line is the one-line report of what cannot be emulated, built in
 * place; trap_line_exit adds the newline, shows it and ends the process.
 */
int trap_mem_move(struct trap_dev *d, uint64_t a, void *buf, size_t n, enum iomap_trap_dir dir);
struct trap_line {
	char buf[512];
	size_t n;
};
void trap_line_put(struct trap_line *l, const char *s);
void trap_line_hex(struct trap_line *l, uint64_t v);
void __attribute__((noreturn)) trap_line_exit(struct trap_line *l);

/*
 * For a fuzzing harness, NULL otherwise: called with the one-line report
 * (len bytes, ending in a newline) of an instruction that cannot be emulated,
 * before the process would end; a harness jumps out of it to go on.
 */
extern void (*trap_unsupported_hook)(const char *line, size_t len);

/*
 * target-trap.c: the open device t is, or NULL (a closed target, another
 * kind's); fuzz-trap.c drives the emulator with it.
 */
struct trap_dev *trap_dev_of(const struct iomap_target *t);

#endif
