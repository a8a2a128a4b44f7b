/* pci.h: PCI devices found with libpci (sysfs only), their BARs, and pci_iomap() cookies for them */
#ifndef IOMAP_PCI_H
#define IOMAP_PCI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "iomap/compiler.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How a BAR is reached: sysfs resourceN (uncached), resourceN_wc (write-combining), or ports. */
enum iomap_pci_map { IOMAP_PCI_UC, IOMAP_PCI_WC, IOMAP_PCI_PORT };

struct iomap_pci_bar {
	bool present;			/* the device decodes something here */
	bool io;			/* an I/O BAR (ports), else memory */
	bool mem64, prefetch;		/* memory BARs only */
	uint64_t start, size;		/* bus address or first port; bytes or ports */
};

/* A device as libpci found it; everything is read once, when it is looked up. */
struct iomap_pci_dev {
	char slot[16];			/* "0000:00:02.0" */
	unsigned int vendor, device, class_id;
	char name[128];			/* vendor and device names from pci.ids */
	char driver[64];		/* the bound kernel driver, or "" */
	uint16_t command;		/* the command register: decoding enables */
	struct iomap_pci_bar bar[6];
	unsigned int matches;		/* how many devices the selector matched: this is the first in slot order */
	unsigned int flags;		/* IOMAP_PCI_FORCE */
	char error[200];		/* why the last pci_iomap failed */
	struct iomap_pci_mapping {
		void __iomem *cookie;	/* what the caller got */
		void *map;		/* the mmap'd pages, or NULL for ports */
		size_t maplen;
		unsigned int port, nports;
		int fd;			/* without port I/O (arm64): the resource file an I/O BAR is read through */
	} maps[12];
};

#define IOMAP_PCI_FORCE 1u	/* map BARs even though a kernel driver is bound to the device */

/*
 * A device selector exactly as lspci takes them, parsed and matched by
 * libpci's filters: a slot as `lspci -s` ([[[domain]:]bus]:][dev][.[fn]])
 * or ids as `lspci -d` ([vendor]:[device][:class[:prog_if]]), hex, where an
 * empty field or * matches anything and a class may end in x digits
 * (::0cxx).  Written `s=SLOT` or `d=IDS`; without the prefix a selector is
 * ids when it has no '.' and its vendor or device is four hex digits (as
 * lspci -n prints them: 1234:11e8, 1af4:, :1110), else a slot (00:04.0,
 * 00:04, *:01.0).  Fields are -1 where they match anything.  A selector
 * with every field empty ("", ":", "s=") is refused: * asks for any device.
 */
struct iomap_pci_selector {
	bool by_id;			/* lspci -d, else lspci -s */
	int domain, bus, dev, fn;
	int vendor, device;
	int class_id;			/* class and subclass (0x0200) */
	unsigned int class_mask;	/* the bits of class_id that count */
	int prog_if;
};

/* text into *s: 0, or -1 with errno EINVAL and a one-line reason in why. */
int iomap_pci_selector_parse(struct iomap_pci_selector *s, const char *text, char *why, size_t whylen);
/* The canonical form, s=DDDD:BB:DD.F or d=VVVV:DDDD[:CCCC[:PP]], with * for any field. */
void iomap_pci_selector_format(const struct iomap_pci_selector *s, char *out, size_t outlen);

/*
 * The first device in slot order the selector matches (dev->matches says
 * how many did), or NULL with errno and a one-line reason in why.  libpci is
 * forced to its sysfs method: it never falls back to raw port I/O.
 */
struct iomap_pci_dev *iomap_pci_get(const struct iomap_pci_selector *s, unsigned int flags, char *why,
				    size_t whylen);
/* The same by slot (as lspci -s 0000:00:04.0) or by ids (as lspci -d 1234:11e8). */
struct iomap_pci_dev *iomap_pci_get_slot(int domain, int bus, int dev, int fn, unsigned int flags,
					 char *why, size_t whylen);
struct iomap_pci_dev *iomap_pci_get_device(unsigned int vendor, unsigned int device, unsigned int flags,
					   char *why, size_t whylen);
/* Unmaps whatever is still mapped and frees the device. */
void iomap_pci_put(struct iomap_pci_dev *dev);

/* Calls fn for every device in slot order until it returns non-zero; 0, or -1 with why. */
int iomap_pci_each(int (*fn)(struct iomap_pci_dev *dev, void *arg), void *arg, char *why, size_t whylen);

/* Why BAR bar cannot be reached as kind here (every reason, "; "-joined) into buf, or NULL when it can. */
const char *iomap_pci_why_not(const struct iomap_pci_dev *dev, int bar, enum iomap_pci_map kind,
			      char *buf, size_t len);

/*
 * Map bytes (or ports) [off, off+len) of a BAR after the checks of
 * iomap_pci_why_not: an MMIO pointer, or an ioport_map() cookie for an I/O
 * BAR.  Read-only pages unless writable.  NULL with errno and why.
 */
void __iomem *iomap_pci_map(struct iomap_pci_dev *dev, int bar, enum iomap_pci_map kind, uint64_t off,
			    uint64_t len, bool writable, char *why, size_t whylen);
void iomap_pci_unmap(struct iomap_pci_dev *dev, void __iomem *cookie);

/*
 * The kernel's calls: a cookie for the first maxlen bytes of a BAR (0: all
 * of it), uncached (pci_iomap) or write-combining (pci_iomap_wc), or a port
 * cookie for an I/O BAR, so that ioread32() and friends work on either.
 * NULL on failure, with the reason in dev->error.
 */
void __iomem *pci_iomap(struct iomap_pci_dev *dev, int bar, unsigned long maxlen);
void __iomem *pci_iomap_wc(struct iomap_pci_dev *dev, int bar, unsigned long maxlen);
/* The same from offset bytes into the BAR (uncached), at most maxlen of them; NULL when offset is past its end. */
void __iomem *pci_iomap_range(struct iomap_pci_dev *dev, int bar, unsigned long offset, unsigned long maxlen);
void pci_iounmap(struct iomap_pci_dev *dev, void __iomem *addr);

#ifdef __cplusplus
}
#endif

#endif
