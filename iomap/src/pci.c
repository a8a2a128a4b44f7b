/* pci.c: PCI discovery through libpci's sysfs method, the checks before a BAR is mapped, and pci_iomap */
#include <ctype.h>
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
#include "iomap/region.h"

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

/*
 * lspci -s and -d take their argument from the option; here one text holds
 * either, so bare ids must look like ids: no '.', and a vendor or device of
 * four hex digits beside a field that is one too, empty or *.  Everything
 * else bare is a slot, so 00:01 is bus 0, device 1 (never vendor 0, device 1).
 */
static bool looks_like_ids(const char *text)
{
	char field[2][8] = { "", "" };
	bool four[2], open_[2];
	size_t n;

	if (strchr(text, '.') || !strchr(text, ':'))
		return false;
	for (int i = 0; i < 2; i++) {
		n = strcspn(text, ":");
		if (n >= sizeof(field[i]))
			return false;
		memcpy(field[i], text, n);
		field[i][n] = '\0';
		four[i] = n == 4 && strspn(field[i], "0123456789abcdefABCDEF") == 4;
		open_[i] = n == 0 || !strcmp(field[i], "*");
		text += n + (text[n] == ':');
	}
	return (four[0] && (four[1] || open_[1])) || (open_[0] && four[1]);
}

int iomap_pci_selector_parse(struct iomap_pci_selector *s, const char *text, char *why, size_t whylen)
{
	struct pci_filter f;
	char buf[64];
	const char *body = text, *err;
	bool by_id;

	if (!strncmp(text, "s=", 2) || !strncmp(text, "d=", 2)) {
		by_id = text[0] == 'd';
		body = text + 2;
	} else {
		by_id = looks_like_ids(text);
	}
	if (strlen(body) >= sizeof(buf))
		return iomap_fail(why, whylen, EINVAL, "selector '%s' too long", text);
	/* every field left empty (an unset variable, say) would take the first device there is */
	if (!body[strspn(body, ":.")])
		return iomap_fail(why, whylen, EINVAL, "empty selector '%s' would take any device (give a slot or ids "
				  "as lspci -s and -d take them, e.g. 00:04.0 or 1234:11e8; * for any)", text);
	snprintf(buf, sizeof(buf), "%s", body);
	pci_filter_init(NULL, &f);
	err = by_id ? pci_filter_parse_id(&f, buf) : pci_filter_parse_slot(&f, buf);
	if (err) {
		/* libpci's messages start with a capital: "Invalid bus number" */
		char msg[64];

		snprintf(msg, sizeof(msg), "%s", err);
		msg[0] = (char)tolower((unsigned char)msg[0]);
		if (by_id)
			return iomap_fail(why, whylen, EINVAL, "bad ids '%s': %s (lspci -d takes [vendor]:[device]"
					  "[:class[:prog_if]] in hex, e.g. d=1234:11e8 or d=1af4:)", body, msg);
		return iomap_fail(why, whylen, EINVAL, "bad slot '%s': %s (lspci -s takes [[domain:]bus:]dev.fn in hex "
				  "with * for any field, e.g. s=00:04.0; ids are d=VENDOR:DEVICE)", body, msg);
	}
	s->by_id = by_id;
	s->domain = f.domain;
	s->bus = f.bus;
	s->dev = f.slot;
	s->fn = f.func;
	s->vendor = f.vendor;
	s->device = f.device;
	s->class_id = f.device_class;
	s->class_mask = f.device_class_mask;
	s->prog_if = f.prog_if;
	return 0;
}

/* One field: its hex digits, or * when it matches anything. */
static int field(char *out, size_t len, int v, int digits)
{
	return v < 0 ? snprintf(out, len, "*") : snprintf(out, len, "%0*x", digits, (unsigned int)v);
}

