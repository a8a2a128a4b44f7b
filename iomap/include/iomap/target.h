/* target.h: targets (something register-like, mapped), their specs and the backend ops */
#ifndef IOMAP_TARGET_H
#define IOMAP_TARGET_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "iomap/compiler.h"

#ifdef __cplusplus
extern "C" {
#endif

enum iomap_space { IOMAP_SPACE_MMIO, IOMAP_SPACE_PIO };
enum iomap_mapping { IOMAP_MAP_WB, IOMAP_MAP_UC, IOMAP_MAP_WC, IOMAP_MAP_TRAP, IOMAP_MAP_PORT };

struct iomap_target_ops;

/*
 * A parsed target spec.  Grammar (numbers: decimal or 0x hex, sizes may end
 * in k, m, g or t for KiB, MiB, GiB, TiB; PCI fields are hex, as lspci prints them):
 *   ram[:SIZE][,huge]
 *   trap[:MODEL]
 *   pci:[[DOMAIN:]BUS:]DEV.FN/BAR[,wc][,off=N][,len=N][,widths=W]
 *   pci:VENDOR:DEVICE/BAR[,wc][,off=N][,len=N][,widths=W]
 *   port:BASE[+LEN][,widths=W]
 * W lists the access widths a device accepts, in bits joined by '+'
 * (widths=32, widths=8+16+32); benchmarks of other widths are skipped.
 */
struct iomap_spec {
	char text[128];				/* the spec as given */
	const struct iomap_target_ops *ops;	/* its kind */

	size_t size;				/* ram: bytes */
	bool huge;				/* ram: 2 MiB pages */
	char model[32];				/* trap: device model name */

	bool by_id;				/* pci: VENDOR:DEVICE rather than a slot */
	int domain, bus, dev, fn;		/* pci: slot */
	unsigned int vendor, device;		/* pci: ids */
	int bar;				/* pci: BAR index 0..5 */
	bool wc;				/* pci: map resourceN_wc */
	bool has_off, has_len;			/* pci: window inside the BAR */
	uint64_t off, len;

	unsigned int port_base, port_len;	/* port */
	unsigned int widths;			/* pci, port: allowed widths (IOMAP_WIDTH_*), 0: all */
};

/* Access widths as a set of byte counts. */
#define IOMAP_WIDTH_8	1u
#define IOMAP_WIDTH_16	2u
#define IOMAP_WIDTH_32	4u
#define IOMAP_WIDTH_64	8u
#define IOMAP_WIDTHS_ALL 0xfu

/*
 * What the caller permits on real hardware (regbench's --allow-write and
 * --force).  Offsets count from the start of the BAR or port range the spec
 * names, not from its off= window.
 */
struct iomap_permit {
	uint64_t write_off, write_len;		/* writes allowed in [write_off, +write_len); len 0: none */
	bool force;				/* open a device although a driver is bound to it */
};

/*
 * An open target.  `base` is an MMIO mapping, or an ioport_map() cookie for
 * port space.  A target may also have a port window beside its MMIO one (the
 * trap device has both): `port` is then its ioport_map() cookie.  A device
 * with registers that mean something names the offsets (in both windows)
 * where a benchmark may safely hammer: reg_off for single accesses, fifo_off
 * for _rep, and [copy_off, copy_off + copy_len) of the MMIO window for copies;
 * memory keeps 0 and its whole length (copy_len 0 at open means the rest of
 * the window from copy_off).
 */
struct iomap_target {
	struct iomap_spec spec;
	void __iomem *base;
	size_t len;				/* bytes (MMIO) or ports (PIO) reachable from base */
	enum iomap_space space;
	void __iomem *port;			/* a second window in port space, or NULL */
	size_t port_len;
	enum iomap_mapping mapping;
	bool writable;				/* writes allowed anywhere in [0, len) */
	size_t reg_off, fifo_off;		/* a scratch register, a FIFO register */
	size_t copy_off, copy_len;		/* the window copies may use */
	char what[256];				/* one line for people: what was mapped and how */
	char device[64];			/* "ven:dev slot" for devices, else empty */
	void *priv;				/* the backend's */

	/*
	 * Real hardware (pci, port): read-only unless permit allows a write
	 * window, accesses only of the widths in `widths` (0: any), and the
	 * first read is checked for all-ones.  `off` is where base lies in the
	 * BAR or port range, the origin of permit's window.
	 */
	bool hardware;
	struct iomap_permit permit;
	uint64_t off;
	unsigned int widths;
};

/*
 * One instance per backend (target-ram.c, ...), in the table of target.c.
 * probe() says whether the kind can work on this machine at all; open() maps
 * t->spec and fills the rest of *t.  Both return 0, or -1 with a one-line
 * reason in why ("what: cause (what to try)").  Optional: why_not() says why
 * an open target cannot take the accesses of a strategy (by name, "libc"
 * included), NULL when it can; fault() emulates a fault on the target's
 * windows from a signal handler and returns 1, or 0 when the fault is not
 * the target's.
 */
struct iomap_target_ops {
	const char *name;			/* the spec's kind: "ram" */
	const char *grammar;			/* "ram[:SIZE][,huge]" */
	const char *help;			/* one line */
	int (*probe)(char *why, size_t whylen);
	int (*open)(struct iomap_target *t, char *why, size_t whylen);
	void (*close)(struct iomap_target *t);
	const char *(*why_not)(const struct iomap_target *t, const char *strategy);
	int (*fault)(int signo, siginfo_t *si, void *uc);
	/* optional: print what this kind can reach here (devices, BARs, why not), indented */
	void (*describe)(FILE *out);
};

/* The known kinds, in listing order. */
extern const struct iomap_target_ops *const iomap_target_kinds[];
extern const size_t iomap_nr_target_kinds;

#define IOMAP_DEFAULT_TARGET "ram"

/* Parse text into *spec; 0, or -1 with a one-line reason in why. */
int iomap_spec_parse(const char *text, struct iomap_spec *spec, char *why, size_t whylen);

/* Parse and open; 0, or -1 with a one-line reason in why.  t is zeroed first. */
int iomap_target_open(struct iomap_target *t, const char *text, char *why, size_t whylen);

/*
 * The same with what the caller permits on hardware (NULL: nothing); then
 * checks what every backend must: the write window inside the target's
 * window, the base aligned for the widest allowed access.
 */
int iomap_target_open_permit(struct iomap_target *t, const char *text, const struct iomap_permit *p,
			     char *why, size_t whylen);

/* May n bytes at offset off of the window be written? */
bool iomap_target_may_write(const struct iomap_target *t, uint64_t off, uint64_t n);

/* Does the target accept accesses of this many bytes? */
bool iomap_target_allows_width(const struct iomap_target *t, unsigned int bytes);
void iomap_target_close(struct iomap_target *t);

/* Availability of a kind on this machine: 0, or -1 with the reason in why. */
int iomap_target_probe(const struct iomap_target_ops *ops, char *why, size_t whylen);

/* Why t cannot take strategy's accesses (the backend's why_not), or NULL. */
const char *iomap_target_why_not(const struct iomap_target *t, const char *strategy);

/*
 * For SIGSEGV/SIGBUS handlers of the program: offer the fault to the
 * targets first (the trap target emulates its accesses this way, whichever
 * handler was installed last).  1 when a target handled it and the handler
 * should return at once, else 0.  Async-signal-safe.
 */
int iomap_target_fault(int signo, siginfo_t *si, void *uc);

const char *iomap_space_name(enum iomap_space s);	/* "mmio", "pio" */
const char *iomap_mapping_name(enum iomap_mapping m);	/* "wb", "uc", "wc", "trap", "port" */

#ifdef __cplusplus
}
#endif

#endif
