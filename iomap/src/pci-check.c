/* pci-check.c: the checks before a BAR is mapped (why a mapping cannot be made here) and that a device still decodes */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <pci/pci.h>

#include "backends.h"
#include "iomap/pci.h"

void iomap_pci_resource_path(const struct iomap_pci_dev *dev, int bar, enum iomap_pci_map kind, char *path,
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
		iomap_pci_resource_path(dev, bar, kind, path, sizeof(path));
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
