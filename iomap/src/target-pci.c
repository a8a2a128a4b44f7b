/* target-pci.c: a PCI BAR as a target: sysfs resourceN (UC), resourceN_wc (WC), or its ports; the BAR spec the vfio target shares */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends.h"
#include "iomap/io.h"
#include "iomap/pci.h"

const char *iomap_human_size(uint64_t n, char *buf, size_t len)
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

const char *iomap_pci_bar_kind(const struct iomap_pci_bar *b)
{
	if (b->io)
		return "I/O";
	if (b->mem64)
		return b->prefetch ? "MMIO 64-bit prefetchable" : "MMIO 64-bit non-prefetchable";
	return b->prefetch ? "MMIO 32-bit prefetchable" : "MMIO 32-bit non-prefetchable";
}

/* The SELECTOR/BAR of args; *rest is left at the options. */
static int parse_device(struct iomap_bar_spec *c, const char *kind, const char *args, const char **rest,
			char *why, size_t whylen)
{
	char sel[128], *slash;
	uint64_t v;

	*rest = args[0] == ':' ? args + 1 : NULL;
	if (!iomap_next_option(rest, sel, sizeof(sel)) || !sel[0])
		return iomap_fail(why, whylen, EINVAL, "no device (%s:SLOT/BAR or %s:VENDOR:DEVICE/BAR as lspci -s and "
				  "-d take them, e.g. %s:00:04.0/0)", kind, kind, kind);
	slash = strchr(sel, '/');
	if (!slash)
		return iomap_fail(why, whylen, EINVAL, "no BAR given (add /N, e.g. %s:%s/0)", kind, sel);
	*slash = '\0';
	if (iomap_parse_number(slash + 1, 10, 0, &v) || v > 5)
		return iomap_fail(why, whylen, EINVAL, "bad BAR '%s' (a BAR index 0 to 5)", slash + 1);
	c->bar = (int)v;
	return iomap_pci_selector_parse(&c->sel, sel, why, whylen);
}

/* One of the shared options: 1 when it was one, 0 when it is not, -1 when it is bad (why). */
static int parse_option(struct iomap_bar_spec *c, const char *opt, char *why, size_t whylen)
{
	if (!strncmp(opt, "off=", 4)) {
		if (iomap_parse_number(opt + 4, 0, 1, &c->off))
			return iomap_fail(why, whylen, EINVAL, "bad offset '%s' (off=N, e.g. off=0x100)", opt + 4);
		c->has_off = true;
	} else if (!strncmp(opt, "len=", 4)) {
		if (iomap_parse_number(opt + 4, 0, 1, &c->len) || !c->len)
			return iomap_fail(why, whylen, EINVAL, "bad length '%s' (len=N, N > 0, e.g. len=4k)", opt + 4);
		c->has_len = true;
	} else if (!strncmp(opt, "widths=", 7)) {
		if (iomap_parse_widths(opt + 7, &c->widths))
			return iomap_fail(why, whylen, EINVAL, "bad widths '%s' (bits joined by +, "
					  "e.g. widths=32 or widths=8+16)", opt + 7);
	} else {
		return 0;
	}
	return 1;
}

int iomap_bar_spec_parse(struct iomap_bar_spec *c, const char *kind, const char *flag, bool *set, const char *aside,
			 const char *args, char *why, size_t whylen)
{
	const char *rest;
	char opt[128];
	int r;

	if (parse_device(c, kind, args, &rest, why, whylen))
		return -1;
	while (iomap_next_option(&rest, opt, sizeof(opt))) {
		if (!strcmp(opt, flag)) {
			*set = true;
			continue;
		}
		r = parse_option(c, opt, why, whylen);
		if (r < 0)
			return -1;
		if (!r)
			return iomap_fail(why, whylen, EINVAL, "unknown option '%s' (%s takes %s, off=N, len=N and widths=W%s)",
					  opt, kind, flag, aside);
	}
	return 0;
}

void iomap_bar_spec_format(const struct iomap_bar_spec *c, const char *kind, const char *flag, char *out,
			   size_t outlen)
{
	char sel[64];
	size_t n;

	iomap_pci_selector_format(&c->sel, sel, sizeof(sel));
	n = (size_t)snprintf(out, outlen, "%s:%s/%d", kind, sel, c->bar);
	if (n < outlen && flag)
		n += (size_t)snprintf(out + n, outlen - n, ",%s", flag);
	if (n < outlen && c->has_off)
		n += (size_t)snprintf(out + n, outlen - n, ",off=0x%llx", (unsigned long long)c->off);
	if (n < outlen && c->has_len)
		n += (size_t)snprintf(out + n, outlen - n, ",len=0x%llx", (unsigned long long)c->len);
	iomap_format_widths(c->widths, out, outlen);
}

int iomap_bar_spec_window(const struct iomap_bar_spec *c, const struct iomap_pci_dev *d, uint64_t *len,
			  char *why, size_t whylen)
{
	const struct iomap_pci_bar *b = &d->bar[c->bar];
	char size[32];

	if (!b->present)
		return iomap_fail(why, whylen, EINVAL, "%s has no BAR %d (lspci -v -s %s shows its BARs)", d->slot,
				  c->bar, d->slot);
	if (c->off >= b->size)
		return iomap_fail(why, whylen, EINVAL, "off=0x%llx lies beyond BAR %d (%s: off= below 0x%llx)",
				  (unsigned long long)c->off, c->bar, iomap_human_size(b->size, size, sizeof(size)),
				  (unsigned long long)b->size);
	*len = c->has_len ? c->len : b->size - c->off;
	if (*len > b->size - c->off)
		return iomap_fail(why, whylen, EINVAL, "off=0x%llx,len=0x%llx reaches past the end of BAR %d "
				  "(%s: off+len up to 0x%llx)", (unsigned long long)c->off, (unsigned long long)*len,
				  c->bar, iomap_human_size(b->size, size, sizeof(size)), (unsigned long long)b->size);
	if (b->io && c->widths && !(c->widths & ~IOMAP_WIDTH_64))
		return iomap_fail(why, whylen, EINVAL, "BAR %d of %s is an I/O BAR and x86 has no 64-bit port access: "
				  "widths= leaves none (give 8, 16 or 32)", c->bar, d->slot);
	return 0;
}

void iomap_bar_spec_target(const struct iomap_bar_spec *c, const struct iomap_pci_dev *d, uint64_t len,
			   struct iomap_target *t)
{
	bool io = d->bar[c->bar].io;

	t->len = (size_t)len;
	t->off = c->off;
	t->hardware = true;
	t->widths = (c->widths ? c->widths : IOMAP_WIDTHS_ALL) & (io ? ~IOMAP_WIDTH_64 : IOMAP_WIDTHS_ALL);
	t->bar = c->bar;
	snprintf(t->device, sizeof(t->device), "%04x:%04x %s", d->vendor, d->device, d->slot);
}

const char *iomap_pci_chosen(const struct iomap_bar_spec *c, const struct iomap_pci_dev *d, char *buf, size_t len)
{
	char sel[64];

	buf[0] = '\0';
	if (d->matches > 1) {
		iomap_pci_selector_format(&c->sel, sel, sizeof(sel));
		snprintf(buf, len, " (the first in slot order of %u devices matching %s)", d->matches, sel);
	}
	return buf;
}

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
