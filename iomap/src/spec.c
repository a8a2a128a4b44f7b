/* spec.c: the target spec parser (ram, trap, pci, port), with one-line errors */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iomap/target.h"

#define RAM_DEFAULT_SIZE (64u * 1024)

/* Every error reads: target 'SPEC': what is wrong (what to try). */
static int fail(const struct iomap_spec *spec, char *why, size_t whylen, const char *fmt, ...)
{
	int n = snprintf(why, whylen, "target '%s': ", spec->text);
	va_list ap;

	if (n >= 0 && (size_t)n < whylen) {
		va_start(ap, fmt);
		vsnprintf(why + n, whylen - n, fmt, ap);
		va_end(ap);
	}
	errno = EINVAL;
	return -1;
}

/* A whole-string unsigned number: decimal or 0x hex, with k/m/g (binary) if units. */
static int parse_number(const char *s, int base, int units, uint64_t *out)
{
	char *end;
	unsigned long long v;
	unsigned int shift = 0;

	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno || end == s)
		return -1;
	if (units && *end) {
		switch (*end++) {
		case 'k': case 'K': shift = 10; break;
		case 'm': case 'M': shift = 20; break;
		case 'g': case 'G': shift = 30; break;
		default: return -1;
		}
	}
	if (*end || (shift && v > (~0ULL >> shift)))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}

/* args follows the kind's ':' or ','; only a ':' can be followed by the size. */
static int parse_ram(struct iomap_spec *spec, char *args, char *why, size_t whylen)
{
	char *opt, *save = NULL;

	spec->size = RAM_DEFAULT_SIZE;
	if (!args)
		return 0;
	for (opt = strtok_r(args, ",", &save); opt; opt = strtok_r(NULL, ",", &save)) {
		uint64_t v;

		if (!strcmp(opt, "huge")) {
			spec->huge = true;
		} else if (opt == args && spec->text[strcspn(spec->text, ":,")] == ':') {
			/* args[-1] cannot tell: the caller has cut the kind off at that ':' */
			if (parse_number(opt, 0, 1, &v) || v == 0 || v > (1ULL << 40))
				return fail(spec, why, whylen,
					    "bad size '%s' (a size from 1 byte to 1t, e.g. ram:64k or ram:2m)", opt);
			spec->size = v;
		} else {
			return fail(spec, why, whylen,
				    "unknown option '%s' (ram takes a size and huge: ram:2m,huge)", opt);
		}
	}
	return 0;
}

static int parse_trap(struct iomap_spec *spec, char *args, char *why, size_t whylen)
{
	const char *m = args && *args ? args : "default";

	if (strlen(m) >= sizeof(spec->model) || strspn(m, "abcdefghijklmnopqrstuvwxyz0123456789-_") != strlen(m))
		return fail(spec, why, whylen, "bad model name '%s' (letters, digits, - and _, e.g. trap:default)", m);
	strcpy(spec->model, m);
	return 0;
}

/* [[domain:]bus:]dev.fn in hex, as lspci -s takes it. */
static int parse_slot(struct iomap_spec *spec, char *sel)
{
	uint64_t domain = 0, bus = 0, dev, fn;
	char *devfn = strrchr(sel, ':'), *dot;

	if (devfn) {
		char *colon;

		*devfn++ = '\0';
		colon = strchr(sel, ':');
		if (colon) {
			*colon = '\0';
			if (parse_number(sel, 16, 0, &domain))
				return -1;
			sel = colon + 1;
		}
		if (parse_number(sel, 16, 0, &bus))
			return -1;
	} else {
		devfn = sel;
	}
	dot = strchr(devfn, '.');
	if (!dot)
		return -1;
	*dot = '\0';
	if (parse_number(devfn, 16, 0, &dev) || parse_number(dot + 1, 16, 0, &fn))
		return -1;
	if (domain > 0xffff || bus > 0xff || dev > 0x1f || fn > 7)
		return -1;
	spec->domain = (int)domain;
	spec->bus = (int)bus;
	spec->dev = (int)dev;
	spec->fn = (int)fn;
	return 0;
}

