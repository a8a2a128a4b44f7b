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

/*
 * pci:SLOT/BAR or pci:VENDOR:DEVICE/BAR, then options: the device, the BAR,
 * and the window inside it.
 */
struct pci_config {
	bool by_id;			/* VENDOR:DEVICE rather than a slot */
	int domain, bus, dev, fn;
	unsigned int vendor, device;
	int bar;			/* 0..5 */
	bool wc;			/* map resourceN_wc */
	bool has_off, has_len;
	uint64_t off, len;
	unsigned int widths;		/* allowed access widths (IOMAP_WIDTH_*), 0: all */
};

/* [[domain:]bus:]dev.fn in hex, as lspci -s takes it. */
static int parse_slot(struct pci_config *c, char *sel)
{
	uint64_t domain = 0, bus = 0, dev, fn;
	char *devfn = strrchr(sel, ':'), *dot;

	if (devfn) {
		char *colon;

		*devfn++ = '\0';
		colon = strchr(sel, ':');
		if (colon) {
			*colon = '\0';
			if (iomap_parse_number(sel, 16, 0, &domain))
				return -1;
			sel = colon + 1;
		}
		if (iomap_parse_number(sel, 16, 0, &bus))
			return -1;
	} else {
		devfn = sel;
	}
	dot = strchr(devfn, '.');
	if (!dot)
		return -1;
	*dot = '\0';
	if (iomap_parse_number(devfn, 16, 0, &dev) || iomap_parse_number(dot + 1, 16, 0, &fn))
		return -1;
	if (domain > 0xffff || bus > 0xff || dev > 0x1f || fn > 7)
		return -1;
	c->domain = (int)domain;
	c->bus = (int)bus;
	c->dev = (int)dev;
	c->fn = (int)fn;
	return 0;
}

static int pci_parse(void *config, const char *args, char *why, size_t whylen)
{
	struct pci_config *c = config;
	const char *rest = args[0] == ':' ? args + 1 : NULL;
	char sel[128], buf[128], opt[128], *slash;
	uint64_t v;

	if (!iomap_next_option(&rest, sel, sizeof(sel)) || !sel[0])
		return iomap_fail(why, whylen, EINVAL,
				  "no device (pci:SLOT/BAR or pci:VENDOR:DEVICE/BAR, e.g. pci:00:04.0/0)");
	slash = strchr(sel, '/');
	if (!slash)
		return iomap_fail(why, whylen, EINVAL, "no BAR given (add /N, e.g. pci:%s/0)", sel);
	*slash = '\0';
	if (iomap_parse_number(slash + 1, 10, 0, &v) || v > 5)
		return iomap_fail(why, whylen, EINVAL, "bad BAR '%s' (a BAR index 0 to 5)", slash + 1);
	c->bar = (int)v;
	snprintf(buf, sizeof(buf), "%s", sel);
	if (strchr(sel, '.')) {
		if (parse_slot(c, buf))
			return iomap_fail(why, whylen, EINVAL,
					  "bad slot '%s' ([[domain:]bus:]dev.fn in hex, as lspci -s takes it)", sel);
	} else {
		char *colon = strchr(buf, ':');
		uint64_t ven, dev;

		if (!colon || (*colon = '\0', iomap_parse_number(buf, 16, 0, &ven)) ||
		    iomap_parse_number(colon + 1, 16, 0, &dev) || ven > 0xffff || dev > 0xffff)
			return iomap_fail(why, whylen, EINVAL, "bad device '%s' (a slot like 00:04.0 or ids like "
					  "1234:11e8, as lspci prints them)", sel);
		c->by_id = true;
		c->vendor = (unsigned int)ven;
		c->device = (unsigned int)dev;
	}
	while (iomap_next_option(&rest, opt, sizeof(opt))) {
		if (!strcmp(opt, "wc")) {
			c->wc = true;
		} else if (!strncmp(opt, "off=", 4)) {
			if (iomap_parse_number(opt + 4, 0, 1, &c->off))
				return iomap_fail(why, whylen, EINVAL, "bad offset '%s' (off=N, e.g. off=0x100)", opt + 4);
			c->has_off = true;
		} else if (!strncmp(opt, "len=", 4)) {
			if (iomap_parse_number(opt + 4, 0, 1, &c->len) || !c->len)
				return iomap_fail(why, whylen, EINVAL, "bad length '%s' (len=N, N > 0, e.g. len=4k)",
						  opt + 4);
			c->has_len = true;
		} else if (!strncmp(opt, "widths=", 7)) {
			if (iomap_parse_widths(opt + 7, &c->widths))
				return iomap_fail(why, whylen, EINVAL, "bad widths '%s' (bits joined by +, "
						  "e.g. widths=32 or widths=8+16)", opt + 7);
		} else {
			return iomap_fail(why, whylen, EINVAL,
					  "unknown option '%s' (pci takes wc, off=N, len=N and widths=W)", opt);
		}
	}
	return 0;
}

static void pci_format(const void *config, char *out, size_t outlen)
{
	const struct pci_config *c = config;
	size_t n;

	if (c->by_id)
		n = (size_t)snprintf(out, outlen, "pci:%04x:%04x/%d", c->vendor, c->device, c->bar);
	else
		n = (size_t)snprintf(out, outlen, "pci:%04x:%02x:%02x.%d/%d", c->domain, c->bus, c->dev, c->fn, c->bar);
	if (n < outlen)
		n += (size_t)snprintf(out + n, outlen - n, "%s", c->wc ? ",wc" : "");
	if (n < outlen && c->has_off)
		n += (size_t)snprintf(out + n, outlen - n, ",off=0x%llx", (unsigned long long)c->off);
	if (n < outlen && c->has_len)
		n += (size_t)snprintf(out + n, outlen - n, ",len=0x%llx", (unsigned long long)c->len);
	iomap_format_widths(c->widths, out, outlen);
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

static int pci_open(struct iomap_target *t, const void *config, char *why, size_t whylen)
{
	const struct pci_config *s = config;
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
	errno = EINVAL;
	if (!b->present) {
		snprintf(why, whylen, "%s has no BAR %d (lspci -v -s %s shows its BARs)", d->slot, s->bar, d->slot);
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
	if (b->io && s->widths && !(s->widths & ~IOMAP_WIDTH_64)) {
		snprintf(why, whylen, "BAR %d of %s is an I/O BAR and x86 has no 64-bit port access: widths= leaves "
			 "none (give 8, 16 or 32)", s->bar, d->slot);
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
	t->widths = (s->widths ? s->widths : IOMAP_WIDTHS_ALL) & (b->io ? ~IOMAP_WIDTH_64 : IOMAP_WIDTHS_ALL);
	t->bar = s->bar;
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
	return -1;
}

static void pci_close(struct iomap_target *t)
{
	iomap_pci_put(t->priv);
	t->priv = NULL;
}

const struct iomap_target_kind iomap_target_pci = {
	.name = "pci",
	.grammar = "pci:SLOT/BAR[,wc][,off=N][,len=N][,widths=W] | pci:VENDOR:DEVICE/BAR[,...]",
	.help = "a PCI BAR through sysfs resourceN (UC) or resourceN_wc (WC); I/O BARs through ioperm",
	.config_size = sizeof(struct pci_config),
	.parse = pci_parse,
	.format = pci_format,
	.probe = pci_probe,
	.open = pci_open,
	.close = pci_close,
	.describe = pci_describe,
};
