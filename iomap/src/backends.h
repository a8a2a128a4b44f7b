/* backends.h (private): what a target backend provides, and the helpers the backends share */
#ifndef IOMAP_SRC_BACKENDS_H
#define IOMAP_SRC_BACKENDS_H

#include "iomap/pci.h"
#include "iomap/target.h"

/* Where sysfs lists the PCI devices, each by its slot. */
#define SYSFS_DEVICES "/sys/bus/pci/devices"

/*
 * One instance per backend file (target-ram.c, ...), ending the file, and its
 * name in IOMAP_TARGET_KINDS below.  A backend owns its part of the spec:
 * parse() reads what follows the kind's name (args, starting with the ':' or
 * ',' the user wrote, or "" when nothing follows) into its config of
 * config_size bytes, zeroed before; format() writes the config back in its
 * canonical form.  probe() says whether the kind can work on this machine at
 * all; open() maps the config into *t.  parse, probe and open return 0, or
 * -1 with a one-line reason in why ("cause (what to try)"; target.c puts
 * "target 'SPEC': " before it) and errno.  Optional: close(); why_not() says
 * why an open target cannot take accesses made of an instruction kind, NULL
 * when it can; fault() emulates a fault on the target's windows from a
 * signal handler and returns 1, or 0 when the fault is not the target's;
 * decoding() says whether the device behind an open hardware target still
 * decodes the target's space (0, or -1 with the reason); read() makes one
 * read for a target that maps nothing in this process (kernel); describe()
 * prints what the kind can reach here, indented.
 */
struct iomap_target_kind {
	const char *name;			/* the spec's kind: "ram" */
	const char *grammar;			/* "ram[:SIZE][,huge]" */
	const char *help;			/* one line */
	size_t config_size;
	int (*parse)(void *config, const char *args, char *why, size_t whylen);
	void (*format)(const void *config, char *out, size_t outlen);
	int (*probe)(char *why, size_t whylen);
	int (*open)(struct iomap_target *t, const void *config, char *why, size_t whylen);
	void (*close)(struct iomap_target *t);
	const char *(*why_not)(const struct iomap_target *t, enum iomap_insn insn, unsigned int bytes);
	int (*fault)(int signo, siginfo_t *si, void *uc);
	int (*decoding)(const struct iomap_target *t, char *why, size_t whylen);
	uint64_t (*read)(const struct iomap_target *t, size_t off, unsigned int bytes);
	void (*describe)(FILE *out);
};

/*
 * Every kind, in the order listings show them: each is the instance
 * iomap_target_KIND that ends target-KIND.c.  A new kind is a new file and a
 * word here.
 */
#define IOMAP_TARGET_KINDS(X) X(ram) X(trap) X(pci) X(port) X(vfio) X(kernel)

#define IOMAP_DECLARE_KIND(k) extern const struct iomap_target_kind iomap_target_##k;
IOMAP_TARGET_KINDS(IOMAP_DECLARE_KIND)
#undef IOMAP_DECLARE_KIND

/*
 * The spec grammar's pieces (spec.c), for the backends' parsers.  Each
 * returns 0, or -1 when s is not one.
 *   iomap_parse_number  a whole unsigned number: base 0 is decimal or 0x hex
 *                       (never octal), units allows a k/m/g/t suffix (binary)
 *   iomap_parse_widths  8+16+32: access widths in bits, as IOMAP_WIDTH_* bits
 *   iomap_next_option   the next ','-separated option of *rest into opt
 *                       (at most optlen bytes with its NUL); 0 at the end
 */
int iomap_parse_number(const char *s, int base, int units, uint64_t *out);
int iomap_parse_widths(const char *s, unsigned int *out);
int iomap_next_option(const char **rest, char *opt, size_t optlen);
/* Appends ",widths=8+16" for a set of widths (nothing for none), for format(). */
void iomap_format_widths(unsigned int widths, char *out, size_t outlen);
/* Writes a one-line reason into why and sets errno; returns -1. */
int iomap_fail(char *why, size_t whylen, int err, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * The kind called name, or NULL (target.c); a spec parsed into its kind and
 * a new config (spec.c; free() it): 0, or -1 with errno and the reason.
 */
const struct iomap_target_kind *iomap_find_kind(const char *name);
int iomap_spec_parse(const char *text, const struct iomap_target_kind **kind, void **config, char *why,
		     size_t whylen);

/*
 * Port I/O permission (target-port.c), shared by the port target and the
 * I/O BARs of pci.c: 0, or -1 with errno and a one-line reason in why.
 * iomap_port_usable() says whether this process can get any at all.
 */
int iomap_port_request(unsigned int base, unsigned int n, char *why, size_t whylen);
void iomap_port_release(unsigned int base, unsigned int n);
int iomap_port_usable(char *why, size_t whylen);

/*
 * What the pci and vfio kinds share (target-pci.c): a spec SELECTOR/BAR
 * (the selector as lspci takes it, iomap/pci.h) with off=, len= and widths=.
 *   iomap_bar_spec_parse   SELECTOR/BAR and the options: the shared ones
 *                          and the kind's own flag (wc, pread: *set), named
 *                          with aside in the message for an unknown one
 *   iomap_bar_spec_format  the canonical form: "KIND:SELECTOR/BAR", the
 *                          flag when set, then the shared options
 *   iomap_bar_spec_window  the window's length in the device's BAR, after
 *                          checking that the BAR exists and the window fits
 *   iomap_bar_spec_target  what the open target holds of both: len, off,
 *                          widths (no 64-bit on I/O BARs), bar, device
 *   iomap_pci_chosen       " (the first ... of N devices matching ...)"
 *                          when the selector matched several, else ""
 */
struct iomap_bar_spec {
	struct iomap_pci_selector sel;
	int bar;			/* 0..5 */
	bool has_off, has_len;
	uint64_t off, len;
	unsigned int widths;		/* allowed access widths (IOMAP_WIDTH_*), 0: all */
};
int iomap_bar_spec_parse(struct iomap_bar_spec *c, const char *kind, const char *flag, bool *set, const char *aside,
			 const char *args, char *why, size_t whylen);
void iomap_bar_spec_format(const struct iomap_bar_spec *c, const char *kind, const char *flag, char *out,
			   size_t outlen);
int iomap_bar_spec_window(const struct iomap_bar_spec *c, const struct iomap_pci_dev *d, uint64_t *len,
			  char *why, size_t whylen);
void iomap_bar_spec_target(const struct iomap_bar_spec *c, const struct iomap_pci_dev *d, uint64_t len,
			   struct iomap_target *t);
const char *iomap_pci_chosen(const struct iomap_bar_spec *c, const struct iomap_pci_dev *d, char *buf, size_t len);
/* "1 MiB", "256 bytes"; "MMIO 64-bit prefetchable", "I/O" (target-pci.c). */
const char *iomap_human_size(uint64_t n, char *buf, size_t len);
const char *iomap_pci_bar_kind(const struct iomap_pci_bar *b);

/*
 * Whether the device at slot still decodes I/O (io) or memory, from its
 * command register in sysfs (pci.c): 0, or -1 with the reason.
 */
int iomap_pci_decoding(const char *slot, bool io, char *why, size_t whylen);

/* The kernel's lockdown mode when one is in force ("integrity", "confidentiality"), else NULL. */
const char *iomap_lockdown(void);

#endif