static int parse_pci(struct iomap_spec *spec, char *args, char *why, size_t whylen)
{
	char *slash, *opts, *opt, *save = NULL;
	uint64_t v;

	if (!args || !*args)
		return fail(spec, why, whylen,
			    "no device (pci:SLOT/BAR or pci:VENDOR:DEVICE/BAR, e.g. pci:00:04.0/0)");
	opts = strchr(args, ',');
	if (opts)
		*opts++ = '\0';
	slash = strchr(args, '/');
	if (!slash)
		return fail(spec, why, whylen, "no BAR given (add /N, e.g. pci:%s/0)", args);
	*slash = '\0';
	if (parse_number(slash + 1, 10, 0, &v) || v > 5)
		return fail(spec, why, whylen, "bad BAR '%s' (a BAR index 0 to 5)", slash + 1);
	spec->bar = (int)v;

	if (strchr(args, '.')) {
		if (parse_slot(spec, args))
			return fail(spec, why, whylen,
				    "bad slot '%s' ([[domain:]bus:]dev.fn in hex, as lspci -s takes it)", args);
	} else {
		char *colon = strchr(args, ':');
		uint64_t ven, dev;

		if (!colon || (*colon = '\0', parse_number(args, 16, 0, &ven)) ||
		    parse_number(colon + 1, 16, 0, &dev) || ven > 0xffff || dev > 0xffff)
			return fail(spec, why, whylen,
				    "bad device '%s' (a slot like 00:04.0 or ids like 1234:11e8, as lspci prints them)",
				    args);
		spec->by_id = true;
		spec->vendor = (unsigned int)ven;
		spec->device = (unsigned int)dev;
	}

	for (opt = opts ? strtok_r(opts, ",", &save) : NULL; opt; opt = strtok_r(NULL, ",", &save)) {
		if (!strcmp(opt, "wc")) {
			spec->wc = true;
		} else if (!strncmp(opt, "off=", 4)) {
			if (parse_number(opt + 4, 0, 1, &spec->off))
				return fail(spec, why, whylen, "bad offset '%s' (off=N, e.g. off=0x100)", opt + 4);
			spec->has_off = true;
		} else if (!strncmp(opt, "len=", 4)) {
			if (parse_number(opt + 4, 0, 1, &spec->len) || !spec->len)
				return fail(spec, why, whylen, "bad length '%s' (len=N, N > 0, e.g. len=4k)", opt + 4);
			spec->has_len = true;
		} else {
			return fail(spec, why, whylen, "unknown option '%s' (pci takes wc, off=N and len=N)", opt);
		}
	}
	return 0;
}

static int parse_port(struct iomap_spec *spec, char *args, char *why, size_t whylen)
{
	char *plus;
	uint64_t base, len = 1;

	if (!args || !*args)
		return fail(spec, why, whylen, "no port given (port:BASE[+LEN], e.g. port:0xc000+256)");
	plus = strchr(args, '+');
	if (plus)
		*plus++ = '\0';
	if (parse_number(args, 0, 0, &base) || base > 0xffff)
		return fail(spec, why, whylen,
			    "bad port base '%s' (0 to 0xffff, hex with 0x, e.g. port:0xc000+256)", args);
	if (plus && (parse_number(plus, 0, 0, &len) || len == 0 || base + len > 0x10000))
		return fail(spec, why, whylen,
			    "bad port count '%s' (1 or more, and BASE+LEN at most 0x10000)", plus);
	spec->port_base = (unsigned int)base;
	spec->port_len = (unsigned int)len;
	return 0;
}

static const struct {
	const char *kind;
	int (*parse)(struct iomap_spec *spec, char *args, char *why, size_t whylen);
} parsers[] = {
	{ "ram", parse_ram }, { "trap", parse_trap }, { "pci", parse_pci }, { "port", parse_port },
};

int iomap_spec_parse(const char *text, struct iomap_spec *spec, char *why, size_t whylen)
{
	char buf[sizeof(spec->text)], *args;
	size_t kindlen;

	memset(spec, 0, sizeof(*spec));
	if (strlen(text) >= sizeof(spec->text)) {
		snprintf(why, whylen, "target spec too long (at most %zu characters)", sizeof(spec->text) - 1);
		errno = EINVAL;
		return -1;
	}
	strcpy(spec->text, text);
	strcpy(buf, text);
	kindlen = strcspn(buf, ":,");
	args = buf[kindlen] ? buf + kindlen + 1 : NULL;
	buf[kindlen] = '\0';

	for (size_t i = 0; i < iomap_nr_target_kinds; i++) {
		if (strcmp(buf, iomap_target_kinds[i]->name))
			continue;
		spec->ops = iomap_target_kinds[i];
		for (size_t j = 0; j < sizeof(parsers) / sizeof(parsers[0]); j++)
			if (!strcmp(buf, parsers[j].kind))
				return parsers[j].parse(spec, args, why, whylen);
	}
	return fail(spec, why, whylen, "unknown target kind '%s' (regbench --list-targets shows the kinds)",
		    buf);
}
