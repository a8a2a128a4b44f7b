/* pci-discover.c: PCI discovery through libpci's sysfs method: every device, or those a selector matches, copied out of libpci */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pci/pci.h>

#include "backends.h"
#include "iomap/pci.h"

/*
 * libpci reports a fatal error through a callback that must not return; it
 * would otherwise exit the process.  Every libpci call here runs inside
 * scan(), which arms `fatal`, so the callback jumps back there and the
 * failure becomes an ordinary error return.
 */
static jmp_buf *fatal;
static char fatal_msg[160];

static void __attribute__((noreturn)) on_error(char *msg, ...)
{
	va_list ap;

	va_start(ap, msg);
	vsnprintf(fatal_msg, sizeof(fatal_msg), msg, ap);
	va_end(ap);
	if (fatal)
		longjmp(*fatal, 1);
	fprintf(stderr, "iomap: libpci: %s\n", fatal_msg);
	abort();
}

/* Warnings and debug output stay quiet: every problem that matters is checked and reported here. */
static void on_quiet(char *msg, ...)
{
	(void)msg;
}

/* Everything used later is copied out of libpci's structures, so none outlives scan(). */
static void fill(struct iomap_pci_dev *d, struct pci_access *acc, struct pci_dev *pd)
{
	int known = pci_fill_info(pd, PCI_FILL_IDENT | PCI_FILL_CLASS | PCI_FILL_BASES | PCI_FILL_SIZES |
				  PCI_FILL_IO_FLAGS | PCI_FILL_DRIVER);
	const char *driver = pci_get_string_property(pd, PCI_FILL_DRIVER);

	memset(d, 0, sizeof(*d));
	snprintf(d->slot, sizeof(d->slot), "%04x:%02x:%02x.%d", pd->domain, pd->bus, pd->dev, pd->func);
	d->vendor = pd->vendor_id;
	d->device = pd->device_id;
	d->class_id = pd->device_class;
	pci_lookup_name(acc, d->name, sizeof(d->name), PCI_LOOKUP_VENDOR | PCI_LOOKUP_DEVICE | PCI_LOOKUP_NO_HWDB,
			pd->vendor_id, pd->device_id);
	snprintf(d->driver, sizeof(d->driver), "%s", driver ? driver : "");
	d->command = pci_read_word(pd, PCI_COMMAND);
	for (int i = 0; i < 6; i++) {
		struct iomap_pci_bar *b = &d->bar[i];
		pciaddr_t flags = pd->flags[i];

		b->size = pd->size[i];
		b->present = b->size != 0;
		/* The kernel's resource flags when sysfs gave them, else the BAR's own low bits. */
		if (known & PCI_FILL_IO_FLAGS) {
			b->io = flags & PCI_IORESOURCE_IO;
			b->mem64 = flags & PCI_IORESOURCE_MEM_64;
			b->prefetch = flags & PCI_IORESOURCE_PREFETCH;
		} else {
			b->io = pd->base_addr[i] & PCI_BASE_ADDRESS_SPACE_IO;
			b->mem64 = !b->io && (pd->base_addr[i] & PCI_BASE_ADDRESS_MEM_TYPE_MASK) ==
						     PCI_BASE_ADDRESS_MEM_TYPE_64;
			b->prefetch = !b->io && (pd->base_addr[i] & PCI_BASE_ADDRESS_MEM_PREFETCH);
		}
		b->start = pd->base_addr[i] & (b->io ? PCI_ADDR_IO_MASK : PCI_ADDR_MEM_MASK);
	}
}

static int by_slot(const void *a, const void *b)
{
	return strcmp(((const struct iomap_pci_dev *)a)->slot, ((const struct iomap_pci_dev *)b)->slot);
}

/* The selector as libpci's filter, which matches it against libpci's own device records. */
static void to_filter(const struct iomap_pci_selector *s, struct pci_filter *f)
{
	pci_filter_init(NULL, f);
	f->domain = s->domain;
	f->bus = s->bus;
	f->slot = s->dev;
	f->func = s->fn;
	f->vendor = s->vendor;
	f->device = s->device;
	f->device_class = s->class_id;
	f->device_class_mask = s->class_mask;
	f->prog_if = s->prog_if;
}

