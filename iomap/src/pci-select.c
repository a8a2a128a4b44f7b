/* pci-select.c: lspci's selectors (-s, -d) read and written, and the BAR spec SELECTOR/BAR,off=,len=,widths= the kinds share */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <pci/pci.h>

#include "backends.h"
#include "iomap/pci.h"

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
