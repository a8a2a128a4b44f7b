/* pci-map.c: a BAR mapped (sysfs resourceN, resourceN_wc, or its ports) and unmapped, and the kernel's pci_iomap over it */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "backends.h"
#include "iomap/io.h"
#include "iomap/pci.h"
#include "iomap/region.h"

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

	iomap_pci_resource_path(dev, bar, IOMAP_PCI_PORT, path, sizeof(path));
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
	iomap_pci_resource_path(dev, bar, kind, path, sizeof(path));
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