/* Every device the selector matches (every device without one), sorted by slot, into a malloc'd array; -1 with why. */
static int scan(const struct iomap_pci_selector *sel, struct iomap_pci_dev **out, size_t *count, char *why,
		size_t whylen)
{
	struct pci_access *volatile acc = NULL;
	struct iomap_pci_dev *volatile devs = NULL;
	volatile size_t n = 0;
	struct pci_filter filter;
	jmp_buf env;

	if (access(SYSFS_DEVICES, R_OK)) {
		snprintf(why, whylen, "cannot read %s: %s (is sysfs mounted?)", SYSFS_DEVICES, strerror(errno));
		return -1;
	}
	if (setjmp(env)) {
		fatal = NULL;
		free(devs);
		snprintf(why, whylen, "libpci (sysfs method): %s", fatal_msg);
		errno = EIO;
		return -1;
	}
	fatal = &env;
	acc = pci_alloc();
	acc->method = PCI_ACCESS_SYS_BUS_PCI;
	acc->error = on_error;
	acc->warning = on_quiet;
	acc->debug = on_quiet;
	pci_init(acc);
	pci_scan_bus(acc);
	if (sel)
		to_filter(sel, &filter);
	for (struct pci_dev *pd = acc->devices; pd; pd = pd->next)
		n++;
	devs = calloc(n ? n : 1, sizeof(*devs));
	if (devs) {
		size_t i = 0;

		for (struct pci_dev *pd = acc->devices; pd; pd = pd->next)
			if (!sel || pci_filter_match(&filter, pd))
				fill(&devs[i++], acc, pd);
		n = i;
	}
	pci_cleanup(acc);
	fatal = NULL;
	if (!devs) {
		snprintf(why, whylen, "out of memory listing %zu PCI devices", (size_t)n);
		return -1;
	}
	qsort(devs, n, sizeof(*devs), by_slot);
	*out = devs;
	*count = n;
	return 0;
}

int iomap_pci_each(int (*fn)(struct iomap_pci_dev *dev, void *arg), void *arg, char *why, size_t whylen)
{
	struct iomap_pci_dev *devs;
	size_t n;

	if (scan(NULL, &devs, &n, why, whylen))
		return -1;
	for (size_t i = 0; i < n && !fn(&devs[i], arg); i++)
		;
	free(devs);
	return 0;
}

struct iomap_pci_dev *iomap_pci_get(const struct iomap_pci_selector *s, unsigned int flags, char *why,
				    size_t whylen)
{
	struct iomap_pci_dev *devs, *found;
	char text[64];
	size_t n;

	if (scan(s, &devs, &n, why, whylen))
		return NULL;
	if (!n) {
		free(devs);
		iomap_pci_selector_format(s, text, sizeof(text));
		iomap_fail(why, whylen, ENODEV, "no PCI device matches %s (%s)", text,
			   s->by_id ? "lspci -nn lists the devices with their ids" : "lspci -D lists the devices");
		return NULL;
	}
	found = malloc(sizeof(*found));
	if (found) {
		*found = devs[0];
		found->matches = (unsigned int)n;
		found->flags = flags;
	} else {
		iomap_fail(why, whylen, ENOMEM, "out of memory");
	}
	free(devs);
	return found;
}

/* A selector matching exactly one field set: everything else matches anything. */
static struct iomap_pci_selector any(bool by_id)
{
	return (struct iomap_pci_selector){ by_id, -1, -1, -1, -1, -1, -1, -1, ~0u, -1 };
}

struct iomap_pci_dev *iomap_pci_get_slot(int domain, int bus, int dev, int fn, unsigned int flags,
					 char *why, size_t whylen)
{
	struct iomap_pci_selector s = any(false);

	s.domain = domain;
	s.bus = bus;
	s.dev = dev;
	s.fn = fn;
	return iomap_pci_get(&s, flags, why, whylen);
}

struct iomap_pci_dev *iomap_pci_get_device(unsigned int vendor, unsigned int device, unsigned int flags,
					   char *why, size_t whylen)
{
	struct iomap_pci_selector s = any(true);

	s.vendor = (int)vendor;
	s.device = (int)device;
	return iomap_pci_get(&s, flags, why, whylen);
}

void iomap_pci_put(struct iomap_pci_dev *dev)
{
	if (!dev)
		return;
	for (size_t i = 0; i < sizeof(dev->maps) / sizeof(dev->maps[0]); i++)
		if (dev->maps[i].cookie)
			iomap_pci_unmap(dev, dev->maps[i].cookie);
	free(dev);
}

const char *iomap_pci_bar_kind(const struct iomap_pci_bar *b)
{
	if (b->io)
		return "I/O";
	if (b->mem64)
		return b->prefetch ? "MMIO 64-bit prefetchable" : "MMIO 64-bit non-prefetchable";
	return b->prefetch ? "MMIO 32-bit prefetchable" : "MMIO 32-bit non-prefetchable";
}
