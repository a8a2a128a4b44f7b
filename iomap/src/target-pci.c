/* target-pci.c: a PCI BAR as a target: sysfs resourceN (UC), resourceN_wc (WC), or its ports */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends.h"
#include "iomap/io.h"
#include "iomap/pci.h"

/* pci:SELECTOR/BAR, then wc and the shared options: the device, the BAR, and the window inside it. */
struct pci_config {
	struct iomap_bar_spec bar;
	bool wc;			/* map resourceN_wc */
};

static int pci_parse(void *config, const char *args, char *why, size_t whylen)
{
	struct pci_config *c = config;

	return iomap_bar_spec_parse(&c->bar, "pci", "wc", &c->wc, "", args, why, whylen);
}

static void pci_format(const void *config, char *out, size_t outlen)
{
	const struct pci_config *c = config;

	iomap_bar_spec_format(&c->bar, "pci", c->wc ? "wc" : NULL, out, outlen);
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

/*
 * How an I/O BAR is reached: x86's ports through ioperm and in/out; without
 * I/O instructions (arm64) the sysfs resource file's pread/pwrite, in which
 * the kernel makes the access (pci.c), as a region target.
 */
#ifdef IOMAP_HAVE_PORT_IO
#define IO_BAR_SPACE IOMAP_SPACE_PIO
#else
#define IO_BAR_SPACE IOMAP_SPACE_REGION
#endif

/* One mapping of a BAR: "uc resource0: yes" or "wc resource0_wc: no (why)". */
static void describe_mapping(FILE *out, const struct iomap_pci_dev *d, int bar, enum iomap_pci_map kind)
{
	static const char *const name[] = { [IOMAP_PCI_UC] = "uc", [IOMAP_PCI_WC] = "wc", [IOMAP_PCI_PORT] = "port" };
	char why[400], file[24];
	const char *no = iomap_pci_why_not(d, bar, kind, why, sizeof(why));

	if (kind == IOMAP_PCI_PORT && IO_BAR_SPACE == IOMAP_SPACE_PIO)
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
		fprintf(out, "        BAR%d %s, %s at 0x%llx\n", i, iomap_pci_bar_kind(b),
			iomap_human_size(b->size, size, sizeof(size)), (unsigned long long)b->start);
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

static int pci_open(struct iomap_target *t, const void *config, char *why, size_t whylen)
{
	const struct pci_config *s = config;
	const struct iomap_bar_spec *c = &s->bar;
	struct iomap_pci_dev *d = iomap_pci_get(&c->sel, t->permit.force ? IOMAP_PCI_FORCE : 0, why, whylen);
	const struct iomap_pci_bar *b;
	enum iomap_pci_map kind;
	uint64_t len;
	char size[32], chosen[120];

	if (!d)
		return -1;
	if (iomap_bar_spec_window(c, d, &len, why, whylen))
		goto fail;
	b = &d->bar[c->bar];
	errno = EINVAL;
	if (s->wc && (b->io || !b->prefetch)) {
		snprintf(why, whylen, "BAR %d of %s is %s: write-combining needs a prefetchable memory BAR (drop ,wc)",
			 c->bar, d->slot, b->io ? "an I/O BAR" : "not prefetchable");
		goto fail;
	}
	kind = b->io ? IOMAP_PCI_PORT : s->wc ? IOMAP_PCI_WC : IOMAP_PCI_UC;
	t->base = iomap_pci_map(d, c->bar, kind, c->off, len, t->permit.write_len != 0, why, whylen);
	if (!t->base)
		goto fail;

	iomap_bar_spec_target(c, d, len, t);
	t->space = b->io ? IO_BAR_SPACE : IOMAP_SPACE_MMIO;
	t->mapping = b->io ? IOMAP_MAP_PORT : s->wc ? IOMAP_MAP_WC : IOMAP_MAP_UC;
	t->priv = d;
	iomap_pci_chosen(c, d, chosen, sizeof(chosen));
	if (b->io && IO_BAR_SPACE == IOMAP_SPACE_PIO)
		snprintf(t->what, sizeof(t->what), "%s%s BAR%d: I/O, ports 0x%llx-0x%llx through ioperm (%.60s)",
			 d->slot, chosen, c->bar, (unsigned long long)(b->start + c->off),
			 (unsigned long long)(b->start + c->off + len - 1), d->name);
	else if (b->io)
		snprintf(t->what, sizeof(t->what), "%s%s BAR%d: I/O, ports 0x%llx-0x%llx through resource%d's "
			 "pread/pwrite, the kernel making each access (%.60s)", d->slot, chosen, c->bar,
			 (unsigned long long)(b->start + c->off), (unsigned long long)(b->start + c->off + len - 1),
			 c->bar, d->name);
	else
		snprintf(t->what, sizeof(t->what), "%s%s BAR%d: %s, %s, resource%d%s (%s), bytes 0x%llx-0x%llx (%.60s)",
			 d->slot, chosen, c->bar, iomap_pci_bar_kind(b), iomap_human_size(b->size, size, sizeof(size)),
			 c->bar, s->wc ? "_wc" : "", s->wc ? "write-combining" : "uncached", (unsigned long long)c->off,
			 (unsigned long long)(c->off + len - 1), d->name);
	return 0;
fail:
	iomap_pci_put(d);
	return -1;
}

static void pci_close(struct iomap_target *t)
{
	iomap_pci_put(t->priv);
	t->priv = NULL;
}

/* The device behind an open target still decodes the BAR's space. */
static int pci_decoding(const struct iomap_target *t, char *why, size_t whylen)
{
	const struct iomap_pci_dev *d = t->priv;

	return iomap_pci_decoding(d->slot, d->bar[t->bar].io, why, whylen);
}

const struct iomap_target_kind iomap_target_pci = {
	.name = "pci",
	.grammar = "pci:[s=]SLOT/BAR | pci:[d=]VENDOR:DEVICE[:CLASS]/BAR, then [,wc][,off=N][,len=N][,widths=W]",
	.help = "a PCI BAR through sysfs resourceN (UC) or resourceN_wc (WC); I/O BARs through ioperm (x86-64) or "
		"resourceN's read/write (arm64)",
	.config_size = sizeof(struct pci_config),
	.parse = pci_parse,
	.format = pci_format,
	.probe = pci_probe,
	.open = pci_open,
	.close = pci_close,
	.decoding = pci_decoding,
	.describe = pci_describe,
};
