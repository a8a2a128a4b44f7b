/* target-pci.c: a PCI BAR as a target: sysfs resourceN (UC), resourceN_wc (WC), or its ports */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends.h"
#include "iomap/io.h"
#include "iomap/pci.h"

/* 1 MiB, 4 KiB, 256 bytes: sizes as people read them. */
static const char *human(uint64_t n, char *buf, size_t len)
{
	static const char *const unit[] = { "bytes", "KiB", "MiB", "GiB", "TiB" };
	int u = 0;

	while (u < 4 && n >= 1024 && n % 1024 == 0) {
		n /= 1024;
		u++;
	}
	snprintf(buf, len, "%llu %s", (unsigned long long)n, unit[u]);
	return buf;
}

static const char *bar_kind(const struct iomap_pci_bar *b)
{
	if (b->io)
		return "I/O";
	if (b->mem64)
		return b->prefetch ? "MMIO 64-bit prefetchable" : "MMIO 64-bit non-prefetchable";
	return b->prefetch ? "MMIO 32-bit prefetchable" : "MMIO 32-bit non-prefetchable";
}

static int stop(struct iomap_pci_dev *d, void *arg)
{
	(void)d;
	(void)arg;
	return 1;
}

/* The kind works when libpci can list devices through sysfs; each BAR's own limits are in describe. */
static int pci_probe(char *why, size_t whylen)
{
	return iomap_pci_each(stop, NULL, why, whylen);
}

/* One mapping of a BAR: "uc resource0: yes" or "wc resource0_wc: no (why)". */
static void describe_mapping(FILE *out, const struct iomap_pci_dev *d, int bar, enum iomap_pci_map kind)
{
	static const char *const name[] = { [IOMAP_PCI_UC] = "uc", [IOMAP_PCI_WC] = "wc", [IOMAP_PCI_PORT] = "port" };
	char why[400], file[24];
	const char *no = iomap_pci_why_not(d, bar, kind, why, sizeof(why));

	if (kind == IOMAP_PCI_PORT)
		snprintf(file, sizeof(file), "ioperm");
	else
		snprintf(file, sizeof(file), "resource%d%s", bar, kind == IOMAP_PCI_WC ? "_wc" : "");
	if (no)
		fprintf(out, "          %-4s %-13s no: %s\n", name[kind], file, no);
	else
		fprintf(out, "          %-4s %-13s yes\n", name[kind], file);
}

static int describe_device(struct iomap_pci_dev *d, void *arg)
{
	FILE *out = arg;
	char size[32];

	fprintf(out, "      %s %04x:%04x [%04x] %s (driver: %s)\n", d->slot, d->vendor, d->device, d->class_id,
		d->name, d->driver[0] ? d->driver : "none");
	for (int i = 0; i < 6; i++) {
		const struct iomap_pci_bar *b = &d->bar[i];

		if (!b->present)
			continue;
		fprintf(out, "        BAR%d %s, %s at 0x%llx\n", i, bar_kind(b), human(b->size, size, sizeof(size)),
			(unsigned long long)b->start);
		if (b->io) {
			describe_mapping(out, d, i, IOMAP_PCI_PORT);
		} else {
			describe_mapping(out, d, i, IOMAP_PCI_UC);
			describe_mapping(out, d, i, IOMAP_PCI_WC);
		}
	}
	return 0;
}

/* lspci's view: every device with its BARs, and for each mapping whether it can be made here. */
static void pci_describe(FILE *out)
{
	char why[200];

	if (iomap_pci_each(describe_device, out, why, sizeof(why)))
		fprintf(out, "      cannot list PCI devices: %s\n", why);
}