void iomap_pci_selector_format(const struct iomap_pci_selector *s, char *out, size_t outlen)
{
	char f[6][12];

	if (!s->by_id) {
		field(f[0], sizeof(f[0]), s->domain, 4);
		field(f[1], sizeof(f[1]), s->bus, 2);
		field(f[2], sizeof(f[2]), s->dev, 2);
		field(f[3], sizeof(f[3]), s->fn, 1);
		snprintf(out, outlen, "s=%s:%s:%s.%s", f[0], f[1], f[2], f[3]);
		return;
	}
	field(f[0], sizeof(f[0]), s->vendor, 4);
	field(f[1], sizeof(f[1]), s->device, 4);
	if (s->class_id < 0 && s->prog_if < 0) {
		snprintf(out, outlen, "d=%s:%s", f[0], f[1]);
		return;
	}
	/* the class's four digits, x where the mask leaves a digit out (::0cxx) */
	if (s->class_id < 0) {
		snprintf(f[2], sizeof(f[2]), "*");
	} else {
		for (int i = 0; i < 4; i++) {
			unsigned int shift = (unsigned int)(12 - 4 * i);

			f[2][i] = (s->class_mask >> shift & 0xf) ? "0123456789abcdef"[(unsigned int)s->class_id >> shift & 0xf]
								 : 'x';
		}
		f[2][4] = '\0';
	}
	if (s->prog_if < 0)
		snprintf(out, outlen, "d=%s:%s:%s", f[0], f[1], f[2]);
	else
		snprintf(out, outlen, "d=%s:%s:%s:%02x", f[0], f[1], f[2], (unsigned int)s->prog_if);
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
	char path[96];

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
#ifdef IOMAP_HAVE_PORT_IO
	if (port) {
		char pio[160];

		if (iomap_port_usable(pio, sizeof(pio)))
			reason(buf, len, "%s", pio);
	} else
#endif
	{
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

int iomap_pci_decoding(const char *slot, bool io, char *why, size_t whylen)
{
	char path[96];
	uint8_t cmd[2];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), SYSFS_DEVICES "/%s/config", slot);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return iomap_fail(why, whylen, ENODEV, "%s is gone from sysfs (%s)", slot, strerror(errno));
	n = pread(fd, cmd, sizeof(cmd), PCI_COMMAND);
	close(fd);
	if (n != (ssize_t)sizeof(cmd))
		return iomap_fail(why, whylen, EIO, "cannot read the command register of %s", slot);
	if (!((cmd[0] | cmd[1] << 8) & (io ? PCI_COMMAND_IO : PCI_COMMAND_MEMORY)))
		return iomap_fail(why, whylen, EIO, "%s decoding is off in the command register of %s (0x%04x)",
				  io ? "I/O" : "memory", slot, (unsigned int)(cmd[0] | cmd[1] << 8));
	return 0;
}

#ifndef IOMAP_HAVE_PORT_IO
/*
 * Without I/O instructions (arm64) an I/O BAR is reached through its sysfs
 * resource file: Linux v6.1's pci_read_resource_io/pci_write_resource_io
 * (drivers/pci/pci-sysfs.c) make one inb/inw/inl, at PCI_IOBASE on arm64,
 * for each pread/pwrite of 1, 2 or 4 aligned bytes.  The region's cookies
 * (iomap/region.h) make the BAR a window like any other.
 */
static void __iomem *port_region(const struct iomap_pci_dev *dev, int bar, struct iomap_pci_mapping *m, uint64_t off,
				 uint64_t len, bool writable, char *why, size_t whylen)
{
	char path[96];
	int fd;

	resource_path(dev, bar, IOMAP_PCI_PORT, path, sizeof(path));
	fd = open(path, (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, whylen, "cannot open %s: %s", path, strerror(errno));
		return NULL;
	}
	m->cookie = iomap_region_map(fd, off, (size_t)len, 0, writable ? len : 0, why, whylen);
	if (!m->cookie) {
		close(fd);
		return NULL;
	}
	m->fd = fd;
	return m->cookie;
}
#endif

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
#ifdef IOMAP_HAVE_PORT_IO
		if (iomap_port_request((unsigned int)(b->start + off), (unsigned int)len, why, whylen))
			return NULL;
		m->port = (unsigned int)(b->start + off);
		m->nports = (unsigned int)len;
		m->cookie = ioport_map(m->port, m->nports);
		return m->cookie;
#else
		return port_region(dev, bar, m, off, len, writable, why, whylen);
#endif
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
#ifdef IOMAP_HAVE_PORT_IO
		else
			iomap_port_release(m->port, m->nports);
#else
		else {
			iomap_region_unmap(m->cookie);
			close(m->fd);
		}
#endif
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
