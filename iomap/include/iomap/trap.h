/* trap.h: the trap target's device side: the default layout, register models and the access log */
#ifndef IOMAP_TRAP_H
#define IOMAP_TRAP_H

#include <stddef.h>
#include <stdint.h>

#include "iomap/target.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The trap device (spec `trap[:MODEL]`) is emulated inside the process: its
 * MMIO window is an inaccessible mapping and its port window a port range the
 * process holds no permission for, so every access faults; the fault is
 * decoded, emulated against the register models below and logged.  One trap
 * target may be open at a time, and the device is meant for one thread (the
 * emulation runs in that thread's SIGSEGV handler).
 *
 * The default layout (`trap` or `trap:default`).  The MMIO window is
 * IOMAP_TRAP_MMIO_LEN bytes; the port window (IOMAP_TRAP_PORT_LEN ports from
 * IOMAP_TRAP_PORT_BASE) carries the same registers below 0x100 with its own
 * state.  Offsets no register covers are reserved: they read all-ones and
 * ignore writes.
 */
#define IOMAP_TRAP_MMIO_LEN	0x2000u
#define IOMAP_TRAP_PORT_BASE	0xc000u
#define IOMAP_TRAP_PORT_LEN	0x100u

#define IOMAP_TRAP_OFF_ID		0x000u	/* read-only, 8 bytes: IOMAP_TRAP_ID_VALUE */
#define IOMAP_TRAP_OFF_SCRATCH	0x008u	/* scratch, 0x38 bytes: seven 8-byte registers */
#define IOMAP_TRAP_SCRATCH_LEN	0x038u
#define IOMAP_TRAP_OFF_FIFO		0x040u	/* FIFO: writes push, reads pop */
#define IOMAP_TRAP_OFF_COUNTER	0x048u	/* each read returns the next value; a write sets it */
#define IOMAP_TRAP_OFF_STATUS_RC	0x050u	/* read-to-clear status */
#define IOMAP_TRAP_OFF_STATUS_W1C	0x058u	/* write-1-to-clear status */
#define IOMAP_TRAP_OFF_COPY		0x1000u	/* scratch window for copies (MMIO only) */
#define IOMAP_TRAP_COPY_LEN	0x1000u

/* The ID register: the bytes "TRAP", then version 1, little-endian. */
#define IOMAP_TRAP_ID_VALUE	0x0000000150415254ull

/* FIFO entries (one per write); a push onto a full FIFO is dropped. */
#define IOMAP_TRAP_FIFO_DEPTH	1024u
/* What a read of the empty FIFO returns (cut to the access width). */
#define IOMAP_TRAP_FIFO_EMPTY	0xffffffffffffffffull

/*
 * Register models.  Byte-wise models (scratch, id, rc, w1c, reserved) apply
 * to each byte an access covers, so a narrow access touches only its bytes;
 * the FIFO and the counter are value models: each access moves one entry or
 * one value, of which it sees the bytes it covers.
 */
enum iomap_trap_model {
	IOMAP_TRAP_MODEL_RESERVED,	/* reads all-ones, writes ignored */
	IOMAP_TRAP_MODEL_SCRATCH,	/* plain storage */
	IOMAP_TRAP_MODEL_ID,	/* reads its value, writes ignored */
	IOMAP_TRAP_MODEL_FIFO,	/* reads pop (empty: IOMAP_TRAP_FIFO_EMPTY), writes push */
	IOMAP_TRAP_MODEL_COUNTER,	/* a read returns the value, then it increments; a write sets it */
	IOMAP_TRAP_MODEL_RC,	/* a read returns the bits and clears them; writes ignored */
	IOMAP_TRAP_MODEL_W1C,	/* reads return the bits; writing a 1 clears that bit */
};

/*
 * Give [off, off+len) of a window the model `model`, starting from `value`
 * (the ID's or counter's value, the initial bits of storage models; FIFOs
 * start empty).  A later register covers earlier ones where they overlap.
 * 0, or -1 with errno EINVAL (outside the window, or not a trap target) or
 * ENOSPC (too many registers).
 */
int iomap_trap_set_reg(struct iomap_target *t, enum iomap_space space, size_t off, size_t len,
		       enum iomap_trap_model model, uint64_t value);

/*
 * The device side, without side effects and not logged: poke sets the
 * bytes behind byte-wise registers (a device raising status bits), peek
 * reads them.  0, or -1 with errno EINVAL.
 */
int iomap_trap_poke(struct iomap_target *t, enum iomap_space space, size_t off, const void *buf, size_t n);
int iomap_trap_peek(const struct iomap_target *t, enum iomap_space space, size_t off, void *buf, size_t n);

/* Back to the layout the spec chose: storage, FIFOs and counters reset; the log is kept. */
void iomap_trap_reset(struct iomap_target *t);

/*
 * The access log: every emulated access in order, one entry per access (a
 * `rep` string instruction logs one entry per element).  It stops when full
 * and counts what it dropped: a test that resets it first sees everything.
 */
#define IOMAP_TRAP_LOG_CAPACITY 65536u

enum iomap_trap_dir { IOMAP_TRAP_READ, IOMAP_TRAP_WRITE };

struct iomap_trap_access {
	uint64_t value;		/* the bytes moved, little-endian; a vector access's first 8 */
	uint32_t offset;	/* from the start of the window (MMIO) or IOMAP_TRAP_PORT_BASE (ports) */
	uint8_t width;		/* bytes: 1, 2, 4, 8, 16, 32 or 64 */
	uint8_t dir;		/* enum iomap_trap_dir */
	uint8_t space;		/* enum iomap_space */
};

/* The entries kept so far (count in *n); valid until the next access or reset. */
const struct iomap_trap_access *iomap_trap_log(const struct iomap_target *t, size_t *n);
/* Accesses that did not fit the log since the last reset. */
uint64_t iomap_trap_log_dropped(const struct iomap_target *t);
void iomap_trap_log_reset(struct iomap_target *t);

/* The exit status of a process that met an access the trap target cannot emulate. */
#define IOMAP_TRAP_EXIT_UNSUPPORTED 70

#ifdef __cplusplus
}
#endif

#endif
