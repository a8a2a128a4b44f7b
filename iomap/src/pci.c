/* pci.c: PCI discovery through libpci's sysfs method, the checks before a BAR is mapped, and pci_iomap */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <pci/pci.h>

#include "backends.h"
#include "iomap/io.h"
#include "iomap/pci.h"

#define SYSFS_DEVICES "/sys/bus/pci/devices"

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

/* Every device, sorted by slot, into a malloc'd array; -1 with why. */
static int scan(struct iomap_pci_dev **out, size_t *count, char *why, size_t whylen)
{
	struct pci_access *volatile acc = NULL;
	struct iomap_pci_dev *volatile devs = NULL;
	volatile size_t n = 0;
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
	for (struct pci_dev *pd = acc->devices; pd; pd = pd->next)
		n++;
	devs = calloc(n ? n : 1, sizeof(*devs));
	if (devs) {
		size_t i = 0;

		for (struct pci_dev *pd = acc->devices; pd; pd = pd->next)
			fill(&devs[i++], acc, pd);
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

	if (scan(&devs, &n, why, whylen))
		return -1;
	for (size_t i = 0; i < n && !fn(&devs[i], arg); i++)
		;
	free(devs);
	return 0;
}

/* The first device (in slot order) for which match() holds, copied to the heap; NULL with why. */
static struct iomap_pci_dev *get(int (*match)(const struct iomap_pci_dev *d, const unsigned int *key),
				 const unsigned int *key, unsigned int flags, char *why, size_t whylen)
{
	struct iomap_pci_dev *devs, *found = NULL;
	size_t n;

	if (scan(&devs, &n, why, whylen))
		return NULL;
	for (size_t i = 0; i < n && !found; i++) {
		if (!match(&devs[i], key))
			continue;
		found = malloc(sizeof(*found));
		if (found) {
			*found = devs[i];
			found->flags = flags;
		}
	}
	free(devs);
	if (!found)
		errno = ENODEV;
	return found;
}

static int match_slot(const struct iomap_pci_dev *d, const unsigned int *key)
{
	char slot[16];

	snprintf(slot, sizeof(slot), "%04x:%02x:%02x.%u", key[0], key[1], key[2], key[3]);
	return !strcmp(d->slot, slot);
}

static int match_ids(const struct iomap_pci_dev *d, const unsigned int *key)
{
	return d->vendor == key[0] && d->device == key[1];
}

struct iomap_pci_dev *iomap_pci_get_slot(int domain, int bus, int dev, int fn, unsigned int flags,
					 char *why, size_t whylen)
{
	const unsigned int key[] = { (unsigned int)domain, (unsigned int)bus, (unsigned int)dev, (unsigned int)fn };
	struct iomap_pci_dev *d = get(match_slot, key, flags, why, whylen);

	if (!d && errno == ENODEV)
		snprintf(why, whylen, "no PCI device at %04x:%02x:%02x.%d (lspci lists the devices)",
			 domain, bus, dev, fn);
	return d;
}

struct iomap_pci_dev *iomap_pci_get_device(unsigned int vendor, unsigned int device, unsigned int flags,
					   char *why, size_t whylen)
{
	const unsigned int key[] = { vendor, device };
	struct iomap_pci_dev *d = get(match_ids, key, flags, why, whylen);

	if (!d && errno == ENODEV)
		snprintf(why, whylen, "no PCI device %04x:%04x (lspci -nn lists the devices with their ids)", vendor, device);
	return d;
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

static void resource_path(const struct iomap_pci_dev *dev, int bar, enum iomap_pci_map kind, char *path,
			  size_t len)
{
	snprintf(path, len, SYSFS_DEVICES "/%s/resource%d%s", dev->slot, bar, kind == IOMAP_PCI_WC ? "_wc" : "");
}

/* Appends one reason to buf, "; "-separated. */
static void reason(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used && used + 2 < len) {
		strcpy(buf + used, "; ");
		used += 2;
	}
	if (used >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

const char *iomap_pci_why_not(const struct iomap_pci_dev *dev, int bar, enum iomap_pci_map kind,
			      char *buf, size_t len)
{
	const struct iomap_pci_bar *b = bar >= 0 && bar < 6 ? &dev->bar[bar] : NULL;
	bool port = kind == IOMAP_PCI_PORT;
	const char *mode = iomap_lockdown();
	char path[96], pio[160];

	buf[0] = '\0';
	if (!b || !b->present) {
		reason(buf, len, "the device has no BAR %d", bar);
		return buf;
	}
	if (port != b->io) {
		reason(buf, len, b->io ? "an I/O BAR (ports, not memory)" : "a memory BAR (no ports)");
		return buf;
	}
	if (kind == IOMAP_PCI_WC && !b->prefetch) {
		reason(buf, len, "not prefetchable (the kernel offers no resource%d_wc)", bar);
		return buf;
	}
	if (port) {
		if (iomap_port_usable(pio, sizeof(pio)))
			reason(buf, len, "%s", pio);
	} else {
		resource_path(dev, bar, kind, path, sizeof(path));
		if (access(path, F_OK))
			reason(buf, len, "no such file: %s", path);
		if (geteuid() != 0)
			reason(buf, len, "not root (the resource files are root's)");
		if (mode)
			reason(buf, len, "kernel lockdown (%s) forbids mapping BARs", mode);
	}
	if (!(dev->command & (port ? PCI_COMMAND_IO : PCI_COMMAND_MEMORY)))
		reason(buf, len, "%s decoding disabled (enable the device: echo 1 > %s/%s/enable)",
		       port ? "I/O" : "memory", SYSFS_DEVICES, dev->slot);
	if (dev->driver[0] && !(dev->flags & IOMAP_PCI_FORCE))
		reason(buf, len, "bound to driver %s (unbind it first)", dev->driver);
	return buf[0] ? buf : NULL;
}

static struct iomap_pci_mapping *free_slot(struct iomap_pci_dev *dev)
{
	for (size_t i = 0; i < sizeof(dev->maps) / sizeof(dev->maps[0]); i++)
		if (!dev->maps[i].cookie)
			return &dev->maps[i];
	return NULL;
}

void __iomem *iomap_pci_map(struct iomap_pci_dev *dev, int bar, enum iomap_pci_map kind, uint64_t off,
			    uint64_t len, bool writable, char *why, size_t whylen)
{
	struct iomap_pci_mapping *m = free_slot(dev);
	const struct iomap_pci_bar *b;
	char path[96];
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), first;
	void *p;
	int fd;

	if (iomap_pci_why_not(dev, bar, kind, why, whylen)) {
		struct iomap_pci_dev forced = *dev;
		char ignored[8];

		/* EBUSY when only the bound driver stands in the way, which IOMAP_PCI_FORCE overrides */
		forced.flags |= IOMAP_PCI_FORCE;
		errno = iomap_pci_why_not(&forced, bar, kind, ignored, sizeof(ignored)) ? EPERM : EBUSY;
		return NULL;
	}
	b = &dev->bar[bar];
	if (!len || off >= b->size || len > b->size - off) {
		snprintf(why, whylen, "0x%llx+%llu does not fit BAR %d (%llu bytes)", (unsigned long long)off,
			 (unsigned long long)len, bar, (unsigned long long)b->size);
		errno = ERANGE;
		return NULL;
	}
	if (!m) {
		snprintf(why, whylen, "too many mappings of %s at once (unmap some)", dev->slot);
		errno = ENOMEM;
		return NULL;
	}
	if (kind == IOMAP_PCI_PORT) {
		if (iomap_port_request((unsigned int)(b->start + off), (unsigned int)len, why, whylen))
			return NULL;
		m->port = (unsigned int)(b->start + off);
		m->nports = (unsigned int)len;
		m->cookie = ioport_map(m->port, m->nports);
		return m->cookie;
	}
	resource_path(dev, bar, kind, path, sizeof(path));
	fd = open(path, writable ? O_RDWR : O_RDONLY);
	if (fd < 0) {
		snprintf(why, whylen, "cannot open %s: %s", path, strerror(errno));
		return NULL;
	}
	/* mmap takes whole pages; the kernel accepts a BAR smaller than a page as one page. */
	first = off / page * page;
	m->maplen = (size_t)((off + len - first + page - 1) / page * page);
	p = mmap(NULL, m->maplen, PROT_READ | (writable ? PROT_WRITE : 0), MAP_SHARED, fd, (off_t)first);
	close(fd);
	if (p == MAP_FAILED) {
		snprintf(why, whylen, "cannot map %s: %s", path, strerror(errno));
		return NULL;
	}
	m->map = p;
	m->cookie = (void __iomem __force *)((char *)p + (off - first));
	return m->cookie;
}

void iomap_pci_unmap(struct iomap_pci_dev *dev, void __iomem *cookie)
{
	for (size_t i = 0; i < sizeof(dev->maps) / sizeof(dev->maps[0]); i++) {
		struct iomap_pci_mapping *m = &dev->maps[i];

		if (!cookie || m->cookie != cookie)
			continue;
		if (m->map)
			munmap(m->map, m->maplen);
		else
			iomap_port_release(m->port, m->nports);
		memset(m, 0, sizeof(*m));
		return;
	}
}

static void __iomem *iomap_bar(struct iomap_pci_dev *dev, int bar, unsigned long maxlen, bool wc)
{
	uint64_t size = bar >= 0 && bar < 6 ? dev->bar[bar].size : 0;
	enum iomap_pci_map kind = size && dev->bar[bar].io ? IOMAP_PCI_PORT : wc ? IOMAP_PCI_WC : IOMAP_PCI_UC;

	return iomap_pci_map(dev, bar, kind, 0, maxlen && maxlen < size ? maxlen : size, true,
			     dev->error, sizeof(dev->error));
}

void __iomem *pci_iomap(struct iomap_pci_dev *dev, int bar, unsigned long maxlen)
{
	return iomap_bar(dev, bar, maxlen, false);
}

void __iomem *pci_iomap_wc(struct iomap_pci_dev *dev, int bar, unsigned long maxlen)
{
	return iomap_bar(dev, bar, maxlen, true);
}

void __iomem *pci_iomap_range(struct iomap_pci_dev *dev, int bar, unsigned long offset, unsigned long maxlen)
{
	uint64_t size = bar >= 0 && bar < 6 ? dev->bar[bar].size : 0, len = offset < size ? size - offset : 0;
	enum iomap_pci_map kind = size && dev->bar[bar].io ? IOMAP_PCI_PORT : IOMAP_PCI_UC;

	return iomap_pci_map(dev, bar, kind, offset, maxlen && maxlen < len ? maxlen : len, true, dev->error,
			     sizeof(dev->error));
}

void pci_iounmap(struct iomap_pci_dev *dev, void __iomem *addr)
{
	iomap_pci_unmap(dev, addr);
}