static int pci_open(struct iomap_target *t, char *why, size_t whylen)
{
	const struct iomap_spec *s = &t->spec;
	unsigned int flags = t->permit.force ? IOMAP_PCI_FORCE : 0;
	struct iomap_pci_dev *d = s->by_id ? iomap_pci_get_device(s->vendor, s->device, flags, why, whylen)
					   : iomap_pci_get_slot(s->domain, s->bus, s->dev, s->fn, flags, why, whylen);
	const struct iomap_pci_bar *b;
	enum iomap_pci_map kind;
	uint64_t len;
	char size[32];

	if (!d)
		return -1;
	b = &d->bar[s->bar];
	if (!b->present) {
		snprintf(why, whylen, "%s has no BAR %d (regbench --list-targets shows its BARs)", d->slot, s->bar);
		goto fail;
	}
	if (s->wc && (b->io || !b->prefetch)) {
		snprintf(why, whylen, "BAR %d of %s is %s: write-combining needs a prefetchable memory BAR (drop ,wc)",
			 s->bar, d->slot, b->io ? "an I/O BAR" : "not prefetchable");
		goto fail;
	}
	if (s->off >= b->size) {
		snprintf(why, whylen, "off=0x%llx lies beyond BAR %d (%s: off= below 0x%llx)",
			 (unsigned long long)s->off, s->bar, human(b->size, size, sizeof(size)),
			 (unsigned long long)b->size);
		goto fail;
	}
	len = s->has_len ? s->len : b->size - s->off;
	if (len > b->size - s->off) {
		snprintf(why, whylen, "off=0x%llx,len=0x%llx reaches past the end of BAR %d (%s: off+len up to 0x%llx)",
			 (unsigned long long)s->off, (unsigned long long)len, s->bar,
			 human(b->size, size, sizeof(size)), (unsigned long long)b->size);
		goto fail;
	}
	kind = b->io ? IOMAP_PCI_PORT : s->wc ? IOMAP_PCI_WC : IOMAP_PCI_UC;
	t->base = iomap_pci_map(d, s->bar, kind, s->off, len, t->permit.write_len != 0, why, whylen);
	if (!t->base)
		goto fail;

	t->len = (size_t)len;
	t->off = s->off;
	t->space = b->io ? IOMAP_SPACE_PIO : IOMAP_SPACE_MMIO;
	t->mapping = b->io ? IOMAP_MAP_PORT : s->wc ? IOMAP_MAP_WC : IOMAP_MAP_UC;
	t->hardware = true;
	t->widths = (s->widths ? s->widths : IOMAP_WIDTHS_ALL) & (b->io ? IOMAP_WIDTHS_ALL & ~IOMAP_WIDTH_64
									 : IOMAP_WIDTHS_ALL);
	t->priv = d;
	snprintf(t->device, sizeof(t->device), "%04x:%04x %s", d->vendor, d->device, d->slot);
	if (b->io)
		snprintf(t->what, sizeof(t->what), "%s BAR%d: I/O, ports 0x%llx-0x%llx through ioperm (%.60s)",
			 d->slot, s->bar, (unsigned long long)(b->start + s->off),
			 (unsigned long long)(b->start + s->off + len - 1), d->name);
	else
		snprintf(t->what, sizeof(t->what), "%s BAR%d: %s, %s, resource%d%s (%s), bytes 0x%llx-0x%llx (%.60s)",
			 d->slot, s->bar, bar_kind(b), human(b->size, size, sizeof(size)), s->bar,
			 s->wc ? "_wc" : "", s->wc ? "write-combining" : "uncached", (unsigned long long)s->off,
			 (unsigned long long)(s->off + len - 1), d->name);
	return 0;
fail:
	iomap_pci_put(d);
	errno = errno ? errno : EINVAL;
	return -1;
}

static void pci_close(struct iomap_target *t)
{
	iomap_pci_put(t->priv);
	t->priv = NULL;
}

const struct iomap_target_ops iomap_target_pci = {
	.name = "pci",
	.grammar = "pci:SLOT/BAR[,wc][,off=N][,len=N][,widths=W] | pci:VENDOR:DEVICE/BAR[,...]",
	.help = "a PCI BAR through sysfs resourceN (UC) or resourceN_wc (WC); I/O BARs through ioperm",
	.probe = pci_probe,
	.open = pci_open,
	.close = pci_close,
	.describe = pci_describe,
};
