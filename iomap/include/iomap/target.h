/* target.h: targets (something register-like, mapped): opening one from its spec, what it is, the kinds there are */
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

/*
 * How a target is reached: memory instructions (MMIO), in/out (PIO), or
 * pread/pwrite of a device file's region (REGION: vfio-pci's, iomap/region.h),
 * where each access is a system call and the kernel makes the access.
 */
enum iomap_space { IOMAP_SPACE_MMIO, IOMAP_SPACE_PIO, IOMAP_SPACE_REGION };
enum iomap_mapping { IOMAP_MAP_WB, IOMAP_MAP_UC, IOMAP_MAP_WC, IOMAP_MAP_TRAP, IOMAP_MAP_PORT, IOMAP_MAP_PREAD };

/* Access widths as a set of byte counts. */
#define IOMAP_WIDTH_8	1u
#define IOMAP_WIDTH_16	2u
#define IOMAP_WIDTH_32	4u
#define IOMAP_WIDTH_64	8u
#define IOMAP_WIDTHS_ALL 0xfu

/*
 * What the caller permits on real hardware beyond reading.  Offsets count
 * from the start of the BAR or port range the spec names, not from its off=
 * window.
 */
struct iomap_permit {
	uint64_t write_off, write_len;		/* writes allowed in [write_off, +write_len); len 0: none */
	bool force;				/* use a device or ports although a driver owns them */
};

/* A target kind (a backend): private to the library; see iomap_target_kind_*() below. */
struct iomap_target_kind;

/*
 * An open target.  `base` is an MMIO mapping, or an ioport_map() cookie for
 * port space.  A target may also have a port window beside its MMIO one (the
 * trap device has both): `port` is then its ioport_map() cookie.  A device
 * with registers that mean something names the offsets (in both windows)
 * where a caller may safely hammer: reg_off for single accesses, fifo_off
 * for _rep, and [copy_off, copy_off + copy_len) of the MMIO window for copies;
 * memory keeps 0 and its whole length (copy_len 0 at open means the rest of
 * the window from copy_off).
 */
struct iomap_target {
	char spec[128];				/* the spec as given */
	const struct iomap_target_kind *kind;
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
	int bar;				/* the BAR of a PCI device, else -1 */
	char iommu[32];				/* a vfio target's IOMMU: "type1" or "noiommu", else empty */

	/*
	 * Real hardware (pci, port, vfio): read-only unless permit allows a write
	 * window, accesses only of the widths in `widths` (0: any), and the
	 * first read is checked for all-ones.  `off` is where base lies in the
	 * BAR or port range, the origin of permit's window.
	 */
	bool hardware;
	struct iomap_permit permit;
	uint64_t off;
	unsigned int widths;

	void *config;				/* the backend's parsed options */
	void *priv;				/* the backend's state */
};

#define IOMAP_DEFAULT_TARGET "ram"

/*
 * Parse and open a spec such as "ram:64k" (grammar: iomap_target_kind_grammar);
 * 0, or -1 with errno and a one-line reason in why ("target 'SPEC': why (what
 * to try)").  t is zeroed first.
 */
int iomap_target_open(struct iomap_target *t, const char *text, char *why, size_t whylen);

/*
 * The same with what the caller permits on hardware (NULL: nothing); then
 * checks what every backend must: the write window inside the target's
 * window, the base aligned for the widest allowed access.  errno EBUSY means
 * a driver owns the device or ports (permit->force would use them anyway).
 */
int iomap_target_open_permit(struct iomap_target *t, const char *text, const struct iomap_permit *p,
			     char *why, size_t whylen);
void iomap_target_close(struct iomap_target *t);

/*
 * Parse a spec without opening anything, and write it back in its canonical
 * form (every default spelled out, numbers as the grammar prints them) into
 * out; 0, or -1 with errno EINVAL and the reason in why.
 */
int iomap_spec_canonical(const char *text, char *out, size_t outlen, char *why, size_t whylen);

/* May n bytes at offset off of the window be written? */
bool iomap_target_may_write(const struct iomap_target *t, uint64_t off, uint64_t n);

/* Does the target accept accesses of this many bytes? */
bool iomap_target_allows_width(const struct iomap_target *t, unsigned int bytes);

/*
 * One read of `bytes` (1, 2, 4 or 8) at offset off of the window, the way
 * the target's space is reached (a mov, an in, a pread), returned as read.
 * On hardware it may fault (a device gone): call it where a fault is caught.
 */
uint64_t iomap_target_read(const struct iomap_target *t, size_t off, unsigned int bytes);

/*
 * Whether the device behind a hardware target still decodes the target's
 * space (the memory or I/O enable of a PCI device's command register): 0,
 * or -1 with errno and a one-line reason in why.  Targets without such a
 * register always do.
 */
int iomap_target_decoding(const struct iomap_target *t, char *why, size_t whylen);

/* The kinds of instruction an access can be made of, for iomap_target_why_not. */
enum iomap_insn {
	IOMAP_INSN_MOV,		/* mov, in, out of 1 to 8 bytes */
	IOMAP_INSN_STRING,	/* rep movs/stos/ins/outs */
	IOMAP_INSN_VECTOR,	/* whole-register vector loads and stores of `bytes` (16, 32 or 64) */
	IOMAP_INSN_ANY,		/* code not built on libiomap, which may issue any instruction */
};

/* Why t cannot take accesses made of insn (of `bytes` for vectors), or NULL when it can. */
const char *iomap_target_why_not(const struct iomap_target *t, enum iomap_insn insn, unsigned int bytes);

/*
 * For SIGSEGV/SIGBUS handlers of the program: offer the fault to the
 * targets first (the trap target emulates its accesses this way, whichever
 * handler was installed last).  1 when a target handled it and the handler
 * should return at once, else 0.  Async-signal-safe.
 */
int iomap_target_fault(int signo, siginfo_t *si, void *uc);

const char *iomap_space_name(enum iomap_space s);	/* "mmio", "pio", "region" */
const char *iomap_mapping_name(enum iomap_mapping m);	/* "wb", "uc", "wc", "trap", "port", "pread" */

/*
 * The kinds, numbered 0 .. iomap_target_kind_count() - 1 in listing order.
 * name: the spec's first word ("ram"); grammar: its spec ("ram[:SIZE][,huge]");
 * help: one line.  probe: whether the kind can work on this machine at all,
 * 0 or -1 with the reason in why.  describe: what it can reach here
 * (devices, BARs, and why not), indented lines; nothing for kinds without.
 */
size_t iomap_target_kind_count(void);
const char *iomap_target_kind_name(size_t i);
const char *iomap_target_kind_grammar(size_t i);
const char *iomap_target_kind_help(size_t i);
int iomap_target_kind_probe(size_t i, char *why, size_t whylen);
void iomap_target_kind_describe(size_t i, FILE *out);

/* The kind name of an open target ("pci"), or "" when it is not open. */
const char *iomap_target_kind_of(const struct iomap_target *t);

/*
 * A kernel: target maps nothing here (base is NULL): the regbench kernel
 * module (bench/kmod) makes its accesses.  Its open /dev/regbench, through
 * which a program runs benchmarks in the kernel (regbench.h's RUN), or -1
 * for every other target.
 */
int iomap_target_kernel_fd(const struct iomap_target *t);

#ifdef __cplusplus
}
#endif

#endif
